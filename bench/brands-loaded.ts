/**
 * A lander and /members with N brands loaded, in minutes rather than the `brands` section's hours
 * (issue 25; `npm run bench -- loaded`, BENCH_LOADED_N=3,1000): N tenant folders (bench/brand-copies.ts)
 * and a dist folder holding only a copy of the checkout's program (dist/_programs, 8 MB), so that no
 * brand is built: the brand under load is rendered from the program on its first request, as a
 * new brand is (docs/ONE-BUILD.md step 4), and the other N - 1 are loaded as tenants only. What
 * each request costs for the number of brands (its Host looked up among them, the registry's
 * rescans, the lists per brand) is measured; the memory of N brands served is the `brands`
 * section's.
 *
 * Each N gets a runtime of its own (SQLite, BENCH_BRANDS_MEMBERS demo people per brand, default 5)
 * and the two pages under load beside bare node:http; the Ns take turns BENCH_LOADED_ROUNDS times
 * (default 2), since the machine's speed drifts. Prints the ratio to bare and the runtime's CPU time
 * per request (from /proc: the steadier figure on shared cores). It only reports.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brandCopies, writeBrandCopies, type Source } from './brand-copies.ts';
import { REPO, SECONDS, SIGNUP, loadBeside, ratio, signUp, startBare, startRuntime, table, type Bare } from './lib.ts';
import { BUILD_STAMP, PROGRAMS_FOLDER } from '../src/server/programs.ts';

const loadAverage = () => loadavg().map((l) => l.toFixed(1)).join(' / ');

/**
 * Waits until the brand's output is whole: its first visitor is served before the rest of its pages
 * are written (and the whole rendered again when the stylesheet of every page differs), work that
 * would be counted against the load. Whole: its stamp and its files unchanged for five seconds.
 */
async function outputSettled(distDir: string, id: string): Promise<void> {
  const shape = () => {
    const stamp = statSync(join(distDir, id, BUILD_STAMP), { throwIfNoEntry: false });
    const files = existsSync(join(distDir, id)) ? readdirSync(join(distDir, id), { recursive: true }).length : 0;
    return `${stamp?.mtimeMs}/${stamp?.ino}/${files}`;
  };
  let last = shape();
  for (let still = 0; still < 5; ) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = shape();
    still = now === last ? still + 1 : 0;
    last = now;
  }
}

/** One runtime over N brand copies, only the first rendered: its lander and /members under load. */
async function loadedRun(n: number, round: number, bare: Bare, rows: (string | number)[][]): Promise<void> {
  const sources = Object.fromEntries((['spetter', 'velvet'] as const).map((s) => [s, JSON.parse(readFileSync(join(REPO, 'tenants', s, 'tenant.json'), 'utf8')) as Record<string, unknown>])) as Record<Source, Record<string, unknown>>;
  const root = mkdtempSync(join(tmpdir(), 'sitegen-bench-loaded-'));
  try {
    const copies = brandCopies(n, sources);
    writeBrandCopies(join(root, 'tenants'), join(REPO, 'tenants'), copies);
    mkdirSync(join(root, 'dist'));
    cpSync(join(REPO, 'dist', PROGRAMS_FOLDER), join(root, 'dist', PROGRAMS_FOLDER), { recursive: true });
    const members = Number(process.env.BENCH_BRANDS_MEMBERS ?? 5);
    const rt = await startRuntime('sqlite', { photos: false, members, env: { TENANTS_DIR: join(root, 'tenants'), DIST_DIR: join(root, 'dist') } });
    try {
      const { id, source } = copies[0]!;
      const member = await signUp(rt, id, SIGNUP[source]);
      for (const [page, path, headers] of [
        ['lander, visitor', '/landers/tinderswipe', {}],
        ['/members, logged in', '/members', { cookie: member.cookie }],
      ] as const) {
        // The first request renders the brand's output; the load starts once it is written.
        const first = await rt.get(id, path, headers);
        if (first.status !== 200) throw new Error(`${n} brands: ${id} ${path} answered ${first.status}`);
        await outputSettled(join(root, 'dist'), id);
        const bytes = (await rt.get(id, path, headers)).body.length;
        const { got, bare: base, loop, cpuUs } = await loadBeside(rt, bare, id, path, headers, bytes);
        const failed = got.non2xx + got.errors;
        rows.push([n, round, page, got.rps.toFixed(0), base.toFixed(0), ratio(got.rps, base), cpuUs.toFixed(0), loop.p99.toFixed(1), new Date().toISOString().slice(11, 16), loadAverage(), failed ? `${failed} failed` : '']);
        console.log(`  ${n} brands, round ${round}, ${page}: ${got.rps.toFixed(0)} req/s (bare ${base.toFixed(0)}), ${cpuUs.toFixed(0)} µs CPU a request, load ${loadAverage()}`);
      }
    } finally {
      await rt.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function brandsLoadedSection(): Promise<void> {
  if (!existsSync(join(REPO, 'dist', PROGRAMS_FOLDER))) throw new Error('bench loaded: no dist/_programs (npm run build first)');
  const counts = (process.env.BENCH_LOADED_N ?? '3,1000').split(',').map(Number);
  const rounds = Number(process.env.BENCH_LOADED_ROUNDS ?? 2);
  const rows: (string | number)[][] = [];
  const bare = await startBare();
  try {
    for (let round = 1; round <= rounds; round++) for (const n of counts) await loadedRun(n, round, bare, rows);
  } finally {
    await bare.close();
  }
  table(
    `N brands loaded, only the one under load rendered: a lander and /members (50 connections, ${SECONDS} s), beside bare node:http answering the same body size just before and after`,
    ['brands', 'round', 'request', 'req/s', 'bare req/s', 'ratio', 'CPU µs a request', 'loop p99 ms', 'UTC', 'load average', ''],
    rows,
  );
}
