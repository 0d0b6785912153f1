import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseLanderFiles, readLanders, readMarkdownFolder, type LanderVariant } from '../tenant/landers.ts';
import type { Tenant } from '../tenant/schema.ts';
import type { PageTexts, SharedText } from '../site/content.ts';
import { staticPaths, type StaticPath } from '../site/static-paths.ts';
import { readBuildStamp } from './programs.ts';
import { poolPeers } from './services/pool.ts';

/**
 * The texts marketers edit that every brand shares (docs/ONE-BUILD.md step 6): the shared landers
 * (tenants/_defaults/landers/) and the static pages' texts (content/pages/). They are read when a
 * brand's output is rendered, not compiled into the program, so an edit re-renders the brands that
 * show it (seconds each) and never rebuilds the program (minutes). A brand's output records which
 * of them it shows and a fingerprint of their contents (OutputInputs, in its build stamp): by
 * content, not mtime, so the same release gives the same fingerprint on every machine.
 */

/** The folder of the static pages' texts in a checkout (CONTENT_DIR, AppConfig.contentDir). */
export const DEFAULT_CONTENT_DIR = join(import.meta.dirname, '..', '..', 'content');

/** The shared folders: where each is, and how its files are named in messages and stamps. */
function sharedFolders(dirs: SharedTextDirs): { dir: string; shown: string }[] {
  return [
    { dir: join(dirs.tenantsDir, '_defaults', 'landers'), shown: 'tenants/_defaults/landers' },
    { dir: join(dirs.contentDir, 'pages'), shown: 'content/pages' },
  ];
}

export interface SharedTextDirs {
  tenantsDir: string;
  /** The folder holding pages/ (content/ of the checkout unless CONTENT_DIR says otherwise). */
  contentDir: string;
}

/** The shared texts as read at one moment. */
export interface SharedTexts {
  /** The shared landers, and the problems of their files (`sitegen check` refuses them). */
  landers: { variants: LanderVariant[]; errors: string[] };
  /** The static pages' texts by `<page>.<locale>`. */
  pages: PageTexts;
  /** The SHA-256 of every shared file, by its path as shown (tenants/_defaults/landers/default.nl.md). */
  hashes: ReadonlyMap<string, string>;
}

/**
 * What a brand's output shows that is not its own folder: the shared texts' files, the names of
 * its pool's other brands (the signup and the privacy page name them, issue 24), and a
 * fingerprint of both.
 */
export interface OutputInputs {
  /** SHA-256 (16 hex digits) of the files' paths and contents, and of the pool's names when it has any. */
  fingerprint: string;
  /** The shared files its pages show, sorted. */
  files: string[];
  /** The names of the other brands of its pool, as its pages name them (poolPeers); absent when alone. */
  pool?: string[];
}

/**
 * The inputs with the names of the pool's other brands its pages show: a brand that joins, leaves,
 * is suspended from or renamed in the pool makes the pages of the others stale. A brand alone keeps
 * the fingerprint of its texts alone.
 */
export function withPool(inputs: OutputInputs, pool: readonly string[]): OutputInputs {
  if (!pool.length) return inputs;
  const fingerprint = createHash('sha256').update(`${inputs.fingerprint}\0pool\0${pool.join('\0')}`).digest('hex').slice(0, 16);
  return { ...inputs, fingerprint, pool: [...pool] };
}

/** The names of the other brands of the brand's pool among `tenants`, as its pages name them (src/site/pool-brands.ts). */
export const poolNames = (tenant: Tenant, tenants: readonly Tenant[]): string[] => poolPeers(tenant, tenants).map((t) => t.name);

/** Reads every shared text (about 100 small files: milliseconds). */
export function readSharedTexts(dirs: SharedTextDirs): SharedTexts {
  const [landers, pages] = sharedFolders(dirs).map(({ dir, shown }) => readMarkdownFolder(dir, shown));
  const hashes = new Map<string, string>();
  for (const [file, source] of [...landers!, ...pages!]) hashes.set(file, sha256(source));
  const texts = new Map<string, SharedText>();
  for (const [file, source] of pages!) texts.set(file.slice('content/pages/'.length, -'.md'.length), { file, source });
  return { landers: parseLanderFiles(landers!), pages: texts, hashes };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The shared texts the pages of a brand's output show (their lander texts and static pages' texts). */
export function outputInputs(paths: readonly StaticPath[], shared: SharedTexts): OutputInputs {
  const used = new Set<string>();
  for (const { props } of paths) {
    for (const file of [props.text?.file, props.pageText?.file]) if (file !== undefined && shared.hashes.has(file)) used.add(file);
  }
  const files = [...used].sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0${shared.hashes.get(file)}\n`);
  return { fingerprint: hash.digest('hex').slice(0, 16), files };
}

/**
 * What a brand's output would show of these shared texts now: its pages worked out again (a new,
 * more specific shared lander is picked, a removed one no longer is). Undefined when its pages
 * cannot be (invalid lander files: its render fails the same way).
 */
function textInputs(tenant: Tenant, tenantsDir: string, shared: SharedTexts): OutputInputs | undefined {
  try {
    return outputInputs(staticPaths(tenant, readLanders(tenantsDir, tenant.id, shared.landers), shared.pages), shared);
  } catch {
    return undefined;
  }
}

/** What a brand's output would show now, of these shared texts and of its pool among `tenants` (textInputs, withPool). */
export function brandInputs(tenant: Tenant, tenantsDir: string, shared: SharedTexts, tenants: readonly Tenant[]): OutputInputs | undefined {
  const inputs = textInputs(tenant, tenantsDir, shared);
  return inputs && withPool(inputs, poolNames(tenant, tenants));
}

/** How often the shared folders are looked at (the registry looks at tenants/ as often). */
const LOOK_MS = 1000;

/**
 * The shared texts of a running runtime, kept current: every second the shared folders' files are
 * listed and stat'ed (off the event loop; about 100 files, whatever the number of brands), and
 * read and hashed again only when a name, size or mtime changed. `version` grows when a content
 * did (a file touched but unchanged changes nothing).
 */
export class SharedTextsWatch {
  readonly dirs: SharedTextDirs;
  #texts: SharedTexts;
  #version = 0;
  #look = '';
  #timer: NodeJS.Timeout | undefined;

  constructor(dirs: SharedTextDirs) {
    this.dirs = dirs;
    this.#texts = readSharedTexts(dirs);
  }

  /** The shared texts as last read. */
  texts(): SharedTexts {
    return this.#texts;
  }

  /** Grows each time a shared text's content changes. */
  version(): number {
    return this.#version;
  }

  /** Looks at the folders every second, calling `changed` when a content changed; stops with close(). */
  start(changed: () => void, onError: (message: string) => void): void {
    const next = () => {
      this.#timer = setTimeout(() => {
        void this.check()
          .then((moved) => moved && changed())
          .catch((error: unknown) => onError(`shared texts: ${(error as Error).message}`))
          .finally(() => this.#timer && next());
      }, LOOK_MS);
      this.#timer.unref();
    };
    // No look is kept yet: the first reads the texts again, so an edit since the constructor's read counts.
    next();
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Looks at the folders now; resolves whether a content changed. */
  async check(): Promise<boolean> {
    const look = await this.#stats();
    if (look === this.#look) return false;
    // The look is kept once the texts are read: a read that failed (a file renamed away between the
    // listing and the read, as editors save) is tried again on the next look.
    const texts = readSharedTexts(this.dirs);
    this.#look = look;
    const before = this.#texts.hashes;
    const same = texts.hashes.size === before.size && [...texts.hashes].every(([file, hash]) => before.get(file) === hash);
    this.#texts = texts;
    if (!same) this.#version++;
    return !same;
  }

  /** Every Markdown file of the shared folders with its size and mtime, as one string. */
  async #stats(): Promise<string> {
    const lines: string[] = [];
    for (const { dir } of sharedFolders(this.dirs)) {
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names.filter((n) => n.endsWith('.md')).sort()) {
        const info = await stat(join(dir, name)).catch(() => undefined);
        lines.push(`${dir}/${name} ${info?.size} ${info?.mtimeMs}`);
      }
    }
    return lines.join('\n');
  }
}

/**
 * Which brands' outputs show other shared texts than the current ones. What an output was
 * rendered from is its stamp's record; a build found without one (made before step 6) is taken as
 * made of the texts found on start, as a build is taken as made of the folder found beside it.
 * A brand's current inputs are worked out again only once per change of the texts.
 */
export function createOutputInputs(opts: { watch: SharedTextsWatch; tenantsDir: string; distDir: string; tenants: () => readonly Tenant[] }) {
  const { watch, tenantsDir, distDir } = opts;
  const onStart = watch.texts();
  const startList = opts.tenants();
  /** The fingerprint each brand's output is of. */
  const rendered = new Map<string, string | undefined>();
  /** Each brand's current inputs, and the version of the texts they were worked out for. */
  const current = new Map<string, { version: number; inputs: OutputInputs | undefined }>();

  return {
    /** Whether the brand's output shows other shared texts than the current ones. */
    isStale(tenant: Tenant): boolean {
      const version = watch.version();
      let now = current.get(tenant.id);
      // The texts' part once per change of the texts (milliseconds a brand); the pool's names on every look (a filter of the list).
      if (now?.version !== version) current.set(tenant.id, (now = { version, inputs: textInputs(tenant, tenantsDir, watch.texts()) }));
      if (now.inputs === undefined) return false;
      if (!rendered.has(tenant.id)) {
        const stamp = readBuildStamp(distDir, tenant.id);
        rendered.set(tenant.id, stamp?.shared?.fingerprint ?? (stamp ? brandInputs(tenant, tenantsDir, onStart, startList)?.fingerprint : undefined));
      }
      const was = rendered.get(tenant.id);
      return was !== undefined && was !== withPool(now.inputs, poolNames(tenant, opts.tenants())).fingerprint;
    },

    /** The brand's output was just written from these inputs. */
    rendered(id: string, inputs: OutputInputs): void {
      rendered.set(id, inputs.fingerprint);
      // Worked out again on the next look: the brand's own folder (a lander of its own over a
      // shared one, a language added) may have changed what it shows, with the texts' version the same.
      current.delete(id);
    },
  };
}

export type OutputInputsOf = ReturnType<typeof createOutputInputs>;

/** How many brands are rendered again at once after a shared text changed (the 2 cores serve meanwhile). */
const AT_ONCE = 2;

/**
 * After a shared text changed: every brand whose output shows another text now is rendered again,
 * AT_ONCE at a time, in the background; each is served its old output until its new one is whole.
 * A change during a round starts another round after it.
 */
export function refreshOnChange(opts: { tenants: () => Tenant[]; isBuilt: (id: string) => boolean; inputs: OutputInputsOf; refresh: (tenant: Tenant) => Promise<void>; log: (line: string) => void }) {
  let running: Promise<void> | undefined;
  let again = false;
  const round = async () => {
    const queue = opts.tenants().filter((t) => opts.isBuilt(t.id));
    const worker = async () => {
      for (let tenant = queue.shift(); tenant; tenant = queue.shift()) {
        // Between brands the loop serves: working out 1,000 brands' pages holds it a millisecond or so each.
        await new Promise((resolve) => setImmediate(resolve));
        if (!opts.inputs.isStale(tenant)) continue;
        opts.log(`brand ${tenant.id}: a shared text it shows changed; rendering it again`);
        // Twice at most: a render under way when the text changed may have read the old one.
        for (let turn = 0; turn < 2 && opts.inputs.isStale(tenant); turn++) await opts.refresh(tenant).catch((error: Error) => opts.log(`brand ${tenant.id}: ${error.message}`));
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
  };
  return function changed(): void {
    if (running) {
      again = true;
      return;
    }
    running = round().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        changed();
      }
    });
  };
}
