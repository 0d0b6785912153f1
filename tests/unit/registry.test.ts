/**
 * The tenant registry loads each brand's build once and a rebuilt one anew. A loaded build may add
 * process listeners (Astro's node adapter adds one per handler): they go with the build they came
 * from, so rebuilding a brand again and again does not keep every old build in memory.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { TenantRegistry } from '../../src/server/registry.ts';

const REPO = join(import.meta.dirname, '..', '..');
let root: string | undefined;

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A build whose entry adds an unhandledRejection listener when it loads, as Astro's does. */
function fakeBuild(distDir: string, id: string, version: number): void {
  const entry = join(distDir, id, 'server', 'entry.mjs');
  mkdirSync(join(distDir, id, 'server'), { recursive: true });
  writeFileSync(entry, `process.on('unhandledRejection', () => {});\nexport const handler = async () => ${version};\n`);
  // Each rebuild is newer on disk: the registry tells builds apart by the entry's time.
  const when = new Date(Date.now() + version * 10_000);
  utimesSync(entry, when, when);
}

test('a rebuilt brand is loaded anew and its old listener goes with the old build; many brands raise the listener limit', async () => {
  root = mkdtempSync(join(tmpdir(), 'sitegen-registry-'));
  const tenantsDir = join(root, 'tenants');
  const distDir = join(root, 'dist');
  cpSync(join(REPO, 'tenants', '_defaults'), join(tenantsDir, '_defaults'), { recursive: true });
  cpSync(join(REPO, 'tenants', 'spetter'), join(tenantsDir, 'spetter'), { recursive: true });
  fakeBuild(distDir, 'spetter', 1);
  const registry = new TenantRegistry({ tenantsDir, distDir });
  const start = process.listenerCount('unhandledRejection');

  const first = (await registry.handler('spetter'))!;
  expect(await (first as unknown as () => Promise<number>)()).toBe(1);
  expect(process.listenerCount('unhandledRejection')).toBe(start + 1);

  for (const version of [2, 3, 4]) {
    fakeBuild(distDir, 'spetter', version);
    await new Promise((r) => setTimeout(r, 1100)); // the registry looks at the disk once a second
    const next = (await registry.handler('spetter'))!;
    expect(await (next as unknown as () => Promise<number>)()).toBe(version);
    expect(process.listenerCount('unhandledRejection'), `after rebuild ${version}`).toBe(start + 1);
  }
  expect(process.getMaxListeners()).toBeGreaterThanOrEqual(process.listenerCount('unhandledRejection'));
}, 20_000);

/** A brand built to a shared program: its own build folder names the program in its stamp (cli/build.ts). */
function programBuild(distDir: string, id: string, program: string, version: number): void {
  fakeBuild(distDir, id, version);
  writeFileSync(join(distDir, id, '.sitegen-build.json'), JSON.stringify({ id, sources: 0, built: '', program }));
}

/** A shared program whose handler answers its name, adding a listener when it loads as Astro's does. */
function fakeProgram(distDir: string, program: string): void {
  mkdirSync(join(distDir, '_programs', program, 'server'), { recursive: true });
  writeFileSync(join(distDir, '_programs', program, 'server', 'entry.mjs'), `process.on('unhandledRejection', () => {});\nexport const handler = async () => '${program}';\n`);
}

test('brands built to the same program share one handler in the process; a program no brand names any more goes with its listener', async () => {
  root = mkdtempSync(join(tmpdir(), 'sitegen-registry-'));
  const tenantsDir = join(root, 'tenants');
  const distDir = join(root, 'dist');
  fakeProgram(distDir, 'dutch');
  fakeProgram(distDir, 'english');
  programBuild(distDir, 'spetter', 'dutch', 1);
  programBuild(distDir, 'flirtnl', 'dutch', 1);
  programBuild(distDir, 'velvet', 'english', 1);
  const registry = new TenantRegistry({ tenantsDir, distDir });
  const start = process.listenerCount('unhandledRejection');

  const spetter = (await registry.handler('spetter'))!;
  const flirtnl = (await registry.handler('flirtnl'))!;
  const velvet = (await registry.handler('velvet'))!;
  expect(flirtnl).toBe(spetter);
  expect(await (spetter as unknown as () => Promise<string>)()).toBe('dutch');
  expect(await (velvet as unknown as () => Promise<string>)()).toBe('english');
  expect(registry.loadedPrograms()).toBe(2);
  expect(process.listenerCount('unhandledRejection')).toBe(start + 2);

  // velvet is rebuilt to the Dutch program (say it dropped its other languages): the English one goes.
  programBuild(distDir, 'velvet', 'dutch', 2);
  await new Promise((r) => setTimeout(r, 1100)); // the registry looks at the disk once a second
  expect(await registry.handler('velvet')).toBe(spetter);
  await new Promise((r) => setTimeout(r, 0));
  expect(registry.loadedPrograms()).toBe(1);
  expect(process.listenerCount('unhandledRejection')).toBe(start + 1);
}, 20_000);

test('a build whose program is not in its dist folder is served by its own server code', async () => {
  root = mkdtempSync(join(tmpdir(), 'sitegen-registry-'));
  const distDir = join(root, 'dist');
  programBuild(distDir, 'spetter', 'dutch', 7); // dist/_programs/dutch was never copied here
  const registry = new TenantRegistry({ tenantsDir: join(root, 'tenants'), distDir });
  const handler = (await registry.handler('spetter'))!;
  expect(await (handler as unknown as () => Promise<number>)()).toBe(7);
  expect(registry.loadedPrograms()).toBe(0);
});

test('a build that names a program and holds no server code is served from the program, and not at all without it', async () => {
  root = mkdtempSync(join(tmpdir(), 'sitegen-registry-'));
  const distDir = join(root, 'dist');
  mkdirSync(join(distDir, 'spetter'), { recursive: true });
  writeFileSync(join(distDir, 'spetter', '.sitegen-build.json'), JSON.stringify({ id: 'spetter', sources: 0, built: '', program: 'dutch' }));
  const registry = new TenantRegistry({ tenantsDir: join(root, 'tenants'), distDir });
  // dist/_programs/dutch not there: nothing can serve the build.
  expect(registry.isBuilt('spetter')).toBe(false);
  expect(await registry.handler('spetter')).toBeUndefined();

  fakeProgram(distDir, 'dutch');
  await new Promise((r) => setTimeout(r, 1100)); // the registry looks at the disk once a second
  expect(registry.isBuilt('spetter')).toBe(true);
  const handler = (await registry.handler('spetter'))!;
  expect(await (handler as unknown as () => Promise<string>)()).toBe('dutch');
});

/** Writes a tenant file with a later mtime than the last (the registry tells edits apart by it). */
function editTenant(tenantsDir: string, id: string, edit: (t: Record<string, unknown>) => Record<string, unknown>, step: number): void {
  const file = join(tenantsDir, id, 'tenant.json');
  writeFileSync(file, JSON.stringify(edit(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>), null, 2));
  const when = new Date(Date.now() + step * 10_000);
  utimesSync(file, when, when);
}

test('an invalid edit of a served tenant keeps its last valid tenant, logged once per change; an invalid first tenant is not served; a removed folder removes the brand', () => {
  root = mkdtempSync(join(tmpdir(), 'sitegen-registry-'));
  const tenantsDir = join(root, 'tenants');
  for (const id of ['_defaults', 'spetter', 'rijpedates']) cpSync(join(REPO, 'tenants', id), join(tenantsDir, id), { recursive: true });
  const errors: string[] = [];
  const registry = new TenantRegistry({ tenantsDir, distDir: join(root, 'dist'), onError: (m) => errors.push(m) });
  const name = () => registry.tenants().find((t) => t.id === 'rijpedates')?.name;
  expect(name()).toBe('Rijpe Dates');

  // Niche 6's audience starts at 35: a brand may only narrow it, so 30 fails validation.
  editTenant(tenantsDir, 'rijpedates', (t) => ({ ...t, name: 'Renamed', audience: { min_age: 30 } }), 1);
  registry.rescan();
  registry.rescan();
  expect(name()).toBe('Rijpe Dates');
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(/rijpedates.*NOT applied/s);

  // Another invalid edit is a change: logged again.
  editTenant(tenantsDir, 'rijpedates', (t) => ({ ...t, audience: { min_age: 31 } }), 2);
  registry.rescan();
  expect(errors).toHaveLength(2);

  // Fixed: the edit applies.
  editTenant(tenantsDir, 'rijpedates', (t) => ({ ...t, audience: {} }), 3);
  registry.rescan();
  expect(name()).toBe('Renamed');

  // A brand whose first tenant file is invalid is not served.
  cpSync(join(REPO, 'tenants', 'rijpedates'), join(tenantsDir, 'rijpedates2'), { recursive: true });
  editTenant(tenantsDir, 'rijpedates2', (t) => ({ ...t, audience: { min_age: 30 } }), 4);
  registry.rescan();
  expect(registry.tenants().some((t) => t.id === 'rijpedates2')).toBe(false);

  rmSync(join(tenantsDir, 'rijpedates'), { recursive: true });
  registry.rescan();
  expect(name()).toBeUndefined();
});

test('a domain added, renamed or removed in a tenant file, and a brand added or removed, are seen by host after the rescan', () => {
  root = mkdtempSync(join(tmpdir(), 'sitegen-registry-'));
  const tenantsDir = join(root, 'tenants');
  cpSync(join(REPO, 'tenants', '_defaults'), join(tenantsDir, '_defaults'), { recursive: true });
  for (const id of ['spetter', 'velvet']) cpSync(join(REPO, 'tenants', id), join(tenantsDir, id), { recursive: true });
  const registry = new TenantRegistry({ tenantsDir, distDir: join(root, 'dist'), onError: () => undefined });
  const file = join(tenantsDir, 'velvet', 'tenant.json');
  const velvet = JSON.parse(readFileSync(file, 'utf8')) as { domains: string[] };
  /** Writes velvet's domains, newer on disk each time (the registry tells a changed file by its time). */
  let writes = 0;
  const setDomains = (domains: string[]) => {
    writeFileSync(file, JSON.stringify({ ...velvet, domains }));
    const when = new Date(Date.now() + ++writes * 10_000);
    utimesSync(file, when, when);
    registry.rescan();
  };
  const brandOf = (host: string) => registry.tenantFor(host, 'spetter')?.id;

  expect(brandOf('www.velvetnights.com:8080')).toBe('velvet');
  expect(brandOf('velvet.localhost:4321')).toBe('velvet');
  expect(brandOf('unknown.example')).toBe('spetter');
  const unchanged = registry.tenants();
  registry.rescan();
  expect(registry.tenants(), 'nothing changed: the same list').toBe(unchanged);

  setDomains([...velvet.domains, 'velvet-added.example']);
  expect(brandOf('velvet-added.example')).toBe('velvet');
  expect(brandOf('www.velvet-added.example')).toBe('velvet');
  setDomains(['velvet-renamed.example']);
  expect(brandOf('velvet-renamed.example')).toBe('velvet');
  expect(brandOf('velvet-added.example'), 'a removed domain falls back to the default').toBe('spetter');
  expect(brandOf('velvetnights.com')).toBe('spetter');
  expect(brandOf('velvet.localhost'), 'its id still names it on a local host').toBe('velvet');

  rmSync(join(tenantsDir, 'velvet'), { recursive: true });
  registry.rescan();
  expect(brandOf('velvet-renamed.example')).toBe('spetter');
  expect(brandOf('velvet.localhost')).toBe('spetter');
  expect(registry.tenant('velvet')).toBeUndefined();
  cpSync(join(REPO, 'tenants', 'velvet'), join(tenantsDir, 'velvet'), { recursive: true });
  registry.rescan();
  expect(brandOf('velvetnights.com')).toBe('velvet');
  expect(registry.tenant('velvet')?.id).toBe('velvet');
});

test('tenants/ is looked at in the background: a brand added is served, and a broken file reported, with nobody asking in between', async () => {
  root = mkdtempSync(join(tmpdir(), 'sitegen-registry-'));
  const tenantsDir = join(root, 'tenants');
  cpSync(join(REPO, 'tenants', '_defaults'), join(tenantsDir, '_defaults'), { recursive: true });
  cpSync(join(REPO, 'tenants', 'spetter'), join(tenantsDir, 'spetter'), { recursive: true });
  const errors: string[] = [];
  const registry = new TenantRegistry({ tenantsDir, distDir: join(root, 'dist'), onError: (m) => errors.push(m) });
  try {
    const before = registry.tenants();
    cpSync(join(REPO, 'tenants', 'velvet'), join(tenantsDir, 'velvet'), { recursive: true });
    mkdirSync(join(tenantsDir, 'broken'));
    writeFileSync(join(tenantsDir, 'broken', 'tenant.json'), '{');
    // Only the errors are watched until the look has been: nothing asks the registry meanwhile.
    await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(errors[0]).toContain('tenants/broken/tenant.json');
    expect(before.map((t) => t.id)).toEqual(['spetter']);
    expect(registry.tenants().map((t) => t.id)).toEqual(['spetter', 'velvet']);
    expect(registry.tenantFor('velvetnights.com')?.id).toBe('velvet');
  } finally {
    registry.close();
  }
});
