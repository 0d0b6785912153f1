/**
 * The search under load (issue 24, bench/README.md "The search under load"): the members search
 * and the swipe deck at the demo's size and with a pool of 20 brands and 1,000,000 members in
 * all, generated in the bench's own setup with bulk inserts (as bench/revenue.ts does). Each
 * statement of each shape is timed on its own (p95) and explained, with a cold shared list (the
 * statements that read it) and a warm one (what a member's search runs while the list is kept).
 * Used by bench/run.ts (`npm run bench -- search`); it never asserts.
 */
import type { Database, Db } from '../src/server/db/index.ts';
import { sql, type Kysely } from 'kysely';
import { analyze } from '../src/server/db/migrate.ts';
import { createMemoryBus } from '../src/server/bus.ts';
import { createSearchService } from '../src/server/services/search.ts';
import { createSwipeService } from '../src/server/services/swipes.ts';
import { createListingCache, type ListingCache } from '../src/server/services/listing-cache.ts';
import { createOwnViews, type OwnViews } from '../src/server/services/own-views.ts';
import { aloneScope, poolScope, type ScopeOf } from '../src/server/services/pool.ts';
import { loadAllTenants } from '../src/tenant/load.ts';
import { TENANTS_DIR } from '../cli/paths.ts';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Liker } from '../src/server/services/likes.ts';
import type { Tenant } from '../src/tenant/schema.ts';
import { percentiles } from './lib.ts';
import { Capture } from './queries.ts';

const BATCH = 1000;
const DAY = 86_400_000;
/** Cards the member passes before the last deck shape: more than the shared list's first 120 the deck reads (swipes.ts DECK_LOOKS). */
const ANSWERED = 300;
/** The pool's brands: the demo's two of the pool `benelux` and eighteen more (tenant files of the bench's own: poolTenantsDir). */
export const POOL_BRANDS = ['spetter', 'rijpedates', ...Array.from({ length: 18 }, (_, i) => `pool${String(i + 3).padStart(2, '0')}`)];
/** The eighteen more brands' niches in turn (SPEC §2), each with its niche's default audience in the Benelux. */
const POOL_NICHES = [1, 2, 3, 4, 5, 6, 7] as const;
const NL_REGIONS = ['Drenthe', 'Flevoland', 'Gelderland', 'Groningen', 'Limburg', 'Noord-Brabant', 'Noord-Holland', 'Overijssel', 'Utrecht', 'Zeeland', 'Zuid-Holland'];
const BE_REGIONS = ['Antwerpen', 'Limburg', 'Oost-Vlaanderen', 'West-Vlaanderen', 'Vlaams-Brabant'];
const BODY_TYPES = ['slim', 'average', 'athletic', 'curvy', 'full'] as const;
const INTERESTS = ['travel', 'cooking', 'music', 'sports', 'bondage', 'sadomasochism', 'movies', 'nature'] as const;

/**
 * A copy of the shipped tenant files (and tenants/_defaults) with eighteen more brands in
 * spetter's pool `benelux`: rijpedates' file under another id and domain, its niche (and so its
 * default audience, within NL and BE) taken in turn from POOL_NICHES. The runtime serves them
 * (API only: they have no build); `remove()` deletes the copy.
 */
export function poolTenantsDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'sitegen-bench-pool-'));
  cpSync(TENANTS_DIR, dir, { recursive: true });
  const source = JSON.parse(readFileSync(join(TENANTS_DIR, 'rijpedates', 'tenant.json'), 'utf8')) as Record<string, unknown>;
  for (const [i, id] of POOL_BRANDS.slice(2).entries()) {
    mkdirSync(join(dir, id), { recursive: true });
    const tenant = { ...source, name: `Pool ${id}`, domains: [`${id}.example`], default: false, niche: POOL_NICHES[i % POOL_NICHES.length], audience: { countries: ['NL', 'BE'] }, network: { pool: 'benelux' } };
    writeFileSync(join(dir, id, 'tenant.json'), JSON.stringify(tenant, null, 2));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The scope of spetter in the pool of poolTenantsDir (as the runtime serving it works it out). */
export function poolScopeOf(dir: string): ScopeOf {
  const tenants = loadAllTenants(dir);
  return (tenant) => poolScope(tenants.find((t) => t.id === tenant.id)!, tenants);
}

/** The columns seedPool writes (and keepPool copies). */
const POOL_COLUMNS = ['tenant_id', 'user_id', 'name', 'gender', 'sexuality', 'birth_date', 'country', 'region', 'city', 'body_type', 'interests', 'status', 'fictional', 'listed', 'last_seen_at', 'created_at', 'updated_at'] as const;

/**
 * The million of seedPool on PostgreSQL, kept between runs in a schema of its own (`kept`,
 * BENCH_POOL_SCHEMA): copied from it when it holds them (a minute against ten of seeding),
 * seeded and then kept in it otherwise. SQLite keeps a copy of its file instead (BENCH_POOL_FILE).
 */
export async function seedPoolKept(db: Kysely<Database>, members: number, kept: string): Promise<void> {
  const columns = sql.join(POOL_COLUMNS.map((c) => sql.ref(c)));
  const table = sql.table(`${kept}.profiles`);
  const there = (await sql<{ t: string | null }>`select to_regclass(${`${kept}.profiles`})::text as t`.execute(db)).rows[0]?.t;
  const held = there ? Number((await sql<{ n: string }>`select count(*) as n from ${table}`.execute(db)).rows[0]!.n) : 0;
  if (held === members) {
    await sql`insert into profiles (${columns}) select ${columns} from ${table} order by id`.execute(db);
    await analyze(db);
    return;
  }
  const before = Number((await db.selectFrom('profiles').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id ?? 0);
  await seedPool(db, members);
  await sql`create schema if not exists ${sql.id(kept)}`.execute(db);
  await sql`drop table if exists ${table}`.execute(db);
  await sql`create table ${table} as select id, ${columns} from profiles where id > ${before}`.execute(db);
}

export async function seedPool(db: Kysely<Database>, members: number): Promise<void> {
  let state = 7919;
  const rand = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const now = Date.now();
  // One transaction: a commit per batch is most of the time on SQLite.
  await db.transaction().execute(async (trx) => {
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
        body_type: pick(BODY_TYPES),
        interests: JSON.stringify([pick(INTERESTS), pick(INTERESTS)]),
        status: listed ? ('active' as const) : ('disabled' as const),
        fictional: 0 as const,
        listed: (listed ? 1 : 0) as 0 | 1,
        last_seen_at: seen,
        created_at: seen,
        updated_at: seen,
      };
    });
    await trx.insertInto('profiles').values(rows).execute();
  }
  });
  await analyze(db);
}

/** A request shape of the search or the deck, run on a database handle with a listing cache. */
type Shape = [string, (db: Kysely<Database>, listings: ListingCache, views?: OwnViews) => Promise<unknown>];

export interface StatementTiming {
  shape: string;
  /** The whole service call, ms: a cold list (read each time) and a warm one (kept). */
  cold: { p50: number; p95: number };
  warm: { p50: number; p95: number };
  /** Statements run with a cold list and with a warm one. */
  statementsCold: number;
  statementsWarm: number;
  /** Each statement of the cold run: what it reads, its p50 and p95 run alone (ms), and its plan. */
  statements: { what: string; p50: number; p95: number; plan: string }[];
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
export async function timeSearchStatements(handle: Db, tenant: Tenant, liker: Liker, times: number, scopeOf: ScopeOf = aloneScope): Promise<StatementTiming[]> {
  const bus = createMemoryBus();
  const shapes: Shape[] = [
    ['members.php', (db, listings, views) => createSearchService({ db, listings, scopeOf, views }).members(tenant, liker.userId, { page: 1 }, null)],
    ['members.php?min_age=30&max_age=40', (db, listings, views) => createSearchService({ db, listings, scopeOf, views }).members(tenant, liker.userId, { page: 1, min_age: 30, max_age: 40 }, null)],
    ['members.php?country=NL&region=Utrecht', (db, listings, views) => createSearchService({ db, listings, scopeOf, views }).members(tenant, liker.userId, { page: 1, country: 'NL', region: 'Utrecht' }, null)],
    ['members.php?page=40', (db, listings, views) => createSearchService({ db, listings, scopeOf, views }).members(tenant, liker.userId, { page: 40 }, null)],
    ['swipe.php (the deck)', (db, listings) => createSwipeService({ db, bus, listings, scopeOf }).deck(tenant, liker)],
    [`swipe.php (the deck, ${ANSWERED} answered)`, (db, listings) => createSwipeService({ db, bus, listings, scopeOf }).deck(tenant, liker)],
  ];
  const capture = new Capture();
  const captured = capture.attach(handle.db);
  // A kept list keeps its page's cards as the runtime's does: it hears this process's writes (no
  // other process writes here); on SQLite also which rows, so each member's own view is kept (own-views.ts).
  const sqlite = handle.sqlite;
  const changes = { onWrite: handle.onWrite, epoch: () => 0, onRowWrite: sqlite ? sqlite.onRowWrite.bind(sqlite) : undefined };
  const out: StatementTiming[] = [];
  for (const [shape, run] of shapes) {
    // The deck's not-answered rule past the shared list's first cards: the member passes ANSWERED cards first.
    if (shape.includes('answered')) await answer(handle.db, tenant, liker, scopeOf);
    const cold = await runs(times, () => run(handle.db, createListingCache({ db: handle.db })));
    const kept = createListingCache({ db: handle.db, changes });
    const keptViews = createOwnViews({ db: handle.db, changes });
    const warm = await runs(times, () => run(handle.db, kept, keptViews));
    const listings = createListingCache({ db: captured, changes });
    const views = createOwnViews({ db: captured, changes });
    capture.reset();
    await run(captured, listings, views);
    const coldRuns = capture.nodes.map((_, i) => capture.compiled(handle.db, i));
    capture.reset();
    await run(captured, listings, views);
    const statementsWarm = capture.nodes.length;
    const statements: StatementTiming['statements'] = [];
    for (const compiled of coldRuns) {
      const alone = await runs(times, () => handle.db.executeQuery(compiled));
      statements.push({ what: summary(compiled.sql), p50: alone.p50, p95: alone.p95, plan: await plan(handle, compiled.sql, compiled.parameters as unknown[]) });
    }
    out.push({ shape, cold, warm, statementsCold: coldRuns.length, statementsWarm, statements });
  }
  return out;
}

/** The member passes ANSWERED cards of their decks, as the swipe game does (the service's own writes). */
async function answer(db: Kysely<Database>, tenant: Tenant, liker: Liker, scopeOf: ScopeOf): Promise<void> {
  const swipes = createSwipeService({ db, bus: createMemoryBus(), listings: createListingCache({ db }), scopeOf });
  for (let passed = 0; passed < ANSWERED; ) {
    const { profiles } = await swipes.deck(tenant, liker);
    if (profiles.length === 0) return;
    for (const card of profiles.slice(0, ANSWERED - passed)) await swipes.swipe(tenant, liker, card.id, 'pass');
    passed += profiles.length;
  }
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
