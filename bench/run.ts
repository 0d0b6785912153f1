/**
 * `npm run bench [-- section…]`: capacity of the runtime as a member uses it, beside bare
 * node:http answering the same bytes in the same run; page weights; memory per loaded brand;
 * build time per brand. Prints tables only; it never asserts on timings (bench/README.md).
 *
 * Sections (all by default): throughput, landing, search, stall, queries, traffic, delivery, console, profile, weight,
 * memory, build, lighthouse, revenue, media; and when named only: brands (BENCH_BRANDS_N, bench/brands.ts),
 * loaded (BENCH_LOADED_N: N brands loaded, only one rendered, bench/brands-loaded.ts).
 * Environment: BENCH_SECONDS (per load run, default 10), DATABASE_URL (adds PostgreSQL),
 * BENCH_THROUGHPUT (a word: only the throughput rows that name it, such as lander).
 */
import { availableParallelism, loadavg } from 'node:os';
import { buildTenants } from '../cli/build.ts';
import { listTenantIds } from '../src/tenant/load.ts';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarize } from './profile.ts';
import { explainShapes, openBenchDb } from './queries.ts';
import { measureDelivery, notifyLatency } from './delivery.ts';
import { measureTraffic } from './traffic.ts';
import { measureLanding } from './landing.ts';
import { lighthouseSection } from './lighthouse.ts';
import { revenueSection } from './revenue.ts';
import { WEIGHT_HEAD, pageWeights, weightCells } from './weight.ts';
import { consoleSection } from './console.ts';
import { poolScopeOf, poolTenantsDir, seedPool, seedPoolKept, timeSearchStatements } from './search.ts';
import { mediaSection } from './media.ts';
import { brandsSection } from './brands.ts';
import { brandsLoadedSection } from './brands-loaded.ts';
import { loadAllTenants } from '../src/tenant/load.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { TENANTS_DIR } from '../cli/paths.ts';
import { CONNECTIONS, REPO, SECONDS, SIGNUP, kb, load, loadBeside, ratio, roundTrips, signUp, startBare, startRuntime, table, type Bare, type Engine, type Member, type Runtime } from './lib.ts';

const ALL = ['throughput', 'landing', 'search', 'stall', 'queries', 'traffic', 'delivery', 'console', 'profile', 'weight', 'memory', 'build', 'lighthouse', 'revenue', 'media'] as const;
/** Sections run only when named: `brands` builds N brands (minutes to hours); `loaded` makes N tenant folders (minutes). */
const ASKED_ONLY = ['brands', 'loaded'] as const;
type Section = (typeof ALL)[number] | (typeof ASKED_ONLY)[number];
const asked = process.argv.slice(2).filter((a) => a !== '--');
const known: readonly string[] = [...ALL, ...ASKED_ONLY];
for (const a of asked) if (!known.includes(a)) throw new Error(`bench: unknown section ${a} (${known.join(', ')})`);
const sections = new Set<Section>(asked.length ? (asked as Section[]) : ALL);

const started = performance.now();
// BENCH_ENGINES=postgres (or sqlite) runs one engine of the two.
const engines: Engine[] = (process.env.DATABASE_URL ? (['sqlite', 'postgres'] as Engine[]) : (['sqlite'] as Engine[])).filter((e) => !process.env.BENCH_ENGINES || process.env.BENCH_ENGINES.split(',').includes(e));
const ids = listTenantIds();
console.log(`bench: ${new Date().toISOString()}, ${availableParallelism()} cores, node ${process.version}, engines ${engines.join(' and ')}, brands ${ids.join(', ')}`);

if (sections.has('build')) {
  const timings = await buildTenants(ids);
  table(
    'Build time per brand (astro build into dist/, one after the other)',
    ['brand', 'seconds'],
    [...timings.map((t) => [t.id, t.seconds.toFixed(1)]), ['total', timings.reduce((s, t) => s + t.seconds, 0).toFixed(1)]],
  );
}

// ---------------------------------------------------------------------------------------------
// Throughput

interface Target {
  what: string;
  tenant: string;
  path: string;
  headers: Record<string, string>;
}

/** A browser's and a crawler's user agent: a lander counts the browser's visit and gives it a variant (issue 23). */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

function targets(spetter: Member, returning: string): Target[] {
  const cookie = { cookie: spetter.cookie };
  const t = 'spetter';
  const browser = { 'user-agent': BROWSER };
  // spetter's alonetonight lander runs an experiment (tenants/spetter/landers/): the same page
  // without the new work (a crawler: the control, nothing counted), a new visitor every request
  // (a variant chosen, the visit counted, the cookie written) and a returning one (its cookie read).
  const experiment = '/landers/alonetonight';
  // A network's link; the visitor's choice on the consent bar (issue 23) decides what the cookie keeps.
  const network = '?network=bench&ref=r1&clickid=c-123';
  return [
    { what: 'settings.php, visitor', tenant: t, path: '/api/settings.php', headers: {} },
    { what: 'settings.php, session cookie', tenant: t, path: '/api/settings.php', headers: cookie },
    { what: 'user.php, logged in', tenant: t, path: '/api/user.php', headers: cookie },
    { what: 'members.php, logged in', tenant: t, path: '/api/members.php', headers: cookie },
    { what: 'lander, visitor', tenant: t, path: '/landers/tinderswipe', headers: {} },
    { what: 'lander, session cookie', tenant: t, path: '/landers/tinderswipe', headers: cookie },
    { what: 'lander, browser: new visitor (counted, seed cookie)', tenant: t, path: '/landers/tinderswipe', headers: browser },
    { what: 'lander, browser: new visitor from a network, not asked yet (counted, seed cookie)', tenant: t, path: `/landers/tinderswipe${network}`, headers: browser },
    { what: 'lander, browser: new visitor from a network, accepted (counted, network in the cookie)', tenant: t, path: `/landers/tinderswipe${network}`, headers: { ...browser, cookie: 'src_consent=accept' } },
    { what: 'lander, browser: new visitor from a network, refused (counted, seed cookie)', tenant: t, path: `/landers/tinderswipe${network}`, headers: { ...browser, cookie: 'src_consent=refuse' } },
    { what: 'lander experiment, crawler (as before: control, not counted)', tenant: t, path: experiment, headers: { 'user-agent': CRAWLER } },
    { what: 'lander experiment, new visitor (variant, counted, seed cookie)', tenant: t, path: experiment, headers: browser },
    { what: 'lander experiment, new visitor from a network, not asked yet (variant, counted, seed cookie)', tenant: t, path: `${experiment}${network}`, headers: browser },
    { what: 'lander experiment, new visitor from a network, accepted (variant, counted, network in the cookie)', tenant: t, path: `${experiment}${network}`, headers: { ...browser, cookie: 'src_consent=accept' } },
    { what: 'lander experiment, returning visitor (cookie read, counted)', tenant: t, path: experiment, headers: { 'user-agent': BROWSER, cookie: returning } },
    { what: '/members, logged in', tenant: t, path: '/members', headers: cookie },
    { what: '/members/{id}, logged in', tenant: t, path: `/members/${spetter.profileId}`, headers: cookie },
  ];
}

if (sections.has('throughput')) {
  const loadAtStart = loadavg()[0]!.toFixed(1);
  const bare: Bare = await startBare();
  const rows: (string | number)[][] = [];
  try {
    for (const engine of engines) {
      const rt = await startRuntime(engine);
      try {
        const member = await signUp(rt, 'spetter');
        const first = await rt.get('spetter', '/landers/alonetonight?network=bench&ref=r1', { 'user-agent': BROWSER, cookie: 'src_consent=accept' });
        const returning = `${(first.headers['set-cookie'] ?? []).find((c) => c.startsWith('src='))?.split(';')[0] ?? ''}; src_consent=accept`;
        // BENCH_THROUGHPUT=lander runs the rows whose name has that word only.
        const only = process.env.BENCH_THROUGHPUT;
        for (const target of targets(member, returning).filter((t) => !only || t.what.includes(only))) {
          const res = await rt.get(target.tenant, target.path, target.headers);
          const size = res.body.length;
          if (res.status !== 200) throw new Error(`${target.what}: ${target.path} answered ${res.status}`);
          const { got, bare: baseRps, loop } = await loadBeside(rt, bare, target.tenant, target.path, target.headers, size);
          const failed = got.non2xx + got.errors;
          const base = { rps: baseRps };
          rows.push([
            engine,
            target.what,
            kb(size),
            got.rps.toFixed(0),
            got.p50.toFixed(0),
            got.p99.toFixed(0),
            base.rps.toFixed(0),
            ratio(got.rps, base.rps),
            loop.p99.toFixed(1),
            failed ? `${failed} failed` : '',
          ]);
          console.log(`  ${engine} ${target.what}: ${got.rps.toFixed(0)} req/s (bare ${base.rps.toFixed(0)}), load ${loadavg()[0]!.toFixed(1)}`);
        }
      } finally {
        await rt.close();
      }
    }
  } finally {
    await bare.close();
  }
  table(
    `Throughput: ${CONNECTIONS} connections for ${SECONDS} s each (autocannon in its own process), beside bare node:http answering the same body size just before and after (their mean); load average ${loadAtStart} → ${loadavg()[0]!.toFixed(1)}`,
    ['engine', 'request', 'body KB', 'req/s', 'p50 ms', 'p99 ms', 'bare req/s', 'ratio', 'loop p99 ms', ''],
    rows,
  );
}

// ---------------------------------------------------------------------------------------------
// A lander visit's own cost (issue 23): traffic.land per kind of visitor, in this process

if (sections.has('landing')) {
  const loadAtStart = loadavg()[0]!.toFixed(1);
  const rows = await measureLanding();
  table(
    `A lander visit before its file is sent (src/server/http/landers.ts: cookies read, query parsed, traffic.land), µs per call: the kinds take turns, 20 rounds of 1,000 calls each, median and best round; load average ${loadAtStart} → ${loadavg()[0]!.toFixed(1)}`,
    ['visitor', 'median µs', 'best µs'],
    rows.map((r) => [r.kind, r.us.toFixed(1), r.min.toFixed(1)]),
  );
}

// ---------------------------------------------------------------------------------------------
// The search under load (issue 24): the demo's size and a pool of 20 brands with 1,000,000 members

if (sections.has('search')) {
  const POOL = Number(process.env.BENCH_POOL_MEMBERS ?? 1_000_000);
  const TIMES = Number(process.env.BENCH_REQUESTS ?? 100);
  // BENCH_SEARCH_SIZES=demo or =pool runs one of the two sizes.
  const sizes = (process.env.BENCH_SEARCH_SIZES ?? 'demo,pool').split(',').map((s) => (s === 'demo' ? ('demo' as const) : POOL));
  const tenant = loadAllTenants(TENANTS_DIR).find((t) => t.id === 'spetter')!;
  const bare: Bare = await startBare();
  try {
    for (const engine of engines) {
      for (const size of sizes) {
        const loadRows: (string | number)[][] = [];
        const statementRows: (string | number)[][] = [];
        const shapeRows: (string | number)[][] = [];
        const label = size === 'demo' ? 'demo (300 a brand)' : `${size.toLocaleString('en')} in a pool of 20`;
        const started = performance.now();
        // The pool: spetter and rijpedates with eighteen more brands of the pool's niches (tenant files of the bench's own).
        const pool = size === 'demo' ? undefined : poolTenantsDir();
        const scopeOf = poolScopeOf(pool?.dir ?? TENANTS_DIR);
        // BENCH_POOL_FILE: a SQLite file of the seeded million kept between runs (written by the first, copied by the next).
        const kept = engine === 'sqlite' && size !== 'demo' ? process.env.BENCH_POOL_FILE : undefined;
        // No photo files (seeding them is minutes on a loaded machine): cards still read the photos table.
        const rt = await startRuntime(engine, {
          photos: false,
          serveEnv: pool ? { TENANTS_DIR: pool.dir } : undefined,
          prepare:
            size === 'demo'
              ? undefined
              : async (database) => {
                  if (kept && existsSync(kept)) {
                    for (const suffix of ['-wal', '-shm']) rmSync(database.file + suffix, { force: true });
                    copyFileSync(kept, database.file);
                    // A file kept from an older branch: its new migrations (indexes on the million) before the runtime, whose start would otherwise time out.
                    const handle = openBenchDb(engine, database);
                    try {
                      await migrateToLatest(handle.db);
                    } finally {
                      await handle.close();
                    }
                    return;
                  }
                  const handle = openBenchDb(engine, database);
                  try {
                    // BENCH_POOL_SCHEMA: PostgreSQL's kept million (a schema of the bench's own, copied by the next run).
                    if (engine === 'postgres' && process.env.BENCH_POOL_SCHEMA) await seedPoolKept(handle.db, size, process.env.BENCH_POOL_SCHEMA);
                    else await seedPool(handle.db, size);
                  } finally {
                    await handle.close();
                  }
                  if (kept) copyFileSync(database.file, kept);
                },
        });
        console.log(`  ${engine} ${label}: ready in ${((performance.now() - started) / 1000).toFixed(0)} s, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
        const handle = openBenchDb(engine, rt.database);
        try {
          const member = await signUp(rt, 'spetter');
          const me = (await rt.get('spetter', '/api/user.php', { cookie: member.cookie })).json<{ user: { id: number; profile: { id: number } } }>().user;
          for (const path of ['/api/members.php', '/api/members.php?min_age=30&max_age=40', '/api/swipe.php']) {
            const bytes = (await rt.get('spetter', path, { cookie: member.cookie })).body.length;
            const { got, bare: base, loop, cpuUs } = await loadBeside(rt, bare, 'spetter', path, { cookie: member.cookie }, bytes);
            const failed = got.non2xx + got.errors;
            loadRows.push([engine, label, path.replace('/api/', ''), got.rps.toFixed(0), got.p50.toFixed(0), got.p99.toFixed(0), base.toFixed(0), ratio(got.rps, base), cpuUs.toFixed(0), loop.p99.toFixed(1), failed ? `${failed} failed` : '']);
          }
          table(
            `The search under load: a logged-in spetter member, ${CONNECTIONS} connections for ${SECONDS} s, beside bare node:http answering the same body size just before and after (target: ratio >= 0.1x, p99 < 50 ms); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
            ['engine', 'members', 'request', 'req/s', 'p50 ms', 'p99 ms', 'bare req/s', 'ratio', 'runtime CPU µs/request', 'loop p99 ms', ''],
            loadRows,
          );
          for (const t of await timeSearchStatements(handle, tenant, { userId: me.id, profileId: me.profile.id }, TIMES, scopeOf)) {
            shapeRows.push([engine, label, t.shape, t.statementsCold, t.statementsWarm, t.cold.p50.toFixed(1), t.cold.p95.toFixed(1), t.warm.p50.toFixed(1), t.warm.p95.toFixed(1)]);
            t.statements.forEach((st, i) => statementRows.push([engine, label, t.shape, i + 1, st.what, st.p50.toFixed(2), st.p95.toFixed(2), st.plan]));
          }
          table(
            `The search's and the deck's service calls, ${TIMES} one after the other: the shared list read each time (cold) and kept (warm), ms (target p95 < 20)`,
            ['engine', 'members', 'shape', 'statements cold', 'warm', 'cold p50', 'cold p95', 'warm p50', 'warm p95'],
            shapeRows,
          );
          table(`Each statement of a cold call, run alone ${TIMES} times (p50 and p95, ms), and its plan`, ['engine', 'members', 'shape', '#', 'reads', 'p50', 'p95', 'plan'], statementRows);
        } finally {
          await handle.close();
          await rt.close();
          pool?.remove();
        }
      }
    }
  } finally {
    await bare.close();
  }
}

// ---------------------------------------------------------------------------------------------
// No stall: searches of a large brand under load beside a plain request of another brand

if (sections.has('stall')) {
  const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 50_000);
  const rows: (string | number)[][] = [];
  for (const engine of engines) {
    const rt = await startRuntime(engine, { members: MEMBERS, photos: false });
    try {
      const member = await signUp(rt, 'spetter');
      const settings = `http://127.0.0.1:${rt.port}/api/settings.php`;
      const velvet = { host: rt.host('velvet') };
      const searching = { host: rt.host('spetter'), cookie: member.cookie };
      await rt.loopDelay();
      const alone = await load(settings, velvet, 10);
      const quiet = await rt.loopDelay();
      rows.push([engine, 'velvet settings.php alone (10 connections)', '', '', alone.rps.toFixed(0), alone.p99.toFixed(0), quiet.p99.toFixed(1), quiet.max.toFixed(0)]);
      for (const query of ['', '?min_age=30&max_age=40', '?page=40', '?country=BE&min_age=60']) {
        await rt.loopDelay();
        const [search, beside] = await Promise.all([load(`http://127.0.0.1:${rt.port}/api/members.php${query}`, searching), load(settings, velvet, 10)]);
        const loop = await rt.loopDelay();
        rows.push([engine, `spetter members.php${query} (50) + velvet settings.php (10)`, search.rps.toFixed(0), search.p99.toFixed(0), beside.rps.toFixed(0), beside.p99.toFixed(0), loop.p99.toFixed(1), loop.max.toFixed(0)]);
      }
    } finally {
      await rt.close();
    }
  }
  table(
    `No stall: ${MEMBERS.toLocaleString('en')} members per brand (${engines.length} engine${engines.length > 1 ? 's' : ''}), a logged-in search under load beside another brand's settings.php, ${SECONDS} s each`,
    ['engine', 'load', 'search req/s', 'search p99 ms', 'settings req/s', 'settings p99 ms', 'loop p99 ms', 'loop max ms'],
    rows,
  );
}

// ---------------------------------------------------------------------------------------------
// The search and the likes at scale: latency per query shape, and every statement's plan

if (sections.has('revenue')) {
  const { timings, seeded } = await revenueSection(engines);
  table(
    `Revenue (GET /api/console/revenue's service) at ${seeded}: the first answer (summing the ended days not kept yet), then 10 one after the other per shape, ms (targets: a month of one brand < 200, a year of every brand < 2000)`,
    ['engine', 'shape', 'rows', 'first', 'p50', 'max'],
    timings.map((t) => [t.engine, t.shape, t.rows, t.first.toFixed(1), t.p50.toFixed(1), t.max.toFixed(1)]),
  );
}

if (sections.has('media')) {
  const rows = await mediaSection();
  table(
    `Photos (/media/, issue 25): an approved thumbnail of spetter from the disk and from a bucket (the s3rver stand-in on this machine), ${CONNECTIONS} connections, beside bare node:http answering the same bytes (SQLite)`,
    ['store', 'bytes', 'req/s', 'p50 ms', 'p99 ms', 'bare req/s', 'vs bare', 'non-2xx'],
    rows.map((r) => [r.store, r.bytes, r.result.rps.toFixed(0), r.result.p50, r.result.p99, r.bare.toFixed(0), ratio(r.result.rps, r.bare), r.result.non2xx + r.result.errors]),
  );
}

if (sections.has('queries')) {
  const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 50_000);
  const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
  const rows: (string | number)[][] = [];
  const planRows: (string | number)[][] = [];
  const tenant = loadAllTenants(TENANTS_DIR).find((t) => t.id === 'spetter')!;
  for (const engine of engines) {
    const rt = await startRuntime(engine, { members: MEMBERS, photos: false });
    const handle = openBenchDb(engine, rt.database);
    try {
      const member = await signUp(rt, 'spetter', { country: 'NL', region: 'Utrecht', city: 'Utrecht' });
      const me = (await rt.get('spetter', '/api/user.php', { cookie: member.cookie })).json<{ user: { id: number; profile: { id: number } } }>().user;
      // A member in use: 60 women liked him (20 still new), he liked 40 of them back and 30 others.
      const women = await handle.db.selectFrom('profiles').select('id').where('tenant_id', '=', 'spetter').where('gender', '=', 'female').where('listed', '=', 1).orderBy('last_seen_at', 'desc').limit(90).execute();
      const at = (i: number) => new Date(Date.now() - i * 60_000).toISOString();
      await handle.db.insertInto('likes').values(women.slice(0, 60).map((w, i) => ({ tenant_id: 'spetter', from_profile_id: w.id, to_profile_id: me.profile.id, is_new: i < 20 ? (1 as const) : (0 as const), created_at: at(i) }))).execute();
      await handle.db.insertInto('likes').values([...women.slice(20, 60), ...women.slice(60)].map((w, i) => ({ tenant_id: 'spetter', from_profile_id: me.profile.id, to_profile_id: w.id, created_at: at(i) }))).execute();
      const shapes = ['/api/members.php', '/api/members.php?min_age=30&max_age=40', '/api/members.php?country=NL&region=Utrecht', '/api/members.php?page=40', '/api/likes.php', '/api/likes.php?type=received', '/api/likes.php?type=given', '/api/likes.php?type=matches', '/api/swipe.php', '/api/match-finder.php', '/api/auto-like.php'];
      for (const path of shapes) {
        const q = await roundTrips(path, () => rt.get('spetter', path, { cookie: member.cookie }), REQUESTS);
        rows.push([engine, path.replace('/api/', ''), q.p50.toFixed(1), q.p95.toFixed(1), q.p99.toFixed(1)]);
      }
      for (const plan of await explainShapes(handle, tenant, { userId: me.id, profileId: me.profile.id })) {
        planRows.push([engine, plan.shape, plan.statements, plan.scans.length ? `full scan of ${plan.scans.join(', ')}` : 'indexes only']);
      }
    } finally {
      await handle.close();
      await rt.close();
    }
  }
  table(
    `Search and likes at ${(MEMBERS * 2).toLocaleString('en')} members (${MEMBERS.toLocaleString('en')} per brand, with their likes), one logged-in member with 60 likes received, 70 given, 40 matches: ${REQUESTS} requests one after the other per shape, ms (target p95 < 15)`,
    ['engine', 'request', 'p50', 'p95', 'p99'],
    rows,
  );
  table('Every statement of each shape explained on its engine', ['engine', 'shape', 'statements', 'plan'], planRows);
}

// ---------------------------------------------------------------------------------------------
// The traffic figures at scale (issue 23): a month of one brand, a year of every brand

if (sections.has('traffic')) {
  // Per brand and 30 days: by default the revenue bench's size (100,000 members and 20,000 payments a year).
  const MEMBERS = Number(process.env.BENCH_TRAFFIC_MEMBERS ?? 8_219);
  const PAYMENTS = Number(process.env.BENCH_TRAFFIC_PAYMENTS ?? 1_644);
  const DAYS = Number(process.env.BENCH_TRAFFIC_DAYS ?? 365);
  const rows: (string | number)[][] = [];
  for (const engine of engines) {
    for (const scale of [
      { brands: ['spetter'], days: 30, membersPerMonth: MEMBERS, paymentsPerMonth: PAYMENTS, visitsPerMember: 10 },
      { brands: ids, days: DAYS, membersPerMonth: MEMBERS, paymentsPerMonth: PAYMENTS, visitsPerMember: 10 },
    ]) {
      const timing = await measureTraffic(engine, scale);
      const stored = `${timing.rows.sources.toLocaleString('en')} / ${timing.rows.landers.toLocaleString('en')}`;
      for (const q of timing.queries) rows.push([engine, `${scale.brands.length} brand${scale.brands.length > 1 ? 's' : ''} x ${scale.days} days`, stored, q.what, q.p50.toFixed(0), q.max.toFixed(0)]);
      console.log(`  ${engine} ${scale.brands.join('+')} ${scale.days} days: ${stored} rows, seeded in ${timing.seedSeconds.toFixed(0)} s`);
    }
  }
  table(
    `Traffic figures (GET /api/console/sources, /experiments through the traffic service): ${MEMBERS.toLocaleString('en')} signups (10 lander visits each, 70% activated) and ${PAYMENTS.toLocaleString('en')} payments (3% refunded, 0.8% charged back) per brand and 30 days, spread over 20 networks x 10 refs, 9 landers (2 with two variants), niches and 2 locales; 5 runs after a warm-up, ms (targets: a month of one brand < 200, every brand over a year < 2,000)`,
    ['engine', 'data', 'rows source_daily / lander_daily', 'query', 'p50', 'max'],
    rows,
  );
}

// ---------------------------------------------------------------------------------------------
// Live delivery of chat messages

if (sections.has('delivery')) {
  // Each row as it is measured too: a run stopped before the table still tells what it found.
  const rows: (string | number)[][] = [];
  const logRow = (row: (string | number)[]) => console.log(`delivery: ${row.join(' | ')}`);
  const ms = (n: number) => n.toFixed(1);
  for (const engine of engines) {
    const a = await startRuntime(engine);
    try {
      const one = await measureDelivery(a, a);
      rows.push([engine, 'one runtime', one.streams, ms(one.latency.p50), ms(one.latency.p99), ms(one.latency.max), one.sendsPerSecond.toFixed(0), '']);
      logRow(rows.at(-1)!);
      if (engine === 'postgres') {
        const b = await startRuntime(engine, { sharing: a });
        try {
          const notify = await notifyLatency();
          const two = await measureDelivery(a, b);
          rows.push([engine, 'two runtimes (send on A, streams on B)', two.streams, ms(two.latency.p50), ms(two.latency.p99), ms(two.latency.max), two.sendsPerSecond.toFixed(0), '']);
          logRow(rows.at(-1)!);
          // Between two brands of the pool (issue 24): a spetter member on A writes to rijpedates members whose streams are on B.
          const pooled = await measureDelivery(a, b, { sender: 'spetter', recipients: 'rijpedates' });
          rows.push([engine, 'two runtimes, two brands of a pool (spetter on A to rijpedates on B)', pooled.streams, ms(pooled.latency.p50), ms(pooled.latency.p99), ms(pooled.latency.max), pooled.sendsPerSecond.toFixed(0), `p99 ${(pooled.latency.p99 / two.latency.p99).toFixed(2)}x the same brand's`]);
          logRow(rows.at(-1)!);
          rows.push([engine, 'raw NOTIFY to LISTEN, same run', '', ms(notify.p50), ms(notify.p99), ms(notify.max), '', `two runtimes' p99 is ${(two.latency.p99 / notify.p99).toFixed(1)}x NOTIFY's`]);
        } finally {
          await b.close();
        }
      }
    } finally {
      await a.close();
    }
  }
  table(
    'Chat delivery: POST /api/chat.php to the message event on the recipient\'s stream, messages one after the other, timed on every tab of the recipient (ms; target p99 < 25), and paid sends stored per second by 20 concurrent senders',
    ['engine', 'setup', 'open streams', 'p50', 'p99', 'max', 'sends/s', 'ratio'],
    rows,
  );
}

// ---------------------------------------------------------------------------------------------
// The operator console at scale: search, photo queue, fictional inbox, page weight, arrival (bench/console.ts)

if (sections.has('console')) await consoleSection(engines);

// ---------------------------------------------------------------------------------------------
// CPU profile of the runtime under load (node --cpu-prof), per request kind

if (sections.has('profile')) {
  const rows: (string | number)[][] = [];
  // BENCH_PROFILE names some of them (comma-separated), e.g. BENCH_PROFILE='/members, logged in'.
  const kinds = ['user.php, logged in', 'lander, visitor', '/members, logged in', '/members/{id}, logged in', 'members.php, logged in'];
  const chosen = process.env.BENCH_PROFILE ? kinds.filter((k) => process.env.BENCH_PROFILE!.split(',').map((s) => s.trim()).includes(k.split(',')[0]!)) : kinds;
  for (const kind of chosen) {
    const dir = mkdtempSync(join(tmpdir(), 'sitegen-prof-'));
    const rt = await startRuntime('sqlite', { cpuProfileDir: dir });
    let requests = 0;
    try {
      const target = targets(await signUp(rt, 'spetter'), '').find((t) => t.what === kind)!;
      const got = await load(`http://127.0.0.1:${rt.port}${target.path}`, { ...target.headers, host: rt.host(target.tenant) });
      requests = got.rps * SECONDS;
    } finally {
      await rt.close();
    }
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no CPU profile in ${dir}`);
    const summary = summarize(join(dir, file));
    if (process.env.BENCH_KEEP_PROFILE) cpSync(join(dir, file), process.env.BENCH_KEEP_PROFILE);
    rmSync(dir, { recursive: true, force: true });
    const perRequest = (ms: number) => ((ms / requests) * 1000).toFixed(0);
    console.log(`\n== CPU profile: ${kind}, ${requests.toFixed(0)} requests; busy ${(summary.totalMs - summary.idleMs).toFixed(0)} ms of ${summary.totalMs.toFixed(0)} ms (µs per request)`);
    table(`${kind}: self time by package or file`, ['where', 'µs/request', 'share'], summary.origins.slice(0, 14).map((o) => [o.origin, perRequest(o.ms), `${((o.ms / (summary.totalMs - summary.idleMs)) * 100).toFixed(1)}%`]));
    table(`${kind}: the functions with most self time`, ['function', 'where', 'µs/request'], summary.functions.slice(0, 16).map((f) => [f.name, f.where, perRequest(f.ms)]));
    rows.push([kind, requests.toFixed(0)]);
  }
}

// ---------------------------------------------------------------------------------------------
// Page weight and memory (one SQLite runtime)


/**
 * The runtime's memory with 2, 10 and 20 brands, each having served its member pages. The brands
 * are copies of spetter (its tenant file under other ids and domains, its build copied); building
 * 20 real brands would take minutes. Twice: with dist/_programs copied too, so the brands share
 * spetter's program as brands of one language set do (docs/ONE-BUILD.md, step 1), and without, so
 * each loads its own server code as every brand did before.
 */
async function brandsMemory(): Promise<void> {
  const rows: (string | number)[][] = [];
  const source = join(REPO, 'tenants', 'spetter', 'tenant.json');
  const programs = join(REPO, 'dist', '_programs');
  const modes = existsSync(programs) ? (['one program', 'a program each'] as const) : (['a program each'] as const);
  for (const mode of modes) {
    for (const count of (process.env.BENCH_BRANDS ?? '2,10,20').split(',').map(Number)) {
      const root = mkdtempSync(join(REPO, 'node_modules', '.cache', 'sitegen-bench-'));
      const tenantsDir = join(root, 'tenants');
      const distDir = join(root, 'dist');
      cpSync(join(REPO, 'tenants', '_defaults'), join(tenantsDir, '_defaults'), { recursive: true });
      const names: string[] = [];
      for (let i = 1; i <= count; i++) {
        const id = `brand${String(i).padStart(2, '0')}`;
        names.push(id);
        const tenant = JSON.parse(readFileSync(source, 'utf8')) as Record<string, unknown>;
        Object.assign(tenant, { name: `Brand ${i}`, domains: [`${id}.example`], default: i === 1 });
        mkdirSync(join(tenantsDir, id), { recursive: true });
        writeFileSync(join(tenantsDir, id, 'tenant.json'), JSON.stringify(tenant, null, 2));
        // dereference: dist/spetter is a link to its current version; each copy is a folder of its own.
        cpSync(join(REPO, 'dist', 'spetter'), join(distDir, id), { recursive: true, dereference: true });
      }
      if (mode === 'one program') cpSync(programs, join(distDir, '_programs'), { recursive: true });
      const rt = await startRuntime('sqlite', { env: { TENANTS_DIR: tenantsDir, DIST_DIR: distDir } });
      try {
        const idle = rt.rss();
        for (const id of names) {
          const member = await signUp(rt, id, SIGNUP.spetter);
          for (const path of ['/landers/tinderswipe', '/pricing', '/members', `/members/${member.profileId}`, '/profile']) {
            const res = await rt.get(id, path, { cookie: member.cookie });
            if (res.status !== 200) throw new Error(`${id} ${path} answered ${res.status}`);
          }
        }
        const used = rt.rss();
        rows.push([mode, count, (idle / 2 ** 20).toFixed(0), (used / 2 ** 20).toFixed(0), ((used - idle) / 2 ** 20 / count).toFixed(1)]);
      } finally {
        await rt.close();
        rmSync(root, { recursive: true, force: true });
      }
    }
  }
  table('Runtime RSS (MB) with N brands, each having served a lander, /pricing, /members, a profile and /profile to a member', ['programs', 'brands', 'started', 'after pages', 'per brand'], rows);
}

/** The runtime process's RSS before any brand was asked for a page, and after each brand's first pages. */
async function memory(rt: Runtime): Promise<void> {
  const rows: (string | number)[][] = [];
  let before = rt.rss();
  const first = before;
  for (const id of ids) {
    for (const path of ['/api/settings.php', '/landers/tinderswipe', '/pricing', '/signup']) {
      const res = await rt.get(id, path);
      if (res.status !== 200) throw new Error(`${id} ${path} answered ${res.status}`);
    }
    const after = rt.rss();
    rows.push([id, (before / 2 ** 20).toFixed(1), (after / 2 ** 20).toFixed(1), `+${((after - before) / 2 ** 20).toFixed(1)}`]);
    before = after;
  }
  rows.push(['all', (first / 2 ** 20).toFixed(1), (before / 2 ** 20).toFixed(1), `+${((before - first) / 2 ** 20).toFixed(1)}`]);
  table('Runtime RSS (MB) as each brand serves its first pages (settings, lander, SSR /pricing, /signup)', ['brand', 'before', 'after', 'growth'], rows);
}

// ---------------------------------------------------------------------------------------------

/** HTML, CSS and JS bytes of the pages a visitor and a member load (bench/weight.ts). */
async function weight(rt: Runtime, members: Member[]): Promise<void> {
  const measure = pageWeights(rt);
  const rows: (string | number)[][] = [];
  const pages: [string, string, Member | null][] = [];
  // BENCH_WEIGHT_MODULES=/chats lists that member page's modules, each with its brotli bytes.
  const listed = process.env.BENCH_WEIGHT_MODULES;
  for (const id of ids) pages.push([id, '/landers/tinderswipe', null], [id, '/', null], [id, '/login', null], [id, '/signup', null], [id, '/pricing', null]);
  for (const member of members) {
    for (const path of ['/members', `/members/${member.profileId}`, '/profile', '/likes', '/swipe-game', '/chats', '/credits', '/credits/repeat-order', '/directdebit', '/transactions']) pages.push([member.tenant, path, member]);
  }
  for (const [id, path, member] of pages) {
    const w = await measure(id, path, member ? { cookie: member.cookie } : {});
    rows.push([id, member ? `${path} (member)` : path, ...weightCells(w)]);
    if (member && path === listed) table(`Modules of ${id} ${path} (brotli KB)`, ['module', 'js br'], w.modules.map((m) => [m.url, kb(m.br)]));
  }
  table('Page weight (KB; br = brotli q11; JS is every module the page loads through static imports)', ['brand', 'page', ...WEIGHT_HEAD], rows);
}

if (sections.has('memory')) await brandsMemory();

if (sections.has('weight') || sections.has('memory')) {
  const rt = await startRuntime('sqlite');
  try {
    if (sections.has('memory')) await memory(rt);
    // BENCH_WEIGHT_BRANDS=velvet,spetter: the brands whose member pages are weighed (a member signed up on each).
    const brands = (process.env.BENCH_WEIGHT_BRANDS ?? 'velvet').split(',');
    if (sections.has('weight')) await weight(rt, await Promise.all(brands.map((id) => signUp(rt, id))));
  } finally {
    await rt.close();
  }
}

// Lighthouse on a phone, every brand's public and member pages (bench/lighthouse.ts)
if (sections.has('lighthouse')) await lighthouseSection();

// N generated brands built, served and loaded (issue 25, bench/brands.ts): only when named
if (sections.has('brands')) await brandsSection();
if (sections.has('loaded')) await brandsLoadedSection();

console.log(`\nbench: done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
