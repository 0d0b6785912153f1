/**
 * Payments through Mollie (docs/API.md "Payments"), on every engine, against a local stand-in of
 * Mollie's API through @mollie/api-client: a brand set to Mollie pays at Mollie's checkout, and
 * its webhook carries only an id, so nothing moves until Mollie itself says paid.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { activeMember, useRuntime } from '../support/accounts.ts';
import { useMollieBrand } from '../support/mollie-stand-in.ts';
import { spend } from '../../src/server/ledger.ts';

const brand = useMollieBrand('spetter');
const { tenantsDir } = brand;
const KEY_ENV = brand.keyEnv;
const mollie = brand.mollie;

async function buyer(rt: TestRuntime) {
  const m = await activeMember(rt, 'spetter', { gender: 'male', sexuality: 'hetero' });
  const user = await m.client.user();
  return { ...m, userId: user.id as number, startCredits: user.credits as number };
}
const webhook = (rt: TestRuntime, id: string) =>
  hostFetch(rt, 'spetter', '/api/payment-webhook.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${encodeURIComponent(id)}` });
const credits = async (rt: TestRuntime, userId: number) => (await rt.db.db.selectFrom('users').select(['credits', 'paid_user']).where('id', '=', userId).executeTakeFirstOrThrow());

describe.each(engines())('Mollie on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ tenantsDir }));

  test('a payment goes to Mollie with the amount, method, webhook and key; only Mollie\'s "paid" credits, once', async () => {
    const bob = await buyer(rt());
    const started = await bob.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'TIMEBONUS25' });
    expect(started.status).toBe(200);
    const { payment, checkout_url } = started.json();
    expect(checkout_url).toMatch(/^https:\/\/www\.mollie\.com\/checkout\/select-method\/tr_\w+$/);
    const sent = mollie().requests.filter((r) => r.method === 'POST' && r.path === '/v2/payments').at(-1)!;
    expect(sent.authorization).toBe('Bearer test_standinkey');
    expect(sent.body).toMatchObject({ amount: { currency: 'EUR', value: '11.24' }, method: 'ideal', webhookUrl: expect.stringMatching(/\/api\/payment-webhook\.php$/), redirectUrl: expect.stringMatching(new RegExp(`/credits/starter/ideal\\?payment=${payment.payment_id}$`)) });
    const providerId = checkout_url.split('/').pop()!;

    // Open at Mollie: the webhook changes nothing.
    expect((await webhook(rt(), providerId)).status).toBe(200);
    expect(await credits(rt(), bob.userId)).toMatchObject({ credits: bob.startCredits, paid_user: 0 });
    mollie().setStatus(providerId, 'paid');
    const replays = await Promise.all(Array.from({ length: 20 }, () => webhook(rt(), providerId)));
    expect(replays.every((r) => r.status === 200)).toBe(true);
    expect(await credits(rt(), bob.userId)).toMatchObject({ credits: bob.startCredits + 50, paid_user: 1 });
    expect((await bob.client.get(`/api/payment.php?id=${payment.payment_id}`)).json().payment.status).toBe('paid');
  });

  test('failed, canceled and expired add nothing; authorized is still pending; an id Mollie does not know is 404; the test checkout is not there', async () => {
    const bob = await buyer(rt());
    for (const status of ['failed', 'canceled', 'expired', 'authorized'] as const) {
      const { payment, checkout_url } = (await bob.client.post('/api/payment.php', { package_id: 'starter', method: 'creditcard' })).json();
      mollie().setStatus(checkout_url.split('/').pop()!, status);
      await webhook(rt(), checkout_url.split('/').pop()!);
      expect((await bob.client.get(`/api/payment.php?id=${payment.payment_id}`)).json().payment.status).toBe(status === 'authorized' ? 'pending' : status);
    }
    expect(await credits(rt(), bob.userId)).toMatchObject({ credits: bob.startCredits, paid_user: 0 });
    expect((await webhook(rt(), 'tr_unknown123')).status).toBe(404);
    // A payment the runtime started but Mollie forgot: 404, nothing changes.
    const { checkout_url } = (await bob.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' })).json();
    mollie().payments.delete(checkout_url.split('/').pop()!);
    expect((await webhook(rt(), checkout_url.split('/').pop()!)).status).toBe(404);
    expect((await hostFetch(rt(), 'spetter', '/api/test-checkout.php?id=tst_000000000000000000000000')).status).toBe(404);
    const post = await hostFetch(rt(), 'spetter', '/api/test-checkout.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'id=tst_000000000000000000000000&outcome=paid' });
    expect(post.status).toBe(404);
  });

  test('a card purchase saves the card at Mollie; the repeat order is a recurring payment on it; direct debit makes a SEPA mandate', async () => {
    mollie().recurringStatus = 'paid';
    const bob = await buyer(rt());
    const { checkout_url } = (await bob.client.post('/api/payment.php', { package_id: 'popular', method: 'visa' })).json();
    const first = mollie().payments.get(checkout_url.split('/').pop()!)!;
    expect(first).toMatchObject({ sequenceType: 'first', method: 'creditcard', customerId: expect.stringMatching(/^cst_/) });
    // Mollie: the paid first payment leaves a card mandate.
    mollie().setStatus(first.id as string, 'paid');
    mollie().mandates.set('mdt_card1', { resource: 'mandate', id: 'mdt_card1', mode: 'test', status: 'valid', method: 'creditcard', details: { cardHolder: 'B', cardNumber: '6787', cardLabel: 'Mastercard', cardFingerprint: 'x', cardExpiryDate: '2029-11-30' }, mandateReference: null, signatureDate: '2026-11-25', createdAt: new Date().toISOString(), customerId: first.customerId, _links: {} });
    await webhook(rt(), first.id as string);
    const offer = (await bob.client.get('/api/repeat-order.php')).json().repeat_order;
    expect(offer.card).toMatchObject({ id: 'mdt_card1', label: 'Mastercard •••• 6787, 11/2029' });
    const repeated = (await bob.client.post('/api/repeat-order.php', {})).json();
    expect(repeated.payment.status).toBe('paid');
    expect(mollie().payments.get([...mollie().payments.keys()].at(-1)!)).toMatchObject({ sequenceType: 'recurring', mandateId: 'mdt_card1', customerId: first.customerId });
    expect((await credits(rt(), bob.userId)).credits).toBe(bob.startCredits + 250);
    expect((await bob.client.delete('/api/saved-card.php')).status).toBe(200);
    expect(mollie().mandates.get('mdt_card1')!.status).toBe('invalid');

    // Direct debit: the SMS code, then a directdebit mandate and a recurring payment (pending at Mollie until collected).
    mollie().recurringStatus = 'pending';
    const { order } = (await bob.client.post('/api/directdebit.php', { package_id: 'starter', holder: 'B. Bakker', iban: 'NL91ABNA0417164300', street: 'Dam', house_number: '1', postcode: '1012 JS', city: 'Amsterdam', mobile: '+31612345678', consent: true })).json();
    const dir = join(rt().outbox, 'sms');
    const text = readFileSync(join(dir, readdirSync(dir).sort().at(-1)!), 'utf8');
    const confirmed = await bob.client.post('/api/directdebit.php?confirm=1', { order_id: order.id, code: /\b(\d{6})\b/.exec(text)![1] });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json().payment).toMatchObject({ status: 'pending', method: 'sdd', amount: 1499 });
    const mandate = [...mollie().mandates.values()].find((x) => x.method === 'directdebit' && x.customerId === first.customerId)!;
    expect(mandate).toMatchObject({ customerId: first.customerId, details: { consumerName: 'B. Bakker', consumerAccount: 'NL91ABNA0417164300' } });
    const sdd = mollie().payments.get([...mollie().payments.keys()].at(-1)!)!;
    expect(sdd).toMatchObject({ sequenceType: 'recurring', method: 'directdebit', mandateId: mandate.id, amount: { value: '14.99', currency: 'EUR' } });
    mollie().setStatus(sdd.id as string, 'paid');
    await webhook(rt(), sdd.id as string);
    expect((await credits(rt(), bob.userId)).credits).toBe(bob.startCredits + 300);
  });

  test('a refund or chargeback at Mollie takes the credits back in proportion, once, as far as they are left; a direct debit charged back blocks direct debit', async () => {
    const ann = await buyer(rt());
    const buy = async () => {
      const { checkout_url } = (await ann.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' })).json();
      const id = checkout_url.split('/').pop()!;
      mollie().setStatus(id, 'paid');
      await webhook(rt(), id);
      return id;
    };
    const first = await buy();
    expect((await credits(rt(), ann.userId)).credits).toBe(ann.startCredits + 50);
    // Half refunded (7.50 of 14.99): 25 of the 50 credits go back, however often Mollie calls.
    mollie().giveBack(first, { refunded: 750 });
    await Promise.all(Array.from({ length: 5 }, () => webhook(rt(), first)));
    expect((await credits(rt(), ann.userId)).credits).toBe(ann.startCredits + 50 - 25);
    // The rest charged back by the bank after the member spent most credits: what is left goes.
    await spend(rt().db.db, { userId: ann.userId, credits: ann.startCredits + 20, reason: 'message', ref: `m-${ann.userId}` });
    mollie().giveBack(first, { chargedBack: 749 });
    await webhook(rt(), first);
    expect((await credits(rt(), ann.userId)).credits).toBe(0);
    const ledger = await rt().db.db.selectFrom('credit_ledger').select(['delta', 'reason']).where('user_id', '=', ann.userId).orderBy('id').execute();
    expect(ledger.filter((e) => e.reason === 'refund').map((e) => e.delta)).toEqual([-25, -5]);
    expect(ledger.reduce((n, e) => n + e.delta, 0)).toBe(0);
    expect((await ann.client.get('/api/directdebit.php')).json().blocked).toBe(false); // a card, not a direct debit

    // Refunded in full before the first webhook came through: credited and taken back at once.
    const { checkout_url: late } = (await ann.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' })).json();
    const lateId = late.split('/').pop()!;
    mollie().setStatus(lateId, 'paid');
    mollie().giveBack(lateId, { refunded: 1499 });
    await Promise.all([webhook(rt(), lateId), webhook(rt(), lateId)]);
    expect((await credits(rt(), ann.userId)).credits).toBe(0);

    // A direct debit charged back: the credits go and direct debit is blocked for the member.
    mollie().recurringStatus = 'paid';
    const { order } = (await ann.client.post('/api/directdebit.php', { package_id: 'starter', holder: 'A. Smit', iban: 'NL91ABNA0417164300', street: 'Dam', house_number: '2', postcode: '1012 JS', city: 'Amsterdam', mobile: '+31612345679', consent: true })).json();
    const dir = join(rt().outbox, 'sms');
    const text = readFileSync(join(dir, readdirSync(dir).sort().at(-1)!), 'utf8');
    expect((await ann.client.post('/api/directdebit.php?confirm=1', { order_id: order.id, code: /\b(\d{6})\b/.exec(text)![1] })).status).toBe(200);
    expect((await credits(rt(), ann.userId)).credits).toBe(50);
    const sdd = [...mollie().payments.keys()].at(-1)!;
    mollie().giveBack(sdd, { chargedBack: 1499 });
    await webhook(rt(), sdd);
    expect((await credits(rt(), ann.userId)).credits).toBe(0);
    expect((await ann.client.get('/api/directdebit.php')).json().blocked).toBe(true);
  });
});

describe('a brand on Mollie without its key', () => {
  const rt = useRuntime('sqlite', () => ({ tenantsDir }));
  test('cannot take payments (503), and never falls back to test money', async () => {
    const bob = await buyer(rt());
    const saved = process.env[KEY_ENV];
    delete process.env[KEY_ENV];
    try {
      const res = await bob.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' });
      expect(res.status).toBe(503);
      expect(await rt().db.db.selectFrom('payments').select('id').where('user_id', '=', bob.userId).execute()).toEqual([]);
    } finally {
      process.env[KEY_ENV] = saved;
    }
  });
});
