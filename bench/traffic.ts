/**
 * The traffic figures at scale (issue 23): source_daily and lander_daily filled as the runtime's counting fills them
 * for members, payments and visits spread over brands, days, landers, variants, niches and
 * traffic sources as traffic spreads (a few sources and landers bring most of it), then the
 * console's sources and experiments queries timed through the traffic service. Used by
 * bench/run.ts (`npm run bench -- traffic`).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDb, createSchemaIfMissing, type Db } from '../src/server/db/index.ts';
import { analyze, migrateToLatest } from '../src/server/db/migrate.ts';
import { createMemoryBus } from '../src/server/bus.ts';
import { createTrafficService } from '../src/server/services/traffic.ts';
import { FUNNEL_COUNTERS, type FunnelCounter } from '../src/server/db/schema.ts';
import { bump, type FunnelKey } from '../src/server/services/traffic.ts';
import type { Tenant } from '../src/tenant/schema.ts';
import type { Engine } from './lib.ts';

/** A random pick where the i-th of n is about 1/(i+1) as likely as the first (Zipf, s = 1). */
const harmonic = (n: number) => Array.from({ length: n }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0);
const totals = new Map<number, number>();
function zipf(n: number, random: () => number): number {
  const total = totals.get(n) ?? totals.set(n, harmonic(n)).get(n)!;
  let u = random() * total;
  for (let i = 0; i < n; i++) if ((u -= 1 / (i + 1)) <= 0) return i;
  return n - 1;
}

/** A seeded generator (mulberry32): the same data every run. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TrafficScale {
  brands: string[];
  /** Days per brand, ending today. */
  days: number;
  /** Signups per brand and 30 days; payments and visits in proportion. */
  membersPerMonth: number;
  paymentsPerMonth: number;
  visitsPerMember: number;
}

const LANDERS = ['slug', 'tinderswipe', 'alonetonight', 'video', 'gallery', 'maplanding', 'socialnetwork', 'iconslanding', 'collagelanding'];

/** The counted events of `scale`, one per key with its totals, as the counting would have added them up. */
export function funnelRows(scale: TrafficScale): (FunnelKey & Record<FunnelCounter, number>)[] {
  const random = seeded(23);
  const rows = new Map<string, FunnelKey & Record<FunnelCounter, number>>();
  const today = Date.now();
  const dayOf = Array.from({ length: scale.days }, (_, i) => new Date(today - i * 86_400_000).toISOString().slice(0, 10));
  const bump = (key: FunnelKey, add: Partial<Record<FunnelCounter, number>>) => {
    const id = `${key.tenant_id}|${key.day}|${key.lander}|${key.variant}|${key.niche}|${key.locale}|${key.network}|${key.ref}|${key.currency}`;
    let row = rows.get(id);
    if (!row) rows.set(id, (row = { ...key, ...(Object.fromEntries(FUNNEL_COUNTERS.map((c) => [c, 0])) as Record<FunnelCounter, number>) }));
    for (const [c, n] of Object.entries(add)) row[c as FunnelCounter] += n!;
  };
  for (const brand of scale.brands) {
    const members = Math.round((scale.membersPerMonth * scale.days) / 30);
    const payments = Math.round((scale.paymentsPerMonth * scale.days) / 30);
    const visitor = (dayOffset: number): FunnelKey => {
      const network = zipf(20, random);
      const lander = LANDERS[zipf(LANDERS.length, random)]!;
      // Two landers run an experiment of two variants.
      const variant = (lander === 'alonetonight' || lander === 'tinderswipe') && random() < 0.5 ? 'b' : 'control';
      return {
        tenant_id: brand,
        day: dayOf[dayOffset]!,
        lander,
        variant,
        niche: random() < 0.9 ? 1 : 1 + zipf(7, random),
        locale: random() < 0.8 ? 'nl' : 'en',
        network: network === 0 ? '' : `net${network}`,
        ref: network === 0 ? '' : `r${zipf(10, random)}`,
        currency: '',
      };
    };
    const keys: FunnelKey[] = [];
    for (let m = 0; m < members; m++) {
      const key = visitor(Math.floor(random() * scale.days));
      keys.push(key);
      bump(key, { signups: 1 });
      for (let v = 0; v < scale.visitsPerMember; v++) bump(v === 0 ? key : { ...key, day: dayOf[Math.floor(random() * scale.days)]! }, { visits: 1 });
      if (random() < 0.7) bump(key, { activations: 1 });
    }
    // Payments of members (60% their first), some given back later.
    for (let p = 0; p < payments; p++) {
      const key = { ...keys[Math.floor(random() * keys.length)]!, currency: random() < 0.85 ? 'EUR' : 'GBP' };
      const amount = [1499, 2999, 5999][zipf(3, random)]!;
      bump(key, { [random() < 0.6 ? 'first_purchases' : 'repeat_purchases']: 1, revenue: amount });
      if (random() < 0.03) bump(key, { refunds: 1, refunded: amount });
      if (random() < 0.008) bump(key, { chargebacks: 1, charged_back: amount });
    }
  }
  return [...rows.values()];
}

export interface TrafficTiming {
  /** Rows of source_daily and lander_daily. */
  rows: { sources: number; landers: number };
  seedSeconds: number;
  queries: { what: string; p50: number; max: number }[];
}

/** Fills a fresh database with `scale` and times the console's figures (5 runs each after a warm-up). */
export async function measureTraffic(engine: Engine, scale: TrafficScale): Promise<TrafficTiming> {
  const dir = mkdtempSync(join(tmpdir(), 'sitegen-bench-traffic-'));
  const schema = engine === 'postgres' ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  const admin = schema ? new pg.Client({ connectionString: process.env.DATABASE_URL }) : undefined;
  let handle: Db | undefined;
  try {
    if (admin) await admin.connect();
    handle = engine === 'postgres' ? createDb({ url: process.env.DATABASE_URL, schema }) : createDb({ file: join(dir, 'app.db') });
    await createSchemaIfMissing(handle.db, schema);
    await migrateToLatest(handle.db);
    const rows = funnelRows(scale);
    const t0 = performance.now();
    for (let i = 0; i < rows.length; i += 1000) await handle.db.transaction().execute((trx) => bump(trx, rows.slice(i, i + 1000), FUNNEL_COUNTERS));
    await analyze(handle.db);
    const seedSeconds = (performance.now() - t0) / 1000;
    const count = async (table: 'source_daily' | 'lander_daily') => Number((await handle!.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const tenants = scale.brands.map((id) => ({ id, timezone: 'Europe/Amsterdam' }) as Tenant);
    const traffic = createTrafficService({ db: handle.db, bus: createMemoryBus(), production: true, tenants: () => tenants });
    const everyone = { id: 0, email: 'bench@example.com', role: 'owner' as const, brands: null };
    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
    const [first] = scale.brands;
    const shapes: [string, () => Promise<unknown>][] = [
      [`sources, ${first}, 30 days`, () => traffic.sources(everyone, { brand: first, from: day(29), to: day(0), format: 'json' })],
      [`sources, all ${scale.brands.length} brands, ${scale.days} days`, () => traffic.sources(everyone, { from: day(scale.days - 1), to: day(0), format: 'json' })],
      [`experiments, ${first}, 30 days`, () => traffic.experiments(everyone, { brand: first!, from: day(29), to: day(0), format: 'json' })],
      [`experiments, ${first}, every day`, () => traffic.experiments(everyone, { brand: first!, format: 'json' })],
    ];
    const queries = [];
    for (const [what, run] of shapes) {
      await run();
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await run();
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      queries.push({ what, p50: times[2]!, max: times[4]! });
    }
    await traffic.close();
    return { rows: { sources: await count('source_daily'), landers: await count('lander_daily') }, seedSeconds, queries };
  } finally {
    await handle?.close();
    if (admin) {
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
