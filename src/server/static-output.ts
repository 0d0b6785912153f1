import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { pathToFileURL } from 'node:url';
import { createGenerator } from 'unocss';
import { transform } from 'lightningcss';
import unoConfig from '../../uno.config.ts';
import { readLanders } from '../tenant/landers.ts';
import { loadAllTenants } from '../tenant/load.ts';
import type { Locale } from '../lib/locales.ts';
import type { Services } from './services/index.ts';
import type { Tenant } from '../tenant/schema.ts';
import { landerManifest, staticPaths, type StaticPath } from '../site/static-paths.ts';
import { PageAnswer } from './http/page-answer.ts';
import { writeWhole } from './precompress.ts';
import { DEFAULT_CONTENT_DIR, outputInputs, poolNames, readSharedTexts, withPool, type OutputInputs, type SharedTexts } from './output-dependencies.ts';
import type { AstroHandler } from './registry.ts';

/**
 * The browsers the program's CSS is written for: Vite's default `build.cssTarget`
 * ('baseline-widely-available': chrome111, edge111, firefox114, safari16.4, ios16.4) in
 * lightningcss's form, so the static pages' stylesheet is minified as Astro's own.
 */
const CSS_TARGETS = { chrome: 111 << 16, edge: 111 << 16, firefox: 114 << 16, safari: (16 << 16) | (4 << 8), ios_saf: (16 << 16) | (4 << 8) };

const STYLESHEET = /<link rel="stylesheet" href="\/_assets\/[^"]+\.css">/g;

/**
 * Renders a brand's static output (docs/ONE-BUILD.md, step 2) from a program, without Astro's
 * build: each page of src/site/static-paths.ts through the program's handler, with the brand and
 * the page in `locals` and nothing of a visitor, into `client` (l/{locale}/…, landers.json), and
 * the static pages' own stylesheet (staticStylesheet) made of every page. Returns the files
 * written, for the caller to compress.
 *
 * What Astro's prerendering did and a server-rendered page does not is done here: the page's
 * Content-Security-Policy goes into a `<meta>` (the runtime sends prerendered pages' policy from
 * the page, src/lib/page-security.ts).
 */
export async function renderStaticOutput(opts: { tenant: Tenant; tenantsDir: string; programDir: string; client: string }): Promise<string[]> {
  const output = await openStaticOutput({ ...opts, stylesheetOf: 'every page' });
  return (await output.writeAll()).map((file) => join(opts.client, file));
}

/**
 * A brand's static output written page by page, each page rendered once whoever asks for it first
 * (a visitor waiting for it, or the render of the rest after).
 */
export interface StaticOutput {
  /** The folder it writes to (the caller moves it: written first in a build's next folder, the rest in place). */
  client: string;
  /** Called before each page is written: throws when the folder is no longer this output's. */
  guard?: () => void;
  /** Every page's file under client/ (such as l/nl/index.html). */
  pages: Set<string>;
  /** The shared texts its pages show (for its build stamp). */
  inputs: OutputInputs;
  /** The stylesheet, the landers.json of each locale and the pages of one per template: what a page needs to be served. Their files under client/. */
  writeFirst(): Promise<string[]>;
  /** Writes one page (rendered when no one has yet). */
  write(file: string): Promise<void>;
  /** Writes every page not written yet; every file written, under client/. */
  writeAll(): Promise<string[]>;
  /** Whether the stylesheet is the one of every page (see openStaticOutput); once every page is written. */
  isExact(): Promise<boolean>;
}

/**
 * The pages that share a template: a page's route and parameters, less those naming what it
 * shows (a niche slug, a variant). One page of each (24 of spetter's 93, 69 of velvet's 633) holds
 * every class the brand's pages use: their stylesheets are byte-equal for the three demo brands.
 */
function templateOf(page: StaticPath): string {
  const { slug: _slug, path: _path, variant: _variant, ...rest } = page.params;
  return `${page.route} ${JSON.stringify(rest)}`;
}

/**
 * Opens a brand's static output. Its stylesheet is made of the tokens of `stylesheetOf`: every
 * page (`sitegen build`, a brand's output rendered again), or one page of each template (a brand
 * with no output, whose first visitor waits for its own page, not every page: isExact tells
 * afterwards whether the stylesheet of every page would have been another).
 */
export async function openStaticOutput(opts: {
  tenant: Tenant;
  tenantsDir: string;
  programDir: string;
  client: string;
  stylesheetOf: 'every page' | 'one page per template';
  /**
   * Every tenant as already read (the runtime's registry), else read from tenantsDir: reading and
   * validating 1,000 tenant files holds the event loop about a second, for each brand rendered.
   */
  tenants?: Tenant[];
  /** The shared texts as already read (a build of many brands, the runtime's watch), else read from tenantsDir and contentDir. */
  shared?: SharedTexts;
  /** The folder of the static pages' texts (content/ of the checkout unless given). */
  contentDir?: string;
}): Promise<StaticOutput> {
  const { tenant } = opts;
  // The brands of its pool are named on its privacy page (src/site/pool-brands.ts).
  const tenants = opts.tenants ?? loadAllTenants(opts.tenantsDir);
  const { handler } = (await import(pathToFileURL(join(opts.programDir, 'server', 'entry.mjs')).href)) as { handler: AstroHandler };
  const programClient = join(opts.programDir, 'client');
  const shared = opts.shared ?? readSharedTexts({ tenantsDir: opts.tenantsDir, contentDir: opts.contentDir ?? DEFAULT_CONTENT_DIR });
  const files = readLanders(opts.tenantsDir, tenant.id, shared.landers);
  const paths = staticPaths(tenant, files, shared.pages);
  const pages = new Map(paths.filter((p) => p.route !== 'landers.json').map((p) => [p.file, p]));
  const html = new Map<string, Promise<string>>();
  const render = (file: string): Promise<string> => {
    let page = html.get(file);
    if (!page) html.set(file, (page = renderPage(handler, tenant, tenants, pages.get(file)!)));
    return page;
  };
  let first: StaticPath[] = [...pages.values()];
  if (opts.stylesheetOf === 'one page per template') {
    const templates = new Map<string, StaticPath>();
    for (const page of first) if (!templates.has(templateOf(page))) templates.set(templateOf(page), page);
    first = [...templates.values()];
  }
  // One at a time: the handler renders a page in tens of milliseconds, all at once would hold them all in the making.
  const firstHtml: string[] = [];
  for (const page of first) firstHtml.push(await render(page.file));
  const stylesheet = await staticStylesheet(firstHtml, programClient);
  const link = `<link rel="stylesheet" href="/${stylesheet.file}">`;
  const written = new Map<string, Promise<void>>();
  let firstWritten: Promise<string[]> | undefined;
  const output: StaticOutput = {
    client: opts.client,
    pages: new Set(pages.keys()),
    inputs: withPool(outputInputs(paths, shared), poolNames(tenant, tenants)),
    writeFirst() {
      firstWritten ??= (async () => {
        const landers = paths.filter((p) => p.route === 'landers.json').map((p) => p.file);
        for (const p of paths) if (p.route === 'landers.json') writeInto(output.client, p.file, JSON.stringify(landerManifest(tenant, files, p.params.locale)));
        writeInto(output.client, stylesheet.file, stylesheet.css);
        await Promise.all(first.map((p) => output.write(p.file)));
        return [stylesheet.file, ...landers, ...first.map((p) => p.file)];
      })();
      return firstWritten;
    },
    write(file) {
      let page = written.get(file);
      if (!page) written.set(file, (page = render(file).then((body) => {
        output.guard?.();
        writeInto(output.client, file, body.replace(STYLESHEET, link));
      })));
      return page;
    },
    async writeAll() {
      const done = await output.writeFirst();
      for (const file of pages.keys()) if (!written.has(file)) await output.write(file);
      await Promise.all(written.values());
      return [...new Set([...done, ...pages.keys()])];
    },
    async isExact() {
      if (opts.stylesheetOf === 'every page') return true;
      return (await staticStylesheet(await Promise.all([...pages.keys()].map(render)), programClient)).file === stylesheet.file;
    },
  };
  return output;
}

/** Writes a file of the output whole (the rest of a brand's pages are written in the folder a runtime serves). */
function writeInto(client: string, file: string, body: string): void {
  mkdirSync(dirname(join(client, file)), { recursive: true });
  writeWhole(join(client, file), body);
}

/** One page through the program's handler, as Astro's prerendering wrote it. */
async function renderPage(handler: AstroHandler, tenant: Tenant, tenants: Tenant[], page: StaticPath): Promise<string> {
  const address = `/${dirname(page.file)}/`;
  const request = new IncomingMessage(new Socket());
  request.method = 'GET';
  request.url = address;
  request.headers = { host: 'localhost' };
  request.push(null);
  const answer = new PageAnswer(request);
  const body = buffer(answer);
  // The brand and the page, nothing of a visitor: these pages are the same for everyone. Of the
  // services, only the tenants: no page of the static output reads the database.
  const services = { tenants: () => tenants } as Pick<Services, 'tenants'> as Services;
  const locals: App.Locals = { tenant, locale: page.params.locale as Locale, locales: tenant.locales.available, country: null, user: null, trafficSource: false, services, staticPage: page };
  let unmatched = false;
  await handler(request, answer as never, () => void ((unmatched = true), answer.end()), locals);
  const html = (await body).toString('utf8');
  if (unmatched || answer.statusCode !== 200) throw new Error(`${tenant.id} ${address}: the program answered ${unmatched ? 'no page' : answer.statusCode}`);
  const policy = answer.headers['content-security-policy'];
  if (typeof policy !== 'string') throw new Error(`${tenant.id} ${address}: the page has no Content-Security-Policy`);
  // Astro writes a prerendered page's policy first in what it adds to the head, before its stylesheets.
  const at = html.search(/<link rel="stylesheet"/);
  if (at < 0) throw new Error(`${tenant.id} ${address}: the page links no stylesheet`);
  return `${html.slice(0, at)}<meta http-equiv="content-security-policy" content="${policy.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}">${html.slice(at)}`;
}

/**
 * The stylesheet of a brand's static pages. The program's stylesheet is UnoCSS over every module
 * of the site (a member's pages too, 16.5 KB brotli); Astro's prerendering made a smaller one over
 * the prerendered pages' modules. This one is UnoCSS over what the static pages hold: their HTML
 * and every script they load (static and dynamic imports, islands included, which draw classes in
 * the browser), then the base styles (src/styles/global.css), minified as Astro's. Named by its
 * hash, like the program's assets, and cached for a year as they are.
 */
async function staticStylesheet(pages: string[], programClient: string): Promise<{ file: string; css: string }> {
  const scripts = scriptClosure(pages, programClient);
  const uno = await createGenerator(unoConfig);
  // Token by token, page by page: one text of every page is slow for UnoCSS's scanner (minutes for velvet's 633).
  const tokens = new Set<string>();
  for (const text of [...pages, ...scripts]) await uno.applyExtractors(text, undefined, tokens);
  const { css } = await uno.generate(tokens, { preflights: true, minify: true });
  const base = readFileSync(join(import.meta.dirname, '..', 'styles', 'global.css'), 'utf8');
  const minified = transform({ filename: 'static.css', code: Buffer.from(`${css}\n${base}`), minify: true, targets: CSS_TARGETS }).code;
  const text = new TextDecoder().decode(minified);
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 8);
  return { file: `_assets/static.${hash}.css`, css: text };
}

/** The code of every script the pages load, and of everything it imports, statically or not. */
function scriptClosure(pages: string[], programClient: string): string[] {
  const queue: string[] = [];
  for (const html of pages) {
    for (const m of html.matchAll(/(?:src|component-url|renderer-url|before-hydration-url)="(\/_assets\/[^"]+\.js)"/g)) queue.push(m[1]!);
    for (const m of html.matchAll(/\bimport\s*\(?\s*["'](\/_assets\/[^"']+\.js)["']/g)) queue.push(m[1]!);
  }
  const code = new Map<string, string>();
  for (let url = queue.pop(); url !== undefined; url = queue.pop()) {
    if (code.has(url)) continue;
    const text = readFileSync(join(programClient, url), 'utf8');
    code.set(url, text);
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g)) queue.push(new URL(m[1]!, `http://x${url}`).pathname);
  }
  return [...code.values()];
}
