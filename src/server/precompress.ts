import { readdirSync, readFileSync, renameSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.svg', '.txt', '.xml', '.webmanifest']);
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;
/** Files compressed at once (each on a thread of libuv's pool of 4). */
const CONCURRENCY = 4;

/**
 * Writes `<file>.br` (brotli quality 11) and `<file>.gz` (gzip level 9) beside every text file of a
 * build's client folder, once at build time, so the runtime sends prerendered pages and assets
 * compressed at the best ratio without compressing them on every request (@fastify/static
 * `preCompressed`). A copy that is not smaller than the file is not written.
 */
export async function precompress(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const files = (readdirSync(dir, { withFileTypes: true, recursive: true }) as Dirent[]).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return precompressFiles(files);
}

/** Writes a file under another name, then renames it: a runtime serving the folder never reads half of it. */
export function writeWhole(path: string, body: Buffer | string): void {
  const part = `${path}.${process.pid}.part`;
  writeFileSync(part, body);
  renameSync(part, path);
}

/**
 * A file's brotli (quality 11) and gzip (level 9) copies, each null when it is not smaller, or the
 * file too small to gain (`MIN_BYTES`). zlib runs on libuv's thread pool, off the event loop.
 */
export async function compressedCopies(body: Buffer): Promise<{ br: Buffer | null; gzip: Buffer | null }> {
  if (body.length < MIN_BYTES) return { br: null, gzip: null };
  const [br, gzipped] = await Promise.all([
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gz(body, { level: 9 }),
  ]);
  return { br: br.length < body.length ? br : null, gzip: gzipped.length < body.length ? gzipped : null };
}

/** The same for a list of files (those of another kind or too small to gain are left as they are). */
export async function precompressFiles(paths: string[]): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const totals = { files: 0, bytes: 0, brotliBytes: 0 };
  const files = paths.filter((path) => COMPRESSIBLE.has(extname(path).toLowerCase()) && statSync(path).size >= MIN_BYTES);
  const one = async (path: string) => {
    const body = readFileSync(path);
    const { br, gzip } = await compressedCopies(body);
    if (br) writeWhole(`${path}.br`, br);
    if (gzip) writeWhole(`${path}.gz`, gzip);
    totals.files += 1;
    totals.bytes += body.length;
    totals.brotliBytes += br?.length ?? body.length;
  };
  // zlib works on libuv's thread pool: a few files at a time keep every core busy.
  const queue = [...files];
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    for (let path = queue.shift(); path; path = queue.shift()) await one(path);
  }));
  return totals;
}
