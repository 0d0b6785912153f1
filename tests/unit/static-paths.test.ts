/**
 * The list of a brand's static output (src/site/static-paths.ts, docs/ONE-BUILD.md step 2): every
 * page the pages under src/pages/l/[locale]/ prerender, with the file each is written to, read
 * from the demo brands' tenant and lander files.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadTenant } from '../../src/tenant/load.ts';
import { readLanders } from '../../src/tenant/landers.ts';
import { staticPaths, landerManifest } from '../../src/site/static-paths.ts';
import { STATIC_PAGES } from '../../src/lib/routes.ts';
import { DEFAULT_CONTENT_DIR, readSharedTexts } from '../../src/server/output-dependencies.ts';

const TENANTS = join(import.meta.dirname, '..', '..', 'tenants');
const PAGE_TEXTS = readSharedTexts({ tenantsDir: TENANTS, contentDir: DEFAULT_CONTENT_DIR }).pages;
const pathsOf = (id: string) => staticPaths(loadTenant(id, TENANTS), readLanders(TENANTS, id), PAGE_TEXTS);

describe('a brand\'s static output', () => {
  test('every locale has its home, error pages, static pages, shells and landers.json, each in a file of its own', () => {
    const paths = pathsOf('velvet');
    const files = paths.map((p) => p.file);
    expect(new Set(files).size).toBe(files.length);
    for (const locale of ['en', 'de', 'fr']) {
      expect(files).toEqual(expect.arrayContaining([
        `l/${locale}/index.html`, `l/${locale}/404/index.html`, `l/${locale}/error/index.html`, `l/${locale}/landers.json`,
        `l/${locale}/shells/members/index.html`, `l/${locale}/shells/members-id/index.html`, `l/${locale}/shells/likes-m-id/index.html`,
        ...STATIC_PAGES.map((page) => `l/${locale}/pages/${page}/index.html`),
      ]));
    }
    expect(files.every((f) => /^l\/(en|de|fr)\//.test(f))).toBe(true);
  });

  test('the landers of the tenant file, with and without a niche slug, and the niche slugs, in every locale', () => {
    const files = pathsOf('spetter').map((p) => p.file);
    expect(files).toEqual(expect.arrayContaining(['l/nl/landers/alonetonight/index.html', 'l/nl/landers/alonetonight/milf-nl/index.html', 'l/nl/milf-nl/index.html']));
    const lander = pathsOf('spetter').find((p) => p.file === 'l/nl/landers/alonetonight/milf-nl/index.html')!;
    expect(lander).toMatchObject({ route: 'lander', params: { locale: 'nl', name: 'alonetonight', slug: 'milf-nl' }, props: { contentLocale: 'nl' } });
  });

  test('a variant of an experiment is written beside its control, at the control\'s address under lander-variants/', () => {
    const paths = pathsOf('spetter');
    const variants = paths.filter((p) => p.route === 'lander-variant');
    expect(variants.map((p) => p.file)).toEqual(expect.arrayContaining(['l/nl/lander-variants/direct/landers/alonetonight/index.html', 'l/nl/lander-variants/direct/landers/alonetonight/milf-nl/index.html']));
    expect(variants.every((p) => p.params.variant === 'direct' && p.props.text?.variant === 'direct')).toBe(true);
    // The runtime's manifest names the same variants at the same addresses.
    const tenant = loadTenant('spetter', TENANTS);
    const manifest = landerManifest(tenant, readLanders(TENANTS, 'spetter'), 'nl');
    expect(manifest['/landers/alonetonight']!.variants.map((v) => v.name)).toEqual(['control', 'direct']);
    expect(variants.length).toBe(Object.values(manifest).filter((m) => m.variants.length > 1).length);
  });

  test('lander files that do not pass their checks stop the list with their errors', () => {
    const tenant = loadTenant('spetter', TENANTS);
    expect(() => staticPaths(tenant, { own: [], shared: [], errors: ['tenants/spetter/landers/x.md: bad weight'] }, PAGE_TEXTS)).toThrow(/bad weight/);
  });
});
