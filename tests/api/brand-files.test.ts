/**
 * The files that make each brand installable and findable (src/server/http/brand-files.ts): its
 * web app manifest and icons, /robots.txt and /sitemap.xml, each on its own domain and in its colours.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { engines, hostFetch, startTestRuntime, TENANTS_DIR, type TestRuntime } from '../support/runtime.ts';

const tenantFile = (id: string) => JSON.parse(readFileSync(join(TENANTS_DIR, id, 'tenant.json'), 'utf8'));
const BRANDS = ['spetter', 'velvet'] as const;
const LANDER_NAMES = ['alonetonight', 'collagelanding', 'gallery', 'iconslanding', 'maplanding', 'socialnetwork', 'transitionsvideolanding', 'video'];
const STATIC_PAGES = ['terms', 'privacy', 'cookies', 'ban', 'faq', 'return-policy', 'service'];
const slugLanguage = (locale: string) => (locale.startsWith('en') ? 'eng' : locale.slice(0, 2));

const hex = (rgb: number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

describe.each(engines())('brand files on %s', (engine) => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime(engine, { seed: false });
  });
  afterAll(async () => {
    await rt?.close();
  });

  test.each(BRANDS)('%s serves its own web app manifest', async (id) => {
    const tenant = tenantFile(id);
    const r = await hostFetch(rt, id, '/manifest.webmanifest');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = r.json();
    expect(manifest).toMatchObject({
      id: '/',
      name: tenant.name,
      lang: tenant.locales.default,
      start_url: '/members',
      scope: '/',
      display: 'standalone',
      theme_color: tenant.theme.primary,
    });
    expect(manifest.short_name.length).toBeGreaterThan(0);
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    expect(tenant.name.startsWith(manifest.short_name)).toBe(true);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
    const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
    expect(icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  });

  test.each(BRANDS)('%s: every manifest icon is a PNG of its stated size in the brand colour', async (id) => {
    const tenant = tenantFile(id);
    const { icons } = (await hostFetch(rt, id, '/manifest.webmanifest')).json() as { icons: { src: string; sizes: string; type: string; purpose: string }[] };
    for (const icon of icons) {
      const r = await hostFetch(rt, id, icon.src);
      expect(r.status, icon.src).toBe(200);
      expect(r.headers['content-type']).toBe('image/png');
      expect(icon.type).toBe('image/png');
      const meta = await sharp(r.body).metadata();
      const side = Number(icon.sizes.split('x')[0]);
      expect([meta.format, meta.width, meta.height]).toEqual(['png', side, side]);
      // The brand's primary colour fills the icon beside the white heart; a maskable icon to its corners.
      const { data, info } = await sharp(r.body).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const pixel = (x: number, y: number) => hex([...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)]);
      expect(pixel(Math.round(side * 0.12), Math.round(side / 2))).toBe(tenant.theme.primary);
      expect(pixel(Math.round(side / 2), Math.round(side * 0.55))).toBe('#ffffff');
      if (icon.purpose === 'maskable') expect(pixel(0, 0)).toBe(tenant.theme.primary);
    }
    const touch = await hostFetch(rt, id, '/app-icons/apple-touch-icon.png');
    expect((await sharp(touch.body).metadata()).width).toBe(180);
  });

  test('an icon the brand does not have is the 404 page', async () => {
    const r = await hostFetch(rt, 'spetter', '/app-icons/icon-1024.png', { headers: { accept: 'text/html' } });
    expect(r.status).toBe(404);
  });

  test('each brand links its manifest from the head of its pages', async () => {
    for (const id of BRANDS) {
      for (const path of ['/', '/pages/terms', '/login']) {
        const html = (await hostFetch(rt, id, path)).text;
        expect(html, `${id} ${path}`).toContain('<link rel="manifest" href="/manifest.webmanifest">');
      }
    }
  });

  test.each(BRANDS)('%s: robots.txt keeps crawlers out of the member area and the API and names its own sitemap', async (id) => {
    const tenant = tenantFile(id);
    const r = await hostFetch(rt, id, '/robots.txt');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of ['/members', '/chats', '/likes', '/credits', '/profile', '/api/']) expect(lines).toContain(`Disallow: ${path}`);
    // The public pages stay open.
    for (const path of ['/pages', '/landers', '/']) expect(lines).not.toContain(`Disallow: ${path}`);
    expect(lines).toContain(`Sitemap: https://${tenant.domains[0]}/sitemap.xml`);
  });

  test.each(BRANDS)('%s: sitemap.xml lists its own pages in every language on its own domain', async (id) => {
    const tenant = tenantFile(id);
    const other = tenantFile(id === 'spetter' ? 'velvet' : 'spetter');
    const origin = `https://${tenant.domains[0]}`;
    const r = await hostFetch(rt, id, '/sitemap.xml');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/xml/);
    expect(r.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9"/);
    const locs = [...r.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    const hrefs = [...r.text.matchAll(/ href="([^"]+)"/g)].map((m) => m[1]!);
    expect(new Set(locs).size).toBe(locs.length);
    for (const url of [...locs, ...hrefs]) expect(url.startsWith(`${origin}/`), url).toBe(true);
    expect(r.text).not.toContain(other.domains[0]);
    const paths = locs.map((l) => l.slice(origin.length));
    const locales: string[] = tenant.locales.available;
    const expected = ['/', '/landers/tinderswipe', ...LANDER_NAMES.map((n) => `/landers/${n}`), ...STATIC_PAGES.map((p) => `/pages/${p}`)];
    for (const locale of locales) {
      const language = slugLanguage(locale);
      for (const prefix of ['', 'she-', 'bdsm-', 'bbw-', 'gilf-', 'milf-', 'gay-']) {
        expected.push(`/${prefix}${language}`, ...LANDER_NAMES.map((n) => `/landers/${n}/${prefix}${language}`));
      }
    }
    expect(paths.sort()).toEqual(expected.sort());
    // No member page, and only pages the brand answers.
    expect(paths.some((p) => /^\/(members|chats|likes|credits|api)\b/.test(p))).toBe(false);
    for (const path of paths.filter((_, i) => i % 9 === 0)) expect((await hostFetch(rt, id, path)).status, path).toBe(200);
  });

  test('a niche slug names its page in each of the brand\'s languages (hreflang)', async () => {
    const text = (await hostFetch(rt, 'velvet', '/sitemap.xml')).text;
    const entry = /<url><loc>https:\/\/velvetnights\.com\/milf-de<\/loc>(.*?)<\/url>/.exec(text)?.[1];
    expect(entry).toBeDefined();
    const alternates = [...entry!.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(alternates.sort()).toEqual([
      'de https://velvetnights.com/milf-de',
      'en https://velvetnights.com/milf-eng',
      'fr https://velvetnights.com/milf-fr',
      'x-default https://velvetnights.com/milf-eng',
    ]);
    const lander = /<url><loc>https:\/\/velvetnights\.com\/landers\/video\/gay-fr<\/loc>(.*?)<\/url>/.exec(text)?.[1];
    expect(lander).toContain('hreflang="de" href="https://velvetnights.com/landers/video/gay-de"');
    // One language, one address: no alternates on a brand of one language.
    expect((await hostFetch(rt, 'spetter', '/sitemap.xml')).text).not.toContain('hreflang');
  });
});
