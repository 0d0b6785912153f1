/**
 * The sitegen CLI as an operator runs it: `check` on good and broken tenant files, `new` writing a
 * valid brand, a brand launched with `new` served by a runtime that was already running, `remove`
 * taking a brand out, and `build` deleting the output of a brand whose folder is gone.
 */
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTenant } from '../../src/tenant/schema.ts';
import { hostFetch, startTestRuntime, TENANTS_DIR, DIST_DIR, type TestRuntime } from '../support/runtime.ts';
import { sitegen } from '../support/cli.ts';
import { publishOutput } from '../../src/server/output-folders.ts';

const temps: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
/** A copy of the shipped tenants (with tenants/_defaults) an operator may break. */
function tenantsCopy(): string {
  const dir = join(tempDir('sitegen-tenants-'), 'tenants');
  cpSync(TENANTS_DIR, dir, { recursive: true });
  return dir;
}
function editTenant(dir: string, id: string, change: (json: Record<string, any>) => void): void {
  const file = join(dir, id, 'tenant.json');
  const json = JSON.parse(readFileSync(file, 'utf8'));
  change(json);
  writeFileSync(file, JSON.stringify(json, null, 2));
}

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('sitegen check', () => {
  test('passes on the shipped tenants', async () => {
    const run = await sitegen(['check'], { TENANTS_DIR });
    expect(run.stderr).not.toMatch(/tenant\.json:/);
    expect(run.stdout).toContain('3 tenants are valid');
    expect(run.code).toBe(0);
  });

  test('prints file, field path and message for each mistake and exits non-zero', async () => {
    const dir = tenantsCopy();
    editTenant(dir, 'velvet', (t) => {
      t.theme.primary = 'wine';
      t.niche = 9;
      t.locales.default = 'it';
    });
    editTenant(dir, 'spetter', (t) => {
      delete t.company.name;
      t.colour = '#fff';
    });
    const run = await sitegen(['check'], { TENANTS_DIR: dir });
    expect(run.code).not.toBe(0);
    const lines = run.stderr.split('\n');
    expect(lines).toContain('tenants/velvet/tenant.json: theme.primary: must be a hex colour such as #7b2cbf');
    expect(lines).toContain('tenants/velvet/tenant.json: niche: must be a niche number from 1 to 7');
    expect(lines).toContain('tenants/velvet/tenant.json: locales.default: must be one of locales.available');
    expect(lines).toContain('tenants/spetter/tenant.json: company.name: is required');
    expect(lines).toContain('tenants/spetter/tenant.json: (root): unknown key "colour": check the spelling against src/tenant/schema.ts');
    expect(run.stdout).not.toContain('valid');
  });

  test('refuses a second default brand', async () => {
    const dir = tenantsCopy();
    editTenant(dir, 'velvet', (t) => {
      t.default = true;
    });
    const run = await sitegen(['check'], { TENANTS_DIR: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr.split('\n')).toContain('tenants/velvet/tenant.json: default: spetter is the default brand already; one brand at most');
  });

  test('refuses one company id for two companies (their invoices would share one run of numbers)', async () => {
    const dir = tenantsCopy();
    editTenant(dir, 'velvet', (t) => {
      t.company.id = 1;
    });
    const run = await sitegen(['check'], { TENANTS_DIR: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr.split('\n')).toContain('tenants/velvet/tenant.json: company.id: 1 is the id of Spetter Media B.V. (tenant spetter); give Velvet Interactive Ltd. an id of its own');
  });

  test('reports a file that is not JSON', async () => {
    const dir = tenantsCopy();
    writeFileSync(join(dir, 'velvet', 'tenant.json'), '{ "name": "Velvet", }');
    const run = await sitegen(['check'], { TENANTS_DIR: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/^tenants\/velvet\/tenant\.json: \(file\): .+/m);
  });

  test('refuses a domain claimed by two tenants', async () => {
    const dir = tenantsCopy();
    editTenant(dir, 'velvet', (t) => {
      t.domains = ['velvetnights.com', 'spetter.nl'];
    });
    const run = await sitegen(['check'], { TENANTS_DIR: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('tenants/velvet/tenant.json: domains.1: spetter.nl is already the domain of tenant spetter');
  });

  test('takes a Tabler icon or a brand\'s own text as the fictional marker, not an icon the set lacks', async () => {
    const dir = tenantsCopy();
    editTenant(dir, 'velvet', (t) => {
      t.fictional_icon = 'tabler:no-such-mask';
    });
    editTenant(dir, 'spetter', (t) => {
      t.fictional_icon = 'tabler:ghost';
    });
    const run = await sitegen(['check'], { TENANTS_DIR: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('tenants/'))).toEqual([
      'tenants/velvet/tenant.json: fictional_icon: tabler:no-such-mask is not an icon of the Tabler set (https://tabler.io/icons)',
    ]);
    editTenant(dir, 'velvet', (t) => {
      t.fictional_icon = '*';
    });
    expect((await sitegen(['check'], { TENANTS_DIR: dir })).code).toBe(0);
  });

  test('checks the lander variants marketers edit', async () => {
    const dir = tenantsCopy();
    writeFileSync(join(dir, 'velvet', 'landers', 'broken.en.md'), '---\nlander: nosuchlander\nheadline: Hi\n---\nBody\n');
    const run = await sitegen(['check'], { TENANTS_DIR: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/^tenants\/velvet\/landers\/broken\.en\.md: lander: .+/m);
    expect(run.stderr).toMatch(/^tenants\/velvet\/landers\/broken\.en\.md: cta: .+/m);
  });

  test('refuses a lander hero image that is not in the brand assets', async () => {
    const dir = tenantsCopy();
    rmSync(join(dir, 'velvet', 'assets', 'hero.svg'));
    const run = await sitegen(['check'], { TENANTS_DIR: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('tenants/velvet/landers/milf.en.md: hero: tenants/velvet/assets/hero.svg does not exist');
  });
});

describe('sitegen new --no-build', () => {
  test('writes a valid tenant file with the given options into TENANTS_DIR', async () => {
    const dir = tenantsCopy();
    const run = await sitegen(
      ['new', 'flirty', '--domain', 'Flirty.test', '--niche', '3', '--locales', 'de,en', '--countries', 'de,at', '--primary', '#123456', '--no-build'],
      { TENANTS_DIR: dir },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('wrote tenants/flirty/tenant.json');
    const file = join(dir, 'flirty', 'tenant.json');
    const parsed = parseTenant('flirty', JSON.parse(readFileSync(file, 'utf8')));
    if (!('tenant' in parsed)) throw new Error(parsed.errors.join('\n'));
    const t = parsed.tenant;
    expect(t.domains).toEqual(['flirty.test', 'www.flirty.test']);
    expect(t.niche).toBe(3);
    expect(t.locales).toMatchObject({ available: ['de', 'en'], default: 'de', fallback: 'de' });
    expect(t.countries).toEqual(['DE', 'AT']);
    expect(t.theme.primary).toBe('#123456');
    expect(t.support_email).toBe('support@flirty.test');
    expect(t.name).toBe('Flirty');
    // Nothing was built, and the shipped tenants were not touched.
    expect(existsSync(join(DIST_DIR, 'flirty'))).toBe(false);
    expect(existsSync(join(TENANTS_DIR, 'flirty'))).toBe(false);
    // The new file passes `sitegen check` with the others.
    const check = await sitegen(['check'], { TENANTS_DIR: dir });
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('4 tenants are valid');
  });

  test('refuses bad options with the message of the schema and writes nothing', async () => {
    const dir = tenantsCopy();
    const run = await sitegen(['new', 'flirty', '--domain', 'flirty.test', '--primary', 'purple', '--no-build'], { TENANTS_DIR: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('tenants/flirty/tenant.json: theme.primary: must be a hex colour such as #7b2cbf');
    expect(existsSync(join(dir, 'flirty'))).toBe(false);

    const locale = await sitegen(['new', 'flirty', '--domain', 'flirty.test', '--locales', 'nl,xx', '--no-build'], { TENANTS_DIR: dir });
    expect(locale.code).not.toBe(0);
    expect(locale.stderr).toContain('tenants/flirty/tenant.json: locales.available.1: must be one of');

    const niche = await sitegen(['new', 'flirty', '--domain', 'flirty.test', '--niche', '9', '--no-build'], { TENANTS_DIR: dir });
    expect(niche.code).not.toBe(0);
    expect(niche.stderr).toMatch(/niche.*must be one of 1, 2, 3, 4, 5, 6, 7/);
    expect(existsSync(join(dir, 'flirty'))).toBe(false);
  });

  test('does not overwrite an existing brand', async () => {
    const dir = tenantsCopy();
    const before = readFileSync(join(dir, 'velvet', 'tenant.json'), 'utf8');
    const run = await sitegen(['new', 'velvet', '--domain', 'other.test', '--no-build'], { TENANTS_DIR: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('tenants/velvet/tenant.json');
    expect(readFileSync(join(dir, 'velvet', 'tenant.json'), 'utf8')).toBe(before);
  });

  test('refuses a domain another brand already has', async () => {
    const dir = tenantsCopy();
    const run = await sitegen(['new', 'copycat', '--domain', 'spetter.nl', '--no-build'], { TENANTS_DIR: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('spetter.nl is already the domain of tenant spetter');
  });
});

describe('sitegen new (with build) while the runtime runs', () => {
  let rt: TestRuntime | undefined;
  afterEach(async () => {
    await rt?.close();
    rt = undefined;
  });

  test('the running runtime serves the new brand at <id>.localhost without a restart', { timeout: 240_000 }, async () => {
    const tenantsDir = tenantsCopy();
    const distDir = join(tempDir('sitegen-dist-'), 'dist');
    mkdirSync(distDir);
    // The other brands keep their builds; the runtime serves them before and after.
    for (const id of ['spetter', 'velvet']) symlinkSync(join(DIST_DIR, id), join(distDir, id), 'dir');
    // With the programs they name (a brand's output holds no server code of its own): each linked,
    // their records copied, so that a program `sitegen new` builds is this folder's alone.
    mkdirSync(join(distDir, '_programs'));
    for (const entry of readdirSync(join(DIST_DIR, '_programs'))) {
      if (entry.endsWith('.json')) cpSync(join(DIST_DIR, '_programs', entry), join(distDir, '_programs', entry));
      else symlinkSync(join(DIST_DIR, '_programs', entry), join(distDir, '_programs', entry), 'dir');
    }
    rt = await startTestRuntime('sqlite', { tenantsDir, distDir, seed: false });

    const before = await hostFetch(rt, 'launchy', '/');
    expect(before.status).toBe(200);
    expect(before.text).not.toContain('Launchy');
    expect((await hostFetch(rt, 'launchy', '/api/settings.php')).json().settings.domain).not.toBe('launchy.test');

    // The running server says where it listens (data/serving.json); PORT in the operator's shell may differ.
    const dataDir = tempDir('sitegen-data-');
    writeFileSync(join(dataDir, 'serving.json'), JSON.stringify({ pid: process.pid, port: rt.port }));
    const run = await sitegen(['new', 'launchy', '--domain', 'launchy.test', '--niche', '2', '--locales', 'en', '--primary', '#0b7a75'], {
      TENANTS_DIR: tenantsDir,
      DIST_DIR: distDir,
      DATA_DIR: dataDir,
      PORT: '4321',
    });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`http://launchy.localhost:${rt.port}/`);

    // The runtime looks at tenants/ and dist/ again at most once a second.
    let home = await hostFetch(rt, 'launchy', '/');
    for (let i = 0; i < 30 && !home.text.includes('Launchy'); i++) {
      await new Promise((r) => setTimeout(r, 200));
      home = await hostFetch(rt, 'launchy', '/');
    }
    expect(home.status).toBe(200);
    expect(home.text).toContain('<title');
    expect(home.text).toMatch(/<title[^>]*>[^<]*Launchy/);
    expect(home.text).toContain('--c-primary:#0b7a75');
    expect(home.text).toContain('lang="en"');
    // Its output was rendered by the runtime on that first request, and written for the next process.
    expect(existsSync(join(distDir, 'launchy', '.sitegen-build.json'))).toBe(true);

    const settings = (await hostFetch(rt, 'launchy', '/api/settings.php')).json().settings;
    expect(settings).toMatchObject({ name: 'Launchy', domain: 'launchy.test', niche: 2 });
    // Its niche slug page and a member route answer too.
    expect((await hostFetch(rt, 'launchy', '/she-eng')).status).toBe(200);
    expect((await hostFetch(rt, 'launchy', '/chats')).status).toBe(302);

    // The brands that were already served still are.
    const spetter = await hostFetch(rt, 'spetter', '/');
    expect(spetter.status).toBe(200);
    expect(spetter.text).toContain('Spetter');
    expect((await hostFetch(rt, 'velvet', '/api/settings.php')).json().settings.domain).toBe('velvetnights.com');
  });
});

describe('sitegen build --missing after a shared text changed', () => {
  /** Every file and folder under a path dated in the past: older than the program, as a release's tenants are. */
  function dateBack(path: string): void {
    for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) utimesSync(join(entry.parentPath, entry.name), PAST, PAST);
    utimesSync(path, PAST, PAST);
  }
  const PAST = new Date('2020-01-01T00:00:00Z');

  test('renders again only the brands that show it, from the same program', { timeout: 240_000 }, async () => {
    const tenantsDir = tenantsCopy();
    dateBack(tenantsDir);
    const contentDir = join(tempDir('sitegen-content-'), 'content');
    cpSync(join(TENANTS_DIR, '..', 'content'), contentDir, { recursive: true });
    const distDir = join(tempDir('sitegen-dist-'), 'dist');
    mkdirSync(distDir);
    // The release's outputs linked (one rendered again replaces its link with a folder) and its programs, as above.
    for (const id of ['spetter', 'velvet', 'rijpedates']) symlinkSync(join(DIST_DIR, id), join(distDir, id), 'dir');
    mkdirSync(join(distDir, '_programs'));
    for (const entry of readdirSync(join(DIST_DIR, '_programs'))) {
      if (entry.endsWith('.json')) cpSync(join(DIST_DIR, '_programs', entry), join(distDir, '_programs', entry));
      else symlinkSync(join(DIST_DIR, '_programs', entry), join(distDir, '_programs', entry), 'dir');
    }
    const env = { TENANTS_DIR: tenantsDir, CONTENT_DIR: contentDir, DIST_DIR: distDir };
    const build = ['build', 'spetter', 'velvet', 'rijpedates', '--missing'];
    const programs = readdirSync(join(distDir, '_programs')).sort();

    // Nothing changed: nothing is built.
    const idle = await sitegen(build, env);
    expect(idle.code).toBe(0);
    expect(idle.stdout).not.toContain('sitegen: building');

    // The shared German lander (velvet shows it; the Dutch brands do not), edited.
    const lander = join(tenantsDir, '_defaults', 'landers', 'alonetonight.de.md');
    writeFileSync(lander, readFileSync(lander, 'utf8').replace('headline: Heute Abend nicht allein?', 'headline: Heute Abend schon wieder allein?'));
    const run = await sitegen(build, env);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('sitegen: building velvet');
    expect(run.stdout).not.toContain('sitegen: building spetter');
    expect(run.stdout).not.toContain('sitegen: building rijpedates');
    expect(run.stdout).not.toContain('the program');
    expect(readdirSync(join(distDir, '_programs')).sort()).toEqual(programs);
    expect(readFileSync(join(distDir, 'velvet', 'client', 'l', 'de', 'landers', 'alonetonight', 'index.html'), 'utf8')).toContain('Heute Abend schon wieder allein?');
    for (const id of ['spetter', 'rijpedates']) expect(lstatSync(join(distDir, id)).isSymbolicLink(), id).toBe(true);
  });
});

/** An output in dist/ as `sitegen build` or a runtime puts it there (src/server/output-folders.ts). */
function fakeOutput(distDir: string, id: string): void {
  const next = join(distDir, `.${id}.next`);
  mkdirSync(join(next, 'client'), { recursive: true });
  writeFileSync(join(next, '.sitegen-build.json'), JSON.stringify({ id, sources: 0, built: '' }));
  publishOutput(distDir, id, next);
}

describe('sitegen remove', () => {
  /** A copy of the shipped tenants, a dist/ with an output of each, and the programs and the console's build beside them. */
  function release() {
    const tenantsDir = tenantsCopy();
    const distDir = join(tempDir('sitegen-dist-'), 'dist');
    mkdirSync(join(distDir, '_programs', 'abc'), { recursive: true });
    for (const id of ['spetter', 'velvet', 'rijpedates', '_console']) fakeOutput(distDir, id);
    // Another database or another default brand in the operator's shell must not change what is asked.
    return { tenantsDir, distDir, env: { TENANTS_DIR: tenantsDir, DIST_DIR: distDir, DATABASE_URL: '', DEFAULT_TENANT: '' } };
  }

  test('without --yes says what it would delete, and that the members stay, and deletes nothing', { timeout: 120_000 }, async () => {
    const { tenantsDir, distDir, env } = release();
    const run = await sitegen(['remove', 'velvet'], env);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain('removing velvet would delete:\n  tenants/velvet/ (its tenant file, landers and assets)\n  dist/velvet and dist/_outputs/velvet/ (its rendered pages)');
    expect(run.stdout).toContain('the members of velvet stay in the database');
    expect(run.stderr).toContain('sitegen: nothing deleted; run `sitegen remove velvet --yes` to delete it');
    expect(existsSync(join(tenantsDir, 'velvet', 'tenant.json'))).toBe(true);
    expect(existsSync(join(distDir, 'velvet', '.sitegen-build.json'))).toBe(true);
  });

  test('with --yes deletes the brand\'s folder and its output, nothing else', { timeout: 120_000 }, async () => {
    const { tenantsDir, distDir, env } = release();
    const run = await sitegen(['remove', 'velvet', '--yes'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('sitegen: removed velvet: deleted tenants/velvet/, dist/velvet and dist/_outputs/velvet/');
    expect(run.stdout).toContain('the members of velvet stay in the database');
    expect(existsSync(join(tenantsDir, 'velvet'))).toBe(false);
    expect(existsSync(join(distDir, 'velvet'))).toBe(false);
    expect(existsSync(join(distDir, '_outputs', 'velvet'))).toBe(false);
    expect(readdirSync(distDir).sort()).toEqual(['_console', '_outputs', '_programs', 'rijpedates', 'spetter']);
    expect(readdirSync(join(distDir, '_outputs')).sort()).toEqual(['_console', 'rijpedates', 'spetter']);
    const check = await sitegen(['check'], { TENANTS_DIR: tenantsDir });
    expect(check.stdout).toContain('2 tenants are valid');
  });

  test('refuses the default brand and an id that is no brand, and deletes nothing', { timeout: 120_000 }, async () => {
    const { tenantsDir, distDir, env } = release();
    const spetter = await sitegen(['remove', 'spetter', '--yes'], env);
    expect(spetter.code).not.toBe(0);
    expect(spetter.stderr).toContain('sitegen: spetter is the default brand (served on localhost and on every host no brand names): make another brand the default first');
    // DEFAULT_TENANT names the default brand before the tenant files do.
    const velvet = await sitegen(['remove', 'velvet', '--yes'], { ...env, DEFAULT_TENANT: 'velvet' });
    expect(velvet.code).not.toBe(0);
    expect(velvet.stderr).toContain('sitegen: velvet is the default brand');
    for (const id of ['nosuch', '_defaults', '../spetter']) {
      const run = await sitegen(['remove', id, '--yes'], env);
      expect(run.code, id).not.toBe(0);
      expect(run.stderr).toContain(`sitegen: no brand ${id} in tenants/ (the brands: rijpedates, spetter, velvet)`);
    }
    for (const id of ['spetter', 'velvet']) {
      expect(existsSync(join(tenantsDir, id, 'tenant.json'))).toBe(true);
      expect(existsSync(join(distDir, id, '.sitegen-build.json'))).toBe(true);
    }
    expect(existsSync(join(tenantsDir, '_defaults'))).toBe(true);
  });
});

describe('sitegen build', () => {
  test('deletes the output of a brand whose folder is gone, never the programs or the console\'s build', { timeout: 240_000 }, async () => {
    const tenantsDir = tenantsCopy();
    const distDir = join(tempDir('sitegen-dist-'), 'dist');
    // The release's programs, linked (as in "sitegen new (with build)" above): spetter is rendered from them.
    mkdirSync(join(distDir, '_programs'), { recursive: true });
    for (const entry of readdirSync(join(DIST_DIR, '_programs'))) {
      if (entry.endsWith('.json')) cpSync(join(DIST_DIR, '_programs', entry), join(distDir, '_programs', entry));
      else symlinkSync(join(DIST_DIR, '_programs', entry), join(distDir, '_programs', entry), 'dir');
    }
    fakeOutput(distDir, '_console');
    fakeOutput(distDir, 'gone');
    // An output from before versions: a folder with its stamp.
    mkdirSync(join(distDir, 'oldgone', 'client'), { recursive: true });
    writeFileSync(join(distDir, 'oldgone', '.sitegen-build.json'), '{}');
    const run = await sitegen(['build', 'spetter'], { TENANTS_DIR: tenantsDir, DIST_DIR: distDir });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('sitegen: removed the output of gone, oldgone (no folder in tenants/ any more)');
    // node_modules: the link a dist/ outside the checkout gets to its packages (brand-output.ts linkNodeModules), kept.
    expect(readdirSync(distDir).filter((e) => !e.startsWith('.')).sort()).toEqual(['_console', '_outputs', '_programs', 'node_modules', 'spetter']);
    expect(readdirSync(join(distDir, '_outputs')).sort()).toEqual(['_console', 'spetter']);
    expect(existsSync(join(distDir, 'spetter', 'client', 'l', 'nl', 'index.html'))).toBe(true);
  });
});
