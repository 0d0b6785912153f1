/**
 * Server-to-server postbacks to affiliate networks (issue 23, docs/API.md "Postbacks"), against a
 * local HTTP receiver started here: a member's signup, activation, first purchase, purchases, a
 * refund and a chargeback are posted to the network the member came from, once each, with the
 * macros filled and URL-encoded; a 500 is retried with backoff and each attempt logged; the
 * console lists the attempts (credentials hidden) and resends one, audited; and on PostgreSQL
 * two runtime processes that both see a payment post it once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { tenantsWith } from '../support/tenants.ts';
import { activeMember, signUp, useRuntime } from '../support/accounts.ts';
import { useMollieStandIn } from '../support/mollie-stand-in.ts';
import { staffLogin } from '../support/console.ts';
import { startReceiver, type Received } from '../support/receiver.ts';
import { useTwoProcesses } from '../support/serve-process.ts';
import { until } from '../support/sse.ts';
import { createDb } from '../../src/server/db/index.ts';
import { TRACKING_KEYS } from '../../src/contract/enums.ts';
import { POSTBACK_EVENTS } from '../../src/lib/postbacks.ts';

const KEY_ENV = 'MOLLIE_KEY_SPETTER_POSTBACKS';
const mollie = useMollieStandIn(KEY_ENV);
/** Members whose first purchase postback the network answers with 500 (once); everything else 200. */
const failOnce = new Set<string>();
const receiver = await startReceiver((r) => {
  const member = new URL(r.url, 'http://x').searchParams.get('m') ?? '';
  return r.url.startsWith('/adnet/purchase?') && failOnce.delete(member) ? 500 : 200;
});
afterAll(() => receiver.close());

const TEMPLATE = '/{event}?cid={clickid}&s1={sub1}&s2={sub2}&s3={sub3}&payout={payout}&cur={currency}&tx={txid}&m={member_id}&token=s3cret';
const postbacks = [
  { network: 'adnet', url: `${receiver.base}/adnet${TEMPLATE}`, events: [...POSTBACK_EVENTS] },
  { network: 'othernet', url: `${receiver.base}/othernet/{event}?tx={txid}`, events: ['purchase'] },
];
const tenants = tenantsWith({ spetter: { payments: { provider: 'mollie', mollie_api_key_env: KEY_ENV }, postbacks } });
afterAll(() => tenants.remove());

/** Tracking values a network may send: spaces, &, =, /, #, ?, % and accents must arrive as sent. */
const TRACKING = { network: 'adnet', sub1: 'a b&c=d/é', sub2: '#x?y', sub3: '100%', clickid: 'CL1+2' };
/** The click id is kept where the signup keeps it (TRACKING_KEYS, issue 23's attribution). */
const CLICKID = (TRACKING_KEYS as readonly string[]).includes('clickid') ? TRACKING.clickid : '';

const webhook = (rt: TestRuntime, tenant: string, id: string) =>
  hostFetch(rt, tenant, '/api/payment-webhook.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${encodeURIComponent(id)}` });

/** The requests of one network and event. */
const heard = (network: string, event: string, received: Received[] = receiver.received) => received.filter((r) => r.url.startsWith(`/${network}/${event}?`) || r.url === `/${network}/${event}`);

describe.each(engines())('postbacks on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ tenantsDir: tenants.dir, jobs: true, config: { postbackRetrySeconds: 1 } }));

  test('a member from a network: each event posted once with its macros filled and URL-encoded; a 500 is retried and every attempt logged', async () => {
    const start = receiver.received.length;
    const mine = () => receiver.received.slice(start);
    const member = await activeMember(rt(), 'spetter', { tracking: TRACKING });
    const userId = (await member.client.user()).id as number;
    failOnce.add(String(userId));
    // Nobody else's events: a member without a source, and one of a network without postbacks.
    await activeMember(rt(), 'spetter');
    await signUp(rt(), 'spetter', { tracking: { network: 'quietnet' } });

    const buy = async () => {
      const { payment, checkout_url } = (await member.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' })).json();
      const id = (checkout_url as string).split('/').pop()!;
      mollie().setStatus(id, 'paid');
      await webhook(rt(), 'spetter', id);
      return { paymentId: payment.payment_id as number, id };
    };
    const first = await buy();
    const second = await buy();
    mollie().giveBack(first.id, { refunded: 500 });
    await webhook(rt(), 'spetter', first.id);
    mollie().giveBack(second.id, { chargedBack: 1499 });
    await webhook(rt(), 'spetter', second.id);

    // Signup, activation, the first purchase, two purchases (the first answered 500, then again), a refund, a chargeback; othernet hears nothing of an adnet member.
    await until('every postback delivered', () => mine().filter((r) => r.url.startsWith('/adnet/')).length === 8 && heard('adnet', 'purchase', mine()).length === 3, 30_000);
    const query = (r: Received): Record<string, string> => Object.fromEntries(new URL(r.url, receiver.base).searchParams);
    const expected = (event: string, payout: string, currency: string, tx: number) => ({ cid: CLICKID, s1: TRACKING.sub1, s2: TRACKING.sub2, s3: TRACKING.sub3, payout, cur: currency, tx: String(tx), m: String(userId), token: 's3cret', event });
    const got = (event: string): Record<string, string>[] => heard('adnet', event, mine()).map((r) => ({ ...query(r), event }));
    expect(got('signup')).toEqual([expected('signup', '', '', userId)]);
    expect(got('activation')).toEqual([expected('activation', '', '', userId)]);
    expect(got('first_purchase')).toEqual([expected('first_purchase', '14.99', 'EUR', first.paymentId)]);
    // The first payment's purchase twice (500, then again), the second's once; the retry may come after the second.
    expect(got('purchase').sort((x, y) => Number(x.tx) - Number(y.tx))).toEqual([first, first, second].map((p) => expected('purchase', '14.99', 'EUR', p.paymentId)));
    expect(got('refund')).toEqual([expected('refund', '5.00', 'EUR', first.paymentId)]);
    expect(got('chargeback')).toEqual([expected('chargeback', '14.99', 'EUR', second.paymentId)]);
    // Encoded as sent, not only decodable: nothing of a value reads as a new parameter or path.
    expect(heard('adnet', 'signup', mine())[0]!.url).toContain(`s1=${encodeURIComponent(TRACKING.sub1)}&s2=${encodeURIComponent(TRACKING.sub2)}&s3=${encodeURIComponent(TRACKING.sub3)}&`);
    expect(mine().filter((r) => r.url.startsWith('/othernet/'))).toEqual([]);

    // The console's log: every attempt with its answer; the first purchase's 500, then its 200.
    const { client } = await staffLogin(rt(), 'finance');
    await until('the retried purchase logged as sent', async () => {
      const log = (await client.get('/api/console/postbacks?brand=spetter')).json();
      return log.attempts.some((a: { event: string; status_code: number }) => a.event === 'purchase' && a.status_code === 200) || undefined;
    }, 30_000);
    const log = (await client.get('/api/console/postbacks?brand=spetter')).json();
    const ofMember = log.attempts.filter((a: { member_id: number }) => a.member_id === userId);
    expect(ofMember).toHaveLength(8);
    const purchases = ofMember.filter((a: { event: string }) => a.event === 'purchase').reverse();
    expect(purchases.map((a: { status_code: number; status: string }) => a.status_code)).toEqual([500, 200, 200]);
    for (const a of ofMember) {
      expect(a).toMatchObject({ brand: 'spetter', network: 'adnet', status: 'sent', resend: false });
      expect(a.url).toContain('token=***');
      expect(a.url).not.toContain('s3cret');
      expect(Date.parse(a.at)).toBeGreaterThan(0);
    }
    expect(log.config).toEqual([{ brand: 'spetter', postbacks: postbacks.map((p) => ({ ...p, url: p.url.replace('token=s3cret', 'token=***') })) }]);
    const csv = await client.get('/api/console/postbacks?brand=spetter&format=csv');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text.split('\r\n')[0]).toBe('\uFEFFat,brand,event,network,member_id,url,answer,error,duration_ms,resend,postback_id,postback_status');
    expect(csv.text.split('\r\n').filter((line) => line.includes(`,adnet,${userId},`)).length).toBe(8);
    expect(csv.text).not.toContain('s3cret');
  });

  test('staff resend a postback through the queue, audited; a brand outside their scope cannot', async () => {
    const member = await signUp(rt(), 'spetter', { tracking: { network: 'adnet' } });
    const userId = member.user.id as number;
    const row = await until('the signup postback sent', () =>
      rt().db.db.selectFrom('postbacks').selectAll().where('user_id', '=', userId).where('event', '=', 'signup').where('status', '=', 'sent').executeTakeFirst(), 30_000);
    const before = heard('adnet', 'signup').length;
    const outsider = await staffLogin(rt(), 'finance', ['velvet']);
    expect((await outsider.client.post(`/api/console/postbacks/${row.id}/resend`)).status).toBe(404);
    expect((await outsider.client.get('/api/console/postbacks')).text).not.toContain('spetter');
    expect((await outsider.client.get('/api/console/postbacks?format=csv')).text).not.toContain('spetter');
    const { client, id: staffId } = await staffLogin(rt(), 'owner');
    const res = await client.post(`/api/console/postbacks/${row.id}/resend`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ queued: true });
    await until('the signup posted again', () => heard('adnet', 'signup').length === before + 1, 30_000);
    const attempts = await until('the resend logged', async () => {
      const rows = await rt().db.db.selectFrom('postback_attempts').selectAll().where('postback_id', '=', row.id).orderBy('id').execute();
      return rows.length === 2 ? rows : undefined;
    }, 30_000);
    expect(attempts.map((a) => [a.status_code, a.resend])).toEqual([[200, 0], [200, 1]]);
    const entry = await rt().db.db.selectFrom('audit_log').selectAll().where('action', '=', 'postback_resend').where('staff_id', '=', staffId).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ brand: 'spetter', object_type: 'postback', object_id: String(row.id) });
    for (const bad of ['0', 'abc', '99999999999']) expect((await client.post(`/api/console/postbacks/${bad}/resend`)).status, bad).toBe(400);
    expect((await client.post('/api/console/postbacks/2147483647/resend')).status).toBe(404);
  });

  test('an event recorded twice (two runtimes seeing it) is one postback per network', async () => {
    const member = await signUp(rt(), 'spetter', { tracking: { network: 'adnet' } });
    const userId = member.user.id as number;
    const occurrence = { tenantId: 'spetter', userId, event: 'purchase' as const, key: `purchase:test-${userId}`, payout: 100, currency: 'EUR', txid: 1 };
    const [one, two] = await Promise.all([0, 1].map(() => rt().db.db.transaction().execute((trx) => rt().services.postbacks.record(trx, occurrence))));
    expect([...one!, ...two!]).toHaveLength(1);
    expect(await rt().services.postbacks.record(rt().db.db, occurrence)).toEqual([]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('postbacks of two runtime processes on one PostgreSQL database', () => {
  // The built-in test provider in both processes (the Mollie stand-in lives in this one).
  const shared = tenantsWith({ spetter: { postbacks } });
  afterAll(() => shared.remove());
  const { schema, a, b, view } = useTwoProcesses('postbacks', () => ({ TENANTS_DIR: shared.dir }));

  test('a payment whose webhook reaches both processes, many times at once, is posted once per event', async () => {
    const start = receiver.received.length;
    const member = await activeMember(view(a), 'spetter', { tracking: { network: 'adnet', sub1: `two-${schema}` } });
    const { checkout_url } = (await member.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' })).json();
    const id = new URL(checkout_url, 'http://x').searchParams.get('id')!;
    const decided = await hostFetch(view(a), 'spetter', '/api/test-checkout.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${id}&outcome=paid` });
    expect(decided.status).toBe(303);
    await Promise.all([a, b].flatMap((p) => Array.from({ length: 5 }, () => webhook(view(p), 'spetter', id))));

    // Wait until the database says every postback of the member went out; then count what the network heard.
    const db = createDb({ url: process.env.DATABASE_URL!, schema });
    try {
      const rows = await until('the member\'s postbacks sent', async () => {
        const all = await db.db.selectFrom('postbacks').select(['event', 'status']).where('url', 'like', `%two-${schema}%`).execute();
        return all.length === 4 && all.every((r) => r.status === 'sent') ? all : undefined;
      }, 60_000);
      expect(rows.map((r) => r.event).sort()).toEqual(['activation', 'first_purchase', 'purchase', 'signup']);
    } finally {
      await db.close();
    }
    const mine = receiver.received.slice(start).filter((r) => r.url.includes(`two-${schema}`));
    expect(mine.map((r) => r.url.split('?')[0]).sort()).toEqual(['/adnet/activation', '/adnet/first_purchase', '/adnet/purchase', '/adnet/signup']);
  }, 120_000);
});
