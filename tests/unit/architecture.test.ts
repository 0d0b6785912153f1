import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { matchRoute } from '../../src/lib/routes.ts';

/**
 * The layers of DESIGN §1 and §8, checked on the source: every server-rendered page has its
 * entry in the route table (else its guard would have to guess), islands and stores never reach
 * the server, services never reach Astro or React, the contract reaches neither.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && ext.test(e.name) && !join(e.parentPath, e.name).includes(`${join(SRC, 'paraglide')}`))
    .map((e) => join(e.parentPath, e.name));
}

/** The module specifiers a file imports (static and dynamic). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)\s[^'"`;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

/** Imports of a file that land in a folder of src (relative specifiers only). */
function reaches(file: string, folder: string): string[] {
  return imports(file).filter((spec) => spec.startsWith('.') && resolve(dirname(file), spec).startsWith(join(SRC, folder) + '/'));
}

/** A file's code without its comments. */
function code(file: string): string {
  return readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, '$1');
}

/** The runtime's services reached from a template: `services.db`, `services.x.y(…)`, `locals.services`. */
const READS_AROUND_LOADERS = /\bservices\s*\??\.\s*(db\b|\w+\s*\??\.\s*\w+\s*\()|\blocals\s*\??\.\s*services\b/;
/** An assignment into locals (a component writing for another to read). */
const WRITES_LOCALS = /\blocals\s*(\.\s*\w+|\[[^\]]+\])\s*(=(?![=>])|\+=|-=|\?\?=|\|\|=)|Object\.assign\(\s*(Astro\.)?locals\b/;
/** A service that branches on the engine itself. */
const ASKS_ENGINE = /['"]postgres['"]|\bengineOf\b/;

/** A URL a page file answers: [param] and [...rest] filled with a sample value. */
function sampleUrl(file: string): string {
  const path = relative(join(SRC, 'pages'), file)
    .replace(/\.astro$/, '')
    .replace(/(^|\/)index$/, '')
    .replace(/\[\.\.\.\w+\]/g, 'x')
    .replace(/\[\w+\]/g, '1');
  return `/${path}`.replace(/\/$/, '') || '/';
}

describe('architecture', () => {
  // The pages of a brand's static output (l/[locale]/…) are no route: the runtime refuses /l/…
  // (tests/api/platform.test.ts) and src/server/static-output.ts alone renders them.
  const pages = files(join(SRC, 'pages'), /\.astro$/)
    .filter((f) => !/export const prerender = true/.test(readFileSync(f, 'utf8')))
    .filter((f) => !relative(join(SRC, 'pages'), f).startsWith(`l${sep}`));

  test('every server-rendered page is in the route table (an unlisted page would be for members only)', () => {
    expect(pages.length).toBeGreaterThan(20);
    const missing = pages.filter((f) => !matchRoute(sampleUrl(f))).map((f) => relative(ROOT, f));
    expect(missing).toEqual([]);
  });

  test('the route table catches an unlisted page', () => {
    expect(matchRoute('/secret-admin')).toBeUndefined();
  });

  test('islands and stores never import server code', () => {
    const offenders = [...files(join(SRC, 'islands'), /\.(ts|tsx)$/), ...files(join(SRC, 'stores'), /\.ts$/)].filter((f) => reaches(f, 'server').length > 0);
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('browser code names its messages (m.key), never looks one up by a built key (m[key] bundles the whole catalogue)', () => {
    const browser = [...files(join(SRC, 'islands'), /\.(ts|tsx)$/), ...files(join(SRC, 'stores'), /\.ts$/), ...files(join(SRC, 'lib'), /\.ts$/)];
    const offenders = browser.filter((f) => /\bm\[(?!\s*\])|\(m as [^)]*\)\[/.test(readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')));
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('services and the contract never import astro or react', () => {
    const offenders = [...files(join(SRC, 'server', 'services'), /\.ts$/), ...files(join(SRC, 'contract'), /\.ts$/)].filter((f) =>
      imports(f).some((spec) => /^(astro|react|react-dom|@astrojs\/|nanostores|@nanostores\/)/.test(spec)),
    );
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('the contract does not depend on the server', () => {
    const offenders = files(join(SRC, 'contract'), /\.ts$/).filter((f) => reaches(f, 'server').length > 0);
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('pages, components and layouts read data through the page loaders of src/site, never the database or a service, and never write locals', () => {
    const templates = [...files(join(SRC, 'pages'), /\.(astro|ts)$/), ...files(join(SRC, 'components'), /\.(astro|ts|tsx)$/), ...files(join(SRC, 'layouts'), /\.(astro|ts|tsx)$/)];
    expect(templates.length).toBeGreaterThan(40);
    const offenders = templates.filter((f) => READS_AROUND_LOADERS.test(code(f)) || WRITES_LOCALS.test(code(f)));
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('services never ask which engine they run on: engine differences live in db/engine.ts', () => {
    const services = files(join(SRC, 'server', 'services'), /\.ts$/);
    expect(services.length).toBeGreaterThan(20);
    const offenders = services.filter((f) => ASKS_ENGINE.test(code(f)));
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('the checks see what they look for (a broken pattern would pass everything)', () => {
    for (const line of ['const row = await services.db.selectFrom("users")', 'await Astro.locals.services.payments.refresh(1, 2)', 'const { services } = Astro.locals; await services.likes.list()']) expect(READS_AROUND_LOADERS.test(line), line).toBe(true);
    for (const line of ['Astro.locals.counts = x;', 'locals.user = null', "Astro.locals['tenant'] = t", 'Object.assign(Astro.locals, { a: 1 })']) expect(WRITES_LOCALS.test(line), line).toBe(true);
    for (const line of ['const { tenant, user } = Astro.locals;', 'if (locals.user === null) x()', 'await swipeDeck(Astro)']) expect(READS_AROUND_LOADERS.test(line) || WRITES_LOCALS.test(line), line).toBe(false);
    expect(ASKS_ENGINE.test(code(join(SRC, 'server', 'db', 'engine.ts')))).toBe(true);
    expect(ASKS_ENGINE.test("if (deps.engine === 'postgres') lock()")).toBe(true);
  });

  test('the checks see imports at all (a broken scanner would pass everything)', () => {
    // The registry reads the tenant files (src/tenant/load.ts): an import the scanner must see.
    const registry = join(SRC, 'server', 'registry.ts');
    expect(reaches(registry, 'tenant').length).toBeGreaterThan(0);
    expect(imports(join(SRC, 'islands', 'LoginIsland.tsx')).some((s) => s.startsWith('react') || s.includes('stores'))).toBe(true);
  });

  test('src/ has no import circles (static imports and re-exports, type-only ones too)', () => {
    expect(importCycles(sourceGraph())).toEqual([]);
  });

  test('the circle finder finds a circle, also one made of type-only imports', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(staticImports("import type { X } from './x.ts';\nexport type { Y } from './y.ts';\nexport * from './z.ts';")).toEqual(['./x.ts', './y.ts', './z.ts']);
    expect(sourceGraph().size).toBeGreaterThan(100);
  });
});

/** The specifiers of a file's static imports and re-exports (`import`, `import type`, `export ... from`), not dynamic `import()`. */
function staticImports(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/^\s*(?:import|export)\b(?:[^'"`;]*?\bfrom)?\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

/** The import graph of src/: each file and the files of src/ it imports statically (relative specifiers). */
function sourceGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files(SRC, /\.(ts|tsx)$/)) {
    const targets = staticImports(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => relative(ROOT, resolve(dirname(file), spec)));
    graph.set(relative(ROOT, file), targets);
  }
  return graph;
}

/** Every circle of the graph (Tarjan's strongly connected components of more than one file, or a file importing itself), sorted. */
function importCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
