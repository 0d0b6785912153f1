/**
 * The operator console at scale (bench section `console`, issue 22): at 100,000 members with
 * 10,000 photos waiting for screening and 10,000 conversations waiting in the fictional inbox,
 * the whole HTTP round trip of the members search, the photo queue and the inbox, requests one
 * after the other, with every statement of each explained on its engine (bench/queries.ts); the
 * console's JavaScript per page (bench/weight.ts); and, on PostgreSQL, a member's message on one
 * runtime until its event on a console stream open on another, beside raw NOTIFY to LISTEN.
 * Used by bench/run.ts; prints, never asserts.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import type { StaffView } from '../src/contract/console.ts';
import { createMemoryBus } from '../src/server/bus.ts';
import { createLimits } from '../src/server/limits.ts';
import { createConsoleService } from '../src/server/services/console.ts';
import { createInboxService } from '../src/server/services/inbox.ts';
import { createModerationService } from '../src/server/services/moderation.ts';
import { loadAllTenants } from '../src/tenant/load.ts';
import { TENANTS_DIR } from '../cli/paths.ts';
import { notifyLatency } from './delivery.ts';
import { consoleLogin, inboxArrival, seedWaiting, timeInboxPages } from './inbox.ts';
import { explain, openBenchDb, timeShapes, type Shape } from './queries.ts';
import { REPO, roundTrips, startRuntime, table, type Engine, type Runtime } from './lib.ts';
import { WEIGHT_HEAD, pageWeights, weightCells } from './weight.ts';
import { bulkPeople } from './bulk.ts';
import { analyze } from '../src/server/db/migrate.ts';

const BRAND = 'spetter';
/** Per brand: `sitegen db seed --members` seeds this many in each of the two brands. */
const MEMBERS = Number(process.env.BENCH_CONSOLE_MEMBERS ?? 50_000);
const WAITING = Number(process.env.BENCH_CONSOLE_WAITING ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 300);
/** BENCH_CONSOLE_STATEMENTS=1: only the statements, explained and timed in process (no HTTP, pages or arrival). */
const STATEMENTS_ONLY = process.env.BENCH_CONSOLE_STATEMENTS === '1';
/** Budgets of issue 22, ms at p95 (searches, queues) and p99 (arrival); KB of JS brotli per page. */
const SEARCH_P95 = 20;
const QUEUE_P95 = 50;
const ARRIVAL_P99 = 50;
const JS_KB = 200;

/** Times the bench's own setup, printed as it goes (its seconds belong beside the figures: the load of the machine). */
async function seeded(engine: Engine, work: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  await work();
  console.log(`  console ${engine}: ${(MEMBERS * 2).toLocaleString('en')} members in ${((performance.now() - t0) / 1000).toFixed(0)} s (bench/bulk.ts), load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
}

/** `waiting` photos of the brand's members waiting for screening, oldest first: straight to the database in batches. */
async function seedPhotoQueue(rt: Runtime, waiting: number): Promise<void> {
  const handle = openBenchDb(rt.engine, rt.database);
  try {
    const owners = await handle.db.selectFrom('profiles').select('id').where('tenant_id', '=', BRAND).where('user_id', 'is not', null).orderBy('id', 'desc').limit(waiting).execute();
    const start = Date.now() - waiting * 1000;
    for (let i = 0; i < owners.length; i += 500) {
      const rows = owners.slice(i, i + 500).map((o, j) => ({
        profile_id: o.id,
        filename: `bench-${i + j}.webp`,
        thumb_filename: `bench-${i + j}-thumb.webp`,
        status: 'pending' as const,
        position: 9,
        created_at: new Date(start + (i + j) * 1000).toISOString(),
      }));
      await handle.db.insertInto('photos').values(rows).execute();
    }
  } finally {
    await handle.close();
  }
}

/** A member of the brand to look for: an exact e-mail address, a prefix of it, and a name. */
async function someone(rt: Runtime): Promise<{ email: string; name: string }> {
  const handle = openBenchDb(rt.engine, rt.database);
  try {
    return await handle.db
      .selectFrom('users')
      .innerJoin('profiles', 'profiles.user_id', 'users.id')
      .select(['users.email', 'profiles.name'])
      .where('users.tenant_id', '=', BRAND)
      .orderBy('users.id')
      .offset(Math.floor(MEMBERS / 3))
      .limit(1)
      .executeTakeFirstOrThrow();
  } finally {
    await handle.close();
  }
}

interface Asked {
  what: string;
  path: string;
  budget: number;
}

/** The members search and the photo queue's requests, the photo queue's later page found by following `next`. */
async function consoleRequests(rt: Runtime, cookie: string, who: { email: string; name: string }): Promise<Asked[]> {
  const q = (term: string) => `/api/console/members?brand=${BRAND}&q=${encodeURIComponent(term)}`;
  const asked: Asked[] = [
    { what: 'members, exact e-mail', path: q(who.email), budget: SEARCH_P95 },
    { what: 'members, e-mail prefix', path: q(who.email.slice(0, who.email.indexOf('@') - 2)), budget: SEARCH_P95 },
    { what: 'members, name', path: q(who.name), budget: SEARCH_P95 },
    { what: 'members, all of the brand', path: `/api/console/members?brand=${BRAND}`, budget: SEARCH_P95 },
  ];
  const photos = `/api/console/photos?brand=${BRAND}&status=pending`;
  const first = await rt.get('console', photos, { cookie });
  if (first.status === 404) {
    console.log('  console: GET /api/console/photos is not on this branch yet; the photo queue is left out');
    return asked;
  }
  asked.push({ what: 'photos, first page', path: photos, budget: QUEUE_P95 });
  let next = first.json<{ next: number | null }>().next;
  for (let i = 0; i < 50 && next !== null; i++) {
    const later = (await rt.get('console', `${photos}&before=${next}`, { cookie })).json<{ next: number | null }>().next;
    if (later === null) break;
    next = later;
  }
  if (next !== null) asked.push({ what: 'photos, a page 50 pages in', path: `${photos}&before=${next}`, budget: QUEUE_P95 });
  return asked;
}

/** Every statement of the console's requests, run by its services on a capturing handle. */
function shapes(who: { email: string; name: string }): Shape[] {
  const owner: StaffView = { id: 1, email: 'bench@example.com', role: 'owner', brands: null };
  const tenants = loadAllTenants(TENANTS_DIR);
  const bus = createMemoryBus();
  const members = (db: Parameters<Shape[1]>[0], q?: string) => createConsoleService({ db, limits: createLimits(null), production: false }).members(owner, { q, brand: BRAND, page: 1 });
  const moderation = (db: Parameters<Shape[1]>[0]) => createModerationService({ db, bus, mailRejection: async () => undefined });
  return [
    ['members, exact e-mail', (db) => members(db, who.email)],
    ['members, e-mail prefix', (db) => members(db, who.email.slice(0, who.email.indexOf('@') - 2))],
    ['members, name', (db) => members(db, who.name)],
    ['members, all of the brand', (db) => members(db)],
    ['photos, first page', (db) => moderation(db).photoQueue({ brands: [BRAND], status: 'pending', limit: 50 })],
    // The photo queue's answer carries every brand's waiting counts (GET /api/console/photos), the inbox's figures theirs.
    ['photos, counts', (db) => moderation(db).queueCounts({ brands: 'all', status: 'pending' })],
    ['inbox, first page', (db) => createInboxService({ db, bus, chat: undefined as never, tenants: () => tenants }).list(owner, { brand: BRAND })],
    ['inbox, figures', (db) => createInboxService({ db, bus, chat: undefined as never, tenants: () => tenants }).stats(owner, BRAND)],
  ];
}

/**
 * The console's pages as built (dist/_console/en/…, served at /console/…; an `id` page as
 * /console/…/1), each page's JS summed through its static imports, brotli q11.
 */
async function consoleWeight(rt: Runtime, cookie: string): Promise<(string | number)[][]> {
  const measure = pageWeights(rt);
  const root = join(REPO, 'dist', '_console', 'en');
  const pages = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('index.html') && !f.startsWith('_'))
    .map((f) => `/console/${f.replace(/\/?index\.html$/, '').replace(/(^|\/)id$/, '$11')}`)
    .sort();
  const rows: (string | number)[][] = [];
  for (const path of pages) {
    const w = await measure('console', path, { cookie, 'accept-language': 'en' });
    rows.push([path, ...weightCells(w), w.jsBr / 1024 <= JS_KB ? 'yes' : 'NO']);
  }
  return rows;
}

export async function consoleSection(engines: Engine[]): Promise<void> {
  const timed: (string | number)[][] = [];
  const plans: (string | number)[][] = [];
  const inProcess: (string | number)[][] = [];
  const arrivals: (string | number)[][] = [];
  let weights: (string | number)[][] = [];
  const ms = (n: number) => n.toFixed(1);
  const meets = (n: number, budget: number) => (n < budget ? 'yes' : 'NO');
  for (const engine of engines) {
    const a = await startRuntime(engine, { photos: false, populate: (db) => seeded(engine, () => bulkPeople(db, MEMBERS)) });
    try {
      await seedPhotoQueue(a, WAITING);
      await seedWaiting(a, WAITING);
      // The planner's statistics with the queues in them, as autovacuum would have them on a
      // running database (without, PostgreSQL believes 28 photos and 735 messages and plans so).
      const fresh = openBenchDb(engine, a.database);
      await analyze(fresh.db).finally(() => fresh.close());
      const cookie = await consoleLogin(a);
      const who = await someone(a);
      for (const ask of STATEMENTS_ONLY ? [] : await consoleRequests(a, cookie, who)) {
        const q = await roundTrips(ask.what, () => a.get('console', ask.path, { cookie }), REQUESTS);
        timed.push([engine, ask.what, ms(q.p50), ms(q.p95), ms(q.p99), `${ask.budget}`, meets(q.p95, ask.budget)]);
      }
      for (const row of STATEMENTS_ONLY ? [] : await timeInboxPages(a, cookie, REQUESTS)) timed.push([engine, row.path, ms(row.p50), ms(row.p95), ms(row.p99), `${QUEUE_P95}`, meets(row.p95, QUEUE_P95)]);
      const handle = openBenchDb(engine, a.database);
      try {
        for (const plan of await explain(handle, shapes(who))) plans.push([engine, plan.shape, plan.statements, plan.scans.length ? `full scan of ${plan.scans.join(', ')}` : 'indexes only']);
        for (const t of await timeShapes(handle, shapes(who), REQUESTS)) inProcess.push([engine, t.shape, ms(t.p50), ms(t.p95), loadavg()[0]!.toFixed(1)]);
      } finally {
        await handle.close();
      }
      if (STATEMENTS_ONLY) continue;
      if (engine === 'sqlite') weights = await consoleWeight(a, cookie);
      const one = await inboxArrival(a, a, cookie, MESSAGES);
      arrivals.push([engine, 'one runtime', ms(one.p50), ms(one.p95), ms(one.p99), ms(one.max), meets(one.p99, ARRIVAL_P99)]);
      if (engine === 'postgres') {
        const b = await startRuntime(engine, { sharing: a });
        try {
          const notify = await notifyLatency(MESSAGES);
          const two = await inboxArrival(a, b, cookie, MESSAGES);
          arrivals.push([engine, 'two runtimes (member on B, console stream on A)', ms(two.p50), ms(two.p95), ms(two.p99), ms(two.max), meets(two.p99, ARRIVAL_P99)]);
          arrivals.push([engine, 'raw NOTIFY to LISTEN, same run', ms(notify.p50), ms(notify.p95), ms(notify.p99), ms(notify.max), `${(two.p99 / notify.p99).toFixed(1)}x`]);
        } finally {
          await b.close();
        }
      }
    } finally {
      await a.close();
    }
  }
  table(
    `The console at ${(MEMBERS * 2).toLocaleString('en')} members (${MEMBERS.toLocaleString('en')} per brand), ${WAITING.toLocaleString('en')} photos and ${WAITING.toLocaleString('en')} conversations waiting in ${BRAND}: ${REQUESTS} requests one after the other each, the whole HTTP round trip, ms`,
    ['engine', 'request', 'p50', 'p95', 'p99', 'budget p95', 'met'],
    timed,
  );
  table("Every statement of the console's requests explained on its engine", ['engine', 'request', 'statements', 'plan'], plans);
  table(`The same requests' statements run by their services in process, ${REQUESTS} one after the other each, ms (load average after each)`, ['engine', 'request', 'p50', 'p95', 'load'], inProcess);
  table(`The console's pages (KB; br = brotli q11; JS is every module the page loads through static imports; budget ${JS_KB} KB of JS br)`, ['page', ...WEIGHT_HEAD, 'met'], weights);
  table(
    `A member's message to a fictional profile (POST /api/chat.php) until its inbox_message event on an open console stream, ${MESSAGES} one after the other, ms (budget p99 ${ARRIVAL_P99})`,
    ['engine', 'setup', 'p50', 'p95', 'p99', 'max', 'met'],
    arrivals,
  );
}
