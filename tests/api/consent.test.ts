/**
 * The consent choice on landers (issue 23, docs/API.md "Consent"), on every engine: which cookies
 * a lander writes without network parameters, with them before any choice, after accepting and
 * after refusing; that a refused (or not yet asked) visitor's signup is still credited to the
 * network through the signup's own parameters, and its postback is sent; and that nothing of a
 * hostile parameter reaches the page.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { engines } from '../support/runtime.ts';
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
});
