/**
 * The platform as plain HTTP clients see it, one runtime per database engine: each brand by its
 * Host header, the public API of SPEC §7, security headers, compression and caching, the pages
 * every visitor can open, route guards, landers and slug pages, and the locale cookie.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request, type IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { activeMember } from '../support/accounts.ts';
import { engines, hostFetch, startTestRuntime, REPO, TENANTS_DIR, type HostResponse, type TestRuntime } from '../support/runtime.ts';

const tenantFile = (id: string) => JSON.parse(readFileSync(join(TENANTS_DIR, id, 'tenant.json'), 'utf8'));
const SPETTER = tenantFile('spetter');
const VELVET = tenantFile('velvet');
const catalogue = (locale: string): Record<string, string> => JSON.parse(readFileSync(join(REPO, 'locales', `${locale}.json`), 'utf8'));
const NL = catalogue('nl');
const EN = catalogue('en');
const DE = catalogue('de');

// SPEC §3 'Settings from the server', as wire fields (the push public key as push_public_key).
const SETTINGS_FIELDS = [
  'countries', 'name', 'index_title', 'description', 'domain', 'domain_language', 'cdn_prefix', 'niche', 'company_id',
  'mail_name', 'support_email', 'support_phone', 'geoip_country', 'geoip_selected_country', 'fictional_icon',
  'fictional_warning', 'fictional_singular', 'fictional_plural', 'enable_site_entry_popup', 'push_public_key',
  'visible_profile_fields', 'visible_profile_notes', 'search_fields', 'message_credits', 'photo_credits', 'gift_credits',
  'signup_credits', 'message_length', 'refund_days', 'member_resell', 'signups', 'logged_out_search',
  'logged_out_search_trafficsource', 'minimum_message_costs',
];
// SPEC §3 'Company info'.
const COMPANY_FIELDS = ['name', 'address', 'kvk', 'city', 'country', 'tradenames', 'vat_numbers', 'support_phone', 'delete_discount', 'added'];
const LANDER_NAMES = ['alonetonight', 'collagelanding', 'gallery', 'iconslanding', 'maplanding', 'socialnetwork', 'transitionsvideolanding', 'video'];
const STATIC_PAGES = ['terms', 'privacy', 'cookies', 'ban', 'faq', 'return-policy', 'service'];

const header = (r: HostResponse, name: string) => {
  const v = r.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
};
const cookies = (r: HostResponse) => {
  const v = r.headers['set-cookie'];
  return Array.isArray(v) ? v : v ? [v] : [];
};
const htmlLang = (html: string) => /<html[^>]*\slang="([^"]+)"/.exec(html)?.[1];

/** The CSP a page runs under: Astro's meta tag on prerendered pages, its header on server-rendered ones. */
function pageCsp(r: HostResponse): string {
  const meta = /<meta http-equiv="content-security-policy" content="([^"]+)"/i.exec(r.text)?.[1];
  return [header(r, 'content-security-policy'), meta ?? ''].join('; ');
}
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
}
function inlineStyles(html: string): string[] {
  return [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
}
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe.each(engines())('platform API on %s', (engine) => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime(engine);
  });
  afterAll(async () => {
    await rt?.close();
  });

  describe('GET /api/settings.php', () => {
    test('each brand answers its own settings', async () => {
      const nl = (await hostFetch(rt, 'spetter', '/api/settings.php')).json();
      const velvet = (await hostFetch(rt, 'velvet', '/api/settings.php')).json();
      expect(nl.settings.domain).toBe('spetter.nl');
      expect(nl.settings.domain_language).toBe('nl');
      expect(velvet.settings.domain).toBe('velvetnights.com');
      expect(velvet.settings.niche).toBe(6);
    });

    test.each(['spetter', 'velvet'])('%s answers every SPEC §3 settings field', async (id) => {
      const r = await hostFetch(rt, id, '/api/settings.php');
      expect(r.status).toBe(200);
      expect(header(r, 'content-type')).toMatch(/^application\/json/);
      const { settings } = r.json();
      const missing = SETTINGS_FIELDS.filter((f) => !(f in settings));
      expect(missing).toEqual([]);
      for (const f of SETTINGS_FIELDS.filter((f) => !['geoip_country', 'push_public_key'].includes(f))) {
        expect(settings[f], f).not.toBeNull();
        expect(settings[f], f).not.toBeUndefined();
      }
    });

    test('the values come from each brand\'s tenant.json and the defaults', async () => {
      const nl = (await hostFetch(rt, 'spetter', '/api/settings.php')).json().settings;
      expect(nl).toMatchObject({
        name: 'Spetter',
        countries: ['NL', 'BE'],
        index_title: SPETTER.index_title,
        description: SPETTER.description,
        niche: 1,
        company_id: 1,
        mail_name: 'Spetter',
        support_email: 'support@spetter.nl',
        support_phone: '+31 20 123 4567',
        cdn_prefix: '',
        enable_site_entry_popup: true,
        message_credits: 5,
        signup_credits: 10,
        signups: 'all',
        logged_out_search: false,
        logged_out_search_trafficsource: false,
        minimum_message_costs: { NL: { costs: 35, currency: 'EUR' }, BE: { costs: 35, currency: 'EUR' } },
        fictional_warning: NL.fictional_warning,
        fictional_singular: NL.fictional_singular,
        fictional_plural: NL.fictional_plural,
      });
      expect(Number.isInteger(nl.message_length) && nl.message_length > 0).toBe(true);
      expect(Number.isInteger(nl.refund_days)).toBe(true);

      const velvet = (await hostFetch(rt, 'velvet', '/api/settings.php')).json().settings;
      expect(velvet).toMatchObject({
        name: 'Velvet Nights',
        countries: VELVET.countries,
        domain_language: 'en',
        niche: 6,
        company_id: 2,
        support_email: 'help@velvetnights.com',
        message_credits: 6,
        signup_credits: 15,
        logged_out_search: true,
        minimum_message_costs: VELVET.minimum_message_costs,
      });
      expect(velvet.minimum_message_costs.GB).toEqual({ costs: 30, currency: 'GBP' });
    });

    test('?domain= forces the brand whatever the Host', async () => {
      const forced = (await hostFetch(rt, 'spetter', '/api/settings.php?domain=velvetnights.com')).json().settings;
      expect(forced).toMatchObject({ name: 'Velvet Nights', domain: 'velvetnights.com', niche: 6, company_id: 2 });
      const www = (await hostFetch(rt, 'spetter', '/api/settings.php?domain=www.velvetnights.com')).json().settings;
      expect(www.domain).toBe('velvetnights.com');
      const back = (await hostFetch(rt, 'velvet', '/api/settings.php?domain=spetter.nl')).json().settings;
      expect(back).toMatchObject({ name: 'Spetter', domain: 'spetter.nl' });
    });

    test('geoip: an unknown client country falls back to the brand\'s first country; a served country can be selected', async () => {
      const s = (await hostFetch(rt, 'spetter', '/api/settings.php')).json().settings;
      expect(s.geoip_country).toBeNull();
      expect(s.geoip_selected_country).toBe('NL');
      const be = (await hostFetch(rt, 'spetter', '/api/settings.php?country=BE')).json().settings;
      expect(be.geoip_selected_country).toBe('BE');
      const us = (await hostFetch(rt, 'spetter', '/api/settings.php?country=US')).json().settings;
      expect(us.geoip_selected_country).toBe('NL');
    });
  });

  describe('GET /api/companyinfo.php', () => {
    test.each([
      ['spetter', SPETTER],
      ['velvet', VELVET],
    ])('%s answers every company field of SPEC §3', async (id, file) => {
      const r = await hostFetch(rt, id, '/api/companyinfo.php');
      expect(r.status).toBe(200);
      const { company } = r.json();
      expect(Object.keys(company).sort()).toEqual([...COMPANY_FIELDS].sort());
      expect(company).toMatchObject({
        name: file.company.name,
        address: file.company.address,
        kvk: file.company.kvk,
        city: file.company.city,
        country: file.company.country,
        tradenames: file.company.tradenames,
        vat_numbers: file.company.vat_numbers,
        support_phone: file.support_phone,
        delete_discount: file.company.delete_discount,
        added: file.company.added,
      });
    });
  });

  test('/favicon.ico is the brand\'s own icon in its colour', async () => {
    for (const [brand, colour] of [['spetter', '#6f2da8'], ['velvet', '#8c1c3a']]) {
      const r = await hostFetch(rt, brand!, '/favicon.ico');
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('image/svg+xml');
      expect(r.text).toContain(`fill="${colour}"`);
    }
  });

  describe('GET /icons/tabler/<name>.svg', () => {
    test('serves every interest icon and the fictional marker as SVG a browser can cache', async () => {
      const { interests } = (await hostFetch(rt, 'spetter', '/api/interests.php')).json() as { interests: { icon: string }[] };
      const { settings } = (await hostFetch(rt, 'spetter', '/api/settings.php')).json();
      for (const icon of [...interests.map((i) => i.icon), settings.fictional_icon as string]) {
        const r = await hostFetch(rt, 'spetter', `/icons/tabler/${icon.slice('tabler:'.length)}.svg`);
        expect(r.status, icon).toBe(200);
        expect(r.headers['content-type']).toBe('image/svg+xml');
        expect(r.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 24 24">.*<\/svg>$/s);
      }
      const first = await hostFetch(rt, 'velvet', '/icons/tabler/compass.svg');
      expect(first.headers['cache-control']).toContain('max-age=');
      const again = await hostFetch(rt, 'velvet', '/icons/tabler/compass.svg', { headers: { 'if-none-match': String(first.headers.etag) } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      const head = await hostFetch(rt, 'velvet', '/icons/tabler/compass.svg', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
    });

    test.each([
      '/icons/tabler/no-such-icon.svg',
      '/icons/tabler/constructor.svg',
      '/icons/tabler/..%2f..%2fpackage.json',
      '/icons/tabler/%2e%2e/%2e%2e/package.json',
      '/icons/tabler/Compass.svg',
      '/icons/tabler/compass.png',
      '/icons/mdi/heart.svg',
    ])(
      '%s is the 404 page',
      async (path) => {
        const r = await hostFetch(rt, 'spetter', path);
        expect(r.status).toBe(404);
        expect(r.headers['content-type']).toContain('text/html');
      },
    );
  });

  describe('GET /api/interests.php', () => {
    test('lists exactly the 50 interests with stable keys, icons and Dutch labels on spetter', async () => {
      const r = await hostFetch(rt, 'spetter', '/api/interests.php');
      expect(r.status).toBe(200);
      const { interests } = r.json() as { interests: { key: string; icon: string; label: string }[] };
      expect(interests).toHaveLength(50);
      expect(new Set(interests.map((i) => i.key)).size).toBe(50);
      for (const i of interests) {
        expect(i.key).toMatch(/^[a-z]+(_[a-z]+)*$/);
        expect(i.icon).toMatch(/^tabler:[a-z0-9-]+$/);
        expect(i.label).toBe(NL[`interest_${i.key}`]);
      }
      expect(interests.map((i) => i.key)).toEqual(expect.arrayContaining(['adventure', 'one_night_stand', 'video_games', 'wine']));
    });

    test('labels follow the visitor\'s language: English on velvet, German with the locale cookie', async () => {
      const en = (await hostFetch(rt, 'velvet', '/api/interests.php')).json().interests as { key: string; label: string }[];
      const de = (await hostFetch(rt, 'velvet', '/api/interests.php', { headers: { cookie: 'locale=de' } })).json().interests as { key: string; label: string }[];
      expect(en).toHaveLength(50);
      for (const i of en) expect(i.label).toBe(EN[`interest_${i.key}`]);
      for (const i of de) expect(i.label).toBe(DE[`interest_${i.key}`]);
      const adventure = (list: { key: string; label: string }[]) => list.find((i) => i.key === 'adventure')!.label;
      expect(adventure(en)).not.toBe(NL.interest_adventure);
      expect(adventure(de)).not.toBe(adventure(en));
    });
  });

  describe('GET /api/regions.php', () => {
    test('spetter: the twelve Dutch provinces labelled as provinces, and Belgium', async () => {
      const r = await hostFetch(rt, 'spetter', '/api/regions.php');
      expect(r.status).toBe(200);
      const { countries } = r.json() as { countries: { code: string; label: string; regions: { code: string; name: string }[] }[] };
      expect(countries.map((c) => c.code)).toEqual(['NL', 'BE']);
      const nl = countries[0]!;
      expect(nl.label).toBe(NL.region_label_province);
      expect(nl.regions.map((x) => x.name).sort()).toEqual([
        'Drenthe', 'Flevoland', 'Friesland', 'Gelderland', 'Groningen', 'Limburg', 'Noord-Brabant', 'Noord-Holland',
        'Overijssel', 'Utrecht', 'Zeeland', 'Zuid-Holland',
      ]);
      expect(countries[1]!.regions.map((x) => x.name)).toContain('Antwerpen');
    });

    test('velvet: its own countries, each with its kind of region', async () => {
      const { countries } = (await hostFetch(rt, 'velvet', '/api/regions.php')).json() as {
        countries: { code: string; label: string; regions: { name: string }[] }[];
      };
      expect(countries.map((c) => c.code)).toEqual(VELVET.countries);
      const by = Object.fromEntries(countries.map((c) => [c.code, c]));
      expect(by.DE!.label).toBe(EN.region_label_state);
      expect(by.DE!.regions).toHaveLength(16);
      expect(by.CH!.label).toBe(EN.region_label_canton);
      expect(by.CH!.regions).toHaveLength(26);
      expect(by.AT!.regions).toHaveLength(9);
      expect(by.CA!.label).toBe(EN.region_label_province);
      expect(by.DE!.label).not.toBe(by.CH!.label);
      for (const c of countries) expect(c.regions.length, c.code).toBeGreaterThan(0);
    });
  });

  describe('GET /api/geocode.php', () => {
    test('finds Amsterdam', async () => {
      const r = await hostFetch(rt, 'spetter', '/api/geocode.php?lat=52.3676&lon=4.9041');
      expect(r.status).toBe(200);
      expect(r.json().geocode).toMatchObject({ country: 'NL', city: 'Amsterdam', region: 'NH' });
    });

    test('a bad latitude is a 400 with the catalogue message and the field', async () => {
      for (const query of ['lat=north&lon=4.9', 'lat=123&lon=4.9']) {
        const r = await hostFetch(rt, 'spetter', `/api/geocode.php?${query}`);
        expect(r.status, query).toBe(400);
        expect(r.json()).toEqual({ error: { code: 'invalid_input', message: NL.error_bad_request, field: 'lat' } });
      }
      const lon = await hostFetch(rt, 'spetter', '/api/geocode.php?lat=52.3');
      expect(lon.status).toBe(400);
      expect(lon.json().error.field).toBe('lon');
    });
  });

  describe('API errors', () => {
    test('an unknown endpoint is a 404 in JSON', async () => {
      const r = await hostFetch(rt, 'spetter', '/api/x.php');
      expect(r.status).toBe(404);
      expect(header(r, 'content-type')).toMatch(/^application\/json/);
      expect(r.json()).toEqual({ error: { code: 'not_found', message: NL.error_not_found_api } });
    });

    test('a wrong method is a 405 naming the allowed ones', async () => {
      const r = await hostFetch(rt, 'spetter', '/api/settings.php', { method: 'DELETE' });
      expect(r.status).toBe(405);
      expect(header(r, 'allow')).toContain('GET');
      expect(r.json().error).toEqual({ code: 'method_not_allowed', message: NL.error_method });
    });

    test('a state-changing call from a foreign Origin is refused with forbidden_origin', async () => {
      const r = await hostFetch(rt, 'spetter', '/api/page-hidden.php', {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(r.status).toBe(403);
      expect(r.json().error).toEqual({ code: 'forbidden_origin', message: NL.error_origin });
      const cross = await hostFetch(rt, 'spetter', '/api/page-hidden.php', {
        method: 'POST',
        headers: { origin: `http://velvet.localhost:${rt.port}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(cross.status).toBe(403);
    });

    test('the same call from the brand\'s own pages is accepted', async () => {
      const r = await hostFetch(rt, 'spetter', '/api/page-hidden.php', {
        method: 'POST',
        headers: { origin: `http://spetter.localhost:${rt.port}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(r.status).toBe(204);
    });

    test('malformed JSON is a 400 with the catalogue message', async () => {
      const r = await hostFetch(rt, 'spetter', '/api/page-hidden.php', {
        method: 'POST',
        headers: { origin: `http://spetter.localhost:${rt.port}`, 'content-type': 'application/json' },
        body: '{"hidden": tru',
      });
      expect(r.status).toBe(400);
      expect(r.json().error).toMatchObject({ code: 'invalid_json', message: NL.error_bad_request });
    });

    test('errors are in the visitor\'s language', async () => {
      const r = await hostFetch(rt, 'velvet', '/api/x.php', { headers: { cookie: 'locale=de' } });
      expect(r.json().error.message).toBe(DE.error_not_found_api ?? EN.error_not_found_api);
      expect(r.json().error.message).not.toBe(NL.error_not_found_api);
    });
  });

  describe('security headers', () => {
    const basics = (r: HostResponse) => {
      expect(header(r, 'x-content-type-options')).toBe('nosniff');
      expect(header(r, 'referrer-policy')).toMatch(/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/);
    };

    test('API answers carry CSP with frame-ancestors, nosniff and a referrer policy', async () => {
      for (const path of ['/api/settings.php', '/api/x.php']) {
        const r = await hostFetch(rt, 'velvet', path);
        basics(r);
        expect(header(r, 'content-security-policy')).toContain("frame-ancestors 'none'");
      }
    });

    test.each(['/', '/pages/terms', '/landers/tinderswipe', '/nope', '/login', '/pricing'])(
      'the page %s forbids framing, sniffing and leaking the referrer',
      async (path) => {
        for (const id of ['spetter', 'velvet']) {
          const r = await hostFetch(rt, id, path);
          basics(r);
          expect(header(r, 'content-security-policy'), `${id}${path}`).toContain("frame-ancestors 'none'");
        }
      },
    );

    test.each(['/', '/pages/faq', '/landers/tinderswipe', '/milf-eng', '/nope', '/login', '/pricing', '/members'])(
      'the page %s runs under a CSP whose hashes cover every inline script and style (the brand colours too)',
      async (path) => {
        for (const id of ['spetter', 'velvet']) {
          const r = await hostFetch(rt, id, path);
          if (r.status === 302) continue;
          const csp = pageCsp(r);
          expect(csp).toMatch(/script-src [^;]*'sha256-/);
          expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
          expect(csp).not.toMatch(/style-src [^;]*'unsafe-inline'/);
          const scripts = inlineScripts(r.text);
          expect(scripts.length).toBeGreaterThan(0);
          for (const script of scripts) expect(csp, `${id}${path}: ${script.slice(0, 80)}`).toContain(sha256(script));
          const styles = inlineStyles(r.text);
          for (const style of styles) expect(csp, `${id}${path}: ${style.slice(0, 80)}`).toContain(sha256(style));
          // The brand colours come through: a hashed <style>, or a style attribute that style-src-attr allows.
          const themed =
            styles.some((style) => style.includes('--c-primary:')) ||
            (/<html[^>]*\sstyle="[^"]*--c-primary:/.test(r.text) && /style-src-attr[^;]*'unsafe-inline'/.test(csp));
          expect(themed, `${id}${path}: brand colours blocked or missing`).toBe(true);
        }
      },
    );

    test('prerendered pages carry the CSP as a meta tag', async () => {
      for (const path of ['/', '/pages/terms', '/landers/tinderswipe']) {
        const r = await hostFetch(rt, 'spetter', path);
        expect(r.text, path).toMatch(/<meta http-equiv="content-security-policy" content="[^"]*script-src [^"]*'sha256-/);
      }
    });
  });

  describe('the static pages\' stylesheet', () => {
    test('a brand\'s static pages share a stylesheet of their own, smaller than the member pages\' one, cached as an asset', async () => {
      const stylesheet = (html: string) => [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]!);
      const statics = await Promise.all(['/', '/pages/terms', '/landers/tinderswipe', '/nl'].map(async (path) => stylesheet((await hostFetch(rt, 'spetter', path)).text)));
      expect(new Set(statics.flat()).size).toBe(1);
      const [own] = statics[0]!;
      expect(own).toMatch(/^\/_assets\/static\.[\w-]{8}\.css$/);
      const [program] = stylesheet((await hostFetch(rt, 'spetter', '/pricing')).text);
      expect(program).not.toBe(own);
      const [ownCss, programCss] = [await hostFetch(rt, 'spetter', own!), await hostFetch(rt, 'spetter', program!)];
      expect(ownCss.status).toBe(200);
      expect(ownCss.headers['cache-control']).toContain('immutable');
      expect(ownCss.text.length).toBeLessThan(programCss.text.length);
      // What the static pages draw is in it: the brand gradient of the home, the lander's buttons.
      expect(ownCss.text).toContain('.brand-gradient');
      expect(ownCss.text).toContain('.btn-primary');
    });
  });

  describe('compression and caching', () => {
    test('pages and API answers are gzip or brotli compressed when the client accepts it', async () => {
      const br = await hostFetch(rt, 'spetter', '/', { headers: { 'accept-encoding': 'br' } });
      expect(header(br, 'content-encoding')).toBe('br');
      expect(brotliDecompressSync(br.body).toString()).toContain('Spetter');
      const gzip = await hostFetch(rt, 'spetter', '/', { headers: { 'accept-encoding': 'gzip' } });
      expect(header(gzip, 'content-encoding')).toBe('gzip');
      expect(gunzipSync(gzip.body).toString()).toContain('Spetter');
      const api = await hostFetch(rt, 'velvet', '/api/interests.php', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(header(api, 'content-encoding')).toBe('br');
      expect(JSON.parse(brotliDecompressSync(api.body).toString()).interests).toHaveLength(50);
      const plain = await hostFetch(rt, 'spetter', '/');
      expect(header(plain, 'content-encoding')).toBe('');
      expect(plain.text).toContain('Spetter');
    });

    test('a server-rendered page is compressed once, as the client asks; an event stream never is', async () => {
      const { client } = await activeMember(rt, 'spetter');
      const cookie = client.cookieHeader();
      for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
        const page = await hostFetch(rt, 'spetter', '/transactions', { headers: { cookie, 'accept-encoding': encoding } });
        expect(page.status).toBe(200);
        expect(header(page, 'content-encoding')).toBe(encoding);
        expect(header(page, 'vary').toLowerCase()).toContain('accept-encoding');
        expect(header(page, 'cache-control')).toBe('private, no-cache');
        // One layer: the decoded body is the page itself.
        const html = decode(page.body).toString();
        expect(html).toMatch(/^<!DOCTYPE html>/i);
        expect(html).toContain('</html>');
      }
      const plain = await hostFetch(rt, 'spetter', '/transactions', { headers: { cookie } });
      expect(header(plain, 'content-encoding')).toBe('');
      expect(plain.text).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>/i);

      const stream = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: rt.port, path: '/api/events.php', headers: { host: `spetter.localhost:${rt.port}`, cookie, accept: 'text/event-stream', 'accept-encoding': 'br, gzip' } }, resolve);
        req.on('error', reject);
        req.end();
      });
      try {
        expect(stream.statusCode).toBe(200);
        expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
        expect(stream.headers['content-encoding']).toBeUndefined();
        // Unbuffered: the first line arrives while the stream stays open, as plain text.
        const first = await new Promise<string>((resolve) => stream.once('data', (chunk: Buffer) => resolve(chunk.toString())));
        expect(first).toContain(': open');
      } finally {
        stream.destroy();
      }
    });

    test('a prerendered page has an ETag: the browser that has it gets 304 and no body; its variants differ by Accept-Encoding', async () => {
      for (const path of ['/', '/landers/tinderswipe']) {
        const first = await hostFetch(rt, 'spetter', path, { headers: { 'accept-encoding': 'gzip, br' } });
        expect(first.status).toBe(200);
        const etag = header(first, 'etag');
        expect(etag, path).toMatch(/^"[\w-]+"$/);
        expect(header(first, 'vary').toLowerCase()).toContain('accept-encoding');
        // A lander's variant follows the visitor's cookie (issue 23): no shared cache may keep one for all.
        expect(header(first, 'cache-control')).toBe(path === '/' ? 'no-cache' : 'private, no-cache');
        expect(header(first, 'content-type')).toBe('text/html; charset=utf-8');
        const again = await hostFetch(rt, 'spetter', path, { headers: { 'accept-encoding': 'gzip, br', 'if-none-match': etag } });
        expect(again.status, path).toBe(304);
        expect(again.body.length).toBe(0);
        const stale = await hostFetch(rt, 'spetter', path, { headers: { 'if-none-match': '"something-else"' } });
        expect(stale.status).toBe(200);
        expect(stale.text).toContain('Spetter');
        // The same bytes whichever encoding carries them.
        expect(brotliDecompressSync(first.body).toString()).toBe(stale.text);
        const refused = await hostFetch(rt, 'spetter', path, { headers: { 'accept-encoding': 'br;q=0, gzip' } });
        expect(header(refused, 'content-encoding')).toBe('gzip');
      }
    });

    test('hashed assets under /_assets/ are cached for a year, immutable; pages are not', async () => {
      const home = await hostFetch(rt, 'velvet', '/');
      const assets = [...home.text.matchAll(/(?:href|src)="(\/_assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) {
        const r = await hostFetch(rt, 'velvet', asset);
        expect(r.status, asset).toBe(200);
        expect(header(r, 'cache-control')).toMatch(/max-age=31536000/);
        expect(header(r, 'cache-control')).toContain('immutable');
      }
      expect(header(home, 'cache-control')).not.toContain('immutable');
      const css = assets.find((a) => a.endsWith('.css'))!;
      expect(header(await hostFetch(rt, 'velvet', css, { headers: { 'accept-encoding': 'br' } }), 'content-encoding')).toBe('br');
      expect((await hostFetch(rt, 'velvet', '/_assets/missing.js')).status).toBe(404);
    });
  });

  describe('pages', () => {
    test('the member landers show one member of the brand and send a visitor to that member\'s signup', async () => {
      const member = await rt.db.db.selectFrom('profiles').select(['id', 'name']).where('tenant_id', '=', 'spetter').orderBy('id').executeTakeFirstOrThrow();
      for (const path of [`/members/${member.id}/landing`, `/members/${member.id}/landing2`, `/members/${member.id}/landing2/nl`, `/members/${member.id}/landing3/milf-nl`]) {
        const r = await hostFetch(rt, 'spetter', path);
        expect(r.status, path).toBe(200);
        expect(r.text, path).toContain(`${member.name} wil je leren kennen`);
        expect(r.text, path).toContain(`href="/members/${member.id}/signup"`);
      }
      // Another brand's member, an unknown id, a slug of no brand and a bad id are not found.
      for (const [tenant, path] of [['velvet', `/members/${member.id}/landing`], ['spetter', '/members/999999/landing'], ['spetter', `/members/${member.id}/landing2/xx-zz`], ['spetter', '/members/abc/landing3']] as const) {
        const r = await hostFetch(rt, tenant, path);
        expect(r.status, `${tenant} ${path}`).toBe(404);
        expect(r.text).toContain('This page could not be found');
      }
    });

    test('each brand\'s home is its own: name, colours and language', async () => {
      const nl = await hostFetch(rt, 'spetter', '/');
      const velvet = await hostFetch(rt, 'velvet', '/');
      expect(nl.status).toBe(200);
      expect(velvet.status).toBe(200);
      expect(nl.text).toContain('--c-primary:#6f2da8');
      expect(velvet.text).toContain('--c-primary:#8c1c3a');
      expect(nl.text).toMatch(/<title[^>]*>[^<]*Spetter/);
      expect(velvet.text).toMatch(/<title[^>]*>[^<]*Velvet Nights/);
      // The home's title starts with the brand; other pages end with it, once.
      const title = (html: string) => /<title[^>]*>([^<]*)</.exec(html)![1]!;
      expect(title(nl.text)).toBe('Spetter - flirten en daten met singles bij jou in de buurt');
      expect(title(velvet.text).match(/Velvet Nights/g)).toHaveLength(1);
      expect(title((await hostFetch(rt, 'spetter', '/pages/faq')).text)).toMatch(/^[^|]+ \| Spetter$/);
      expect(velvet.text).not.toContain('Spetter');
      expect(htmlLang(nl.text)).toBe('nl');
      expect(htmlLang(velvet.text)).toBe('en');
    });

    test.each(['spetter', 'velvet'])('an unknown path on %s is the 404 page with its text and a way home', async (id) => {
      for (const path of ['/does-not-exist', '/pages/nope', '/a/b/c']) {
        const r = await hostFetch(rt, id, path);
        expect(r.status, path).toBe(404);
        expect(header(r, 'content-type')).toMatch(/^text\/html/);
        expect(r.text).toContain('This page could not be found');
        expect(r.text).toContain('Back to the home page');
        expect(r.text).toMatch(/<a[^>]+href="\/"[^>]*>[^<]*Back to the home page/);
        expect(r.text).toContain(id === 'spetter' ? 'Spetter' : 'Velvet Nights');
      }
    });

    test.each(['/chats', '/profile', '/credits', '/likes', '/premium', '/members/3', '/chats/12'])(
      'a logged-out visitor on %s goes to /login with the way back',
      async (path) => {
        for (const id of ['spetter', 'velvet']) {
          const r = await hostFetch(rt, id, path);
          expect(r.status, `${id}${path}`).toBe(302);
          expect(header(r, 'location')).toBe(`/login?next=${encodeURIComponent(path)}`);
        }
      },
    );

    test('the login page offers signing up in its top bar instead of a link to itself', async () => {
      const login = await hostFetch(rt, 'spetter', '/login');
      const header = /<header[\s\S]*?<\/header>/.exec(login.text)![0];
      expect(header).toContain('href="/signup"');
      expect(header).not.toContain('href="/login"');
      const home = /<header[\s\S]*?<\/header>/.exec((await hostFetch(rt, 'spetter', '/pricing')).text)![0];
      expect(home).toContain('href="/login"');
    });

    test('the way back keeps the query string', async () => {
      const r = await hostFetch(rt, 'spetter', '/credits?package=popular');
      expect(r.status).toBe(302);
      expect(header(r, 'location')).toBe('/login?next=%2Fcredits%3Fpackage%3Dpopular');
    });

    test('the member search is closed to logged-out visitors on spetter but open on velvet (logged_out_search)', async () => {
      const closed = await hostFetch(rt, 'spetter', '/members');
      expect(closed.status).toBe(302);
      expect(header(closed, 'location')).toBe('/login?next=%2Fmembers');
      const open = await hostFetch(rt, 'velvet', '/members');
      expect(open.status).toBe(200);
      expect(open.text).toContain('Velvet Nights');
    });

    test.each(['/login', '/signup', '/pricing', '/reset-password', '/complaints', '/lang-config'])(
      '%s opens for a logged-out visitor on both brands',
      async (path) => {
        for (const id of ['spetter', 'velvet']) {
          const r = await hostFetch(rt, id, path);
          expect(r.status, `${id}${path}`).toBe(200);
          expect(r.text).not.toMatch(/coming soon/i);
        }
      },
    );

    /** No React, no island: the page and every script it loads are plain, small scripts. */
    const noFramework = async (id: string, html: string) => {
      expect(html).not.toMatch(/astro-island/);
      expect(html).not.toMatch(/react-dom|\breact\b/i);
      expect(html).not.toMatch(/<link[^>]+rel="modulepreload"/);
      for (const [, src] of html.matchAll(/<script[^>]+\bsrc="([^"]+)"/g)) {
        const script = await hostFetch(rt, id, src!);
        expect(script.status, src).toBe(200);
        expect(script.text, src).not.toMatch(/react|astro-island|hydrat/i);
        expect(script.body.length, src).toBeLessThan(8 * 1024);
      }
    };

    test.each(['spetter', 'velvet'])('/landers/tinderswipe on %s renders without framework JavaScript', async (id) => {
      const r = await hostFetch(rt, id, '/landers/tinderswipe');
      expect(r.status).toBe(200);
      await noFramework(id, r.text);
      expect(r.text).toContain(id === 'spetter' ? 'Spetter' : 'Velvet Nights');
      expect(r.text).toContain('data-swipe-action="like"');
    });

    test.each(LANDER_NAMES)('/landers/%s renders on both brands without framework JavaScript', async (name) => {
      for (const id of ['spetter', 'velvet']) {
        const r = await hostFetch(rt, id, `/landers/${name}`);
        expect(r.status, `${id} /landers/${name}`).toBe(200);
        expect(r.text).toMatch(/<h1[^>]*>/);
        await noFramework(id, r.text);
      }
    });

    test('a lander takes a niche slug: /landers/gallery/milf-eng on velvet', async () => {
      const r = await hostFetch(rt, 'velvet', '/landers/gallery/milf-eng');
      expect(r.status).toBe(200);
      expect(htmlLang(r.text)).toBe('en');
      await noFramework('velvet', r.text);
      expect((await hostFetch(rt, 'velvet', '/landers/gallery/milf-xx')).status).toBe(404);
      expect((await hostFetch(rt, 'spetter', '/landers/gallery/nl')).status).toBe(200);
    });

    test('niche slug pages: /nl on spetter; /milf-eng, /de and /bdsm-fr on velvet; unknown slugs are 404', async () => {
      const nl = await hostFetch(rt, 'spetter', '/nl');
      expect(nl.status).toBe(200);
      expect(htmlLang(nl.text)).toBe('nl');
      await noFramework('spetter', nl.text);
      for (const [path, lang] of [['/milf-eng', 'en'], ['/de', 'de'], ['/bdsm-fr', 'fr']] as const) {
        const r = await hostFetch(rt, 'velvet', path);
        expect(r.status, path).toBe(200);
        expect(htmlLang(r.text), path).toBe(lang);
        expect(r.text).toContain('Velvet Nights');
        await noFramework('velvet', r.text);
      }
      for (const [id, path] of [['spetter', '/xyz-nl'], ['velvet', '/xyz-nl'], ['velvet', '/nl'], ['spetter', '/milf-eng']]) {
        const r = await hostFetch(rt, id!, path!);
        expect(r.status, `${id}${path}`).toBe(404);
        expect(r.text).toContain('This page could not be found');
      }
    });

    test('the folder of a brand\'s static output is nobody\'s address, however it is written', async () => {
      for (const path of ['/l/nl/', '/l/nl', '/l', '/l/nl/landers.json', '/l/nl/pages/terms', '/l/nl/landers/alonetonight', '/l/nl/lander-variants/direct/landers/alonetonight', '/l/nl/404', '/l/nl/error', '/%2Fl/nl/', '/l//nl/pages/terms', '/l/%6El/', '//l/nl/', '//l/nl', '///l/nl/pages/terms', '/l/./nl/', '/./l/nl/', '/x/../l/nl/', '/L/nl/', '/l/nl%2F', '/%4C/nl/']) {
        const r = await hostFetch(rt, 'spetter', path);
        expect(r.status, path).toBe(404);
        expect(r.text, path).toContain('This page could not be found');
      }
      expect((await hostFetch(rt, 'velvet', '/l/en/landers.json')).status).toBe(404);
    });

    test.each(STATIC_PAGES)('/pages/%s names the company and the support e-mail of each brand', async (page) => {
      for (const [id, file] of [['spetter', SPETTER], ['velvet', VELVET]] as const) {
        const r = await hostFetch(rt, id, `/pages/${page}`);
        expect(r.status, `${id} /pages/${page}`).toBe(200);
        expect(r.text).toContain(file.company.name);
        expect(r.text).toContain(file.support_email);
        expect(r.text).not.toMatch(/coming soon/i);
        expect(r.text.match(/<h1[\s>]/g), 'one h1 per page').toHaveLength(1);
      }
    });

    test('the terms show the terms version date: the company-added date, being later than 2023-12-01', async () => {
      const nl = await hostFetch(rt, 'spetter', '/pages/terms');
      expect(nl.text).toMatch(/18 maart 2024|18-03-2024|2024-03-18/);
    });
  });

  describe('language', () => {
    test('velvet speaks its domain language (English) when there is no cookie, whatever the browser asks', async () => {
      const r = await hostFetch(rt, 'velvet', '/');
      expect(htmlLang(r.text)).toBe('en');
      const asked = await hostFetch(rt, 'velvet', '/', { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
      expect(htmlLang(asked.text)).toBe('en');
    });

    test('velvet with the cookie locale=de serves German', async () => {
      const r = await hostFetch(rt, 'velvet', '/', { headers: { cookie: 'locale=de' } });
      expect(htmlLang(r.text)).toBe('de');
      const login = DE.nav_login;
      expect(login, 'locales/de.json has no nav_login yet').toBeTruthy();
      expect(r.text).toContain(login);
      const faq = await hostFetch(rt, 'velvet', '/pages/faq', { headers: { cookie: 'locale=de' } });
      expect(htmlLang(faq.text)).toBe('de');
    });

    test('a locale cookie naming a language the brand lacks is ignored', async () => {
      const r = await hostFetch(rt, 'velvet', '/', { headers: { cookie: 'locale=it' } });
      expect(htmlLang(r.text)).toBe('en');
      const nl = await hostFetch(rt, 'spetter', '/', { headers: { cookie: 'locale=de' } });
      expect(htmlLang(nl.text)).toBe('nl');
    });

    test('/lang-config?locale=fr&next=/pages/faq sets a 365-day cookie and goes back to /pages/faq', async () => {
      const r = await hostFetch(rt, 'velvet', '/lang-config?locale=fr&next=/pages/faq');
      expect([302, 303]).toContain(r.status);
      expect(header(r, 'location')).toBe('/pages/faq');
      const cookie = cookies(r).find((c) => c.startsWith('locale='));
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/^locale=fr;/);
      expect(cookie).toMatch(/Max-Age=31536000/i);
      expect(cookie).toMatch(/Path=\//i);
      const faq = await hostFetch(rt, 'velvet', '/pages/faq', { headers: { cookie: 'locale=fr' } });
      expect(htmlLang(faq.text)).toBe('fr');
    });

    test('lang-config refuses a locale the brand lacks and a next that leaves the site', async () => {
      const it = await hostFetch(rt, 'velvet', '/lang-config?locale=it&next=/pages/faq');
      expect(cookies(it).some((c) => c.startsWith('locale='))).toBe(false);
      const evil = await hostFetch(rt, 'velvet', '/lang-config?locale=de&next=//evil.example/x');
      expect([302, 303]).toContain(evil.status);
      expect(header(evil, 'location')).toBe('/');
    });
  });

  describe('hosts', () => {
    test('an unknown Host is served by the default tenant', async () => {
      const r = await hostFetch(rt, 'spetter', '/', { headers: { host: `unknown.example:${rt.port}` } });
      expect(r.status).toBe(200);
      expect(r.text).toMatch(/<title[^>]*>[^<]*Spetter/);
      const s = (await hostFetch(rt, 'spetter', '/api/settings.php', { headers: { host: 'localhost' } })).json().settings;
      expect(s.domain).toBe('spetter.nl');
    });

    test('a brand\'s real domains reach it', async () => {
      for (const host of ['velvetnights.com', 'www.velvetnights.com', 'VelvetNights.com:443']) {
        const s = (await hostFetch(rt, 'spetter', '/api/settings.php', { headers: { host } })).json().settings;
        expect(s.domain, host).toBe('velvetnights.com');
      }
    });
  });
});
