import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from './db/index.ts';
import type { EventBus } from './bus.ts';
import { listTenantIds } from '../tenant/load.ts';
import { TENANT_ID } from '../tenant/schema.ts';

/**
 * Brands past one machine (issue 25): a brand's folder (tenant.json, landers/, assets/) published
 * to the database by `sitegen publish` or `sitegen new` on one machine, and written by every
 * runtime on every machine sharing that database into its own tenants folder, on start, on the
 * bus's `brands` event and every half minute (an event missed while the bus reconnected). A brand
 * withdrawn from the database leaves every folder that came from it.
 *
 * Which folders came from the database, and at which version, is `<tenants>/.published.json`
 * (`{id: hash}`), per folder and machine: a folder edited here but not published is left as it
 * is until the database's version changes; a folder never published is never touched.
 */
export const BRANDS_TOPIC = 'brands';

/** The parts of a brand's folder that are published: everything a brand is (tenant.json, landers, assets). */
const PARTS = ['tenant.json', 'landers', 'assets'] as const;
/** Which brands of a tenants folder are the database's, at which hash. */
const LEDGER = '.published.json';
/** How often a runtime looks at the database's brands without an event (ms). */
const POLL_MS = 30_000;

export interface BrandFolder {
  /** Path under the brand's folder (`/`-separated) → its bytes in base64. */
  files: Record<string, string>;
  /** SHA-256 of the paths and bytes, in path order. */
  hash: string;
}

/** A brand's folder as it is published: its tenant file, landers and assets, in path order. */
export function readBrandFolder(tenantsDir: string, id: string): BrandFolder {
  const root = join(tenantsDir, id);
  const paths: string[] = [];
  for (const part of PARTS) {
    const path = join(root, part);
    if (!existsSync(path)) continue;
    if (statSync(path).isFile()) paths.push(part);
    else
      for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
        if (entry.isFile()) paths.push(relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
      }
  }
  paths.sort();
  const hash = createHash('sha256');
  const files: Record<string, string> = {};
  for (const path of paths) {
    const bytes = readFileSync(join(root, path));
    hash.update(`${path}\0${bytes.length}\0`).update(bytes);
    files[path] = bytes.toString('base64');
  }
  return { files, hash: hash.digest('hex') };
}

/** Whether a published path may be written: under one of PARTS, no `..`, no empty or hidden segment. */
function safePath(path: string): boolean {
  const segments = path.split('/');
  return (PARTS as readonly string[]).includes(segments[0]!) && segments.every((s) => s !== '' && !s.startsWith('.')) && (segments.length > 1 || path === 'tenant.json');
}

/** Writes a brand's folder whole: built beside it, then renamed into place, so a registry never reads half a brand. */
function writeBrandFolder(tenantsDir: string, id: string, files: Record<string, string>): void {
  const next = join(tenantsDir, `.${id}.next`);
  const old = join(tenantsDir, `.${id}.old`);
  const refused = Object.keys(files).find((path) => !safePath(path));
  if (refused !== undefined) throw new Error(`brand ${id}: refused the published path ${JSON.stringify(refused)}`);
  rmSync(next, { recursive: true, force: true });
  for (const [path, base64] of Object.entries(files)) {
    mkdirSync(dirname(join(next, path)), { recursive: true });
    writeFileSync(join(next, path), Buffer.from(base64, 'base64'));
  }
  const final = join(tenantsDir, id);
  rmSync(old, { recursive: true, force: true });
  if (existsSync(final)) renameSync(final, old);
  renameSync(next, final);
  rmSync(old, { recursive: true, force: true });
}

function readLedger(tenantsDir: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(join(tenantsDir, LEDGER), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

function writeLedger(tenantsDir: string, ledger: Record<string, string>): void {
  const file = join(tenantsDir, LEDGER);
  writeFileSync(`${file}.next`, `${JSON.stringify(ledger, null, 2)}\n`);
  renameSync(`${file}.next`, file);
}

export interface PublishResult {
  published: string[];
  withdrawn: string[];
  unchanged: string[];
}

/**
 * Publishes brands of a tenants folder (checked by the caller: `sitegen check`) to the database
 * and tells every runtime. `ids`: those brands (one whose folder is gone is withdrawn); 'all':
 * the database's brands become exactly the folder's (brands published before and gone from the
 * folder are withdrawn).
 */
export async function publishBrands(db: Kysely<Database>, bus: EventBus | undefined, tenantsDir: string, ids: readonly string[] | 'all'): Promise<PublishResult> {
  const local = listTenantIds(tenantsDir);
  const known = await db.selectFrom('brands').select(['id', 'hash']).execute();
  const targets = ids === 'all' ? [...new Set([...local, ...known.map((r) => r.id)])].sort() : [...ids];
  const ledger = readLedger(tenantsDir);
  const result: PublishResult = { published: [], withdrawn: [], unchanged: [] };
  for (const id of targets) {
    if (!TENANT_ID.test(id)) continue;
    const before = known.find((r) => r.id === id);
    if (!local.includes(id)) {
      if (before) {
        await db.deleteFrom('brands').where('id', '=', id).execute();
        result.withdrawn.push(id);
      }
      delete ledger[id];
      continue;
    }
    const folder = readBrandFolder(tenantsDir, id);
    ledger[id] = folder.hash;
    if (before?.hash === folder.hash) {
      result.unchanged.push(id);
      continue;
    }
    const files = JSON.stringify(folder.files);
    const updated_at = new Date().toISOString();
    await db
      .insertInto('brands')
      .values({ id, files, hash: folder.hash, updated_at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ files, hash: folder.hash, updated_at }))
      .execute();
    result.published.push(id);
  }
  writeLedger(tenantsDir, ledger);
  const changed = [...result.published, ...result.withdrawn];
  if (changed.length && bus) await bus.publish(BRANDS_TOPIC, { ids: changed });
  return result;
}

export interface BrandSyncOptions {
  db: Kysely<Database>;
  bus: EventBus;
  tenantsDir: string;
  /**
   * Called after folders changed: `changed` were written (new or edited), `removed` deleted. The
   * runtime rescans its registry and makes each changed brand servable (makeServable below).
   */
  onChange: (changed: string[], removed: string[]) => void | Promise<void>;
  log: (line: string) => void;
  pollMs?: number;
}

/**
 * Keeps a runtime's tenants folder in step with the database's brands. `ready` resolves after the
 * first pass (the runtime awaits it before serving, so a machine starts with every brand).
 */
export function startBrandSync(opts: BrandSyncOptions): { ready: Promise<void>; stop(): void } {
  const { db, tenantsDir } = opts;
  let stopped = false;

  async function pass(): Promise<void> {
    if (stopped) return;
    const rows = await db.selectFrom('brands').select(['id', 'hash']).execute();
    const ledger = readLedger(tenantsDir);
    const changed: string[] = [];
    const removed: string[] = [];
    for (const row of rows) {
      if (ledger[row.id] === row.hash || !TENANT_ID.test(row.id)) continue;
      // Read with its hash: a version replaced meanwhile is the next event's.
      const full = await db.selectFrom('brands').select('files').where('id', '=', row.id).where('hash', '=', row.hash).executeTakeFirst();
      if (!full) continue;
      try {
        writeBrandFolder(tenantsDir, row.id, JSON.parse(full.files) as Record<string, string>);
      } catch (error) {
        // One brand that cannot be written never keeps the others out.
        opts.log(`brands from the database: ${(error as Error).message}`);
        continue;
      }
      ledger[row.id] = row.hash;
      changed.push(row.id);
    }
    for (const id of Object.keys(ledger)) {
      if (rows.some((r) => r.id === id)) continue;
      rmSync(join(tenantsDir, id), { recursive: true, force: true });
      delete ledger[id];
      removed.push(id);
    }
    if (!changed.length && !removed.length) return;
    writeLedger(tenantsDir, ledger);
    opts.log(`brands from the database: ${[...changed.map((id) => `${id} written`), ...removed.map((id) => `${id} removed`)].join(', ')}`);
    await opts.onChange(changed, removed);
  }

  // One pass at a time; events during a pass make one more after it.
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass().catch((error: Error) => opts.log(`brands from the database: ${error.message}`));
      } while (again && !stopped);
      running = null;
    })();
    return running;
  };
  const ready = run();
  const unsubscribe = opts.bus.subscribe(BRANDS_TOPIC, () => void run());
  const timer = setInterval(() => void run(), opts.pollMs ?? POLL_MS);
  timer.unref();
  return {
    ready,
    stop() {
      stopped = true;
      unsubscribe();
      clearInterval(timer);
    },
  };
}

/**
 * A brand's build when no program is on this machine yet: `sitegen build <id>
 * --missing` in a child process (the program's Astro build, then the brand's output), one at a
 * time; the build is renamed into place whole and the registry picks it up. A brand whose program
 * is there is rendered in the runtime instead (brand-output.ts, docs/ONE-BUILD.md step 4).
 */
export function buildInChild(opts: { tenantsDir: string; distDir: string; log: (line: string) => void }): { make(id: string): Promise<void>; stop(): void } {
  let queue = Promise.resolve();
  let current: ReturnType<typeof spawn> | null = null;
  let stopped = false;
  const build = (id: string) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const child = spawn(process.execPath, [join(import.meta.dirname, '..', '..', 'cli', 'main.ts'), 'build', id, '--missing'], {
        env: { ...process.env, TENANTS_DIR: opts.tenantsDir, DIST_DIR: opts.distDir },
        stdio: ['ignore', 'ignore', 'pipe'],
        // A process group of its own: stopping it stops the Astro build it starts too.
        detached: true,
      });
      current = child;
      let errors = '';
      child.stderr!.on('data', (c: Buffer) => (errors = (errors + c.toString()).slice(-2000)));
      child.on('close', (code) => {
        current = null;
        if (stopped) return resolve();
        opts.log(code === 0 ? `brand ${id}: built` : `brand ${id}: build failed (${code}): ${errors.trim()}`);
        resolve();
      });
    });
  return {
    make: (id) => (queue = queue.then(() => build(id))),
    /** The runtime stops: a build under way stops with it (its half is never renamed into place). */
    stop() {
      stopped = true;
      if (current?.pid) {
        try {
          process.kill(-current.pid, 'SIGTERM');
        } catch {
          // gone already
        }
      }
    },
  };
}
