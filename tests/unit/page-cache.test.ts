/**
 * The page cache answers a prerendered page with its brotli and gzip copies: those beside it, or
 * made on the page's first request (a brand's output no longer compresses its pages) and written
 * beside it for the next process.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, expect, test } from 'vitest';
import { createPageCache } from '../../src/server/http/page-cache.ts';

const root = mkdtempSync(join(tmpdir(), 'sitegen-page-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('a page without copies gets them on its first request, written beside it; the next process reads them', async () => {
  const file = join(root, 'index.html');
  const html = `<!DOCTYPE html><html><body>${'<p class="lander">Vanavond niet alleen?</p>'.repeat(200)}</body></html>`;
  writeFileSync(file, html);
  const cache = createPageCache();
  const [page, again] = await Promise.all([cache.get(file, 1), cache.get(file, 1)]);
  expect(again).toBe(page);
  expect(brotliDecompressSync(page.br!).toString()).toBe(html);
  expect(gunzipSync(page.gzip!).toString()).toBe(html);
  expect(readFileSync(`${file}.br`)).toEqual(page.br);
  expect(readFileSync(`${file}.gz`)).toEqual(page.gzip);

  // Another process: the copies are read, not made again (a copy on disk is what it serves).
  writeFileSync(`${file}.br`, 'from disk');
  const next = await createPageCache().get(file, 1);
  expect(next.br?.toString()).toBe('from disk');
  expect(next.etag).toBe(page.etag);
});

test('a page too small to gain from compression gets no copies', async () => {
  const file = join(root, 'small.html');
  writeFileSync(file, '<!DOCTYPE html><p>kort</p>');
  const page = await createPageCache().get(file, 1);
  expect(page.br).toBeNull();
  expect(page.gzip).toBeNull();
  expect(existsSync(`${file}.br`)).toBe(false);
});
