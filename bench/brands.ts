/**
 * N brands (issue 25, docs/ONE-BUILD.md step 5; `npm run bench -- brands`, BENCH_BRANDS_N=20,100,1000):
 * for each N, copies of spetter and velvet (bench/brand-copies.ts) in a tenants folder and a dist
 * folder of the bench's own (TENANTS_DIR, DIST_DIR), then
 *
 * - the builds, through the CLI as an operator runs them (whatever `sitegen build` does): first
 *   `sitegen build <id>` of one brand per language set alone (each makes its set's program), then
 *   one `sitegen build <every other id>` (the brands' own output);
 * - one runtime over them (`sitegen serve`, SQLite, NODE_ENV=production, the demo people of every
 *   brand seeded): each brand serves its home and a lander to a visitor and /members, a profile and
 *   /profile to a member signed up on it; the runtime's RSS before and after;
 * - a lander and /members under load with N brands loaded, beside bare node:http and beside the
 *   same two pages of a runtime over the checkout's own brands (dist/), in the same run;
 * - `sitegen new` while the runtime runs: until its settings.php names the new brand, and until the
 *   brand's home page is served.
 *
 * It only reports. BENCH_BRANDS_MEMBERS: demo people per brand (default the seed's 300);
 * BENCH_BRANDS_KEEP=1 keeps the folders (their path is printed); BENCH_BRANDS_BUILDS=link builds
 * one brand per language set and links the others to it (see linkBuild).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { BUILD_STAMP, type BuildStamp } from '../src/server/programs.ts';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brandCopies, copyColours, writeBrandCopies, type BrandCopy, type Source } from './brand-copies.ts';
import { REPO, SECONDS, SIGNUP, loadBeside, ratio, signUp, startBare, startRuntime, table, type Bare, type Runtime } from './lib.ts';

const TENANTS = join(REPO, 'tenants');
const MB = 2 ** 20;
const seconds = (since: number) => (performance.now() - since) / 1000;
const loadAverage = () => loadavg().map((l) => l.toFixed(1)).join(' / ');

/** `sitegen <args>` on the bench's folders (SQLite: nothing is published), timed from start to exit; its output is kept. */
function sitegen(args: string[], env: NodeJS.ProcessEnv): { done: Promise<{ seconds: number; output: string }> } {
  const started = performance.now();
  const child = spawn(process.execPath, ['cli/main.ts', ...args], { cwd: REPO, env: { ...process.env, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c));
  child.stderr.on('data', (c: Buffer) => (output += c));
  const done = new Promise<{ seconds: number; output: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve({ seconds: seconds(started), output }) : reject(new Error(`sitegen ${args.slice(0, 3).join(' ')} … exited ${code}:\n${output.slice(-2000)}`))));
  });
  return { done };
}

/** The seconds `sitegen build` printed per brand ("sitegen: built <id> in <s> s"); none when it prints no such line. */
const builtSeconds = (output: string) => [...output.matchAll(/^sitegen: built (\S+) in ([\d.]+) s$/gm)].map((m) => Number(m[2]));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN;
}

/** Bytes of every file under a folder; links are not followed (dist/node_modules is a link to the checkout's). */
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

interface Folders {
  root: string;
  tenantsDir: string;
  distDir: string;
  env: NodeJS.ProcessEnv;
}

function makeFolders(copies: BrandCopy[]): Folders {
  const root = mkdtempSync(join(tmpdir(), 'sitegen-bench-brands-'));
  const tenantsDir = join(root, 'tenants');
  const distDir = join(root, 'dist');
  writeBrandCopies(tenantsDir, TENANTS, copies);
  return { root, tenantsDir, distDir, env: { TENANTS_DIR: tenantsDir, DIST_DIR: distDir } };
}

/**
 * The builds: one brand per language set alone (the first builds the one program, docs/ONE-BUILD.md
 * step 3; the others find it), then every other brand in one `sitegen build`.
 */
async function build(copies: BrandCopy[], folders: Folders, rows: (string | number)[][]): Promise<void> {
  const n = copies.length;
  const firsts = new Map<string, BrandCopy>();
  for (const copy of copies) if (!firsts.has(copy.languages.join(','))) firsts.set(copy.languages.join(','), copy);
  for (const [languages, copy] of firsts) {
    const first = copy === firsts.values().next().value;
    const { seconds: s } = await sitegen(['build', copy.id], folders.env).done;
    rows.push([n, `sitegen build ${copy.id} (${copy.source}, ${languages}: ${first ? 'the program, then its output' : 'its output, the program there'})`, s.toFixed(1), '', loadAverage()]);
    console.log(`  ${n} brands: built ${copy.id} (${languages}) in ${s.toFixed(1)} s, load ${loadAverage()}`);
  }
  const rest = copies.filter((c) => firsts.get(c.languages.join(','))!.id !== c.id);
  if (!rest.length) return;
  if (process.env.BENCH_BRANDS_BUILDS === 'link') {
    const linking = performance.now();
    for (const copy of rest) linkBuild(folders.distDir, firsts.get(copy.languages.join(','))!.id, copy.id);
    rows.push([n, `the other ${rest.length} brands: their language set's first build linked (cp -al), not built`, seconds(linking).toFixed(1), "pages name the first brand; the runtime's work and memory per brand are the same", loadAverage()]);
    return;
  }
  const { seconds: s, output } = await sitegen(['build', ...rest.map((c) => c.id)], folders.env).done;
  const each = builtSeconds(output);
  const printed = each.length ? `median ${median(each).toFixed(1)} s, max ${Math.max(...each).toFixed(1)} s a brand` : '';
  rows.push([n, `sitegen build <the other ${rest.length}> (every brand's output)`, s.toFixed(1), `${(s / rest.length).toFixed(2)} s a brand; ${printed}`, loadAverage()]);
  const dist = folderBytes(folders.distDir);
  rows.push([n, 'dist/ on disk', '', `${(dist / MB).toFixed(0)} MB, ${(dist / MB / n).toFixed(1)} MB a brand`, '']);
}

/**
 * BENCH_BRANDS_BUILDS=link: dist/<id> as hard links to the files of dist/<from> (no disk, no build),
 * with a stamp of its own (a new file: writing through the link would change <from>'s). For the
 * runtime's figures at an N whose builds would take hours today; every page names <from>'s brand.
 */
function linkBuild(distDir: string, from: string, id: string): void {
  // -L: dist/<from> is a link to its current version (src/server/output-folders.ts); the copy is a folder of its own.
  const copied = spawnSync('cp', ['-alL', join(distDir, from), join(distDir, id)]);
  if (copied.status !== 0) throw new Error(`cp -alL ${from} ${id}: ${copied.stderr}`);
  const stamp = join(distDir, id, BUILD_STAMP);
  const fields = JSON.parse(readFileSync(stamp, 'utf8')) as BuildStamp;
  rmSync(stamp);
  writeFileSync(stamp, JSON.stringify({ ...fields, id }));
}

/** Every brand's home and lander to a visitor, /members, a profile and /profile to a member of it; RSS after each brand. */
async function servePages(rt: Runtime, copies: BrandCopy[]): Promise<{ started: number; after: number[]; firsts: Set<string> }> {
  const started = rt.rss();
  const after: number[] = [];
  const seen = new Set<string>();
  const firsts = new Set<string>();
  for (const copy of copies) {
    if (!seen.has(copy.languages.join(','))) firsts.add(copy.id);
    seen.add(copy.languages.join(','));
    const member = await signUp(rt, copy.id, SIGNUP[copy.source]);
    const pages: [string, Record<string, string>][] = [
      ['/', {}],
      ['/landers/tinderswipe', {}],
      ['/members', { cookie: member.cookie }],
      [`/members/${member.profileId}`, { cookie: member.cookie }],
      ['/profile', { cookie: member.cookie }],
    ];
    for (const [path, headers] of pages) {
      const res = await rt.get(copy.id, path, headers);
      if (res.status !== 200) throw new Error(`${copy.id} ${path} answered ${res.status}`);
    }
    after.push(rt.rss());
  }
  return { started, after, firsts };
}

/** The lander to a visitor and /members to a member of `tenant`, each under load beside bare node:http. */
async function throughput(rt: Runtime, bare: Bare, tenant: string, source: Source, what: string, rows: (string | number)[][]): Promise<void> {
  const member = await signUp(rt, tenant, SIGNUP[source]);
  for (const [page, path, headers] of [
    ['lander, visitor', '/landers/tinderswipe', {}],
    ['/members, logged in', '/members', { cookie: member.cookie }],
  ] as const) {
    const bytes = (await rt.get(tenant, path, headers)).body.length;
    const { got, bare: base, loop } = await loadBeside(rt, bare, tenant, path, headers, bytes);
    const failed = got.non2xx + got.errors;
    rows.push([what, page, got.rps.toFixed(0), got.p50.toFixed(0), got.p99.toFixed(0), base.toFixed(0), ratio(got.rps, base), loop.p99.toFixed(1), loadAverage(), failed ? `${failed} failed` : '']);
    console.log(`  ${what} ${page}: ${got.rps.toFixed(0)} req/s (bare ${base.toFixed(0)}), load ${loadAverage()}`);
  }
}

/**
 * `sitegen new` while the runtime runs: when the CLI exits, when settings.php names the brand, when
 * its home page is served (rendered by the runtime on that request, docs/ONE-BUILD.md step 4), and
 * that last less the first: the seconds from the command's return to the brand's home.
 */
async function newBrand(rt: Runtime, folders: Folders, n: number): Promise<(string | number)[]> {
  const id = 'benchnew';
  const domain = `${id}.example`;
  const { primary } = copyColours(n + 1);
  const started = performance.now();
  const cli = sitegen(['new', id, '--domain', domain, '--locales', 'nl', '--primary', primary], folders.env);
  let exited: number | undefined;
  let failure: unknown;
  void cli.done.then(
    (r) => (exited = r.seconds),
    (error: unknown) => (failure = error),
  );
  let settings: number | undefined;
  let home: number | undefined;
  while (home === undefined || exited === undefined) {
    if (failure) throw failure;
    if (exited !== undefined && seconds(started) > exited + 60) throw new Error(`sitegen new ${id} exited after ${exited.toFixed(1)} s and its home was not served a minute later`);
    if (settings === undefined) {
      // An unknown host is answered by the default brand: the brand is there when its own domain comes back.
      const res = await rt.get(id, '/api/settings.php');
      if (res.status === 200 && res.json<{ settings: { domain: string } }>().settings.domain === domain) settings = seconds(started);
    } else if (home === undefined) {
      // Once the host names the brand, a 200 for its home is the brand's own page.
      if ((await rt.get(id, '/')).status === 200) home = seconds(started);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return [n, exited.toFixed(1), settings!.toFixed(2), home.toFixed(1), Math.max(0, home - exited).toFixed(1), loadAverage()];
}

export async function brandsSection(): Promise<void> {
  const counts = (process.env.BENCH_BRANDS_N ?? '20').split(',').map(Number);
  const sources = Object.fromEntries((['spetter', 'velvet'] as const).map((s) => [s, JSON.parse(readFileSync(join(TENANTS, s, 'tenant.json'), 'utf8')) as Record<string, unknown>])) as Record<Source, Record<string, unknown>>;
  const perBrand = process.env.BENCH_BRANDS_MEMBERS ? Number(process.env.BENCH_BRANDS_MEMBERS) : undefined;
  const buildRows: (string | number)[][] = [];
  const memoryRows: (string | number)[][] = [];
  const loadRows: (string | number)[][] = [];
  const newRows: (string | number)[][] = [];
  const bare = await startBare();
  try {
    // Today's figure beside: the checkout's own brands and build (dist/), the same pages of spetter.
    if (existsSync(join(REPO, 'dist', 'spetter'))) {
      const rt = await startRuntime('sqlite', { photos: false, members: perBrand });
      try {
        await throughput(rt, bare, 'spetter', 'spetter', "the checkout's brands (spetter)", loadRows);
      } finally {
        await rt.close();
      }
    }
    for (const n of counts) {
      const copies = brandCopies(n, sources);
      const folders = makeFolders(copies);
      console.log(`  ${n} brands in ${folders.root}, load ${loadAverage()}`);
      try {
        const built = performance.now();
        await build(copies, folders, buildRows);
        buildRows.push([n, 'every build', seconds(built).toFixed(1), '', loadAverage()]);
        const starting = performance.now();
        const rt = await startRuntime('sqlite', { photos: false, members: perBrand, env: folders.env });
        console.log(`  ${n} brands: seeded and serving in ${seconds(starting).toFixed(0)} s, load ${loadAverage()}`);
        try {
          const served = performance.now();
          const { started, after, firsts } = await servePages(rt, copies);
          const growth = after.map((rss, i) => rss - (i ? after[i - 1]! : started));
          const programs = copies.map((c, i) => (firsts.has(c.id) ? growth[i]! : NaN)).filter((g) => !Number.isNaN(g));
          const others = copies.map((c, i) => (firsts.has(c.id) ? NaN : growth[i]!)).filter((g) => !Number.isNaN(g));
          const last = after.at(-1)!;
          memoryRows.push([
            n,
            (started / MB).toFixed(0),
            (last / MB).toFixed(0),
            ((last - started) / MB / n).toFixed(2),
            programs.length ? `${(median(programs) / MB).toFixed(1)} (${programs.length})` : '-',
            others.length ? (median(others) / MB).toFixed(2) : '-',
            seconds(served).toFixed(0),
            loadAverage(),
          ]);
          await throughput(rt, bare, copies[0]!.id, copies[0]!.source, `${n} brands (${copies[0]!.id})`, loadRows);
          newRows.push(await newBrand(rt, folders, n));
        } finally {
          await rt.close();
        }
      } finally {
        if (process.env.BENCH_BRANDS_KEEP === '1') console.log(`  kept ${folders.root}`);
        else rmSync(folders.root, { recursive: true, force: true });
      }
    }
  } finally {
    await bare.close();
  }
  table('N brands: the builds through the CLI (seconds from start to exit)', ['brands', 'build', 'seconds', '', 'load average (1/5/15 min)'], buildRows);
  table(
    'N brands: the runtime\'s RSS (MB) after every brand served its home and a lander to a visitor, /members, a profile and /profile to a member (target < 1,536 MB at 1,000 brands)',
    ['brands', 'started', 'after every brand', 'per brand', 'first brand of a language set (brands)', 'any other brand (median)', 'seconds', 'load average'],
    memoryRows,
  );
  table(`N brands: a lander and /members under load (50 connections, ${SECONDS} s), beside bare node:http answering the same body size just before and after`, ['runtime', 'request', 'req/s', 'p50 ms', 'p99 ms', 'bare req/s', 'ratio', 'loop p99 ms', 'load average', ''], loadRows);
  table('N brands: `sitegen new benchnew` (nl) while the runtime serves N brands (seconds from the command\'s start)', ['brands', 'command exits', 'settings.php names it', 'its home is served', 'home after the command returned', 'load average'], newRows);
}
