/**
 * Every brand is built from one program, whatever its languages (docs/ONE-BUILD.md, steps 1 and
 * 3): a runtime loads it once for all of them, and each brand's server-rendered pages still show
 * that brand alone: its name and its colours, from `locals`.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readBuildStamp } from '../../src/server/programs.ts';
import { DIST_DIR, engines, hostFetch, startTestRuntime, TENANTS_DIR, type TestRuntime } from '../support/runtime.ts';

const KOPIE = { name: 'Kopie Date', primary: '#0b7a75' };

describe.each(engines())('two Dutch brands of one program on %s', (engine) => {
  let rt: TestRuntime;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'sitegen-programs-'));
    const tenantsDir = join(root, 'tenants');
    const distDir = join(root, 'dist');
    for (const id of ['_defaults', 'spetter', 'velvet']) cpSync(join(TENANTS_DIR, id), join(tenantsDir, id), { recursive: true });
    // A second Dutch brand: spetter's tenant file under another id, name, domain and colour ...
    const tenant = JSON.parse(readFileSync(join(TENANTS_DIR, 'spetter', 'tenant.json'), 'utf8')) as { theme: Record<string, string> } & Record<string, unknown>;
    Object.assign(tenant, { name: KOPIE.name, domains: ['kopie.example'], default: false, theme: { ...tenant.theme, primary: KOPIE.primary } });
    mkdirSync(join(tenantsDir, 'kopie'));
    writeFileSync(join(tenantsDir, 'kopie', 'tenant.json'), JSON.stringify(tenant));
    // ... and its build: the same program as spetter's, as a build of the same languages is.
    mkdirSync(distDir);
    for (const id of ['spetter', 'velvet', '_programs']) symlinkSync(join(DIST_DIR, id), join(distDir, id), 'dir');
    symlinkSync(join(DIST_DIR, 'spetter'), join(distDir, 'kopie'), 'dir');
    rt = await startTestRuntime(engine, { tenantsDir, distDir, seed: false });
  });

  afterAll(async () => {
    await rt?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('the demo builds name their programs', () => {
    expect(readBuildStamp(DIST_DIR, 'spetter')?.program, 'dist/ is built by `sitegen build`').toMatch(/^[0-9a-f]{16}$/);
    // Step 3: velvet (en, de, fr) is built from spetter's (nl) program too.
    expect(readBuildStamp(DIST_DIR, 'velvet')?.program).toBe(readBuildStamp(DIST_DIR, 'spetter')?.program);
  });

  test('one program serves both Dutch brands, each page showing its own brand, and velvet', async () => {
    const spetter = await hostFetch(rt, 'spetter', '/pricing');
    const kopie = await hostFetch(rt, 'kopie', '/pricing');
    expect(spetter.status).toBe(200);
    expect(kopie.status).toBe(200);
    expect(rt.app.registry.loadedPrograms()).toBe(1);

    expect(kopie.text).toMatch(new RegExp(`<title[^>]*>[^<]*${KOPIE.name}`));
    expect(kopie.text).toContain(`--c-primary:${KOPIE.primary}`);
    expect(spetter.text).toMatch(/<title[^>]*>[^<]*Spetter/);
    expect(spetter.text).not.toContain(KOPIE.primary);
    expect(spetter.text).not.toContain(KOPIE.name);

    const velvet = await hostFetch(rt, 'velvet', '/pricing');
    expect(velvet.status).toBe(200);
    expect(velvet.text).toMatch(/<title[^>]*>[^<]*Velvet Nights/);
    expect(rt.app.registry.loadedPrograms()).toBe(1);
  });
});
