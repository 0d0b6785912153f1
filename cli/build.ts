import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, TENANTS_DIR, DIST_DIR, CONTENT_DIR } from './paths.ts';
import { precompress } from '../src/server/precompress.ts';
import { preloadShellModules } from './module-preload.ts';
import { CONSOLE_BUILD } from '../src/server/http/console-pages.ts';
import { compile } from '@inlang/paraglide-js';
import { listTenantIds, loadAllTenants, loadTenant, loadValidTenants } from '../src/tenant/load.ts';
import type { Tenant } from '../src/tenant/schema.ts';
import { BUILD_STAMP as STAMP, PROGRAMS_FOLDER, programDir, readBuildStamp } from '../src/server/programs.ts';
import { brandInputs, readSharedTexts, type SharedTexts } from '../src/server/output-dependencies.ts';
import { filesUnder, isWholeProgram, linkNodeModules, newestMtime, programRecordFile, writeBrandOutput, type ProgramRecord } from '../src/server/brand-output.ts';
import { publishOutput, pruneOutputs } from '../src/server/output-folders.ts';

/**
 * The program's sources: a build older than any of them is stale. The texts marketers edit that
 * every brand shares (content/pages/, tenants/_defaults/landers/) are not among them: the runtime
 * reads them when it renders a brand's output, and a brand's output is stale when a text it shows
 * changed (its stamp's fingerprint, src/server/output-dependencies.ts; docs/ONE-BUILD.md step 6).
 */
const SHARED_SOURCES = ['src', 'locales', 'astro.config.mjs', 'cli/locale-clients.ts', 'uno.config.ts', 'project.inlang/settings.json', 'package.json'];

/** The shared texts as they are now (about 100 small files: read once a run, not once a brand). */
export function sharedTexts(): SharedTexts {
  return readSharedTexts({ tenantsDir: TENANTS_DIR, contentDir: CONTENT_DIR });
}

/** The newest change among the program's sources. */
function sharedSourcesMtime(): number {
  return Math.max(...SHARED_SOURCES.map((p) => newestMtime(join(REPO_ROOT, p))));
}

/** The newest change among the sources of one tenant's build. */
export function sourcesMtime(id: string): number {
  return Math.max(sharedSourcesMtime(), newestMtime(join(TENANTS_DIR, id)));
}

/** True when dist/<id> is missing, older than its sources, or shows shared texts or pool brands that changed since. */
export function isStale(id: string, shared: SharedTexts = sharedTexts(), tenants: readonly Tenant[] = loadValidTenants(TENANTS_DIR)): boolean {
  const stamp = readBuildStamp(DIST_DIR, id);
  if (!stamp) return true;
  // A build of its own server code (before programs), or one naming a program that must be whole.
  if (stamp.program === undefined ? !existsSync(join(DIST_DIR, id, 'server', 'entry.mjs')) : !isWholeProgram(DIST_DIR, stamp.program)) return true;
  if (sourcesMtime(id) > stamp.sources) return true;
  return stamp.shared?.fingerprint !== sharedInputsOf(id, shared, tenants)?.fingerprint;
}

/** What a brand's output would show of the shared texts now (undefined for an invalid tenant: its build says why). */
function sharedInputsOf(id: string, shared: SharedTexts, tenants: readonly Tenant[]) {
  try {
    return brandInputs(loadTenant(id, TENANTS_DIR), TENANTS_DIR, shared, tenants);
  } catch {
    return undefined;
  }
}

/**
 * The full message project compiled to src/paraglide: the types every page and island is checked
 * against (`npm run typecheck`). The program compiles its own copy, for per-locale clients
 * (astro.config.mjs); nothing is bundled from this one.
 */
async function compileMessageTypes(): Promise<void> {
  // Only when the messages changed: compiling recreates src/paraglide, which changes the mtime of
  // src/ and would make every program look older than its sources (programOf).
  const out = join(REPO_ROOT, 'src', 'paraglide');
  const messages = Math.max(newestMtime(join(REPO_ROOT, 'locales')), newestMtime(join(REPO_ROOT, 'project.inlang', 'settings.json')));
  if (existsSync(join(out, 'messages.js')) && statSync(join(out, 'messages.js')).mtimeMs > messages) return;
  await compile({ project: join(REPO_ROOT, 'project.inlang'), outdir: join(REPO_ROOT, 'src', 'paraglide'), strategy: ['globalVariable', 'baseLocale'], emitGitIgnore: true });
}

/** `astro build` in a child process; `args` pick the config (the console's is `--root console`). */
function runAstro(what: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--silent', ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...env, TENANTS_DIR, ASTRO_TELEMETRY_DISABLED: '1' },
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`astro build for ${what} failed with exit code ${code}`))));
  });
}

/**
 * The key Astro writes into a build's manifest (it encrypts server islands' props; none are used
 * here). Astro makes a random one per build unless ASTRO_KEY is set, which would make every brand's
 * program differ: ASTRO_KEY from the environment, else one made once per dist/ folder.
 */
function astroKey(): string {
  if (process.env.ASTRO_KEY) return process.env.ASTRO_KEY;
  const file = join(DIST_DIR, '.astro-key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/** The folder every program is built in (see buildProgram). */
const BUILD_FOLDER = '.build.next';

/**
 * The brands' builds, one after another, and one `sitegen build` at a time per dist/ folder (they
 * share the Paraglide output and the folder programs are built in). A brand's build is the
 * program (one Astro build for every brand and language, made once and kept, docs/ONE-BUILD.md)
 * and its static output rendered from it; it is made in dist/.<id>.next, which replaces dist/<id> only when
 * complete, so a running runtime keeps serving the old build until the new one is whole.
 */
export async function buildTenants(ids: string[]): Promise<{ id: string; seconds: number }[]> {
  if (!ids.length) return [];
  return withBuildLock(async () => {
    linkNodeModules(DIST_DIR);
    await compileMessageTypes();
    // Every tenant file read and validated once a run, not once a brand: each brand's privacy page
    // names the brands of its pool, and reading 1,000 files took about 1 s a brand (bench/README.md).
    const tenants = loadAllTenants(TENANTS_DIR);
    const shared = sharedTexts();
    const timings: { id: string; seconds: number }[] = [];
    for (const id of ids) timings.push(await buildTenant(id, tenants, shared));
    pruneRemovedBrands();
    prunePrograms();
    return timings;
  });
}

/**
 * The program, built when missing or stale (what `sitegen new` waits for only then, whatever the
 * brand's languages: a running runtime renders the brand's output from it on the first request,
 * brand-output.ts).
 */
export async function ensureProgram(): Promise<void> {
  await withBuildLock(async () => {
    linkNodeModules(DIST_DIR);
    await compileMessageTypes();
    await programOf();
  });
}

/**
 * One brand's build: the program (built when missing or older than its sources),
 * the brand's assets, its static output rendered from the
 * program (src/server/static-output.ts) with compressed copies, put in place of the old.
 */
async function buildTenant(id: string, tenants: Tenant[], shared: SharedTexts): Promise<{ id: string; seconds: number }> {
  const started = performance.now();
  const sources = sourcesMtime(id);
  const tenant = tenants.find((t) => t.id === id) ?? loadTenant(id, TENANTS_DIR);
  const program = await programOf();
  console.log(`sitegen: building ${id} …`);
  await writeBrandOutput({
    tenantsDir: TENANTS_DIR,
    distDir: DIST_DIR,
    tenant,
    program,
    sources,
    next: join(DIST_DIR, `.${id}.next`),
    tenants,
    shared,
    // Off unless asked (bench/README.md "Module preloads"): on the runtime's HTTP/1.1 the links took
    // the browser's six connections before the first card's photo and made the profile's LCP later.
    beforeCompress: process.env.SITEGEN_MODULE_PRELOAD === '1' ? preloadShellModules : undefined,
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(`sitegen: built ${id} in ${seconds.toFixed(1)} s`);
  return { id, seconds };
}

/** The program: the one built before when it is whole and its sources have not changed since, else a new one. */
async function programOf(): Promise<string> {
  const sources = sharedSourcesMtime();
  const known = readProgramRecord();
  if (known && known.sources >= sources && isWholeProgram(DIST_DIR, known.program)) return known.program;
  const program = await buildProgram();
  writeFileSync(programRecordFile(DIST_DIR), JSON.stringify({ program, sources } satisfies ProgramRecord));
  return program;
}

function readProgramRecord(): ProgramRecord | undefined {
  try {
    return JSON.parse(readFileSync(programRecordFile(DIST_DIR), 'utf8')) as ProgramRecord;
  } catch {
    return undefined; // not built yet
  }
}

/**
 * The locales whose islands get a client of their own (SITEGEN_CLIENT_LOCALES in astro.config.mjs):
 * those some brand speaks when the program is built, or what SITEGEN_CLIENT_LOCALES says
 * (`all`: the whole catalogue). Each costs a client build (2-3 s); a page in a locale without
 * one names the all-languages client, which is correct and larger, until the next program build
 * (docs/ONE-BUILD.md step 3: a brand of a new language needs no build to be served).
 */
function clientLocales(): string {
  if (process.env.SITEGEN_CLIENT_LOCALES) return process.env.SITEGEN_CLIENT_LOCALES;
  const spoken = new Set<string>();
  for (const id of listTenantIds(TENANTS_DIR)) {
    try {
      for (const locale of loadTenant(id, TENANTS_DIR).locales.available) spoken.add(locale);
    } catch {
      // An invalid tenant file is reported by its own build (and `sitegen check`).
    }
  }
  return [...spoken].sort().join(',');
}

/**
 * The one Astro build of the site, in dist/.build.next: the same folder for every build, because
 * Astro writes its path into the server code, so equal sources build the same program. Its client
 * is built once with every language and once per locale some brand speaks (cli/locale-clients.ts,
 * clientLocales), whatever the number of brands. Its assets are compressed once here, and it is
 * kept under dist/_programs/.
 */
async function buildProgram(): Promise<string> {
  const started = performance.now();
  const next = join(DIST_DIR, BUILD_FOLDER);
  rmSync(next, { recursive: true, force: true });
  const locales = clientLocales();
  console.log(`sitegen: building the program (a client of its own for ${locales}) …`);
  await runAstro('the program', [], { SITEGEN_OUT_DIR: next, SITEGEN_CLIENT_LOCALES: locales, ASTRO_KEY: astroKey() });
  await precompress(join(next, 'client'));
  const program = keepProgram(next);
  rmSync(next, { recursive: true, force: true });
  console.log(`sitegen: built the program ${program} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return program;
}

/**
 * Runs `build` while holding dist/.build.lock, a folder (mkdir is atomic) holding the builder's
 * pid: another `sitegen build` on the same dist/ waits for it; a lock whose process has gone is
 * taken over.
 */
async function withBuildLock<T>(build: () => Promise<T>): Promise<T> {
  const lock = join(DIST_DIR, '.build.lock');
  mkdirSync(DIST_DIR, { recursive: true });
  let waiting = false;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (holderGone(join(lock, 'pid'))) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!waiting) console.log('sitegen: waiting for another build of this dist/ folder to finish …');
    waiting = true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  try {
    return await build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Whether the process named in a lock's pid file has ended (a lock without one is still being taken). */
function holderGone(pidFile: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8'));
  } catch {
    return false;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Names a build's server code by its SHA-256 and keeps it with its assets under dist/_programs/
 * for every brand (src/server/programs.ts).
 */
function keepProgram(next: string): string {
  const server = join(next, 'server');
  const hash = createHash('sha256');
  for (const file of filesUnder(server)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(server, file)));
    hash.update('\0');
  }
  const program = hash.digest('hex').slice(0, 16);
  const dir = programDir(DIST_DIR, program);
  if (!isWholeProgram(DIST_DIR, program)) {
    const copy = `${dir}.${process.pid}.next`;
    rmSync(copy, { recursive: true, force: true });
    cpSync(server, join(copy, 'server'), { recursive: true });
    cpSync(join(next, 'client'), join(copy, 'client'), { recursive: true });
    rmSync(dir, { recursive: true, force: true });
    renameSync(copy, dir);
  }
  return program;
}

/**
 * Deletes the outputs of brands whose tenant folder is gone (and versions replaced long enough
 * ago): never the programs, the console's build or another `_` folder (src/server/output-folders.ts).
 */
export function pruneRemovedBrands(): void {
  // A tenants/ folder that is not there is a mistake of configuration, not every brand removed.
  if (!existsSync(TENANTS_DIR)) return;
  // Every folder counts, a brand's tenant.json half written or not.
  const removed = pruneOutputs(DIST_DIR, readdirSync(TENANTS_DIR));
  if (removed.length) console.log(`sitegen: removed the output of ${removed.join(', ')} (no folder in tenants/ any more)`);
}

/** Removes the programs no brand's build names any more (a release leaves the previous one behind), and their records. */
function prunePrograms(): void {
  const folder = join(DIST_DIR, PROGRAMS_FOLDER);
  if (!existsSync(folder)) return;
  const named = new Set(listTenantIds(TENANTS_DIR).map((id) => readBuildStamp(DIST_DIR, id)?.program));
  for (const entry of readdirSync(folder)) {
    if (entry.endsWith('.next')) continue;
    const program = entry.endsWith('.json') ? (JSON.parse(readFileSync(join(folder, entry), 'utf8')) as ProgramRecord).program : entry;
    if (!named.has(program)) rmSync(join(folder, entry), { recursive: true, force: true });
  }
}

/**
 * What the console's one build reads (DESIGN §11, issue 22): its own folder, and the contract and
 * pure rules it shares with the runtime. A brand's files never change it.
 */
const CONSOLE_SOURCES = ['console', 'src/contract', 'src/lib', 'src/stores/browser-only.ts', 'package.json'];

export function consoleSourcesMtime(): number {
  return Math.max(...CONSOLE_SOURCES.map((p) => newestMtime(join(REPO_ROOT, p))));
}

/** True when dist/_console is missing or older than its sources. */
export function isConsoleStale(): boolean {
  const stamp = join(DIST_DIR, CONSOLE_BUILD, STAMP);
  if (!existsSync(stamp)) return true;
  const { sources } = JSON.parse(readFileSync(stamp, 'utf8')) as { sources: number };
  return consoleSourcesMtime() > sources;
}

/**
 * The operator console: ONE static Astro build (console/astro.config.mjs) for every brand, whatever
 * their number, into dist/_console, precompressed like a brand's client folder.
 */
export async function buildConsole(): Promise<{ seconds: number }> {
  const started = performance.now();
  const sources = consoleSourcesMtime();
  const next = join(DIST_DIR, `.${CONSOLE_BUILD}.next`);
  rmSync(next, { recursive: true, force: true });
  linkNodeModules(DIST_DIR);
  console.log('sitegen: building the console …');
  await runAstro('the console', ['--root', join(REPO_ROOT, 'console')], { SITEGEN_OUT_DIR: next });
  await precompress(next);
  writeFileSync(join(next, STAMP), JSON.stringify({ id: CONSOLE_BUILD, sources, built: new Date().toISOString() }));
  publishOutput(DIST_DIR, CONSOLE_BUILD, next);
  const seconds = (performance.now() - started) / 1000;
  console.log(`sitegen: built the console in ${seconds.toFixed(1)} s`);
  return { seconds };
}

/** Builds what `sitegen start` and `dev` need before serving: the tenants' builds older than their sources, the programs of those with none, and the console when stale. */
export async function buildStale(): Promise<void> {
  pruneRemovedBrands();
  const shared = sharedTexts();
  const tenants = loadValidTenants(TENANTS_DIR);
  const stale = listTenantIds(TENANTS_DIR).filter((id) => isStale(id, shared, tenants));
  // A brand with no output at all (a fresh clone, a new brand) needs only its program: the runtime
  // renders its output on its first request, a visitor's own page first. One whose output is older
  // than its sources is built again here, or the runtime would serve the old one (brand-output.ts).
  const unbuilt = stale.filter((id) => readBuildStamp(DIST_DIR, id) === undefined);
  if (unbuilt.length) await ensureProgram();
  const older = stale.filter((id) => !unbuilt.includes(id));
  if (older.length) await buildTenants(older);
  if (isConsoleStale()) await buildConsole();
}
