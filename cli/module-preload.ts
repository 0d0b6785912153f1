import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHELL_FOLDER } from '../src/server/http/member-shells.ts';

/**
 * Module preloads of the member shells (issue 21, bench/README.md "/members on a phone"). A shell's
 * first screen waits for its module scripts and for the islands it hydrates at once, and the browser
 * finds their modules one import level at a time: a module's imports are asked for only once the
 * module has come, three waves of round trips on /members. A `<link rel=modulepreload>` for every
 * module of that closure, written into the shell's head at build time, asks for them all at once.
 * Islands that wait for the page to be idle or visible stay out: their modules must not compete
 * with the first screen's. The same closure is the page weight that bench/weight.ts sums.
 */

/** A module's static imports (`import … from "./x.js"`, `import "./x.js"`), resolved against its URL; dynamic `import()` loads later. */
export function staticImports(url: string, code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+|\/[^"'`]+)["'`]/g)) found.add(new URL(m[1]!, `http://x${url}`).pathname);
  return [...found];
}

/** Every module the given ones load through static imports, themselves included, in the order first met. */
export async function moduleClosure(urls: Iterable<string>, read: (url: string) => string | Promise<string>): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (url: string): Promise<void> => {
    if (seen.has(url)) return;
    seen.add(url);
    for (const dep of staticImports(url, await read(url))) await visit(dep);
  };
  for (const url of urls) await visit(url);
  return [...seen];
}

/** An attribute's value in a start tag as written (any quoting), or undefined. */
export const attr = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
    .exec(tag)
    ?.slice(2)
    .find((v) => v !== undefined);
/** A path of the page's own origin (`/…`, not `//host/…`). */
export const sameOrigin = (href: string) => href.startsWith('/') && !href.startsWith('//');

/**
 * The modules a page runs before its first screen is whole: its module scripts (and what an inline
 * module imports), and the component and renderer of every island hydrated at load.
 */
export function firstScreenModules(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const tag = `<script ${m[1]}>`;
    if (attr(tag, 'type') !== 'module') continue;
    const src = attr(tag, 'src');
    if (src && sameOrigin(src)) found.add(src);
    else if (!src) for (const dep of staticImports('/', m[2]!)) found.add(dep);
  }
  for (const m of html.matchAll(/<astro-island\b[^>]*>/gi)) {
    if (attr(m[0], 'client') !== 'load') continue;
    for (const name of ['renderer-url', 'component-url']) {
      const url = attr(m[0], name);
      if (url && sameOrigin(url)) found.add(url);
    }
  }
  return [...found];
}

/** The page with a modulepreload link for every module of its first screen's closure at the end of its head (none twice). */
export async function withModulePreloads(html: string, read: (url: string) => string | Promise<string>): Promise<string> {
  const listed = new Set([...html.matchAll(/<link\b[^>]*>/gi)].filter((m) => attr(m[0], 'rel') === 'modulepreload').map((m) => attr(m[0], 'href')));
  const links = (await moduleClosure(firstScreenModules(html), read))
    .filter((url) => !listed.has(url))
    .map((url) => `<link rel="modulepreload" href="${url}">`)
    .join('');
  return links ? html.replace('</head>', `${links}</head>`) : html;
}

/** Writes the preloads into every member shell of a build's client folder (l/<locale>/shells/<route>/index.html), the modules read from `assetsFrom` (the program's client folder); before precompress. */
export async function preloadShellModules(client: string, assetsFrom = client): Promise<number> {
  const read = (url: string) => readFileSync(join(assetsFrom, url), 'utf8');
  const localesDir = join(client, 'l');
  let pages = 0;
  if (!existsSync(localesDir)) return pages;
  for (const locale of readdirSync(localesDir)) {
    const shells = join(localesDir, locale, SHELL_FOLDER);
    if (!existsSync(shells)) continue;
    for (const route of readdirSync(shells)) {
      const file = join(shells, route, 'index.html');
      if (!existsSync(file)) continue;
      const html = readFileSync(file, 'utf8');
      const next = await withModulePreloads(html, read);
      if (next !== html) writeFileSync(file, next), pages++;
    }
  }
  return pages;
}
