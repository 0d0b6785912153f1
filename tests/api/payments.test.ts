/**
 * Buying credit bundles through the built-in test provider (docs/API.md "Payments", SPEC §4
 * payment order, §4 membership), on every engine: the webhook settles only on the provider's
 * word and credits once, whatever replays or races it; the first purchase makes premium.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { grant, spend } from '../../src/server/ledger.ts';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { activeMember, useRuntime } from '../support/accounts.ts';

const brand = (rt: TestRuntime) => rt.services.tenants().find((t) => t.id === 'spetter')!;

async function buyer(rt: TestRuntime) {
  const m = await activeMember(rt, 'spetter', { gender: 'male', sexuality: 'hetero' });
  const user = await m.client.user();
  return { ...m, userId: user.id as number, startCredits: user.credits as number };
}

async function ledger(rt: TestRuntime, userId: number) {
  const user = await rt.db.db.selectFrom('users').select(['credits', 'paid_user']).where('id', '=', userId).executeTakeFirstOrThrow();
  const entries = await rt.db.db.selectFrom('credit_ledger').select(['delta', 'reason', 'ref']).where('user_id', '=', userId).execute();
  return { ...user, entries, sum: entries.reduce((n, e) => n + e.delta, 0) };
}

/** The test checkout's button, as the browser posts it (a form, no Origin of the brand). */
const choose = (rt: TestRuntime, id: string, outcome: string) =>
  hostFetch(rt, 'spetter', '/api/test-checkout.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${id}&outcome=${outcome}` });
const webhook = (rt: TestRuntime, id: string) =>
  hostFetch(rt, 'spetter', '/api/payment-webhook.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${encodeURIComponent(id)}` });

describe.each(engines())('payments on %s', (engine) => {
  const rt = useRuntime(engine);

  test('a bundle paid at the test checkout adds its credits once and makes the member premium; the result screen says completed', async () => {
    const bob = await buyer(rt());
    const pack = brand(rt()).packages[0]!;
    const started = await bob.client.post('/api/payment.php', { package_id: pack.id, method: 'ideal' });
    expect(started.status).toBe(200);
    const { payment, checkout_url } = started.json();
    expect(payment).toMatchObject({ package_id: pack.id, credits: pack.credits, amount: pack.price, currency: pack.currency, method: 'ideal', status: 'open' });
    const page = await hostFetch(rt(), 'spetter', checkout_url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Testbetaling');
    const providerId = new URL(checkout_url, 'http://x').searchParams.get('id')!;

    const paid = await choose(rt(), providerId, 'paid');
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toMatch(new RegExp(`/credits/${pack.id}/ideal\\?payment=${payment.payment_id}$`));
    const result = (await bob.client.get(`/api/payment.php?id=${payment.payment_id}`)).json().payment;
    expect(result.status).toBe('paid');
    const money = await ledger(rt(), bob.userId);
    expect(money.credits).toBe(bob.startCredits + pack.credits);
    expect(money.sum).toBe(money.credits);
    expect(money.paid_user).toBe(1);
    expect((await bob.client.user()).paid_user).toBe(true);
    // The return address shows the result; one that names no payment of this member is the brand's 404.
    const screen = await bob.client.get(`/credits/${pack.id}/ideal?payment=${payment.payment_id}`);
    expect(screen.status).toBe(200);
    expect(screen.text).toContain('Betaling gelukt');
    for (const bad of ['1e3', 'abc', '0', '-1', '2147483648', `${payment.payment_id}.0`]) expect((await bob.client.get(`/credits/${pack.id}/ideal?payment=${bad}`)).status, bad).toBe(404);
    expect((await bob.client.get(`/credits/nope/ideal`)).status).toBe(404);
    const other = await buyer(rt());
    expect((await other.client.get(`/credits/${pack.id}/ideal?payment=${payment.payment_id}`)).status).toBe(404);
    // The checkout cannot be decided twice.
    expect((await choose(rt(), providerId, 'paid')).status).toBe(303);
    expect((await ledger(rt(), bob.userId)).credits).toBe(bob.startCredits + pack.credits);
  });

  test('a webhook replayed 100 times credits once; the return and the webhook raced 50 times credit once each', async () => {
    const bob = await buyer(rt());
    const pack = brand(rt()).packages[1]!;
    const start = async () => {
      const { payment, checkout_url } = (await bob.client.post('/api/payment.php', { package_id: pack.id, method: 'creditcard' })).json();
      const providerId = new URL(checkout_url, 'http://x').searchParams.get('id')!;
      await rt().services.testProvider.decide(providerId, 'paid');
      return { paymentId: payment.payment_id as number, providerId };
    };
    const once = await start();
    const replays = await Promise.all(Array.from({ length: 100 }, () => webhook(rt(), once.providerId)));
    expect(replays.every((r) => r.status === 200)).toBe(true);
    expect((await ledger(rt(), bob.userId)).credits).toBe(bob.startCredits + pack.credits);

    for (let i = 0; i < 50; i++) {
      const { paymentId, providerId } = await start();
      await Promise.all([webhook(rt(), providerId), bob.client.get(`/api/payment.php?id=${paymentId}`), webhook(rt(), providerId)]);
    }
    const money = await ledger(rt(), bob.userId);
    expect(money.credits).toBe(bob.startCredits + 51 * pack.credits);
    expect(money.sum).toBe(money.credits);
    expect(money.entries.filter((e) => e.reason === 'purchase')).toHaveLength(51);
  }, 120_000);

  test('failed and cancelled payments add nothing and keep a free member free; pending becomes paid when the provider says so', async () => {
    const bob = await buyer(rt());
    const pack = brand(rt()).packages[0]!;
    const startOne = async () => {
      const { payment, checkout_url } = (await bob.client.post('/api/payment.php', { package_id: pack.id, method: 'ideal' })).json();
      return { paymentId: payment.payment_id as number, providerId: new URL(checkout_url, 'http://x').searchParams.get('id')! };
    };
    for (const outcome of ['failed', 'canceled'] as const) {
      const { paymentId, providerId } = await startOne();
      await choose(rt(), providerId, outcome);
      expect((await bob.client.get(`/api/payment.php?id=${paymentId}`)).json().payment.status).toBe(outcome);
    }
    expect(await ledger(rt(), bob.userId)).toMatchObject({ credits: bob.startCredits, paid_user: 0 });

    const pending = await startOne();
    await choose(rt(), pending.providerId, 'pending');
    expect((await bob.client.get(`/api/payment.php?id=${pending.paymentId}`)).json().payment.status).toBe('pending');
    // The provider settles it (here: its clock passes); the webhook or the return then credits it.
    await rt().db.db.updateTable('test_checkouts').set({ settle_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', pending.providerId).execute();
    expect((await webhook(rt(), pending.providerId)).status).toBe(200);
    expect((await bob.client.get(`/api/payment.php?id=${pending.paymentId}`)).json().payment.status).toBe('paid');
    expect(await ledger(rt(), bob.userId)).toMatchObject({ credits: bob.startCredits + pack.credits, paid_user: 1 });
  });

  test('bad input is refused without a payment; nobody reads another member\'s payment; unknown webhook ids change nothing', async () => {
    const bob = await buyer(rt());
    const eve = await buyer(rt());
    expect((await bob.client.post('/api/payment.php', { package_id: 'nope', method: 'ideal' })).status).toBe(400);
    expect((await bob.client.post('/api/payment.php', { package_id: brand(rt()).packages[0]!.id, method: 'bitcoin' })).status).toBe(400);
    // Direct debit goes through its SMS form; a method of another country is not offered.
    expect((await bob.client.post('/api/payment.php', { package_id: brand(rt()).packages[0]!.id, method: 'sdd' })).status).toBe(400);
    expect((await bob.client.post('/api/payment.php', { package_id: brand(rt()).packages[0]!.id, method: 'blik' })).status).toBe(400);
    expect(await rt().db.db.selectFrom('payments').select('id').where('user_id', '=', bob.userId).execute()).toEqual([]);
    const { payment } = (await bob.client.post('/api/payment.php', { package_id: brand(rt()).packages[0]!.id, method: 'ideal' })).json();
    expect((await eve.client.get(`/api/payment.php?id=${payment.payment_id}`)).status).toBe(404);
    expect((await bob.client.get('/api/payment.php?id=99999999999')).status).toBe(400);
    expect((await webhook(rt(), 'tr_unknown')).status).toBe(404);
    expect((await choose(rt(), 'tst_000000000000000000000000', 'paid')).status).toBe(404);
    expect((await choose(rt(), 'nonsense', 'paid')).status).toBe(400);
    expect((await hostFetch(rt(), 'spetter', '/api/payment.php', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
  });

  test('a repeat order: charged on the saved card of a card purchase without a checkout; without a card, through the checkout; the card can be removed', async () => {
    const bob = await buyer(rt());
    expect((await bob.client.get('/api/repeat-order.php')).status).toBe(404);
    expect((await bob.client.post('/api/repeat-order.php', {})).status).toBe(404);
    const pack = brand(rt()).packages[1]!;
    const { checkout_url } = (await bob.client.post('/api/payment.php', { package_id: pack.id, method: 'visa' })).json();
    await choose(rt(), new URL(checkout_url, 'http://x').searchParams.get('id')!, 'paid');

    const offer = (await bob.client.get('/api/repeat-order.php')).json().repeat_order;
    expect(offer).toMatchObject({ package_id: pack.id, credits: pack.credits, amount: pack.price, currency: 'EUR', method: 'visa' });
    expect(offer.card.label).toMatch(/^Visa •••• 4242, 12\/\d{4}$/);
    const repeated = (await bob.client.post('/api/repeat-order.php', {})).json();
    expect(repeated.next).toMatch(new RegExp(`^/credits/${pack.id}/visa\\?payment=\\d+$`));
    expect(repeated.payment).toMatchObject({ status: 'paid', amount: pack.price, credits: pack.credits });
    expect(await ledger(rt(), bob.userId)).toMatchObject({ credits: bob.startCredits + 2 * pack.credits, sum: bob.startCredits + 2 * pack.credits });

    // A second card purchase saves another card; removing removes them all, so nothing is charged without a checkout.
    const { checkout_url: second } = (await bob.client.post('/api/payment.php', { package_id: pack.id, method: 'mastercard' })).json();
    await choose(rt(), new URL(second, 'http://x').searchParams.get('id')!, 'paid');
    expect((await bob.client.delete('/api/saved-card.php')).status).toBe(200);
    expect((await bob.client.get('/api/repeat-order.php')).json().repeat_order.card).toBeNull();
    expect((await bob.client.delete('/api/saved-card.php')).status).toBe(404);
    const viaCheckout = (await bob.client.post('/api/repeat-order.php', {})).json();
    expect(viaCheckout.next).toMatch(/^\/api\/test-checkout\.php\?id=tst_/);
    expect(viaCheckout.payment.status).toBe('open');
    expect((await ledger(rt(), bob.userId)).credits).toBe(bob.startCredits + 3 * pack.credits);
  });

  test('a repeat order clicked twice, or in two tabs at once, charges the saved card once', async () => {
    const dirk = await buyer(rt());
    const pack = brand(rt()).packages[0]!;
    const { checkout_url } = (await dirk.client.post('/api/payment.php', { package_id: pack.id, method: 'visa' })).json();
    await choose(rt(), new URL(checkout_url, 'http://x').searchParams.get('id')!, 'paid');
    const answers = await Promise.all([0, 1, 2].map(() => dirk.client.post('/api/repeat-order.php', {})));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().payment.payment_id)).size).toBe(1);
    const again = (await dirk.client.post('/api/repeat-order.php', {})).json();
    expect(again.payment.payment_id).toBe(answers[0]!.json().payment.payment_id);
    expect(again.next).toBe(answers[0]!.json().next);
    expect(await ledger(rt(), dirk.userId)).toMatchObject({ credits: dirk.startCredits + 2 * pack.credits, sum: dirk.startCredits + 2 * pack.credits });
    // A minute later it is a new order.
    await rt().db.db.updateTable('payments').set({ created_at: new Date(Date.now() - 61_000).toISOString() } as never).where('user_id', '=', dirk.userId).execute();
    expect((await dirk.client.post('/api/repeat-order.php', {})).json().payment.payment_id).not.toBe(again.payment.payment_id);
    expect((await ledger(rt(), dirk.userId)).credits).toBe(dirk.startCredits + 3 * pack.credits);
  });

  test('a card payment that was pending first saves the card once it is paid, once however often it is asked', async () => {
    const cleo = await buyer(rt());
    const pack = brand(rt()).packages[0]!;
    const { checkout_url } = (await cleo.client.post('/api/payment.php', { package_id: pack.id, method: 'mastercard' })).json();
    const providerId = new URL(checkout_url, 'http://x').searchParams.get('id')!;
    await choose(rt(), providerId, 'pending');
    expect((await cleo.client.get('/api/repeat-order.php')).status).toBe(404);
    await rt().db.db.updateTable('test_checkouts').set({ settle_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', providerId).execute();
    await Promise.all(Array.from({ length: 5 }, () => webhook(rt(), providerId)));
    const offer = (await cleo.client.get('/api/repeat-order.php')).json().repeat_order;
    expect(offer).toMatchObject({ package_id: pack.id, method: 'mastercard' });
    expect(offer.card.label).toMatch(/^Mastercard •••• 4242, 12\/\d{4}$/);
    const customer = (await rt().db.db.selectFrom('test_checkouts').select('customer_id').where('id', '=', providerId).executeTakeFirstOrThrow()).customer_id!;
    expect(await rt().db.db.selectFrom('test_mandates').select('id').where('customer_id', '=', customer).execute()).toHaveLength(1);
  });

  test('purchases, spends, grants and refunds in random order and at once: the balance equals the ledger and never goes below 0', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('purchase' as const), replays: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('spend' as const), credits: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ kind: fc.constant('grant' as const), credits: fc.integer({ min: 1, max: 30 }) }),
      fc.record({ kind: fc.constant('refund' as const), credits: fc.integer({ min: 1, max: 60 }) }),
    );
    const pack = brand(rt()).packages[0]!;
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const bob = await buyer(rt());
        const { db } = rt().db;
        const results = await Promise.all(
          ops.map(async (o) => {
            const ref = `prop-${bob.userId}-${++n}`;
            if (o.kind === 'purchase') {
              const { checkout_url } = (await bob.client.post('/api/payment.php', { package_id: pack.id, method: 'ideal' })).json();
              const providerId = new URL(checkout_url, 'http://x').searchParams.get('id')!;
              await rt().services.testProvider.decide(providerId, 'paid');
              await Promise.all(Array.from({ length: o.replays }, () => webhook(rt(), providerId)));
              return pack.credits;
            }
            if (o.kind === 'grant') return (await grant(db, { userId: bob.userId, credits: o.credits, reason: 'bonus', ref }), o.credits);
            const taken = await spend(db, { userId: bob.userId, credits: o.credits, reason: o.kind === 'spend' ? 'message' : 'refund', ref }).then(
              () => -o.credits,
              (error: { status?: number }) => (error.status === 402 ? 0 : Promise.reject(error)),
            );
            return taken;
          }),
        );
        const money = await ledger(rt(), bob.userId);
        expect(money.credits).toBe(bob.startCredits + results.reduce((a, b) => a + b, 0));
        expect(money.sum).toBe(money.credits);
        expect(money.credits).toBeGreaterThanOrEqual(0);
        expect(money.entries.filter((e) => e.reason === 'purchase')).toHaveLength(ops.filter((o) => o.kind === 'purchase').length);
        expect(money.paid_user).toBe(ops.some((o) => o.kind === 'purchase') ? 1 : 0);
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});

describe.each(engines())('payments on the runtime clock on %s', (engine) => {
  // The runtime's clock (deps.now), 400 days behind the wall clock: what payments write follows it.
  const SHIFT_MS = 400 * 86_400_000;
  const rt = useRuntime(engine, () => ({ config: { now: () => new Date(Date.now() - SHIFT_MS) } }));

  test("a payment's times, its invoice's year and the saved card's expiry follow the runtime's clock", async () => {
    const bob = await buyer(rt());
    const pack = brand(rt()).packages[0]!;
    const before = new Date(Date.now() - SHIFT_MS).toISOString();
    const { payment, checkout_url } = (await bob.client.post('/api/payment.php', { package_id: pack.id, method: 'visa' })).json();
    const providerId = new URL(checkout_url, 'http://x').searchParams.get('id')!;
    expect((await choose(rt(), providerId, 'paid')).status).toBe(303);
    const after = new Date(Date.now() - SHIFT_MS).toISOString();
    const row = await rt().db.db.selectFrom('payments').select(['status', 'created_at', 'updated_at', 'paid_at', 'invoice_number']).where('id', '=', payment.payment_id).executeTakeFirstOrThrow();
    expect(row.status).toBe('paid');
    for (const at of [row.created_at, row.updated_at, row.paid_at!]) {
      expect(at >= before && at <= after, at).toBe(true);
    }
    expect(row.invoice_number).toMatch(new RegExp(`^${new Date(row.paid_at!).getUTCFullYear()}-`));
    const card = await rt().db.db.selectFrom('test_mandates').innerJoin('payment_customers', 'payment_customers.customer_id', 'test_mandates.customer_id').select('label').where('payment_customers.user_id', '=', bob.userId).executeTakeFirstOrThrow();
    expect(card.label).toContain(`12/${new Date(row.paid_at!).getFullYear() + 3}`);
  });
});
