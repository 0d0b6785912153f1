/**
 * Behind a proxy (TRUST_PROXY, issue 20): the headers as nginx builds them. A client writes an
 * X-Forwarded-For of its own and nginx (proxy_add_x_forwarded_for) appends the address it saw, so
 * the visitor is the nearest hop that is not a trusted proxy: the per-address limits hold however
 * the client varies what it wrote. X-Forwarded-Proto and country headers count only from a trusted
 * peer; sessions keep the visitor's address; a payment's return and webhook addresses are the
 * brand's own, whatever Host the request came with.
 */
import { describe, expect, test } from 'vitest';
import { randomInt } from 'node:crypto';
import { ABUSE_LIMITS, LOGIN_ATTEMPTS_PER_IP } from '../../src/server/services/accounts.ts';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { Client, activeMember, signupBody, useRuntime } from '../support/accounts.ts';

/** An address the client makes up, a new one each call. */
const spoofed = () => `${randomInt(1, 224)}.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
let addresses = 0;
/** A client's real address, a new one each call (a documentation range: no country). */
const realAddress = () => `203.0.113.${++addresses}`;

/** A browser whose every request carries X-Forwarded-For as the proxies in front wrote it. */
function behindProxies(rt: TestRuntime, forwardedFor: () => string): Client {
  const client = new Client(rt, 'spetter');
  const request = client.request.bind(client);
  client.request = (method, path, body, headers = {}) => request(method, path, body, { 'x-forwarded-for': forwardedFor(), ...headers });
  return client;
}

async function signupStatuses(rt: TestRuntime, forwardedFor: () => string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < ABUSE_LIMITS.signupsPerIpHour + 1; i++) {
    statuses.push((await behindProxies(rt, forwardedFor).post('/api/signup.php', signupBody())).status);
  }
  return statuses;
}

const sessionAddresses = async (rt: TestRuntime, userId: number) =>
  (await rt.db.db.selectFrom('sessions').select('ip').where('user_id', '=', userId).execute()).map((s) => s.ip);

describe.each(engines())('behind a proxy on %s', (engine) => {
  describe('TRUST_PROXY=1 (one nginx in front)', () => {
    const rt = useRuntime(engine);

    test('the signup limit holds when the client varies the first X-Forwarded-For entry', async () => {
      const real = realAddress();
      expect(await signupStatuses(rt(), () => `${spoofed()}, ${real}`)).toEqual([...Array(ABUSE_LIMITS.signupsPerIpHour).fill(201), 429]);
    });

    test('the login limit per address holds when the client varies the first X-Forwarded-For entry', async () => {
      const real = realAddress();
      const client = behindProxies(rt(), () => `${spoofed()}, ${real}`);
      const statuses: number[] = [];
      for (let i = 0; i < LOGIN_ATTEMPTS_PER_IP + 1; i++) statuses.push((await client.login(`niemand-${i}@example.org`, 'fout-wachtwoord-1')).status);
      expect(statuses.slice(0, LOGIN_ATTEMPTS_PER_IP)).toEqual(Array(LOGIN_ATTEMPTS_PER_IP).fill(401));
      expect(statuses[LOGIN_ATTEMPTS_PER_IP]).toBe(429);
    });

    test('the password-reset limit holds when the client varies the first X-Forwarded-For entry', async () => {
      const real = realAddress();
      const client = behindProxies(rt(), () => `${spoofed()}, ${real}`);
      const statuses: number[] = [];
      for (let i = 0; i < ABUSE_LIMITS.resetLookupsPerIpHour + 1; i++) statuses.push((await client.post('/api/reset-password.php', { email: `niemand-${i}@example.org` })).status);
      expect(statuses).toEqual([...Array(ABUSE_LIMITS.resetLookupsPerIpHour).fill(404), 429]);
    });

    test('a session keeps the address the proxy saw, not the proxy\'s nor the one the client wrote', async () => {
      const real = realAddress();
      const client = behindProxies(rt(), () => `${spoofed()}, ${real}`);
      const body = signupBody();
      expect((await client.post('/api/signup.php', body)).status).toBe(201);
      const { id } = await client.user();
      // A login from another browser behind the same proxy.
      expect((await behindProxies(rt(), () => `${spoofed()}, ${real}`).login(body.email, body.password)).status).toBe(200);
      expect(await sessionAddresses(rt(), id)).toEqual([real, real]);
    });

    test('the scheme and country of the proxy in front are believed', async () => {
      const origin = `https://spetter.localhost:${rt().port}`;
      const logout = await hostFetch(rt(), 'spetter', '/api/logout.php', { method: 'POST', headers: { origin, 'x-forwarded-proto': 'https' } });
      expect(logout.status).toBe(200);
      const settings = await hostFetch(rt(), 'spetter', '/api/settings.php', { headers: { 'x-forwarded-for': realAddress(), 'x-country-code': 'BE' } });
      expect(String(settings.headers['set-cookie'] ?? '')).toMatch(/\bcountry=BE\b/);
    });

    test('a payment started through a foreign Host returns to and is called back at the brand\'s domain', async () => {
      const { client } = await activeMember(rt(), 'spetter');
      const urls = async (headers: Record<string, string>) => {
        const res = await client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' }, headers);
        expect(res.status).toBe(200);
        const id = new URL(res.json().checkout_url, 'http://x').searchParams.get('id')!;
        return rt().db.db.selectFrom('test_checkouts').select(['redirect_url', 'webhook_url']).where('id', '=', id).executeTakeFirstOrThrow();
      };
      // A host that names no brand reaches the default brand (spetter), but is not its address.
      const foreign = await urls({ host: `evil.example:${rt().port}` });
      expect(foreign.redirect_url).toMatch(/^http:\/\/spetter\.nl\/credits\/starter\/ideal\?payment=\d+$/);
      expect(foreign.webhook_url).toBe('http://spetter.nl/api/payment-webhook.php');
      // The brand's own address as the browser reached it, with the scheme the proxy says.
      const own = await urls({ 'x-forwarded-proto': 'https' });
      expect(own.webhook_url).toBe(`https://spetter.localhost:${rt().port}/api/payment-webhook.php`);
    });
  });

  describe('TRUST_PROXY=2 (a load balancer and nginx)', () => {
    const rt = useRuntime(engine, () => ({ config: { trustProxy: 2 } }));

    test('the signup limit holds and the session keeps the address two hops in', async () => {
      const real = realAddress();
      expect(await signupStatuses(rt(), () => `${spoofed()}, ${real}, 10.0.0.7`)).toEqual([...Array(ABUSE_LIMITS.signupsPerIpHour).fill(201), 429]);
      const other = realAddress();
      const client = behindProxies(rt(), () => `${spoofed()}, ${other}, 10.0.0.7`);
      expect((await client.post('/api/signup.php', signupBody())).status).toBe(201);
      expect(await sessionAddresses(rt(), (await client.user()).id)).toEqual([other]);
    });
  });

  describe('TRUST_PROXY as the proxies\' addresses (loopback and 10.0.0.0/8)', () => {
    const rt = useRuntime(engine, () => ({ config: { trustProxy: ['127.0.0.1/8', '::1', '10.0.0.0/8'] } }));

    test('the reset and signup limits hold: the visitor is the nearest address that is not a proxy', async () => {
      const real = realAddress();
      const client = behindProxies(rt(), () => `${spoofed()}, ${real}, 10.${randomInt(0, 256)}.0.1`);
      const statuses: number[] = [];
      for (let i = 0; i < ABUSE_LIMITS.resetLookupsPerIpHour + 1; i++) statuses.push((await client.post('/api/reset-password.php', { email: `niemand-${i}@example.org` })).status);
      expect(statuses).toEqual([...Array(ABUSE_LIMITS.resetLookupsPerIpHour).fill(404), 429]);
      const signupFrom = realAddress();
      expect(await signupStatuses(rt(), () => `${spoofed()}, ${signupFrom}, 10.1.1.1`)).toEqual([...Array(ABUSE_LIMITS.signupsPerIpHour).fill(201), 429]);
    });
  });

  describe('a peer that is not a trusted proxy (TRUST_PROXY=10.0.0.0/8, the request from 127.0.0.1)', () => {
    const rt = useRuntime(engine, () => ({ config: { trustProxy: ['10.0.0.0/8'] } }));

    test('its X-Forwarded-Proto is ignored by the Origin check and the payment addresses', async () => {
      const headers = { 'x-forwarded-proto': 'https' };
      const https = await hostFetch(rt(), 'spetter', '/api/logout.php', { method: 'POST', headers: { ...headers, origin: `https://spetter.localhost:${rt().port}` } });
      expect(https.status).toBe(403);
      expect(https.json().error.code).toBe('forbidden_origin');
      const http = await hostFetch(rt(), 'spetter', '/api/logout.php', { method: 'POST', headers: { ...headers, origin: `http://spetter.localhost:${rt().port}` } });
      expect(http.status).toBe(200);

      const { client } = await activeMember(rt(), 'spetter');
      const res = await client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' }, headers);
      expect(res.status).toBe(200);
      const id = new URL(res.json().checkout_url, 'http://x').searchParams.get('id')!;
      const row = await rt().db.db.selectFrom('test_checkouts').select('webhook_url').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.webhook_url).toBe(`http://spetter.localhost:${rt().port}/api/payment-webhook.php`);
    });

    test('its country header and X-Forwarded-For are ignored: the address is the peer\'s', async () => {
      const settings = await hostFetch(rt(), 'spetter', '/api/settings.php', { headers: { 'x-forwarded-for': '194.109.6.66', 'x-country-code': 'BE', 'cf-ipcountry': 'BE' } });
      expect(settings.status).toBe(200);
      expect(String(settings.headers['set-cookie'] ?? '')).not.toMatch(/\bcountry=/);
      const client = behindProxies(rt(), () => '194.109.6.66');
      expect((await client.post('/api/signup.php', signupBody())).status).toBe(201);
      expect(await sessionAddresses(rt(), (await client.user()).id)).toEqual(['127.0.0.1']);
    });
  });
});
