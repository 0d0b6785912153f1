import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const gc = (globalThis as any).gc as () => void;
const { reverseGeocode } = await import('./src/server/data/geocode.ts');
reverseGeocode(52.37, 4.89);
gc(); gc(); const m0 = process.memoryUsage();
const pts: [number, number][] = [[-25.5,125],[-23,128],[-22,135],[67,-110],[62,-125],[55,100],[23,12],[-10,-60],[65,-45],[45,-35],[30,-40]];
for (const [a,b] of pts) { const t=performance.now(); const r = reverseGeocode(a,b); console.log(a,b,(performance.now()-t).toFixed(1)+'ms', JSON.stringify(r)); }
gc(); gc(); const m1 = process.memoryUsage();
console.log('ogc loaded:', Object.keys(require.cache).some(k => k.includes('offline-geocode-city')), 'rss +', ((m1.rss-m0.rss)/1048576).toFixed(1), 'heap +', ((m1.heapUsed-m0.heapUsed)/1048576).toFixed(1));
