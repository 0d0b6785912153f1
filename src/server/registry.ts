import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadTenant, tenantFiles, tenantFilesAsync, TenantError } from '../tenant/load.ts';
import type { Tenant } from '../tenant/schema.ts';
import { HostIndex } from '../tenant/resolve.ts';
import type { LanderManifest } from '../lib/attribution.ts';
import { BUILD_STAMP, PROGRAMS_FOLDER, programDir, readBuildStamp } from './programs.ts';

export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals: object) => Promise<void>;

interface Build {
  /** mtime of the build's entry, to notice a rebuild; undefined when the brand is not built. */
  stamp: number | undefined;
  /** When the disk was last looked at (a rebuild is noticed within RESCAN_MS). */
  checkedAt: number;
  /** The prerendered pages (paths under client/, such as l/nl/index.html), listed once per build. */
  pages: Set<string>;
  /** The landers of each locale (l/{locale}/landers.json, src/site/static-paths.ts landerManifest), read once per build. */
  landers: Map<string, LanderManifest>;
  /** The shared program the build names (src/server/programs.ts); undefined for a build of its own. */
  program: string | undefined;
  /**
   * The files of the build's own `client/_assets/` (its static pages' stylesheet; every asset of a
   * build from before step 4 of docs/ONE-BUILD.md), listed once per build: any other asset is its
   * program's, served from the program's folder for every brand of it.
   */
  ownAssets: Set<string>;
  /** Whether the program's folder holds its assets (a program of step 1 kept only its server code). */
  programAssets: boolean;
  /** The handler of a build of its own (a build that names no program). */
  handler?: Promise<AstroHandler | undefined>;
  /** The process listeners the build's own handler added when it was loaded (see #load). */
  listeners: Listener[];
}

type Listener = (...args: unknown[]) => void;

/** A program loaded once for every brand whose build names it. */
interface Program {
  handler: Promise<AstroHandler>;
  listeners: Listener[];
}

/** How often the registry looks at the disk for new or changed tenants and builds. */
const RESCAN_MS = 1000;

/**
 * The pause between the end of one background look at tenants/ and the start of the next: half of
 * RESCAN_MS, so that a change is seen within a second as before, counting a look under way when
 * it was written.
 */
const TENANTS_PAUSE_MS = RESCAN_MS / 2;

/**
 * The tenants this process serves and their Astro builds. It looks at tenants/ in the background
 * (a timer, the stats off the event loop) and at a brand's build at most once a second, so a
 * tenant created and built by `sitegen new` while the runtime runs is served within a second,
 * without touching the others.
 */
export class TenantRegistry {
  readonly tenantsDir: string;
  readonly distDir: string;
  #tenants: Tenant[] = [];
  /** The tenants by host and id, made anew when a tenant is added, changed or removed. */
  #hosts = new HostIndex<Tenant>([]);
  #stamps = new Map<string, number>();
  /** The mtime of each tenant file whose last edit failed validation: its error is logged once per change. */
  #invalid = new Map<string, number>();
  #builds = new Map<string, Build>();
  #programs = new Map<string, Program>();
  #coming = new Map<string, Set<string>>();
  /** Counts the looks made now (rescan): a background look begun before one of them is out of date. */
  #generation = 0;
  /** The next background look at tenants/; undefined once closed. */
  #timer: NodeJS.Timeout | undefined;
  /** Handlers load one at a time, so the process listeners each adds are known to be its own. */
  #loading: Promise<unknown> = Promise.resolve();
  #onError: (message: string) => void;
  /** Told each change of the list of served brands, with the ids of those whose folder was removed. */
  #changed: ((removed: string[]) => void)[] = [];

  constructor(options: { tenantsDir: string; distDir: string; onError?: (message: string) => void }) {
    this.tenantsDir = options.tenantsDir;
    this.distDir = options.distDir;
    this.#onError = options.onError ?? ((m) => console.error(m));
    this.rescan();
    this.#scanLater();
  }

  /**
   * Every valid tenant, in id order. A tenant file that fails validation is reported and skipped
   * when it is the brand's first; an edit that fails keeps the brand's last valid tenant served.
   */
  tenants(): Tenant[] {
    return this.#tenants;
  }

  /** The tenant serving a host, or the default tenant (src/tenant/resolve.ts); a map look-up, not a scan. */
  tenantFor(host: string | null | undefined, defaultId?: string): Tenant | undefined {
    return this.#hosts.resolve(host, defaultId);
  }

  /** The tenant with this id, if it is valid. */
  tenant(id: string): Tenant | undefined {
    return this.#hosts.byId(id);
  }

  /**
   * Calls `listener` each time the list of served brands changes (a tenant file added, edited or
   * removed: tenants() is then a new list), with the ids of the brands whose folder was removed,
   * once the registry serves them no more.
   */
  onChange(listener: (removed: string[]) => void): void {
    this.#changed.push(listener);
  }

  /** Stops looking at tenants/ (the runtime closing). */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Looks at tenants/ now, on the event loop (at the start, and where a change must be seen at once:
   * a brand published by another machine, tests). The background looks hold the loop only to
   * apply what they found (#scanLater).
   */
  rescan(): void {
    this.#generation++;
    this.#apply(tenantFiles(this.tenantsDir));
  }

  /**
   * The background look at tenants/, TENANTS_PAUSE_MS after the last one ended, so two never
   * overlap: the stats run in libuv's pool (at 1,000 brands they held the loop 24-35 ms every
   * second, bench/README.md "The lander with 1,000 brands loaded"), and their result is applied in
   * one step, unless a rescan looked at the disk after this one began.
   */
  #scanLater(): void {
    this.#timer = setTimeout(() => {
      const generation = this.#generation;
      void tenantFilesAsync(this.tenantsDir)
        .then((files) => {
          if (generation === this.#generation && this.#timer) this.#apply(files);
        })
        .catch((error: unknown) => this.#onError(`tenants/: ${(error as Error).message}`))
        .finally(() => {
          if (this.#timer) this.#scanLater();
        });
    }, TENANTS_PAUSE_MS);
    // A runtime that is done (or a test that made a registry) is not kept alive by its looks.
    this.#timer.unref();
  }

  /**
   * The tenant files found (id and mtime) made the list: a tenant read again only when its file
   * changed. The list and the host index stay the same objects while nothing changed.
   */
  #apply(files: [id: string, mtime: number][]): void {
    const next: Tenant[] = [];
    for (const [id, stamp] of files) {
      const known = this.#hosts.byId(id);
      if (known && this.#stamps.get(id) === stamp) {
        next.push(known);
        continue;
      }
      if (this.#invalid.get(id) === stamp) {
        if (known) next.push(known);
        continue;
      }
      try {
        next.push(loadTenant(id, this.tenantsDir));
        this.#stamps.set(id, stamp);
        this.#invalid.delete(id);
      } catch (error) {
        if (!(error instanceof TenantError)) throw error;
        // One mistyped edit must not take a live brand down (its host would answer as the default
        // brand, its members would leave its pool): the last valid tenant stays served until the
        // file is valid again. Only a removed folder removes a brand.
        this.#invalid.set(id, stamp);
        if (known) {
          this.#onError(`${error.message}\n${id}: this edit of tenant.json is invalid and NOT applied; the brand is still served as its last valid tenant.json said until the file is fixed`);
          next.push(known);
        } else {
          this.#onError(error.message);
        }
      }
    }
    // A removed folder forgets its last error: a brand made again under its id starts afresh.
    for (const id of this.#invalid.keys()) if (!files.some(([found]) => found === id)) this.#invalid.delete(id);
    if (next.length === this.#tenants.length && next.every((t, i) => t === this.#tenants[i])) return;
    const found = new Set(files.map(([id]) => id));
    const removed = this.#tenants.filter((t) => !found.has(t.id)).map((t) => t.id);
    this.#tenants = next;
    this.#hosts = new HostIndex(next);
    for (const listener of this.#changed) listener(removed);
  }

  clientDir(id: string): string {
    return join(this.distDir, id, 'client');
  }

  isBuilt(id: string): boolean {
    return this.#build(id).stamp !== undefined;
  }

  /** The current build's stamp (it changes with every rebuild); undefined when not built. */
  buildStamp(id: string): number | undefined {
    return this.#build(id).stamp;
  }

  /** The folder under dist/ that holds a brand's asset (a file name under `_assets/`). */
  assetFolder(id: string, file: string): string {
    const build = this.#build(id);
    return build.program === undefined || !build.programAssets || build.ownAssets.has(file)
      ? join(id, 'client', '_assets')
      : join(PROGRAMS_FOLDER, build.program, 'client', '_assets');
  }

  /** Whether the build has this prerendered page (a path under client/); no disk access per request. */
  hasPage(id: string, relative: string): boolean {
    const page = relative.split(sep).join('/');
    return this.#build(id).pages.has(page) || (this.#coming.get(id)?.has(page) ?? false);
  }

  /**
   * The pages a brand's output is about to have, served before they are all written (a brand with
   * no output: its first visitors wait for their own page, brand-output.ts); undefined once they are.
   */
  expectPages(id: string, pages: Set<string> | undefined): void {
    if (pages) this.#coming.set(id, pages);
    else this.#coming.delete(id);
  }

  /** The lander at a page's address in a locale (its experiment's variants), or undefined for any other page. */
  lander(id: string, locale: string, path: string): LanderManifest[string] | undefined {
    return this.#landers(id, locale)?.[path];
  }

  /** The landers of every locale of a brand's build. */
  landerManifests(id: string): LanderManifest[] {
    const tenant = this.tenant(id);
    return (tenant?.locales.available ?? []).map((locale) => this.#landers(id, locale)).filter((m): m is LanderManifest => m !== undefined);
  }

  #landers(id: string, locale: string): LanderManifest | undefined {
    const build = this.#build(id);
    if (build.stamp === undefined) return undefined;
    let manifest = build.landers.get(locale);
    if (!manifest) {
      try {
        manifest = JSON.parse(readFileSync(join(this.clientDir(id), 'l', locale, 'landers.json'), 'utf8')) as LanderManifest;
      } catch {
        manifest = {}; // a build from before lander experiments, or a locale it lacks
      }
      build.landers.set(locale, manifest);
    }
    return manifest;
  }

  /**
   * The Astro handler of a tenant's build, imported anew when the build changed; undefined when not
   * built. A build that names a shared program gets that program's handler, loaded once per process
   * for every brand of it (the brand comes from `locals`).
   */
  async handler(id: string): Promise<AstroHandler | undefined> {
    const build = this.#build(id);
    if (build.stamp === undefined) return undefined;
    if (build.program !== undefined) {
      let program = this.#programs.get(build.program);
      if (!program) {
        const listeners: Listener[] = [];
        const entry = pathToFileURL(join(programDir(this.distDir, build.program), 'server', 'entry.mjs')).href;
        program = { handler: this.#load((added) => listeners.push(...added), entry), listeners };
        this.#programs.set(build.program, program);
      }
      return program.handler;
    }
    build.handler ??= this.#load((added) => (build.listeners = added), `${pathToFileURL(join(this.distDir, id, 'server', 'entry.mjs')).href}?v=${build.stamp}`);
    return build.handler;
  }

  /** Looks at a brand's build on disk again at its next use (its output was just written). */
  recheck(id: string): void {
    const known = this.#builds.get(id);
    if (known) known.checkedAt = 0;
  }

  /** How many programs this process has loaded (the memory a brand costs is its program's, once). */
  loadedPrograms(): number {
    return this.#programs.size;
  }

  /**
   * Imports a build's handler. Astro's node adapter adds an `unhandledRejection` listener per
   * handler: one per brand is expected (the limit is raised with the number of brands), and a
   * replaced build's listener is removed with it, or every rebuild would keep its old build alive.
   */
  #load(keep: (listeners: Listener[]) => void, url: string): Promise<AstroHandler> {
    const loaded = this.#loading.then(async () => {
      const before = new Set(process.listeners('unhandledRejection'));
      const mod = (await import(url)) as { handler: AstroHandler };
      keep(process.listeners('unhandledRejection').filter((l) => !before.has(l)) as Listener[]);
      process.setMaxListeners(Math.max(process.getMaxListeners(), process.listenerCount('unhandledRejection') + 10));
      return mod.handler;
    });
    this.#loading = loaded.catch(() => undefined);
    return loaded;
  }

  /** The state of a brand's build, looked at on disk at most once a second. */
  #build(id: string): Build {
    const now = Date.now();
    const known = this.#builds.get(id);
    if (known && now - known.checkedAt < RESCAN_MS) return known;
    let stamp = buildTime(this.distDir, id);
    if (known && known.stamp === stamp) {
      known.checkedAt = now;
      return known;
    }
    // The replaced build's handler goes, and the listeners it added to the process with it.
    for (const listener of known?.listeners ?? []) process.off('unhandledRejection', listener);
    const program = stamp === undefined ? undefined : this.#programOf(id);
    // A build that names a program copies none of its server code: without the program's folder
    // (dist/<id> copied without dist/_programs) nothing can serve it.
    if (program === undefined && !existsSync(join(this.distDir, id, 'server', 'entry.mjs'))) stamp = undefined;
    const fresh: Build = {
      stamp,
      checkedAt: now,
      pages: stamp === undefined ? new Set() : listPages(this.clientDir(id)),
      landers: new Map(),
      program,
      ownAssets: stamp === undefined ? new Set() : listFiles(join(this.clientDir(id), '_assets')),
      programAssets: program !== undefined && existsSync(join(programDir(this.distDir, program), 'client', '_assets')),
      listeners: [],
    };
    this.#builds.set(id, fresh);
    if (known?.program !== undefined && known.program !== program) this.#releaseProgram(known.program);
    return fresh;
  }

  /**
   * The shared program a brand's build names, when it is there; otherwise the build's own server
   * code serves it (a build from before programs, or a build folder copied without dist/_programs).
   */
  #programOf(id: string): string | undefined {
    const program = readBuildStamp(this.distDir, id)?.program;
    return program !== undefined && existsSync(join(programDir(this.distDir, program), 'server', 'entry.mjs')) ? program : undefined;
  }

  /** Lets a program go, with the listeners it added, once no brand's build names it any more. */
  #releaseProgram(name: string): void {
    if ([...this.#builds.values()].some((b) => b.program === name)) return;
    const program = this.#programs.get(name);
    if (!program) return;
    this.#programs.delete(name);
    // Its listeners are known once it has loaded; a load that failed added none worth keeping.
    void program.handler.then(
      () => {
        for (const listener of program.listeners) process.off('unhandledRejection', listener);
      },
      () => undefined,
    );
  }
}

/**
 * When a brand's build was made, or last changed in place (the rest of its pages written after):
 * the mtime of its stamp, or of its own server code for a build from before stamps. Undefined when
 * the brand is not built.
 */
function buildTime(distDir: string, id: string): number | undefined {
  for (const file of [BUILD_STAMP, join('server', 'entry.mjs')]) {
    try {
      return statSync(join(distDir, id, file)).mtimeMs;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

/** The names of the files in a folder (none when it is missing). */
function listFiles(dir: string): Set<string> {
  try {
    return new Set(readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name));
  } catch {
    return new Set();
  }
}

/** Every prerendered page of a build: the index.html files under client/l/. */
function listPages(clientDir: string): Set<string> {
  const pages = new Set<string>();
  try {
    for (const entry of readdirSync(join(clientDir, 'l'), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name === 'index.html') {
        pages.add(relative(clientDir, join(entry.parentPath, entry.name)).split(sep).join('/'));
      }
    }
  } catch {
    // A build without prerendered pages.
  }
  return pages;
}
