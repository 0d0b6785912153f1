/**
 * The member shells' module preloads (cli/module-preload.ts, issue 21): the modules a shell's first
 * screen runs, followed through their static imports, listed in the head so the browser asks for
 * them at once instead of one import level after another.
 */
import { describe, expect, it } from 'vitest';
import { firstScreenModules, moduleClosure, staticImports, withModulePreloads } from '../../cli/module-preload.ts';

/** A build's assets: URL -> code. */
const assets: Record<string, string> = {
  '/_assets/Nav.js': `import{a as t}from"./user.js";import"./side.js";const l=()=>import("./live.js");`,
  '/_assets/user.js': `import{b}from"./api.js";export const a=1;`,
  '/_assets/api.js': `export const b=2;`,
  '/_assets/side.js': `import{a}from"./user.js";`,
  '/_assets/live.js': `import{c}from"./events.js";`,
  '/_assets/events.js': ``,
  '/_assets/client.js': `import"./react.js";`,
  '/_assets/react.js': ``,
  '/_assets/Search.js': `import{x}from"./react.js";import{y}from"./Card.js";`,
  '/_assets/Card.js': ``,
  '/_assets/Dialog.js': `import{z}from"./Heavy.js";`,
  '/_assets/Heavy.js': ``,
};
const read = (url: string) => {
  const code = assets[url];
  if (code === undefined) throw new Error(`no asset ${url}`);
  return code;
};

const page = (extra = '') =>
  `<html><head><title>t</title><link rel="stylesheet" href="/_assets/x.css">${extra}</head><body>` +
  `<script>(()=>{var a=1})()</script>` +
  `<script type="module" src="/_assets/Nav.js"></script>` +
  `<astro-island uid="a" component-url="/_assets/Search.js" renderer-url="/_assets/client.js" ssr client="load" opts="{}"></astro-island>` +
  `<astro-island uid="b" component-url="/_assets/Dialog.js" renderer-url="/_assets/client.js" ssr client="idle" opts="{}"></astro-island>` +
  `</body></html>`;

describe('staticImports', () => {
  it('names the static imports resolved against the module, not the dynamic ones', () => {
    expect(staticImports('/_assets/Nav.js', assets['/_assets/Nav.js']!)).toEqual(['/_assets/user.js', '/_assets/side.js']);
  });
});

describe('moduleClosure', () => {
  it('follows static imports to the end, each module once, in the order first met', async () => {
    expect(await moduleClosure(['/_assets/Nav.js'], read)).toEqual(['/_assets/Nav.js', '/_assets/user.js', '/_assets/api.js', '/_assets/side.js']);
  });
});

describe('firstScreenModules', () => {
  it("is the page's module scripts and the islands hydrated at load, not those that wait for idle or visibility", () => {
    expect(firstScreenModules(page())).toEqual(['/_assets/Nav.js', '/_assets/client.js', '/_assets/Search.js']);
  });
});

describe('withModulePreloads', () => {
  it("lists every module of the first screen's closure in the head, and nothing of a later island or a dynamic import", async () => {
    const html = await withModulePreloads(page(), read);
    const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
    expect(preloads.sort()).toEqual(['/_assets/Card.js', '/_assets/Nav.js', '/_assets/Search.js', '/_assets/api.js', '/_assets/client.js', '/_assets/react.js', '/_assets/side.js', '/_assets/user.js']);
    expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'));
  });

  it('lists a module once when the page preloads it already, and leaves a page alone twice', async () => {
    const once = await withModulePreloads(page('<link rel="modulepreload" href="/_assets/client.js">'), read);
    expect(once.match(/href="\/_assets\/client\.js"/g)).toHaveLength(1);
    expect(await withModulePreloads(once, read)).toBe(once);
  });
});
