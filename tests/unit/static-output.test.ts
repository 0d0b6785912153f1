/**
 * A brand's static output written page by page (src/server/static-output.ts): for a brand with no
 * output, what a page needs to be served (the stylesheet, landers.json, one page of each
 * template) is written first, a page a visitor asks for next, the rest after; the stylesheet is
 * the one of every page, so the output ends byte for byte as `sitegen build` renders it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { join, relative } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { loadTenant } from '../../src/tenant/load.ts';
import { programDir, readBuildStamp } from '../../src/server/programs.ts';
import { openStaticOutput, renderStaticOutput } from '../../src/server/static-output.ts';
import { writeBrandOutput } from '../../src/server/brand-output.ts';
import { publishOutput } from '../../src/server/output-folders.ts';
import { DIST_DIR, TENANTS_DIR } from '../support/runtime.ts';

const root = mkdtempSync(join(tmpdir(), 'sitegen-static-output-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every file under a folder, relative to it. */
const filesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();

test.each(['spetter', 'velvet'])('%s: a page is written before the rest, and the output ends as the one rendered whole', { timeout: 120_000 }, async (id) => {
  const tenant = loadTenant(id, TENANTS_DIR);
  const program = programDir(DIST_DIR, readBuildStamp(DIST_DIR, id)!.program!);
  const whole = join(root, `${id}-whole`);
  await renderStaticOutput({ tenant, tenantsDir: TENANTS_DIR, programDir: program, client: whole });

  const client = join(root, `${id}-early`);
  const output = await openStaticOutput({ tenant, tenantsDir: TENANTS_DIR, programDir: program, client, stylesheetOf: 'one page per template' });
  await output.writeFirst();
  const first = filesIn(client);
  expect(first.some((f) => f.startsWith('_assets/static.') && f.endsWith('.css'))).toBe(true);
  expect(first).toContain(`l/${tenant.locales.default}/landers.json`);
  expect(first).toContain(`l/${tenant.locales.default}/index.html`);
  // A niche slug page of the last niche is not a template's first page: not written yet.
  const asked = [...output.pages].filter((f) => !first.includes(f)).at(-1)!;
  expect(asked).toBeDefined();
  expect(first.length).toBeLessThan(output.pages.size / 2);

  await output.write(asked);
  expect(filesIn(client)).toEqual([...first, asked].sort());

  await output.writeAll();
  expect(await output.isExact()).toBe(true);
  expect(filesIn(client)).toEqual(filesIn(whole));
  for (const file of filesIn(whole)) {
    // The members' shells carry random island ids per render (docs/ONE-BUILD.md step 2).
    const text = (dir: string) => readFileSync(join(dir, file), 'utf8').replace(/uid="[^"]*"/g, 'uid=""');
    expect(text(client), file).toBe(text(whole));
  }
});

test('the rest of a brand\'s pages are not written into another build put in its place meanwhile', { timeout: 120_000 }, async () => {
  const distDir = join(root, 'dist');
  mkdirSync(distDir);
  symlinkSync(join(DIST_DIR, '_programs'), join(distDir, '_programs'), 'dir');
  const tenant = loadTenant('velvet', TENANTS_DIR);
  const output = await writeBrandOutput({ tenantsDir: TENANTS_DIR, distDir, tenant, program: readBuildStamp(DIST_DIR, 'velvet')!.program!, sources: 0, next: join(distDir, '.velvet.next'), early: true });
  // Another build of the brand put in place (as `sitegen dev`'s watcher does) before the rest is written.
  const other = join(distDir, '.velvet.other');
  mkdirSync(join(other, 'client'), { recursive: true });
  writeFileSync(join(other, 'client', 'mine.txt'), 'the other build');
  publishOutput(distDir, 'velvet', other);
  await expect(output.written).rejects.toThrow('replaced meanwhile');
  expect(filesIn(join(distDir, 'velvet'))).toEqual(['client/mine.txt']);
});

test('a brand\'s output is reproducible: rendered twice from one program, every file is byte-equal', { timeout: 120_000 }, async () => {
  // What another machine renders from the same release (issue 25, "Past one machine"): the same
  // bytes, so the same ETags behind a load balancer.
  const tenant = loadTenant('spetter', TENANTS_DIR);
  const program = programDir(DIST_DIR, readBuildStamp(DIST_DIR, 'spetter')!.program!);
  const [one, two] = [join(root, 'spetter-one'), join(root, 'spetter-two')];
  await renderStaticOutput({ tenant, tenantsDir: TENANTS_DIR, programDir: program, client: one });
  // The second in a process of its own, as another machine's runtime would render it.
  const child = `const { renderStaticOutput } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, '../../src/server/static-output.ts')).href)});
const { loadTenant } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, '../../src/tenant/load.ts')).href)});
await renderStaticOutput({ tenant: loadTenant('spetter', ${JSON.stringify(TENANTS_DIR)}), tenantsDir: ${JSON.stringify(TENANTS_DIR)}, programDir: ${JSON.stringify(program)}, client: ${JSON.stringify(two)} });`;
  execFileSync(process.execPath, ['--input-type=module', '-e', child], { stdio: 'inherit' });
  expect(filesIn(two)).toEqual(filesIn(one));
  for (const file of filesIn(one)) expect(readFileSync(join(two, file)).equals(readFileSync(join(one, file))), file).toBe(true);
});
