/**
 * The search under load (issue 24, bench/README.md "The search under load"): the members search
 * and the swipe deck at the demo's size and with a pool of 20 brands and 1,000,000 members in
 * all, generated in the bench's own setup with bulk inserts (as bench/revenue.ts does). Each
 * statement of each shape is timed on its own (p95) and explained, with a cold shared list (the
 * statements that read it) and a warm one (what a member's search runs while the list is kept).
 * Used by bench/run.ts (`npm run bench -- search`); it never asserts.
 */
import type { Database, Db } from '../src/server/db/index.ts';
import type { Kysely } from 'kysely';
import { analyze } from '../src/server/db/migrate.ts';
import { createMemoryBus } from '../src/server/bus.ts';
import { createSearchService } from '../src/server/services/search.ts';
import { createSwipeService } from '../src/server/services/swipes.ts';
import { createListingCache, type ListingCache } from '../src/server/services/listing-cache.ts';
import { aloneScope } from '../src/server/services/pool.ts';
import type { Liker } from '../src/server/services/likes.ts';
import type { Tenant } from '../src/tenant/schema.ts';
import { percentiles } from './lib.ts';
import { Capture } from './queries.ts';

const BATCH = 1000;
const DAY = 86_400_000;
/** The pool's brands: the two real ones and eighteen more (rows only: the runtime serves spetter). */
export const POOL_BRANDS = ['spetter', 'velvet', ...Array.from({ length: 18 }, (_, i) => `pool${String(i + 3).padStart(2, '0')}`)];
const NL_REGIONS = ['Drenthe', 'Flevoland', 'Gelderland', 'Groningen', 'Limburg', 'Noord-Brabant', 'Noord-Holland', 'Overijssel', 'Utrecht', 'Zeeland', 'Zuid-Holland'];
const BE_REGIONS = ['Antwerpen', 'Limburg', 'Oost-Vlaanderen', 'West-Vlaanderen', 'Vlaams-Brabant'];

/**
 * `members` profiles spread evenly over the pool's brands, in batches of 1,000: both genders and
 * sexualities, 18 to 80 years, NL (80%) and BE with their regions, last seen within 30 days, 95%
 * listed. Profiles only (the search reads no users row of the people it lists).
 */
export async function seedPool(db: Kysely<Database>, members: number): Promise<void> {
  let state = 7919;
  const rand = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const now = Date.now();
  for (let i = 0; i < members; i += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, members - i) }, (_, k) => {
      const nl = rand() < 0.8;
      const listed = rand() < 0.95;
      const born = new Date(now - (18 + rand() * 62) * 365.25 * DAY).toISOString().slice(0, 10);
      const seen = new Date(now - rand() * 30 * DAY).toISOString();
      return {
        tenant_id: POOL_BRANDS[(i + k) % POOL_BRANDS.length]!,
        user_id: null,
        name: `Pool${i + k}`,
        gender: rand() < 0.5 ? ('female' as const) : ('male' as const),
        sexuality: rand() < 0.85 ? ('hetero' as const) : pick(['gay', 'bi'] as const),
        birth_date: born,
        country: nl ? 'NL' : 'BE',
        region: pick(nl ? NL_REGIONS : BE_REGIONS),
        city: null,
        status: listed ? ('active' as const) : ('disabled' as const),
        fictional: 0 as const,
        listed: (listed ? 1 : 0) as 0 | 1,
        last_seen_at: seen,
        created_at: seen,
        updated_at: seen,
      };
    });
    await db.insertInto('profiles').values(rows).execute();
  }
  await analyze(db);
}

/** A request shape of the search or the deck, run on a database handle with a listing cache. */
type Shape = [string, (db: Kysely<Database>, listings: ListingCache) => Promise<unknown>];

export interface StatementTiming {
  shape: string;
  /** The whole service call, ms: a cold list (read each time) and a warm one (kept). */
  cold: { p50: number; p95: number };
  warm: { p50: number; p95: number };
  /** Statements run with a cold list and with a warm one. */
  statementsCold: number;
  statementsWarm: number;
  /** Each statement of the cold run: what it reads, its p95 run alone (ms), and its plan. */
  statements: { what: string; p95: number; plan: string }[];
}

const runs = (n: number, f: () => Promise<unknown>) => (async () => {
  const spent: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f();
    spent.push(performance.now() - t0);
  }
  return percentiles(spent);
})();

/** The search's and the deck's shapes for one member, each statement timed and explained on the engine. */
export async function timeSearchStatements(handle: Db, tenant: Tenant, liker: Liker, times: number): Promise<StatementTiming[]> {
  const bus = createMemoryBus();
  const shapes: Shape[] = [
    ['members.php', (db, listings) => createSearchService({ db, listings, scopeOf: aloneScope }).members(tenant, liker.userId, { page: 1 }, null)],
    ['members.php?min_age=30&max_age=40', (db, listings) => createSearchService({ db, listings, scopeOf: aloneScope }).members(tenant, liker.userId, { page: 1, min_age: 30, max_age: 40 }, null)],
    ['members.php?country=NL&region=Utrecht', (db, listings) => createSearchService({ db, listings, scopeOf: aloneScope }).members(tenant, liker.userId, { page: 1, country: 'NL', region: 'Utrecht' }, null)],
    ['members.php?page=40', (db, listings) => createSearchService({ db, listings, scopeOf: aloneScope }).members(tenant, liker.userId, { page: 40 }, null)],
    ['swipe.php (the deck)', (db, listings) => createSwipeService({ db, bus, listings, scopeOf: aloneScope }).deck(tenant, liker)],
  ];
  const capture = new Capture();
  const captured = handle.db.withPlugin(capture);
  const out: StatementTiming[] = [];
  for (const [shape, run] of shapes) {
    const cold = await runs(times, () => run(handle.db, createListingCache({ db: handle.db })));
    const kept = createListingCache({ db: handle.db });
    const warm = await runs(times, () => run(handle.db, kept));
    capture.nodes = [];
    const listings = createListingCache({ db: captured });
    await run(captured, listings);
    const coldNodes = capture.nodes;
    capture.nodes = [];
    await run(captured, listings);
    const statementsWarm = capture.nodes.length;
    const statements: StatementTiming['statements'] = [];
    for (const node of coldNodes) {
      const compiled = handle.db.getExecutor().compileQuery(node, { queryId: 'bench' } as never);
      const alone = await runs(times, () => handle.db.executeQuery(compiled));
      statements.push({ what: summary(compiled.sql), p95: alone.p95, plan: await plan(handle, compiled.sql, compiled.parameters as unknown[]) });
    }
    out.push({ shape, cold, warm, statementsCold: coldNodes.length, statementsWarm, statements });
  }
  return out;
}

/** A statement in a few words: the table it reads first and its limit. */
function summary(text: string): string {
  const byId = /"profiles"\."id" in \(/.test(text);
  const from = byId ? 'profiles' : (/from "?(\w+)"?/i.exec(text)?.[1] ?? '?');
  const ids = byId ? ' by id' : '';
  const limit = /limit \S+/i.exec(text)?.[0] ?? '';
  return `${from}${ids}${limit ? ` ${limit}` : ''}`;
}

/** The plan in one line: SQLite's EXPLAIN QUERY PLAN details, PostgreSQL's EXPLAIN node lines. */
async function plan(handle: Db, text: string, parameters: unknown[]): Promise<string> {
  if (handle.engine === 'sqlite') {
    const rows = (await handle.db.executeQuery({ sql: `explain query plan ${text}`, parameters, query: undefined as never, queryId: undefined as never })).rows as { detail: string }[];
    return rows.map((r) => r.detail).join('; ');
  }
  const rows = (await handle.pool!.query(`explain ${text}`, parameters)).rows as { 'QUERY PLAN': string }[];
  return rows
    .map((r) => r['QUERY PLAN'].trim().replace(/^->\s*/, '').replace(/\s*\(cost=.*\)$/, ''))
    .filter((l) => /Scan|Join|Sort|Append|Aggregate|Limit|Result/.test(l) && !/^(Index Cond|Filter|Sort Key)/.test(l))
    .join('; ');
}
