/**
 * Page weight (bench sections `weight` and `console`): a page's HTML, its CSS and every JS module
 * it loads through static imports (what the browser fetches before the page is interactive),
 * brotli quality 11. Used by bench/run.ts and bench/console.ts.
 */
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { kb, type Runtime } from './lib.ts';
import { attr, moduleClosure, sameOrigin } from '../cli/module-preload.ts';

interface Asset {
  url: string;
  bytes: Buffer;
}

export interface Weight {
  html: number;
  htmlBr: number;
  cssBr: number;
  jsFiles: number;
  js: number;
  jsBr: number;
  inline: number;
  /** Each JS module of the page with its brotli bytes, largest first. */
  modules: { url: string; br: number }[];
}

export const br = (b: Buffer) => brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: b.length } }).length;

/** Static and dynamic relative imports of a JS module, resolved against its URL. */
function importsOf(url: string, code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'`](\.{1,2}\/[^"'`]+|\/[^"'`]+)["'`]/g)) found.add(new URL(m[1]!, `http://x${url}`).pathname);
  return [...found];
}

/** The table columns of weightCells. */
export const WEIGHT_HEAD = ['html', 'html br', 'css br', 'js files', 'js', 'js br', 'inline js'];
export const weightCells = (w: Weight) => [kb(w.html), kb(w.htmlBr), kb(w.cssBr), w.jsFiles, kb(w.js), kb(w.jsBr), kb(w.inline)];

/**
 * A measure of pages served by `rt` under a host (a brand's id, or `console`), assets fetched
 * once per host: `measure(host, path, headers)` is the page's weight.
 */
export function pageWeights(rt: Runtime): (host: string, path: string, headers?: Record<string, string>) => Promise<Weight> {
  const cache = new Map<string, Buffer>();
  async function asset(id: string, url: string): Promise<Buffer> {
    const key = `${id} ${url}`;
    let bytes = cache.get(key);
    if (!bytes) {
      const res = await rt.get(id, url);
      if (res.status !== 200) throw new Error(`${id} ${url}: ${res.status}`);
      cache.set(key, (bytes = res.body));
    }
    return bytes;
  }
  async function closure(id: string, urls: string[]): Promise<Asset[]> {
    // Static imports only: dynamic ones load later, on demand. The same closure as the shells' module preloads.
    const text = async (url: string) => (await asset(id, url)).toString('utf8');
    return Promise.all((await moduleClosure(urls, text)).map(async (url) => ({ url, bytes: await asset(id, url) })));
  }
  return async (id, path, headers = {}) => {
    const res = await rt.get(id, path, headers);
    if (res.status !== 200) throw new Error(`${id} ${path} answered ${res.status}`);
    const text = res.text();
    const html = res.body;
    const css = new Set<string>();
    const js = new Set<string>();
    let inline = 0;
    for (const m of text.matchAll(/<link\b[^>]*>/gi)) {
      const rel = (attr(m[0], 'rel') ?? '').toLowerCase().split(/\s+/);
      const href = attr(m[0], 'href');
      if (!href || !sameOrigin(href)) continue;
      if (rel.includes('stylesheet')) css.add(href);
      if (rel.includes('modulepreload')) js.add(href);
    }
    for (const m of text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
      const src = attr(`<script ${m[1]}>`, 'src');
      if (src && sameOrigin(src)) js.add(src);
      else if (!src) {
        inline += Buffer.byteLength(m[2]!);
        for (const dep of importsOf('/', m[2]!)) js.add(dep);
      }
    }
    for (const m of text.matchAll(/<astro-island\b[^>]*>/gi)) {
      for (const name of ['component-url', 'renderer-url']) {
        const u = attr(m[0], name);
        if (u && sameOrigin(u)) js.add(u);
      }
    }
    const cssAssets = await closure(id, [...css]);
    const jsAssets = await closure(id, [...js]);
    const sum = (as: Asset[], f: (b: Buffer) => number) => as.reduce((s, a) => s + f(a.bytes), 0);
    const modules = jsAssets.map((a) => ({ url: a.url, br: br(a.bytes) })).sort((a, b) => b.br - a.br);
    return { html: html.length, htmlBr: br(html), cssBr: sum(cssAssets, br), jsFiles: jsAssets.length, js: sum(jsAssets, (b) => b.length), jsBr: modules.reduce((s, m) => s + m.br, 0), inline, modules };
  };
}
