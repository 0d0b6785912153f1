/**
 * The texts marketers edit that every brand shares (docs/ONE-BUILD.md step 6): a shared lander
 * (tenants/_defaults/landers/) or a static page's text (content/pages/) edited under a running
 * runtime is served by the brands that show it within seconds, re-rendered from the same program
 * (no program build); a brand that does not show it is not rendered again.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readBuildStamp } from '../../src/server/programs.ts';
import { landingSlug, NICHES } from '../../src/lib/slugs.ts';
import { loadTenant } from '../../src/tenant/load.ts';
import { DIST_DIR, engines, hostFetch, REPO, startTestRuntime, TENANTS_DIR, type TestRuntime } from '../support/runtime.ts';
import { until } from '../support/sse.ts';

describe.each(engines())('a shared text edited under a running runtime on %s', (engine) => {
  let rt: TestRuntime;
  let root: string;
  let tenantsDir: string;
  let contentDir: string;
  let distDir: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'sitegen-shared-texts-'));
    tenantsDir = join(root, 'tenants');
    contentDir = join(root, 'content');
    distDir = join(root, 'dist');
    // rijpedates: spetter's pool brand, which spetter's pages name (withPool); served from its first request.
    for (const id of ['_defaults', 'spetter', 'rijpedates']) cpSync(join(TENANTS_DIR, id), join(tenantsDir, id), { recursive: true });
    cpSync(join(REPO, 'content'), contentDir, { recursive: true });
    // A German brand (spetter's tenant file in German, no landers of its own): it shows the shared
    // German texts; spetter (Dutch) shows none of them.
    const tenant = JSON.parse(readFileSync(join(TENANTS_DIR, 'spetter', 'tenant.json'), 'utf8')) as Record<string, unknown>;
    Object.assign(tenant, { name: 'Duits Date', domains: ['duits.example'], default: false, domain_language: 'de', locales: { available: ['de'], default: 'de', fallback: 'de' } });
    // Alone: in spetter's pool it would be named on spetter's pages (withPool), and spetter rendered again.
    delete tenant.network;
    mkdirSync(join(tenantsDir, 'duits'));
    writeFileSync(join(tenantsDir, 'duits', 'tenant.json'), JSON.stringify(tenant));
    loadTenant('duits', tenantsDir);
    // The release's program (shared, read only) and a copy of spetter's output (rendered again in place, were it stale).
    mkdirSync(distDir);
    symlinkSync(join(DIST_DIR, '_programs'), join(distDir, '_programs'), 'dir');
    cpSync(join(DIST_DIR, 'spetter'), join(distDir, 'spetter'), { recursive: true });
    rt = await startTestRuntime(engine, { tenantsDir, distDir, seed: false, config: { contentDir } });
  });

  afterAll(async () => {
    await rt?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('is served by the brands that show it within seconds, with no program build; a brand that does not is not rendered again', { timeout: 180_000 }, async () => {
    expect(readBuildStamp(DIST_DIR, 'spetter')?.shared?.files, 'dist/ is built by this version of `sitegen build`').toBeDefined();
    // The German brand's output, rendered on its first request; every page written before the edits.
    expect((await hostFetch(rt, 'duits', '/landers/alonetonight')).text).toContain('Heute Abend nicht allein?');
    const lastPage = join(distDir, 'duits', 'client', 'l', 'de', 'landers', 'alonetonight', landingSlug(NICHES.at(-1)!, 'de'), 'index.html');
    await until('every page of duits written', () => existsSync(lastPage), 60_000);
    const duits = readBuildStamp(distDir, 'duits')!;
    expect(duits.shared?.files).toContain('tenants/_defaults/landers/alonetonight.de.md');
    expect(duits.shared?.files).toContain('content/pages/terms.de.md');
    const spetter = readFileSync(join(distDir, 'spetter', '.sitegen-build.json'), 'utf8');
    expect(JSON.parse(spetter).shared.files).not.toContain('tenants/_defaults/landers/alonetonight.de.md');
    const programs = readdirSync(join(DIST_DIR, '_programs')).sort();
    const record = readFileSync(join(DIST_DIR, '_programs', 'program.json'), 'utf8');

    // A marketer edits the shared German lander: the brand's lander shows the new headline.
    const lander = join(tenantsDir, '_defaults', 'landers', 'alonetonight.de.md');
    writeFileSync(lander, readFileSync(lander, 'utf8').replace('headline: Heute Abend nicht allein?', 'headline: Heute Abend schon wieder allein?'));
    await until('the edited lander is served', async () => (await hostFetch(rt, 'duits', '/landers/alonetonight')).text.includes('Heute Abend schon wieder allein?'), 30_000);
    // …and the German static page's text: its terms show the new sentence.
    const terms = join(contentDir, 'pages', 'terms.de.md');
    writeFileSync(terms, `${readFileSync(terms, 'utf8')}\nDieser Satz ist neu.\n`);
    await until('the edited page is served', async () => (await hostFetch(rt, 'duits', '/pages/terms')).text.includes('Dieser Satz ist neu.'), 30_000);
    expect((await hostFetch(rt, 'duits', '/landers/alonetonight')).text).toContain('Heute Abend schon wieder allein?');

    // Rendered from the same program: none was built, none replaced.
    expect(readdirSync(join(DIST_DIR, '_programs')).sort()).toEqual(programs);
    expect(readFileSync(join(DIST_DIR, '_programs', 'program.json'), 'utf8')).toBe(record);
    const after = await until('duits stamped with the new texts', () => {
      const stamp = readBuildStamp(distDir, 'duits');
      return stamp?.shared?.fingerprint !== duits.shared?.fingerprint && stamp;
    }, 30_000);
    expect(after.program).toBe(duits.program);
    // Spetter shows neither text: its output is the one it had, stamp and all.
    expect((await hostFetch(rt, 'spetter', '/landers/alonetonight')).text).toContain('Vanavond niet alleen?');
    expect(readFileSync(join(distDir, 'spetter', '.sitegen-build.json'), 'utf8')).toBe(spetter);
  });

  test("a pool brand suspended or renamed: the other brand's pages that name it are rendered again, with no program build", { timeout: 180_000 }, async () => {
    const privacy = async () => (await hostFetch(rt, 'spetter', '/pages/privacy')).text;
    expect(await privacy()).toContain('Rijpe Dates');
    const programs = readdirSync(join(DIST_DIR, '_programs')).sort();
    const file = join(tenantsDir, 'rijpedates', 'tenant.json');
    const original = readFileSync(file, 'utf8');
    const edit = (change: (t: { name: string; network: Record<string, unknown> }) => void) => {
      const tenant = JSON.parse(original);
      change(tenant);
      writeFileSync(file, JSON.stringify(tenant));
    };

    // Suspended from the pool: spetter's privacy page no longer names it.
    edit((t) => (t.network.suspended = true));
    await until('spetter no longer names the suspended brand', async () => !(await privacy()).includes('Rijpe Dates'), 60_000);
    expect(readBuildStamp(distDir, 'spetter')?.shared?.pool).toBeUndefined();

    // Back, under another name: named again, by the new name.
    edit((t) => (t.name = 'Rijpe Dates Plus'));
    await until('spetter names the brand by its new name', async () => (await privacy()).includes('Rijpe Dates Plus'), 60_000);
    expect(readBuildStamp(distDir, 'spetter')?.shared?.pool).toEqual(['Rijpe Dates Plus']);
    expect(readdirSync(join(DIST_DIR, '_programs')).sort()).toEqual(programs);
    writeFileSync(file, original);
  });
});
