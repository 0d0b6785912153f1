/**
 * What a brand's output shows of the texts every brand shares (docs/ONE-BUILD.md step 6): the
 * files its pages show and a fingerprint of their contents, the same on every machine; the
 * runtime's look at the shared folders.
 */
import { cpSync, mkdtempSync, rmSync, utimesSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadTenant } from '../../src/tenant/load.ts';
import { brandInputs, createOutputInputs, DEFAULT_CONTENT_DIR, readSharedTexts, SharedTextsWatch } from '../../src/server/output-dependencies.ts';

const TENANTS = join(import.meta.dirname, '..', '..', 'tenants');

describe('the shared texts a brand shows', () => {
  let root: string;
  let dirs: { tenantsDir: string; contentDir: string };
  const inputsOf = (id: string) => brandInputs(loadTenant(id, TENANTS), dirs.tenantsDir, readSharedTexts(dirs), [])!;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sitegen-inputs-'));
    dirs = { tenantsDir: join(root, 'tenants'), contentDir: join(root, 'content') };
    for (const id of ['_defaults', 'spetter', 'velvet']) cpSync(join(TENANTS, id), join(dirs.tenantsDir, id), { recursive: true });
    cpSync(DEFAULT_CONTENT_DIR, dirs.contentDir, { recursive: true });
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('are the shared landers and page texts of its languages, its own landers before them', () => {
    const spetter = inputsOf('spetter');
    expect(spetter.files).toContain('content/pages/terms.nl.md');
    expect(spetter.files).toContain('tenants/_defaults/landers/default.nl.md');
    // Spetter has an alonetonight lander of its own: the shared one is not among its inputs.
    expect(spetter.files).not.toContain('tenants/_defaults/landers/alonetonight.nl.md');
    expect(spetter.files.some((f) => f.endsWith('.de.md'))).toBe(false);
    expect(inputsOf('velvet').files).toContain('tenants/_defaults/landers/alonetonight.de.md');
  });

  test('are fingerprinted by content: a file touched is the same, a file edited is another; another brand unchanged', () => {
    const before = { spetter: inputsOf('spetter'), velvet: inputsOf('velvet') };
    expect(before.spetter.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const terms = join(dirs.contentDir, 'pages', 'terms.nl.md');
    utimesSync(terms, new Date(2030, 0, 1), new Date(2030, 0, 1));
    expect(inputsOf('spetter')).toEqual(before.spetter);
    writeFileSync(terms, `${readFileSync(terms, 'utf8')}\nNieuw.\n`);
    expect(inputsOf('spetter').fingerprint).not.toBe(before.spetter.fingerprint);
    expect(inputsOf('velvet')).toEqual(before.velvet);
  });

  test('a new shared text a brand would show changes its fingerprint; one it would not show does not', () => {
    const before = { spetter: inputsOf('spetter'), velvet: inputsOf('velvet') };
    // More specific than default.nl.md for the tinderswipe lander in Dutch: spetter shows it now.
    writeFileSync(join(dirs.tenantsDir, '_defaults', 'landers', 'tinderswipe.nl.md'), '---\nlander: tinderswipe\nlocale: nl\nheadline: Swipe maar\ncta: Begin\n---\nTekst.\n');
    const after = inputsOf('spetter');
    expect(after.files).toContain('tenants/_defaults/landers/tinderswipe.nl.md');
    expect(after.fingerprint).not.toBe(before.spetter.fingerprint);
    expect(inputsOf('velvet')).toEqual(before.velvet);
  });

  test("the runtime's look reads and hashes again only what changed, and counts a change of content only", async () => {
    const watch = new SharedTextsWatch(dirs);
    // Its first look finds the texts it read on start: no change.
    expect(await watch.check()).toBe(false);
    expect(watch.version()).toBe(0);
    expect(await watch.check()).toBe(false);
    const lander = join(dirs.tenantsDir, '_defaults', 'landers', 'default.nl.md');
    utimesSync(lander, new Date(2030, 0, 1), new Date(2030, 0, 1));
    expect(await watch.check()).toBe(false);
    writeFileSync(lander, readFileSync(lander, 'utf8').replace(/headline: .*/, 'headline: Nieuw'));
    expect(await watch.check()).toBe(true);
    expect(watch.version()).toBe(1);
    expect(watch.texts().landers.variants.find((v) => v.file.endsWith('default.nl.md'))?.headline).toBe('Nieuw');
  });

  test("a brand's own folder changing what it shows: once rendered again, its output is not stale (no endless re-render)", () => {
    const watch = new SharedTextsWatch(dirs);
    const inputs = createOutputInputs({ watch, tenantsDir: dirs.tenantsDir, distDir: join(root, 'dist'), tenants: () => [] });
    const spetter = loadTenant('spetter', dirs.tenantsDir);
    inputs.rendered('spetter', inputsOf('spetter'));
    expect(inputs.isStale(spetter)).toBe(false);
    // A lander of its own over the shared default.nl.md: its folder changed, the shared texts did not.
    cpSync(join(dirs.tenantsDir, '_defaults', 'landers', 'default.nl.md'), join(dirs.tenantsDir, 'spetter', 'landers', 'default.nl.md'));
    const now = inputsOf('spetter');
    expect(now.files).not.toContain('tenants/_defaults/landers/default.nl.md');
    // The runtime renders it again for its folder, and records what it shows now.
    inputs.rendered('spetter', now);
    expect(inputs.isStale(spetter)).toBe(false);
  });
});
