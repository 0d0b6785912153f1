/**
 * One program for every language (docs/ONE-BUILD.md, step 3): its client is built once per locale,
 * and a page ships its islands' messages in the visitor's language alone, as a program of that one
 * language did; server-rendered (velvet's /login in German and in French) and rendered into a
 * brand's static output (velvet's members shell) alike. A brand of a language no brand spoke when
 * the program was built is served at once from its all-languages client.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { moduleClosure } from '../../cli/module-preload.ts';
import { LOCALE_SCRIPTS_FILE, type LocaleScripts } from '../../src/lib/locale-scripts.ts';
import { programDir, readBuildStamp } from '../../src/server/programs.ts';
import { DIST_DIR, engines, hostFetch, REPO, startTestRuntime, TENANTS_DIR, type TestRuntime } from '../support/runtime.ts';
import { until } from '../support/sse.ts';

const catalogue = (locale: string): Record<string, string> => JSON.parse(readFileSync(join(REPO, 'locales', `${locale}.json`), 'utf8'));
const LANGUAGES = ['nl', 'en', 'de', 'fr', 'es'] as const;
const TEXT = Object.fromEntries(LANGUAGES.map((l) => [l, catalogue(l)]));
const program = programDir(DIST_DIR, readBuildStamp(DIST_DIR, 'velvet')?.program ?? 'missing');
const assets = join(program, 'client');

/** The code of every script a page loads (its scripts and islands, and what they import statically). */
async function pageCode(html: string): Promise<string> {
  const urls = [...html.matchAll(/(?:src|component-url|renderer-url)="(\/_assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const files = await moduleClosure(urls, (url) => readFileSync(join(assets, url), 'utf8'));
  return files.map((url) => readFileSync(join(assets, url), 'utf8')).join('\n');
}

/** The languages whose text of a message the code holds. */
const languagesOf = (code: string, key: string) => LANGUAGES.filter((l) => code.includes(TEXT[l]![key]!));

describe('the program of every language', () => {
  test('is one for every brand and has a client of its own for every locale the brands speak', () => {
    expect(readBuildStamp(DIST_DIR, 'spetter')?.program, 'dist/ is built by `sitegen build`').toBe(readBuildStamp(DIST_DIR, 'velvet')?.program);
    const map = JSON.parse(readFileSync(join(program, 'server', LOCALE_SCRIPTS_FILE), 'utf8')) as LocaleScripts;
    const locales = ['de', 'en', 'fr', 'nl']; // spetter and rijpedates nl; velvet en, de, fr
    expect(Object.keys(map.files).sort()).toEqual(locales);
    for (const locale of locales) {
      expect(Object.keys(map.files[locale]!).length, locale).toBeGreaterThan(0);
      for (const file of Object.values(map.files[locale]!)) expect(existsSync(join(assets, '_assets', file)), file).toBe(true);
    }
  });

  test("velvet's members shell ships the push opt-in's text in the page's language alone", async () => {
    for (const locale of ['de', 'fr', 'en'] as const) {
      const html = readFileSync(join(DIST_DIR, 'velvet', 'client', 'l', locale, 'shells', 'members', 'index.html'), 'utf8');
      expect(languagesOf(await pageCode(html), 'push_optin_title'), locale).toEqual([locale]);
    }
  });
});

describe.each(engines())('a server-rendered page names the scripts of its locale on %s', (engine) => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime(engine, { seed: false });
  });
  afterAll(async () => {
    await rt?.close();
  });

  test("velvet's /login in German and in French: the login form's messages in that language alone, its CSP whole", async () => {
    const pages: Record<string, string> = {};
    for (const locale of ['de', 'fr'] as const) {
      const page = await hostFetch(rt, 'velvet', '/login', { headers: { cookie: `locale=${locale}` } });
      expect(page.status).toBe(200);
      expect(page.text).toContain(TEXT[locale]!.login_no_account);
      expect(languagesOf(await pageCode(page.text), 'password_required'), locale).toEqual([locale]);
      pages[locale] = page.text;
      // Every inline script of the page is one the policy names.
      const policy = String(page.headers['content-security-policy'] ?? '');
      for (const [, code] of page.text.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
        if (!code) continue;
        expect(policy).toContain(`'sha256-${createHash('sha256').update(code).digest('base64')}'`);
      }
    }
    const island = (html: string) => /component-url="([^"]+)"/.exec(html)?.[1];
    expect(island(pages.de!)).not.toBe(island(pages.fr!));
  });
});

describe.each(engines())('a brand of a language no brand speaks on %s', (engine) => {
  let rt: TestRuntime;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'sitegen-locale-clients-'));
    const tenantsDir = join(root, 'tenants');
    const distDir = join(root, 'dist');
    for (const id of ['_defaults', 'spetter']) cpSync(join(TENANTS_DIR, id), join(tenantsDir, id), { recursive: true });
    mkdirSync(distDir);
    // The release: spetter's build and the program; nothing was built for Spanish.
    for (const id of ['spetter', '_programs']) symlinkSync(join(DIST_DIR, id), join(distDir, id), 'dir');
    rt = await startTestRuntime(engine, { tenantsDir, distDir, seed: false });
    const tenant = JSON.parse(readFileSync(join(TENANTS_DIR, 'spetter', 'tenant.json'), 'utf8')) as Record<string, unknown>;
    Object.assign(tenant, { name: 'Cita Nueva', domains: ['nueva.example'], default: false, domain_language: 'es', countries: ['ES'], locales: { available: ['es'], default: 'es', fallback: 'es' } });
    mkdirSync(join(tenantsDir, 'nueva'));
    writeFileSync(join(tenantsDir, 'nueva', 'tenant.json'), JSON.stringify(tenant));
  });
  afterAll(async () => {
    await rt?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('is served from the one program at once, its login form in Spanish from the all-languages client', { timeout: 120_000 }, async () => {
    await until('the runtime knows nueva', async () => (await hostFetch(rt, 'nueva', '/api/settings.php')).json().settings.domain === 'nueva.example', 10_000);
    const login = await hostFetch(rt, 'nueva', '/login');
    expect(login.status).toBe(200);
    expect(login.text).toContain(TEXT.es!.login_no_account);
    // Spanish has no client of its own until the program is built again with a Spanish brand there.
    expect(languagesOf(await pageCode(login.text), 'password_required')).toEqual([...LANGUAGES]);
    expect(readBuildStamp(join(root, 'dist'), 'nueva')?.program).toBe(readBuildStamp(DIST_DIR, 'spetter')?.program);
  });
});
