import { randomUUID } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { BUILD_STAMP } from './programs.ts';
import { TENANT_ID } from '../tenant/schema.ts';

/**
 * The folders of an output served as dist/<name> (a brand's, the console's; issue 25): each
 * rendering is kept whole in a version folder, dist/_outputs/<name>/<version>/, and dist/<name>
 * is a symbolic link to the current one. A new rendering is put in place by renaming a fresh link
 * over the old one, one rename(2), atomic on POSIX: a request reading dist/<name>/… finds the old
 * output or the new one, never none (two renames of folders left a moment with no output, and the
 * registry could keep "not built" for up to a second). The link is relative, so dist/ can be moved.
 */
export const OUTPUTS_FOLDER = '_outputs';

/**
 * How long a replaced version is kept after it stopped being current: requests that were reading
 * it finish (not in SPEC; our choice). The next publish of the name, `sitegen build`, `npm start`,
 * or the runtime a while after its own publish deletes it then.
 */
export const RETIRED_OUTPUT_MS = 60_000;

/** The folder of an output's versions. */
export function versionsOf(distDir: string, name: string): string {
  return join(distDir, OUTPUTS_FOLDER, name);
}

/**
 * The version dist/<name> links to; undefined when it is no link to one of its versions (missing,
 * a folder from before versions, or a link elsewhere, such as a test's link to another dist/).
 */
export function currentVersion(distDir: string, name: string): string | undefined {
  let target: string;
  try {
    target = readlinkSync(join(distDir, name));
  } catch {
    return undefined;
  }
  const folder = resolve(distDir, target);
  return dirname(folder) === resolve(versionsOf(distDir, name)) ? basename(folder) : undefined;
}

/** A name no other version has: sortable by time, and never starting with a dot. */
function newVersion(): string {
  return `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;
}

/** Marks a version as replaced now: it is deleted RETIRED_OUTPUT_MS later (pruneRetired). */
function retire(folder: string): void {
  const now = new Date();
  try {
    utimesSync(folder, now, now);
  } catch {
    // Deleted meanwhile by another process.
  }
}

/**
 * Puts a finished output (the folder `next`, under distDir) in place as dist/<name>: moved among
 * the versions, then the link switched to it in one rename. The version replaced is kept for
 * requests in flight and deleted RETIRED_OUTPUT_MS later. A dist/<name> that is still a folder
 * (made before versions) is moved among the versions first: only then, once, is there a moment
 * between two renames with no output. Returns the new version's folder.
 */
export function publishOutput(distDir: string, name: string, next: string): string {
  const versions = versionsOf(distDir, name);
  const version = newVersion();
  const folder = join(versions, version);
  mkdirSync(versions, { recursive: true });
  renameSync(next, folder);
  // Its publish time: a version that another publish replaced at once is kept a while from here.
  retire(folder);
  const previous = currentVersion(distDir, name);
  const final = join(distDir, name);
  const link = join(distDir, `.${name}.${randomUUID()}.link`);
  symlinkSync(join(OUTPUTS_FOLDER, name, version), link, 'dir');
  const found = lstatSync(final, { throwIfNoEntry: false });
  if (found && !found.isSymbolicLink()) {
    const moved = join(versions, newVersion());
    renameSync(final, moved);
    retire(moved);
  }
  renameSync(link, final);
  if (previous !== undefined) retire(join(versions, previous));
  pruneRetired(distDir, name);
  return folder;
}

/**
 * Deletes the versions of an output replaced more than `after` ms ago (never the current one,
 * nor one just published that is about to be), and the output's versions folder once nothing
 * links to it and it is empty.
 */
export function pruneRetired(distDir: string, name: string, after = RETIRED_OUTPUT_MS): void {
  const versions = versionsOf(distDir, name);
  if (!existsSync(versions)) return;
  const current = currentVersion(distDir, name);
  const now = Date.now();
  for (const version of readdirSync(versions)) {
    if (version === current) continue;
    const changed = statSync(join(versions, version), { throwIfNoEntry: false })?.mtimeMs;
    if (changed !== undefined && now - changed >= after) rmSync(join(versions, version), { recursive: true, force: true });
  }
  if (current === undefined && !readdirSync(versions).length) rmSync(versions, { recursive: true, force: true });
}

/** Whether an entry of dist/ is an output: a link to its versions, or a build (its stamp, or its own server code before stamps). */
function isOutput(distDir: string, name: string): boolean {
  if (currentVersion(distDir, name) !== undefined) return true;
  return existsSync(join(distDir, name, BUILD_STAMP)) || existsSync(join(distDir, name, 'server', 'entry.mjs'));
}

/** What is no output of a brand: the programs, the console's build, the versions folder, links and builds in the making. */
const notBrand = (name: string) => name.startsWith('_') || name.startsWith('.');

/**
 * Deletes a brand's output: the link (or a folder from before versions) and every version. A
 * dist/<name> that links elsewhere loses its link only. Never an `_` or `.` folder (programs, the
 * console's build).
 */
export function removeOutput(distDir: string, name: string): void {
  if (notBrand(name) || !TENANT_ID.test(name)) throw new Error(`${name} is no brand's output`);
  const final = join(distDir, name);
  const found = lstatSync(final, { throwIfNoEntry: false });
  if (found?.isSymbolicLink()) unlinkSync(final);
  else if (found) rmSync(final, { recursive: true, force: true });
  rmSync(versionsOf(distDir, name), { recursive: true, force: true });
}

/**
 * Deletes the outputs of brands not in `ids` (their tenant folder is gone), and every output's
 * versions replaced long enough ago; returns the brands whose output went. Only what is an output
 * is touched: never `_programs`, `_console` or another `_` folder, nor anything else in dist/
 * (a link to node_modules, a build lock).
 */
export function pruneOutputs(distDir: string, ids: readonly string[]): string[] {
  if (!existsSync(distDir)) return [];
  const keep = new Set(ids);
  const removed = new Set<string>();
  for (const name of readdirSync(distDir)) {
    if (notBrand(name) || keep.has(name) || !isOutput(distDir, name)) continue;
    removeOutput(distDir, name);
    removed.add(name);
  }
  const outputs = join(distDir, OUTPUTS_FOLDER);
  for (const name of existsSync(outputs) ? readdirSync(outputs) : []) {
    if (!notBrand(name) && !keep.has(name)) {
      removeOutput(distDir, name);
      removed.add(name);
    } else {
      pruneRetired(distDir, name);
    }
  }
  return [...removed].sort();
}
