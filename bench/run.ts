/**
 * `npm run bench`: build times, runtime memory per loaded tenant, page weights and a small
 * loopback throughput figure. Prints tables only; it never asserts on timings.
 */
import { Agent, request } from 'node:http';
import { gzipSync, brotliCompressSync, constants as zlib } from 'node:zlib';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildTenants } from '../cli/build.ts';
import { listTenantIds } from '../src/tenant/load.ts';
import { startTestRuntime, hostFetch, type TestRuntime } from '../tests/support/runtime.ts';

const started = performance.now();

// ---------------------------------------------------------------------------------------------
// Helpers

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function settle(): void {
  for (let i = 0; i < 3; i++) gc();
}

const MB = 1024 * 1024;
const rss = () => process.memoryUsage().rss;

/** Prints a header line and an aligned table; numeric-looking cells are right-aligned. */
function table(title: string, head: string[], rows: (string | number)[][]): void {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = (s: string) => /^[-+]?[\d.,]+x?$/.test(s) || s === '' || s === '-';
  // A column is right-aligned (header included) when every body cell in it is a number.
  const right = head.map((_, i) => i > 0 && cells.slice(1).every((r) => numeric(r[i] ?? '')));
  const line = (r: string[]) => r.map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  console.log(`\n== ${title}`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}

const kb = (n: number) => (n / 1024).toFixed(1);
const gz = (b: Buffer) => gzipSync(b, { level: 9 }).length;
const br = (b: Buffer) =>
  brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: b.length } }).length;
const ratio = (a: number, b: number) => (b === 0 ? '-' : `${(a / b).toFixed(2)}x`);

// ---------------------------------------------------------------------------------------------
// 1. Builds and runtime memory

const ids = listTenantIds();
if (ids.length === 0) throw new Error('no tenants found in tenants/');
console.log(`bench: tenants ${ids.join(', ')}`);

const timings = await buildTenants(ids);
table(
  'Build time per tenant (astro build into dist/, sequential)',
  ['tenant', 'seconds'],
  [...timings.map((t) => [t.id, t.seconds.toFixed(1)]), ['total', timings.reduce((s, t) => s + t.seconds, 0).toFixed(1)]],
);

const rt: TestRuntime = await startTestRuntime();
try {
  // Warm the shared runtime code (API router, sessions, static files) for every tenant first, so
  // the growth measured below is the tenant's Astro handler and its first SSR render.
  for (const id of ids) {
    await hostFetch(rt, id, '/api/settings.php');
    await hostFetch(rt, id, '/landers/tinderswipe');
  }
  const memRows: (string | number)[][] = [];
  const growth: number[] = [];
  const base = (settle(), rss());
  for (const id of ids) {
    settle();
    const before = rss();
    const res = await hostFetch(rt, id, '/pricing');
    if (res.status !== 200) throw new Error(`${id} /pricing answered ${res.status}`);
    settle();
    const after = rss();
    growth.push(after - before);
    memRows.push([id, (before / MB).toFixed(1), (after / MB).toFixed(1), `+${((after - before) / MB).toFixed(1)}`, growth.length > 1 ? ratio(after - before, growth[0]!) : '1.00x']);
  }
  memRows.push(['all', (base / MB).toFixed(1), (rss() / MB).toFixed(1), `+${((rss() - base) / MB).toFixed(1)}`, '']);
  table('Runtime RSS growth when each tenant handler is loaded (first SSR /pricing, after gc)', ['tenant', 'rss before MB', 'rss after MB', 'growth MB', 'vs first'], memRows);
  console.log('(the first tenant also pays for modules its build shares with the others from node_modules)');

  // -------------------------------------------------------------------------------------------
  // 2. Page weight

  interface Asset {
    url: string;
    bytes: Buffer;
  }
  const assetCache = new Map<string, Buffer>();
  async function asset(id: string, url: string): Promise<Buffer> {
    const key = `${id} ${url}`;
    let bytes = assetCache.get(key);
    if (!bytes) {
      const res = await new Promise<Buffer>((resolve, reject) => {
        request({ host: '127.0.0.1', port: rt.port, path: url, headers: { host: `${id}.localhost:${rt.port}` } }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => (r.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${id} ${url}: ${r.statusCode}`))));
          r.on('error', reject);
        })
          .on('error', reject)
          .end();
      });
      bytes = res;
      assetCache.set(key, bytes);
    }
    return bytes;
  }

  const attr = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)?.slice(2).find((v) => v !== undefined);
  const sameOrigin = (href: string) => href.startsWith('/') && !href.startsWith('//');

  /** Static and dynamic relative imports of a JS module, resolved against its URL. */
  function importsOf(url: string, code: string): string[] {
    const found = new Set<string>();
    for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'`](\.{1,2}\/[^"'`]+|\/[^"'`]+)["'`]/g)) {
      found.add(new URL(m[1]!, `http://x${url}`).pathname);
    }
    return [...found];
  }

  const REACT = /Symbol\.for\(["'`]react\.|__CLIENT_INTERNALS_DO_NOT_USE|react-dom|__SECRET_INTERNALS/;
  /** True when a module or anything it imports (transitively) is React / React DOM code. */
  async function reachesReact(id: string, url: string, seen = new Set<string>()): Promise<boolean> {
    if (seen.has(url)) return false;
    seen.add(url);
    const code = (await asset(id, url)).toString('utf8');
    if (REACT.test(code)) return true;
    for (const dep of importsOf(url, code)) if (await reachesReact(id, dep, seen)) return true;
    return false;
  }

  interface PageWeight {
    tenant: string;
    page: string;
    path: string;
    html: Buffer;
    css: Asset[];
    inlineCss: number;
    js: Asset[];
    inlineJs: number;
    framework: string[];
  }

  async function weigh(id: string, page: string, path: string): Promise<PageWeight> {
    const res = await hostFetch(rt, id, path);
    if (res.status !== 200) throw new Error(`${id} ${path} answered ${res.status}`);
    const html = Buffer.from(res.text, 'utf8');
    const css = new Set<string>();
    const js = new Set<string>();
    let inlineCss = 0;
    let inlineJs = 0;
    for (const m of res.text.matchAll(/<link\b[^>]*>/gi)) {
      const rel = (attr(m[0], 'rel') ?? '').toLowerCase().split(/\s+/);
      const href = attr(m[0], 'href');
      if (!href || !sameOrigin(href)) continue;
      if (rel.includes('stylesheet')) css.add(href);
      if (rel.includes('modulepreload')) js.add(href);
    }
    for (const m of res.text.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) inlineCss += Buffer.byteLength(m[1]!);
    for (const m of res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
      const src = attr(`<script ${m[1]}>`, 'src');
      const type = (attr(`<script ${m[1]}>`, 'type') ?? '').toLowerCase();
      if (type && !/^(module|text\/javascript|application\/javascript)$/.test(type)) continue; // JSON, ld+json…
      if (src) {
        if (sameOrigin(src)) js.add(src);
      } else inlineJs += Buffer.byteLength(m[2]!);
    }
    // Islands: Astro loads their component and renderer modules at hydration time.
    for (const m of res.text.matchAll(/<astro-island\b[^>]*>/gi)) {
      for (const name of ['component-url', 'renderer-url']) {
        const u = attr(m[0], name);
        if (u && sameOrigin(u)) js.add(u);
      }
    }
    const cssAssets = await Promise.all([...css].map(async (url) => ({ url, bytes: await asset(id, url) })));
    const jsAssets = await Promise.all([...js].map(async (url) => ({ url, bytes: await asset(id, url) })));
    const framework: string[] = [];
    for (const a of jsAssets) if (await reachesReact(id, a.url)) framework.push(a.url);
    // Inline module scripts may import chunks too.
    for (const m of res.text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
      for (const dep of importsOf('/', m[1]!)) if (await reachesReact(id, dep)) framework.push(`(inline script → ${dep})`);
    }
    return { tenant: id, page, path, html, css: cssAssets, inlineCss, js: jsAssets, inlineJs, framework };
  }

  const shellPath = (id: string) => (id === 'velvet' ? '/members' : '/pricing');
  const weights: PageWeight[] = [];
  for (const id of ids) {
    weights.push(await weigh(id, 'lander tinderswipe', '/landers/tinderswipe'));
    weights.push(await weigh(id, 'lander gallery', '/landers/gallery'));
    weights.push(await weigh(id, 'home', '/'));
    weights.push(await weigh(id, 'members shell (SSR)', shellPath(id)));
  }

  const sum = (as: Asset[], f: (b: Buffer) => number) => as.reduce((s, a) => s + f(a.bytes), 0);
  table(
    'HTML bytes per page (KB; gzip level 9, brotli q11)',
    ['tenant', 'page', 'path', 'html', 'gzip', 'brotli', 'raw/gzip', 'raw/br'],
    weights.map((w) => {
      const g = gz(w.html);
      const b = br(w.html);
      return [w.tenant, w.page, w.path, kb(w.html.length), kb(g), kb(b), ratio(w.html.length, g), ratio(w.html.length, b)];
    }),
  );
  table(
    'CSS and JS bytes per page (KB; files followed from <link>/<script>/modulepreload/islands; inline counted separately)',
    ['tenant', 'page', 'css files', 'css', 'css gz', 'inline css', 'js files', 'js', 'js gz', 'js br', 'inline js', 'js+inline/html'],
    weights.map((w) => {
      const jsRaw = sum(w.js, (b) => b.length);
      return [
        w.tenant,
        w.page,
        w.css.length,
        kb(sum(w.css, (b) => b.length)),
        kb(sum(w.css, gz)),
        kb(w.inlineCss),
        w.js.length,
        kb(jsRaw),
        kb(sum(w.js, gz)),
        kb(sum(w.js, br)),
        kb(w.inlineJs),
        ratio(jsRaw + w.inlineJs, w.html.length),
      ];
    }),
  );
  // A page known to hydrate a React island, to show the detector finds framework JS when present.
  const control = await weigh(ids[0]!, 'control: /signup island', '/signup');
  table(
    'Framework JS (scripts that are or import React / React DOM chunks; a lander should have none)',
    ['tenant', 'page', 'framework JS'],
    [...weights, control].map((w) => [w.tenant, w.page, w.framework.length === 0 ? 'none' : `${w.framework.length}: ${w.framework.join(', ')}`]),
  );
  const landersWithFramework = weights.filter((w) => w.page.startsWith('lander') && w.framework.length > 0);
  console.log(landersWithFramework.length === 0 ? 'framework JS on landers: none' : `framework JS on landers: ${landersWithFramework.map((w) => `${w.tenant} ${w.path}`).join(', ')}`);

  // -------------------------------------------------------------------------------------------
  // 3. Throughput (loopback, keep-alive; client and runtime share this process and its event loop)

  const N = 300;
  const tenant = ids[0]!;
  function timedGet(agent: Agent, path: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = request({ host: '127.0.0.1', port: rt.port, path, agent, headers: { host: `${tenant}.localhost:${rt.port}` } }, (res) => {
        res.on('data', () => {});
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`${path}: ${res.statusCode}`))));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }
  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

  async function load(path: string, clients: number): Promise<(string | number)[]> {
    const agent = new Agent({ keepAlive: true, maxSockets: clients });
    for (let i = 0; i < clients * 5; i++) await timedGet(agent, path); // warm-up, not counted
    const latencies: number[] = [];
    const perClient = Math.ceil(N / clients);
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let i = 0; i < perClient && c * perClient + i < N; i++) latencies.push(await timedGet(agent, path));
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    agent.destroy();
    latencies.sort((a, b) => a - b);
    return [path, clients, latencies.length, (latencies.length / seconds).toFixed(0), pct(latencies, 50).toFixed(2), pct(latencies, 95).toFixed(2), pct(latencies, 99).toFixed(2)];
  }

  const loadRows: (string | number)[][] = [];
  for (const clients of [1, 4]) {
    for (const path of ['/landers/tinderswipe', '/api/settings.php']) loadRows.push(await load(path, clients));
  }
  table(
    `Throughput against tenant ${tenant} (N=${N} requests, keep-alive, loopback, no Accept-Encoding)`,
    ['path', 'clients', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms'],
    loadRows,
  );
  const rps = (path: string, c: number) => Number(loadRows.find((r) => r[0] === path && r[1] === c)?.[3] ?? 0);
  for (const path of ['/landers/tinderswipe', '/api/settings.php']) {
    console.log(`${path}: 4 clients vs 1 client = ${ratio(rps(path, 4), rps(path, 1))} req/s`);
  }
} finally {
  await rt.close();
}

console.log(`\nbench: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
