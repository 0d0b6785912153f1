/**
 * The consent choice on landers (issue 23, docs/API.md "Consent"), on every engine: which cookies
 * a lander writes without network parameters, with them before any choice, after accepting and
 * after refusing; that a refused (or not yet asked) visitor's signup is still credited to the
 * network through the signup's own parameters, and its postback is sent; that nothing of a
 * hostile parameter reaches the page; and that 40 hostile calls of POST /api/consent.php at once
 * (wrong types, huge strings, unknown fields, another brand's page or host) get a 2xx or a 4xx
 * with a catalogue message, never a 500, and never a cookie but the host's own.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { engines, hostFetch } from '../support/runtime.ts';
import { catalogueLocales, message } from '../../src/server/i18n.ts';
import { tenantsWith } from '../support/tenants.ts';
import { Client, apiError, setCookies, signUp, useRuntime } from '../support/accounts.ts';
import { startReceiver } from '../support/receiver.ts';
import { until } from '../support/sse.ts';
import { readAttribution, writeAttribution } from '../../src/lib/attribution.ts';
import { CONSENT_COOKIE, CONSENT_DAYS, CONSENT_HINT_SCRIPT } from '../../src/lib/consent.ts';

const CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const LANDER = '/landers/alonetonight';

const receiver = await startReceiver();
afterAll(() => receiver.close());
const tenants = tenantsWith({ spetter: { postbacks: [{ network: 'adnet', url: `${receiver.base}/adnet/{event}?cid={clickid}&s1={sub1}&m={member_id}`, events: ['signup'] }] } });
afterAll(() => tenants.remove());

/** A browser's visit of the lander: the answer and the cookies it set. */
async function land(client: Client, query = '') {
  const res = await client.get(`${LANDER}${query}`, { 'user-agent': CHROME });
  expect(res.status).toBe(200);
  return { res, set: Object.fromEntries(setCookies(res).map((c) => [c.name, c])) };
}

/** The postbacks the network heard of one member's signup. */
const signupsHeard = (memberId: number) => receiver.received.filter((r) => r.url.startsWith('/adnet/signup?') && r.url.endsWith(`&m=${memberId}`));

describe.each(engines())('the consent choice on landers on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ tenantsDir: tenants.dir, jobs: true, config: { postbackRetrySeconds: 1 } }));

  test('without network parameters: the variant\'s seed and landing only; the page carries the bar hidden, and its hint', async () => {
    const visitor = new Client(rt(), 'spetter');
    const { res, set } = await land(visitor);
    expect(readAttribution(set.src!.value)).toMatchObject({ tracking: {}, landing: { lander: 'alonetonight' } });
    expect(set[CONSENT_COOKIE]).toBeUndefined();
    // Prerendered: the bar is in the file for every visitor, shown by the head's hint (hashed into the CSP).
    expect(res.text).toContain('data-consent-bar');
    expect(res.text).toContain(CONSENT_HINT_SCRIPT);
  });

  test('with network parameters before a choice: nothing of them in any cookie, nothing of them in the page; the visit is counted for the network', async () => {
    const visitor = new Client(rt(), 'spetter');
    const hostile = encodeURIComponent('"><img src=x onerror=alert(1)>');
    const { res, set } = await land(visitor, `?network=adnet&clickid=ck-1&ref=${hostile}&sub1=${'b'.repeat(300)}`);
    expect(readAttribution(set.src!.value)!.tracking).toEqual({});
    expect(set.src!.value).not.toMatch(/adnet|ck-1/);
    expect(set[CONSENT_COOKIE]).toBeUndefined();
    for (const text of ['adnet', 'ck-1', '<img src=x', 'onerror', 'bbbbbbbbbb']) expect(res.text).not.toContain(text);
    await rt().services.traffic.flush();
    const row = await rt().db.db.selectFrom('source_daily').select('visits').where('tenant_id', '=', 'spetter').where('network', '=', 'adnet').executeTakeFirst();
    expect(Number(row?.visits)).toBeGreaterThanOrEqual(1);
  });

  test('accepting keeps the parameters (first visit winning) and remembers the choice; a later lander keeps them', async () => {
    const visitor = new Client(rt(), 'spetter');
    const landing = readAttribution((await land(visitor, '?network=adnet&clickid=ck-2')).set.src!.value)!;
    const res = await visitor.post('/api/consent.php', { choice: 'accept', tracking: { network: 'adnet', clickid: 'ck-2' } });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ consent: 'accept' });
    const set = Object.fromEntries(setCookies(res).map((c) => [c.name, c]));
    // The choice is strictly necessary and read by the page's hint: not HttpOnly, six months.
    expect(set[CONSENT_COOKIE]).toMatchObject({ value: 'accept', attributes: { samesite: 'Lax', path: '/', 'max-age': String(CONSENT_DAYS * 86_400) } });
    expect(set[CONSENT_COOKIE]!.attributes.httponly).toBeUndefined();
    expect(set.src!.attributes).toMatchObject({ httponly: true });
    expect(readAttribution(set.src!.value)).toEqual({ ...landing, tracking: { network: 'adnet', clickid: 'ck-2' } });
    // Another network's link later: the first is kept, no cookie written.
    const later = await land(visitor, '?network=other&clickid=zz');
    expect(later.set.src).toBeUndefined();
    expect(readAttribution(visitor.jar.get('src'))!.tracking).toEqual({ network: 'adnet', clickid: 'ck-2' });
    // Its signup (the page sends nothing) is the network's, and the network hears of it with its click id.
    const member = await signUp(rt(), 'spetter', {}, visitor);
    const row = await rt().db.db.selectFrom('users').select(['id', 'tracking']).where('email', '=', member.email).executeTakeFirstOrThrow();
    expect(JSON.parse(row.tracking!)).toEqual({ network: 'adnet', clickid: 'ck-2' });
    await until('the signup postback', () => signupsHeard(row.id).length === 1 || undefined, 30_000);
    expect(signupsHeard(row.id)[0]!.url).toContain('cid=ck-2');
  });

  test('refusing: no network parameter in any cookie, now or on later landers (a cookie from before loses its); the signup of the visit is still the network\'s, and posted back', async () => {
    const visitor = new Client(rt(), 'spetter');
    await land(visitor, '?network=adnet&clickid=ck-3&sub1=s-1');
    // A cookie written before consent was asked held the parameters: refusing drops them.
    const before = readAttribution(visitor.jar.get('src'))!;
    visitor.jar.set('src', writeAttribution({ ...before, tracking: { network: 'adnet', clickid: 'old' } }));
    const res = await visitor.post('/api/consent.php', { choice: 'refuse', tracking: { network: 'adnet', clickid: 'ck-3', sub1: 's-1' } });
    expect(res.status).toBe(200);
    const set = Object.fromEntries(setCookies(res).map((c) => [c.name, c]));
    expect(set[CONSENT_COOKIE]!.value).toBe('refuse');
    expect(readAttribution(set.src!.value)).toEqual(before);
    const later = await land(visitor, '?network=adnet&clickid=ck-4');
    expect(later.set.src).toBeUndefined();
    expect(readAttribution(visitor.jar.get('src'))!.tracking).toEqual({});
    // A lander visit without a choice also drops what an old cookie holds.
    const old = new Client(rt(), 'spetter');
    old.jar.set('src', writeAttribution({ seed: 'abcdef0123456789', tracking: { network: 'adnet' }, landing: null }));
    expect(readAttribution((await land(old)).set.src!.value)!.tracking).toEqual({});

    // The lander's link took the parameters to /signup?network=…, whose page sends them along.
    const member = await signUp(rt(), 'spetter', { tracking: { network: 'adnet', clickid: 'ck-3', sub1: 's-1' } }, visitor);
    const row = await rt().db.db.selectFrom('users').select(['id', 'tracking', 'lander']).where('email', '=', member.email).executeTakeFirstOrThrow();
    expect({ ...row, tracking: JSON.parse(row.tracking!) }).toEqual({ id: row.id, tracking: { network: 'adnet', clickid: 'ck-3', sub1: 's-1' }, lander: 'alonetonight' });
    await until('the signup postback', () => signupsHeard(row.id).length === 1 || undefined, 30_000);
    expect(signupsHeard(row.id)[0]!.url).toContain('cid=ck-3&s1=s-1&');
  });

  test('a choice that is neither, or text nobody types, is refused with the catalogue\'s message; nothing is written', async () => {
    const visitor = new Client(rt(), 'spetter');
    for (const body of [{ choice: 'maybe' }, { choice: 'accept', tracking: { network: 'a\u0001b' } }, { choice: 'accept', tracking: { sub1: 'x'.repeat(1001) } }]) {
      const res = await visitor.post('/api/consent.php', body);
      expect(res.status).toBe(400);
      expect(apiError(res).message.length).toBeGreaterThan(0);
      expect(setCookies(res)).toEqual([]);
    }
  });

  test('an attack of 40 hostile requests at once: only 2xx and 4xx, each refusal with its catalogue message and no cookie, no cookie ever for another host or brand', async () => {
    const port = rt().port;
    const json = (body: unknown) => JSON.stringify(body);
    const huge = 'x'.repeat(100_000);
    /** Each request: its body as sent, and the host, content type and other headers it goes with. */
    const attacks: { body: string; host?: string; type?: string; headers?: Record<string, string>; want?: number }[] = [
      // Wrong types.
      ...[1, true, null, ['accept'], {}, 'ACCEPT', 'accept\u0000', huge].map((choice) => ({ body: json({ choice }) })),
      ...['adnet', [1, 2], null, { network: 5 }, { clickid: { $ne: null } }].map((tracking) => ({ body: json({ choice: 'accept', tracking }) })),
      { body: json(['accept']) },
      { body: 'null' },
      { body: '"accept"' },
      // Huge strings.
      { body: json({ choice: 'accept', tracking: { network: 'n'.repeat(1001) } }) },
      { body: json({ choice: 'accept', tracking: { sub1: huge } }) },
      { body: json({ choice: 'refuse', tracking: { clickid: 'c'.repeat(3_000_000) } }) },
      { body: json({ choice: 'accept', [huge]: 1 }) },
      // Unknown fields, and the prototype.
      { body: json({ choice: 'accept', admin: true, tracking: { network: 'adnet', evil: 'x' } }) },
      { body: '{"choice":"accept","__proto__":{"choice":"refuse","polluted":1}}' },
      { body: '{"choice":"refuse","tracking":{"__proto__":{"network":"adnet"}}}' },
      { body: '{"choice":"accept","constructor":{"prototype":{"polluted":1}}}' },
      // Not JSON, or not what it says it is.
      { body: '{"choice":' },
      { body: '' },
      { body: `{"choice":"accept","tracking":${'['.repeat(5000)}${']'.repeat(5000)}}` },
      { body: 'choice=accept', type: 'application/x-www-form-urlencoded' },
      { body: json({ choice: 'accept' }), type: 'text/plain' },
      // Values no network sends: kept out of the cookie, or refused.
      { body: json({ choice: 'accept', tracking: { network: '<script>alert(1)</script>', ref: '\u202eevil' } }) },
      // Another brand's host, or a page of another brand calling.
      { body: json({ choice: 'accept' }), host: 'rijpedates', headers: { origin: `http://spetter.localhost:${port}` }, want: 403 },
      { body: json({ choice: 'accept' }), host: 'spetter', headers: { origin: `http://rijpedates.localhost:${port}` }, want: 403 },
      { body: json({ choice: 'refuse' }), host: 'velvet', headers: { 'sec-fetch-site': 'cross-site' }, want: 403 },
      { body: json({ choice: 'accept' }), host: 'spetter', headers: { origin: 'null' }, want: 403 },
      { body: json({ choice: 'accept', tracking: { network: 'adnet' } }), host: 'rijpedates', headers: { origin: `http://rijpedates.localhost:${port}` }, want: 200 },
      { body: json({ choice: 'accept' }), host: 'evil.example', headers: { host: 'evil.example' } },
      { body: json({ choice: 'accept' }), host: 'spetter', headers: { host: `spetter.localhost:${port}`, 'x-forwarded-host': 'rijpedates.localhost' } },
      // Cookies that are not what the runtime wrote.
      { body: json({ choice: 'accept', tracking: { network: 'adnet' } }), headers: { cookie: 'src=%E0%A4%A; src_consent=maybe' } },
      { body: json({ choice: 'refuse' }), headers: { cookie: `src=${'z'.repeat(4000)}` } },
      { body: json({ choice: 'accept' }), host: 'velvet', headers: { cookie: 'src_consent=accept; src_consent=refuse' } },
    ];
    expect(attacks).toHaveLength(40);
    // Every message of the catalogue, in every language: a refusal says one of them.
    const catalogue = new Set(catalogueLocales().flatMap((locale) => ['error_bad_request', 'error_payload_too_large', 'error_origin', 'error_unsupported_media_type', 'error_too_many_requests'].map((key) => { try { return message(key, locale); } catch { return ''; } })));
    const answers = await Promise.all(
      attacks.map(async (a, i) => {
        const headers: Record<string, string> = { 'content-type': a.type ?? 'application/json', 'x-forwarded-for': `10.23.${Math.floor(i / 200)}.${1 + (i % 200)}`, ...a.headers };
        const res = await hostFetch(rt(), a.host ?? 'spetter', '/api/consent.php', { method: 'POST', headers, body: a.body });
        return { attack: `#${i} ${a.host ?? 'spetter'} ${a.body.slice(0, 80)}`, want: a.want, res };
      }),
    );
    for (const { attack, want, res } of answers) {
      expect(res.status, attack).toBeLessThan(500);
      // A page of another brand, or one saying it is not this site's, is refused; the brand's own page is not.
      if (want) expect(res.status, attack).toBe(want);
      const cookies = setCookies(res);
      // A cookie is the host's own, always: never one for a domain, another brand's or a parent.
      for (const cookie of cookies) {
        expect(cookie.attributes.domain, attack).toBeUndefined();
        expect(['src', CONSENT_COOKIE], attack).toContain(cookie.name);
      }
      if (res.status >= 400) {
        expect(catalogue, `${attack}: ${res.text.slice(0, 200)}`).toContain(apiError(res).message);
        expect(cookies, attack).toEqual([]);
      } else {
        expect(res.status, attack).toBe(200);
        const { consent } = res.json();
        expect(cookies.find((c) => c.name === CONSENT_COOKIE)?.value, attack).toBe(consent);
        // Nothing a network would not send reaches the attribution cookie.
        const src = cookies.find((c) => c.name === 'src');
        if (src) expect(Object.values(readAttribution(src.value)?.tracking ?? {}).every((v) => /^[\w.~-]{1,200}$/.test(String(v))), attack).toBe(true);
      }
    }
    expect(({}) as Record<string, unknown>).not.toHaveProperty('polluted');
  });
});
