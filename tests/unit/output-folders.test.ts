/**
 * A brand's output put in place in one step (issue 25): each rendering a version folder under
 * dist/_outputs/<id>/, dist/<id> a link switched by one rename, so a reader never finds no
 * output; a replaced version kept for the requests reading it, then deleted; a removed brand's
 * output pruned, never the programs, the console's build or another `_` folder.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, expect, test } from 'vitest';
import { currentVersion, OUTPUTS_FOLDER, publishOutput, pruneOutputs, pruneRetired, removeOutput } from '../../src/server/output-folders.ts';

const root = mkdtempSync(join(tmpdir(), 'sitegen-output-folders-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let made = 0;
/** A fresh dist/ folder. */
function distFolder(): string {
  const dir = join(root, `dist-${++made}`);
  mkdirSync(dir);
  return dir;
}

/** A rendering of a brand in `.<id>.next`, as writeBrandOutput makes it: a home page and a stamp. */
function rendering(distDir: string, id: string, text: string): string {
  const next = join(distDir, `.${id}.next`);
  mkdirSync(join(next, 'client'), { recursive: true });
  writeFileSync(join(next, 'client', 'index.html'), text);
  writeFileSync(join(next, '.sitegen-build.json'), JSON.stringify({ id, sources: 0, built: '', program: 'p' }));
  return next;
}

/** Moves a file's or folder's mtime back by `ms`. */
function age(path: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  utimesSync(path, then, then);
}

test('a reader of dist/<id>/ never finds no output while the brand is rendered again and again', { timeout: 60_000 }, async () => {
  const distDir = distFolder();
  publishOutput(distDir, 'spetter', rendering(distDir, 'spetter', 'version 0'));
  const page = join(distDir, 'spetter', 'client', 'index.html');
  // A reader on another thread, reading the home page as fast as it can until told to stop.
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const reader = new Worker(
    `const { readFileSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
let reads = 0, misses = 0;
parentPort.postMessage('reading');
while (Atomics.load(workerData.stop, 0) === 0) {
  try { readFileSync(workerData.page); reads++; } catch { misses++; }
}
parentPort.postMessage({ reads, misses });`,
    { eval: true, workerData: { page, stop } },
  );
  const result = new Promise<{ reads: number; misses: number }>((resolve, reject) => {
    reader.on('message', (m) => typeof m === 'object' && resolve(m));
    reader.on('error', reject);
  });
  await new Promise((resolve) => reader.once('message', resolve));
  for (let i = 1; i <= 400; i++) publishOutput(distDir, 'spetter', rendering(distDir, 'spetter', `version ${i}`));
  Atomics.store(stop, 0, 1);
  const { reads, misses } = await result;
  await reader.terminate();
  expect(reads).toBeGreaterThan(0);
  expect(misses).toBe(0);
  expect(readFileSync(page, 'utf8')).toBe('version 400');
  // Every replaced version is kept for the requests reading it (a minute): none deleted yet.
  expect(readdirSync(join(distDir, OUTPUTS_FOLDER, 'spetter'))).toHaveLength(401);
});

test('the first publish moves a folder from before versions among them; a replaced version goes a minute later, the current one never', () => {
  const distDir = distFolder();
  mkdirSync(join(distDir, 'velvet', 'client'), { recursive: true });
  writeFileSync(join(distDir, 'velvet', 'client', 'index.html'), 'a plain folder');
  const first = publishOutput(distDir, 'velvet', rendering(distDir, 'velvet', 'first'));
  expect(lstatSync(join(distDir, 'velvet')).isSymbolicLink()).toBe(true);
  // Relative: dist/ can be moved or copied whole.
  expect(readlinkSync(join(distDir, 'velvet'))).toBe(join(OUTPUTS_FOLDER, 'velvet', currentVersion(distDir, 'velvet')!));
  expect(readFileSync(join(distDir, 'velvet', 'client', 'index.html'), 'utf8')).toBe('first');
  const versions = join(distDir, OUTPUTS_FOLDER, 'velvet');
  const plain = readdirSync(versions).find((v) => join(versions, v) !== first)!;
  expect(readFileSync(join(versions, plain, 'client', 'index.html'), 'utf8')).toBe('a plain folder');

  const second = publishOutput(distDir, 'velvet', rendering(distDir, 'velvet', 'second'));
  expect(readdirSync(versions).sort()).toEqual([plain, ...[first, second].map((f) => f.slice(versions.length + 1))].sort());
  pruneRetired(distDir, 'velvet');
  expect(readdirSync(versions)).toHaveLength(3);
  // A minute after they were replaced: the replaced ones go, the current one stays however old.
  for (const v of readdirSync(versions)) age(join(versions, v), 61_000);
  pruneRetired(distDir, 'velvet');
  expect(readdirSync(versions)).toEqual([second.slice(versions.length + 1)]);
  expect(readFileSync(join(distDir, 'velvet', 'client', 'index.html'), 'utf8')).toBe('second');
  // The next publish deletes what was replaced long enough ago, by itself.
  age(second, 61_000);
  const third = publishOutput(distDir, 'velvet', rendering(distDir, 'velvet', 'third'));
  expect(readdirSync(versions)).toEqual([second, third].map((f) => f.slice(versions.length + 1)).sort());
});

test('the outputs of brands whose folder is gone are pruned; programs, the console and other folders are not', () => {
  const distDir = distFolder();
  for (const id of ['spetter', 'gone']) publishOutput(distDir, id, rendering(distDir, id, id));
  // A build from before versions, of a brand that is gone too.
  mkdirSync(join(distDir, 'oldgone'));
  writeFileSync(join(distDir, 'oldgone', '.sitegen-build.json'), '{}');
  // The console's build is an output like a brand's; the programs, a node_modules link, a lock and a stray folder are not.
  mkdirSync(join(distDir, '.console.next'));
  publishOutput(distDir, '_console', join(distDir, '.console.next'));
  mkdirSync(join(distDir, '_programs', 'abc'), { recursive: true });
  symlinkSync(root, join(distDir, 'node_modules'), 'dir');
  mkdirSync(join(distDir, '.build.lock'));
  mkdirSync(join(distDir, 'notes'));
  // Versions of a brand whose link is gone already.
  mkdirSync(join(distDir, OUTPUTS_FOLDER, 'halfgone', 'v1'), { recursive: true });

  expect(pruneOutputs(distDir, ['spetter'])).toEqual(['gone', 'halfgone', 'oldgone']);
  expect(readdirSync(distDir).sort()).toEqual(['.build.lock', '_console', OUTPUTS_FOLDER, '_programs', 'node_modules', 'notes', 'spetter'].sort());
  expect(readdirSync(join(distDir, OUTPUTS_FOLDER)).sort()).toEqual(['_console', 'spetter']);
  expect(readFileSync(join(distDir, 'spetter', 'client', 'index.html'), 'utf8')).toBe('spetter');
  expect(existsSync(root)).toBe(true);
});

test('removing an output that links elsewhere removes the link only; an `_` folder is refused', () => {
  const distDir = distFolder();
  const elsewhere = distFolder();
  publishOutput(elsewhere, 'spetter', rendering(elsewhere, 'spetter', 'kept'));
  symlinkSync(join(elsewhere, 'spetter'), join(distDir, 'spetter'), 'dir');
  removeOutput(distDir, 'spetter');
  expect(existsSync(join(distDir, 'spetter'))).toBe(false);
  expect(readFileSync(join(elsewhere, 'spetter', 'client', 'index.html'), 'utf8')).toBe('kept');
  expect(() => removeOutput(distDir, '_programs')).toThrow("_programs is no brand's output");
  expect(() => removeOutput(distDir, '../x')).toThrow();
});
