import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative } from 'node:path';
import { loadTenant } from '../tenant/load.ts';
import type { Tenant } from '../tenant/schema.ts';
import { BUILD_STAMP, PROGRAMS_FOLDER, programDir, readBuildStamp, type BuildStamp } from './programs.ts';
import { openStaticOutput } from './static-output.ts';
import { precompressFiles } from './precompress.ts';
import type { TenantRegistry } from './registry.ts';
import { LOCALE_SCRIPTS_FILE } from '../lib/locale-scripts.ts';
import type { OutputInputs, OutputInputsOf, SharedTexts } from './output-dependencies.ts';
import { currentVersion, publishOutput, pruneRetired, removeOutput, RETIRED_OUTPUT_MS } from './output-folders.ts';

/**
 * A brand's output in dist/<id>/ (docs/ONE-BUILD.md, steps 2 to 4): the program of every language
 * and its static pages rendered from it. `sitegen build <id>` writes it (building the program when
 * missing); a runtime writes it on the first request for a brand that has none, or whose folder
 * changed since (createBrandOutputs), when the program is there: seconds, no Astro build.
 */

/** The newest change under a path (the path itself when a file; 0 when missing). */
export function newestMtime(path: string): number {
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

/** Every file under a folder, as paths relative to it, in a stable order. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** The checkout whose node_modules the programs' server code imports from. */
const REPO_ROOT = join(import.meta.dirname, '..', '..');

/**
 * The server chunks of a build import packages by name (astro, react, @oslojs/…), which Node looks
 * up in the node_modules folders above the chunk. A dist/ folder outside the checkout gets a link
 * to the checkout's node_modules so that its programs render and run there too.
 */
export function linkNodeModules(distDir: string): void {
  const where = relative(REPO_ROOT, distDir);
  if (!where.startsWith('..') && !isAbsolute(where)) return;
  const link = join(distDir, 'node_modules');
  if (existsSync(link)) return;
  mkdirSync(distDir, { recursive: true });
  try {
    symlinkSync(join(REPO_ROOT, 'node_modules'), link, 'dir');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // made by another process meanwhile
  }
}

/** What dist/_programs/program.json records: the program of the release, and from sources of when. */
export interface ProgramRecord {
  program: string;
  sources: number;
}

/** The file that records the program every brand is rendered from (one for every language, docs/ONE-BUILD.md step 3). */
export function programRecordFile(distDir: string): string {
  return join(distDir, PROGRAMS_FOLDER, 'program.json');
}

/**
 * Whether a program's folder holds its server code, its assets, and the map of its per-locale
 * clients: a program of every language (a program of step 1 kept only the server code; one of
 * step 2 was built for one language set and has no map).
 */
export function isWholeProgram(distDir: string, program: string): boolean {
  const dir = programDir(distDir, program);
  return existsSync(join(dir, 'server', 'entry.mjs')) && existsSync(join(dir, 'client', '_assets')) && existsSync(join(dir, 'server', LOCALE_SCRIPTS_FILE));
}

/**
 * The whole program a brand's output can be rendered from without building one: the one recorded,
 * else the one a built brand names (every language is in it). Undefined when there is none
 * (`sitegen build <id>` builds it).
 */
export function programFor(distDir: string): ProgramRecord | undefined {
  try {
    const known = JSON.parse(readFileSync(programRecordFile(distDir), 'utf8')) as ProgramRecord;
    if (isWholeProgram(distDir, known.program)) return known;
  } catch {
    // No record: perhaps a brand is built.
  }
  for (const entry of existsSync(distDir) ? readdirSync(distDir) : []) {
    if (entry.startsWith('.') || entry.startsWith('_')) continue;
    const stamp = readBuildStamp(distDir, entry);
    if (stamp?.program !== undefined && isWholeProgram(distDir, stamp.program)) return { program: stamp.program, sources: stamp.sources };
  }
  return undefined;
}

/**
 * Writes a brand's output from a program: the brand's assets, its static pages rendered
 * (src/server/static-output.ts), brotli and gzip copies of its stylesheet and assets, and the stamp
 * naming the program; made in `next` and put in place whole as a new version of dist/<id>, one
 * rename of its link (output-folders.ts), so a runtime serves the old output until then and never
 * finds none. Nothing of the program is copied (1.9 MB of server code and 1.8 MB of assets
 * a brand): the runtime loads its server code and serves its assets from dist/_programs/<sha>/
 * (TenantRegistry), so a dist/<id>/ is served only beside the dist/_programs/ it names.
 *
 * The pages are not compressed here: their brotli and gzip copies are made on their first request
 * (page-cache.ts), and written beside them for the next process.
 *
 * `early` (a brand with no output, whose first visitors wait): only what a page needs to be served
 * is written before it is put in place (the stylesheet, made of one page of each template, and those
 * pages: openStaticOutput); `page(file)` then writes a page a visitor asks for ahead of the rest,
 * which are written into its version after (each file whole). `written` resolves once every page is there
 * and the build's stamp (its mtime) is new, so the registry lists them. Should the stylesheet of
 * every page be another (a class that only a page of another niche or variant uses), the output
 * is rendered again whole.
 */
export async function writeBrandOutput(opts: {
  tenantsDir: string;
  distDir: string;
  tenant: Tenant;
  program: string;
  sources: number;
  next: string;
  early?: boolean;
  /** Runs on the rendered client folder before compression, with the program's client folder. */
  beforeCompress?: (client: string, programClient: string) => Promise<unknown>;
  /** `early`: the rest of the pages are written once this resolves (tests hold it). */
  holdRest?: () => Promise<void>;
  /** Every tenant as already read, for the brands of its pool (openStaticOutput); else read from tenantsDir. */
  tenants?: Tenant[];
  /** The shared texts as already read (output-dependencies.ts); else read from tenantsDir and contentDir. */
  shared?: SharedTexts;
  contentDir?: string;
}): Promise<BrandOutputWriting> {
  const { tenant, next } = opts;
  const program = programDir(opts.distDir, opts.program);
  rmSync(next, { recursive: true, force: true });
  linkNodeModules(opts.distDir);
  try {
    const assets = join(opts.tenantsDir, tenant.id, 'assets');
    const brand = join(next, 'client', 'brand');
    if (existsSync(assets)) cpSync(assets, brand, { recursive: true });
    const brandFiles = (existsSync(assets) ? filesUnder(brand) : []).map((f) => join('client', 'brand', f));
    // Compressed here: what is served as a file (@fastify/static, its copies beside it), the
    // stylesheet and the brand's assets. The pages' copies are made on their first request
    // (page-cache.ts): brotli quality 11 of every page was most of a brand's build.
    const servedAsFiles = (written: string[]) => [...written.filter((f) => f.startsWith('_assets/')).map((f) => join('client', f)), ...brandFiles];
    const output = await openStaticOutput({ tenant, tenantsDir: opts.tenantsDir, programDir: program, client: join(next, 'client'), stylesheetOf: opts.early ? 'one page per template' : 'every page', tenants: opts.tenants, shared: opts.shared, contentDir: opts.contentDir });
    const stamp = () => writeFileSync(join(next, BUILD_STAMP), JSON.stringify({ id: tenant.id, sources: opts.sources, built: new Date().toISOString(), program: opts.program, shared: output.inputs } satisfies BuildStamp));
    if (!opts.early) {
      const written = await output.writeAll();
      await opts.beforeCompress?.(join(next, 'client'), join(program, 'client'));
      await precompressFiles(servedAsFiles(written).map((f) => join(next, f)));
      stamp();
      publishOutput(opts.distDir, tenant.id, next);
      return { pages: new Set(), page: async () => undefined, written: Promise.resolve(), inputs: output.inputs };
    }
    // The stylesheet's copies before any page names it: browsers keep it a year as first fetched.
    await precompressFiles(servedAsFiles(await output.writeFirst()).map((f) => join(next, f)));
    stamp();
    const folder = publishOutput(opts.distDir, tenant.id, next);
    // The rest is written into this version, served meanwhile, and stops once another version is
    // put in place (`sitegen dev`'s watcher or `sitegen build`): its pages would be no one's.
    output.client = join(folder, 'client');
    output.guard = () => {
      if (currentVersion(opts.distDir, tenant.id) !== basename(folder)) throw new Error('its output was replaced meanwhile');
    };
    const touch = () => {
      const now = new Date();
      utimesSync(join(folder, BUILD_STAMP), now, now);
    };
    const written = (opts.holdRest?.() ?? Promise.resolve()).then(() => output.writeAll()).then(async () => {
      if (await output.isExact()) touch();
      else await writeBrandOutput({ ...opts, early: false });
    });
    return { pages: output.pages, page: async (file) => (output.pages.has(file) ? output.write(file) : undefined), written, inputs: output.inputs };
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}

/** A brand's output being written (writeBrandOutput). */
export interface BrandOutputWriting {
  /** Every page of the output (files under client/), to be served before they are all written. */
  pages: Set<string>;
  /** Resolves once a page of the output (a file under client/) is written; at once for any other file. */
  page(file: string): Promise<void>;
  /** Every page written, and the registry to list them. */
  written: Promise<void>;
  /** The shared texts its pages show (recorded in its stamp). */
  inputs: OutputInputs;
}

/** How often a brand's folder is looked at for changes (the registry rescans tenants as often). */
const CHECK_MS = 1000;

/**
 * A runtime's brand outputs, made on request (docs/ONE-BUILD.md, step 4): `ready(tenant)` renders
 * the brand's output from the program when the brand has none in dist/ or its
 * folder (tenant.json, landers/, assets/) changed since, once at a time per brand. A brand with no
 * output waits for it, every request on the same render; one with a stale output is served it
 * until the new one is whole. The output written is the next process's too. A brand with no
 * program is handed to `withoutProgram` (an Astro build in a child process,
 * minutes) and answered as not built until it is.
 */
export function createBrandOutputs(opts: {
  registry: TenantRegistry;
  tenantsDir: string;
  distDir: string;
  log: (line: string) => void;
  withoutProgram?: (id: string) => Promise<void>;
  /** Holds the writing of the rest of a brand's pages until it resolves (tests: AppConfig.holdBrandRest). */
  holdRest?: (id: string) => Promise<void>;
  /** The shared texts (docs/ONE-BUILD.md step 6): an output that shows others than the current ones is stale too. */
  shared?: { texts: () => SharedTexts; inputs: OutputInputsOf };
  /** How long a replaced or removed output is kept for requests in flight (tests shorten it: AppConfig.retiredOutputMs). */
  retiredOutputMs?: number;
}) {
  const { registry, tenantsDir, distDir, holdRest } = opts;
  const retiredMs = opts.retiredOutputMs ?? RETIRED_OUTPUT_MS;
  const checked = new Map<string, number>();
  /** The deletions waiting for requests in flight to finish; cleared when the runtime stops. */
  const timers = new Set<NodeJS.Timeout>();
  function later(work: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      try {
        work();
      } catch (error) {
        opts.log(`brand outputs: ${(error as Error).message}`);
      }
    }, retiredMs);
    timer.unref();
    timers.add(timer);
  }

  /**
   * The output being made per brand, until every page of it is written: the promise resolves once
   * a page of it can be served.
   */
  const making = new Map<string, Promise<void>>();
  /**
   * The newest change of each brand's folder that its output is of: what this process rendered,
   * or what it found beside a build on first sight (a build is taken as made of the folder it
   * finds: `sitegen start` builds what is older than its sources before it serves).
   */
  const seen = new Map<string, number>();
  /**
   * The folder's newest change when its output could not be made here (the render failed, or no
   * program is there: handed to `withoutProgram`): not tried again until it changes.
   */
  const failed = new Map<string, number>();

  /** Whether the brand has no output, or its folder or a shared text it shows changed since the output was made. */
  function stale(tenant: Tenant, folder: number): boolean {
    const { id } = tenant;
    if (failed.get(id) === folder) return false;
    if (!registry.isBuilt(id)) return true;
    if (!seen.has(id)) seen.set(id, folder);
    return seen.get(id) !== folder || (opts.shared?.inputs.isStale(tenant) ?? false);
  }

  /** Every page of the brand's output being made written (or given up), per brand. */
  const whole = new Map<string, Promise<void>>();

  /** The outputs being written page by page (a brand with no output, served before they are all there). */
  const writing = new Map<string, BrandOutputWriting>();

  /**
   * Makes a brand's output; resolves once it can be served, with what is written after (the rest
   * of its pages). The rest is handed back inside an object: an async function's promise waits
   * for a promise it returns, which would hold the first visitor until every page is written.
   */
  async function make(tenant: Tenant, folder: number): Promise<{ rest: Promise<void> }> {
    const { id } = tenant;
    const found = programFor(distDir);
    if (!found) {
      if (!registry.isBuilt(id)) opts.log(`brand ${id}: no program yet`);
      // Asked again when the folder changes (`sitegen build <id>` builds the program and the output).
      failed.set(id, folder);
      // Minutes: the brand is answered as not built meanwhile; the registry picks the build up.
      void opts.withoutProgram?.(id).then(() => registry.recheck(id));
      return { rest: Promise.resolve() };
    }
    const started = performance.now();
    const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
    // Read again: the folder may have changed since the registry loaded it.
    const current = loadTenant(id, tenantsDir);
    const sources = Math.max(found.sources, folder);
    // A brand with no output is served as soon as a page can be: each visitor waits for their own page.
    const early = !registry.isBuilt(id);
    // The other brands as the registry has them (at most a second old), not every tenant file read again.
    const output = await writeBrandOutput({ tenantsDir, distDir, tenant: current, program: found.program, sources, next: join(distDir, `.${id}.${process.pid}.next`), early, holdRest: holdRest && (() => holdRest(id)), tenants: registry.tenants(), shared: opts.shared?.texts() });
    opts.shared?.inputs.rendered(id, output.inputs);
    opts.log(`brand ${id}: output ${early ? 'served' : 'rendered'} from program ${found.program} in ${seconds()} s`);
    // The version it replaced, once the requests reading it are done.
    later(() => pruneRetired(distDir, id, retiredMs));
    if (early) {
      writing.set(id, output);
      registry.expectPages(id, output.pages);
    }
    registry.recheck(id);
    if (registry.isBuilt(id)) seen.set(id, folder);
    const rest = output.written
      .finally(() => {
        writing.delete(id);
        registry.expectPages(id, undefined);
        registry.recheck(id);
      })
      .then(
        () => void (early && opts.log(`brand ${id}: every page written in ${seconds()} s`)),
        (error: Error) => opts.log(`brand ${id}: writing the rest of its output failed: ${error.message}`),
      );
    return { rest };
  }

  // A brand whose folder is removed is served no more at once (the registry); its output goes once
  // the requests that were reading it are done, unless its folder came back meanwhile.
  function removeWhenGone(id: string): void {
    later(() => {
      if (registry.tenant(id) || existsSync(join(tenantsDir, id))) return;
      // Its output still being written (the rest of its pages): once that has stopped.
      if (making.has(id)) return removeWhenGone(id);
      removeOutput(distDir, id);
      opts.log(`brand ${id}: its folder is gone; its output removed`);
    });
  }
  registry.onChange((removed) => {
    for (const id of removed) {
      checked.delete(id);
      seen.delete(id);
      failed.delete(id);
      removeWhenGone(id);
    }
  });

  return {
    /**
     * Returns once the brand has an output: at once when it has one (a stale one is served until
     * the new one, rendered meanwhile, is whole), else when a page of it can be served (or it could
     * not be made): see `page`.
     */
    async ready(tenant: Tenant): Promise<void> {
      const { id } = tenant;
      const pending = making.get(id);
      if (pending) return registry.isBuilt(id) ? undefined : pending;
      const now = Date.now();
      if (now - (checked.get(id) ?? 0) < CHECK_MS) return;
      checked.set(id, now);
      const folder = newestMtime(join(tenantsDir, id));
      if (!stale(tenant, folder)) return;
      const served = make(tenant, folder).catch((error: Error) => {
        failed.set(id, folder);
        opts.log(`brand ${id}: output failed: ${error.message}`);
        return { rest: Promise.resolve() };
      });
      const servable = served.then(() => undefined);
      // One output at a time per brand, the rest of its pages included: another would replace the folder they are written to.
      making.set(id, servable);
      const done = served
        .then(({ rest }) => rest)
        .finally(() => {
          making.delete(id);
          whole.delete(id);
          checked.set(id, Date.now());
        });
      whole.set(id, done);
      return registry.isBuilt(id) ? undefined : servable;
    },

    /**
     * Renders the brand's output again now if it is stale (a shared text it shows changed:
     * output-dependencies.ts), its old output served meanwhile; resolves once every page is written.
     */
    async refresh(tenant: Tenant): Promise<void> {
      checked.delete(tenant.id);
      await this.ready(tenant);
      await whole.get(tenant.id);
    },

    /** Returns once a page of the brand's output (a file under client/) is written: at once but while its pages are written after it is served. */
    async page(id: string, file: string): Promise<void> {
      await writing.get(id)?.page(file);
    },

    /** Drops the deletions still waiting (the runtime closing; the next process or `sitegen build` does them). */
    stop(): void {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type BrandOutputs = ReturnType<typeof createBrandOutputs>;
