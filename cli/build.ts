import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { REPO_ROOT, TENANTS_DIR, DIST_DIR } from './paths.ts';
import { precompress } from './precompress.ts';
import { preloadShellModules } from './module-preload.ts';
import { CONSOLE_BUILD } from '../src/server/http/console-pages.ts';
import { compile } from '@inlang/paraglide-js';
import { listTenantIds, loadTenant } from '../src/tenant/load.ts';

/** Sources every tenant build reads; a build older than any of them is stale. */
const SHARED_SOURCES = ['src', 'locales', 'content', 'tenants/_defaults', 'astro.config.mjs', 'uno.config.ts', 'project.inlang/settings.json', 'package.json'];
const STAMP = '.sitegen-build.json';

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'paraglide' || entry === 'node_modules' || entry === '.astro') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** The newest change among the sources of one tenant's build. */
export function sourcesMtime(id: string): number {
  return Math.max(...SHARED_SOURCES.map((p) => newestMtime(join(REPO_ROOT, p))), newestMtime(join(TENANTS_DIR, id)));
}

/** True when dist/<id> is missing or older than its sources. */
export function isStale(id: string): boolean {
  const stamp = join(DIST_DIR, id, STAMP);
  if (!existsSync(stamp) || !existsSync(join(DIST_DIR, id, 'server', 'entry.mjs'))) return true;
  const { sources } = JSON.parse(readFileSync(stamp, 'utf8')) as { sources: number };
  return sourcesMtime(id) > sources;
}

/**
 * The full message project compiled to src/paraglide: the types every page and island is checked
 * against (`npm run typecheck`). Builds compile their own copy with the brand's languages only
 * (astro.config.mjs); nothing is bundled from this one.
 */
async function compileMessageTypes(): Promise<void> {
  await compile({ project: join(REPO_ROOT, 'project.inlang'), outdir: join(REPO_ROOT, 'src', 'paraglide'), strategy: ['globalVariable', 'baseLocale'], emitGitIgnore: true });
}

/** `astro build` in a child process; `args` pick the config (the console's is `--root console`). */
function runAstro(what: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--silent', ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...env, TENANTS_DIR, SITEGEN_ROOT: REPO_ROOT, ASTRO_TELEMETRY_DISABLED: '1' },
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`astro build for ${what} failed with exit code ${code}`))));
  });
}

function runAstroBuild(id: string, outDir: string): Promise<void> {
  const { locales } = loadTenant(id, TENANTS_DIR);
  // The default first: the brand's message project takes it as its base language.
  const languages = [locales.default, ...locales.available.filter((l) => l !== locales.default)];
  return runAstro(id, [], { SITEGEN_TENANT: id, SITEGEN_LOCALES: languages.join(','), SITEGEN_OUT_DIR: outDir });
}

/**
 * The server chunks of a build import packages by name (astro, react, @oslojs/…), which Node looks
 * up in the node_modules folders above the chunk. A DIST_DIR outside the checkout gets a link to
 * the checkout's node_modules so that its builds prerender and run there too.
 */
function linkNodeModules(): void {
  const where = relative(REPO_ROOT, DIST_DIR);
  if (!where.startsWith('..') && !isAbsolute(where)) return;
  const link = join(DIST_DIR, 'node_modules');
  if (existsSync(link)) return;
  mkdirSync(DIST_DIR, { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), link, 'dir');
}

/**
 * One Astro build per tenant, one after another (they share the Paraglide output folder).
 * Each builds into a fresh folder that replaces dist/<id> only when complete, so a running
 * runtime keeps serving the old build until the new one is whole.
 */
export async function buildTenants(ids: string[]): Promise<{ id: string; seconds: number }[]> {
  const timings: { id: string; seconds: number }[] = [];
  if (ids.length) {
    linkNodeModules();
    await compileMessageTypes();
  }
  for (const id of ids) {
    const started = performance.now();
    const sources = sourcesMtime(id);
    const next = join(DIST_DIR, `.${id}.next`);
    rmSync(next, { recursive: true, force: true });
    console.log(`sitegen: building ${id} …`);
    await runAstroBuild(id, next);
    const assets = join(TENANTS_DIR, id, 'assets');
    if (existsSync(assets)) cpSync(assets, join(next, 'client', 'brand'), { recursive: true });
    await preloadShellModules(join(next, 'client'));
    await precompress(join(next, 'client'));
    writeFileSync(join(next, STAMP), JSON.stringify({ id, sources, built: new Date().toISOString() }));
    const final = join(DIST_DIR, id);
    replaceBuild(next, final);
    const seconds = (performance.now() - started) / 1000;
    timings.push({ id, seconds });
    console.log(`sitegen: built ${id} in ${seconds.toFixed(1)} s`);
  }
  return timings;
}

/** Puts a finished build in place of the one served (a running runtime serves the old one until then). */
function replaceBuild(next: string, final: string): void {
  const old = join(dirname(final), `.${basename(final)}.old`);
  rmSync(old, { recursive: true, force: true });
  if (existsSync(final)) renameSync(final, old);
  renameSync(next, final);
  rmSync(old, { recursive: true, force: true });
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
  linkNodeModules();
  console.log('sitegen: building the console …');
  await runAstro('the console', ['--root', join(REPO_ROOT, 'console')], { SITEGEN_OUT_DIR: next });
  await precompress(next);
  writeFileSync(join(next, STAMP), JSON.stringify({ id: CONSOLE_BUILD, sources, built: new Date().toISOString() }));
  replaceBuild(next, join(DIST_DIR, CONSOLE_BUILD));
  const seconds = (performance.now() - started) / 1000;
  console.log(`sitegen: built the console in ${seconds.toFixed(1)} s`);
  return { seconds };
}

/** Builds the tenants and the console whose builds are missing or older than their sources (start, dev, `build --missing`). */
export async function buildStale(): Promise<void> {
  const stale = listTenantIds(TENANTS_DIR).filter((id) => isStale(id));
  if (stale.length) await buildTenants(stale);
  if (isConsoleStale()) await buildConsole();
}
