const which = process.argv[2];
const gc = (globalThis as any).gc as () => void;
const mem = () => { gc(); gc(); const m = process.memoryUsage(); return m; };
const fmt = (a: NodeJS.MemoryUsage, b: NodeJS.MemoryUsage) => `rss +${((b.rss-a.rss)/1048576).toFixed(1)} MiB, heapUsed +${((b.heapUsed-a.heapUsed)/1048576).toFixed(1)} MiB, external+arrayBuffers +${((b.external-a.external)/1048576).toFixed(1)} MiB`;
if (which === 'geoip') {
  const { countryOfIp } = await import('./src/server/data/geoip.ts');
  const m0 = mem();
  const t0 = performance.now(); const r = countryOfIp('194.109.6.66'); const t1 = performance.now();
  const t2 = performance.now(); countryOfIp('2001:610::1'); const t3 = performance.now();
  const m1 = mem();
  let t4 = performance.now(); for (let i = 0; i < 100000; i++) countryOfIp('82.94.1.1'); let t5 = performance.now();
  console.log(`geoip: first lookup ${(t1-t0).toFixed(1)} ms (${r}), next ${(t3-t2).toFixed(3)} ms, steady ${((t5-t4)/100000*1000).toFixed(2)} µs/lookup; ${fmt(m0, m1)}`);
} else {
  const { reverseGeocode } = await import('./src/server/data/geocode.ts');
  const m0 = mem();
  const t0 = performance.now(); const r = reverseGeocode(52.37, 4.89); const t1 = performance.now();
  const m1 = mem();
  let t4 = performance.now(); for (let i = 0; i < 10000; i++) reverseGeocode(40 + (i % 20), -5 + (i % 30)); let t5 = performance.now();
  const t6 = performance.now(); reverseGeocode(-25.5, 125); const t7 = performance.now();
  const m2 = mem();
  console.log(`geocode: first call ${(t1-t0).toFixed(1)} ms (${r?.city}), steady ${((t5-t4)/10000*1000).toFixed(1)} µs/call; world-cities index ${fmt(m0, m1)}; after a remote fallback (${(t7-t6).toFixed(1)} ms, loads offline-geocode-city) ${fmt(m0, m2)}`);
}
