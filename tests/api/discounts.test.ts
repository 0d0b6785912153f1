/**
 * Discount codes at the checkout (docs/API.md "Discount codes", SPEC §3, §4 time bonus, §5, §9),
 * on every engine: the welcome code, the time bonus, the retention offer and a brand's campaign
 * codes are looked up with their refusals, applied by the server to what the member pays, and
 * used once per member when the payment is paid.
 */
import { describe, expect, test, vi } from 'vitest';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { activeMember, useRuntime } from '../support/accounts.ts';

const brand = (rt: TestRuntime) => rt.services.tenants().find((t) => t.id === 'spetter')!;
const pack = (rt: TestRuntime, id: string) => brand(rt).packages.find((p) => p.id === id)!;

async function buyer(rt: TestRuntime) {
  const m = await activeMember(rt, 'spetter', { gender: 'male', sexuality: 'hetero' });
  const user = await m.client.user();
  return { ...m, userId: user.id as number };
}
type Buyer = Awaited<ReturnType<typeof buyer>>;

/** Starts a payment and pays it at the test checkout; answers the payment as started. */
async function buy(rt: TestRuntime, who: Buyer, body: Record<string, unknown>) {
  const res = await who.client.post('/api/payment.php', { method: 'ideal', ...body });
  if (res.status !== 200) return { res, payment: null };
  const { payment, checkout_url } = res.json();
  const id = new URL(checkout_url, 'http://x').searchParams.get('id')!;
  await hostFetch(rt, 'spetter', '/api/test-checkout.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${id}&outcome=paid` });
  return { res, payment };
}

const lookup = (who: Buyer, query: string) => who.client.get(`/api/discountcode.php?${query}`);

describe.each(engines())('discount codes on %s', (engine) => {
  const rt = useRuntime(engine);

  test('the welcome discount: 25% off the first purchase, then gone; its code is used once', async () => {
    const ann = await buyer(rt());
    const welcome = await lookup(ann, 'welcome=true');
    expect(welcome.status).toBe(200);
    const code = welcome.json().discount_code;
    expect(code).toMatchObject({ percentage: 25, value: null, status: 'active', expired: false, user_id: ann.userId, kind: 'welcome', paymentmethods: null });
    expect(code.code).toMatch(/^WELCOME-[0-9A-F]{8}$/);
    expect(code.validity).toBeGreaterThan(6 * 86_400);
    // Asking again gives the same code.
    expect((await lookup(ann, 'welcome=true')).json().discount_code.code).toBe(code.code);

    const popular = pack(rt(), 'popular');
    const { payment } = await buy(rt(), ann, { package_id: popular.id, discount_code: code.code.toLowerCase() });
    expect(payment).toMatchObject({ list_amount: popular.price, amount: popular.price - Math.round(popular.price * 0.25), discount_code: code.code, currency: 'EUR' });
    const stored = await rt().db.db.selectFrom('payments').select(['amount', 'list_amount', 'discount_amount', 'status']).where('id', '=', payment.payment_id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: 'paid', list_amount: popular.price, discount_amount: Math.round(popular.price * 0.25) });
    expect(stored.amount + stored.discount_amount).toBe(stored.list_amount);
    // Credits are the bundle's whatever the discount.
    expect((await ann.client.user()).credits).toBeGreaterThanOrEqual(popular.credits);

    expect((await lookup(ann, 'welcome=true')).status).toBe(404);
    const again = await lookup(ann, `code=${code.code}`);
    expect(again.status).toBe(409);
    expect(again.json().error.message).toBe('Code reeds gebruikt');
    const refused = await ann.client.post('/api/payment.php', { package_id: popular.id, method: 'ideal', discount_code: code.code });
    expect(refused.status).toBe(409);
    // Another member cannot use it.
    const bob = await buyer(rt());
    const foreign = await lookup(bob, `code=${code.code}`);
    expect(foreign.status).toBe(404);
    expect(foreign.json().error.message).toBe('Code niet gevonden');
  });

  test('the time bonus TIMEBONUS25: 25% for 4 hours after signup, once; refused after its end and for paid members', async () => {
    const ann = await buyer(rt());
    const bonus = (await lookup(ann, 'code=timebonus25')).json().discount_code;
    expect(bonus).toMatchObject({ code: 'TIMEBONUS25', percentage: 25, status: 'active', kind: 'time_bonus', expired: false });
    expect(bonus.validity).toBeGreaterThan(14_400 - 120);
    expect(bonus.validity).toBeLessThanOrEqual(14_400);

    // Ended: the signup was 4 hours and a second ago. Nothing is started with it.
    const late = await buyer(rt());
    await rt().db.db.updateTable('users').set({ signup_date: new Date(Date.now() - 14_401_000).toISOString() }).where('id', '=', late.userId).execute();
    const ended = await lookup(late, 'code=TIMEBONUS25');
    expect(ended.status).toBe(410);
    expect(ended.json().error.message).toBe('Deze code is verlopen');
    expect((await late.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'TIMEBONUS25' })).status).toBe(410);
    expect(await rt().db.db.selectFrom('payments').select('id').where('user_id', '=', late.userId).execute()).toEqual([]);
    // A second before its end it still counts.
    await rt().db.db.updateTable('users').set({ signup_date: new Date(Date.now() - 14_390_000).toISOString() }).where('id', '=', late.userId).execute();
    expect((await lookup(late, 'code=TIMEBONUS25')).status).toBe(200);

    const starter = pack(rt(), 'starter');
    const { payment } = await buy(rt(), ann, { package_id: starter.id, discount_code: 'TIMEBONUS25' });
    expect(payment.amount).toBe(starter.price - Math.round(starter.price * 0.25));
    // Used, and the member is premium now: no time bonus any more.
    expect((await lookup(ann, 'code=TIMEBONUS25')).status).toBe(409);
    expect((await ann.client.post('/api/payment.php', { package_id: starter.id, method: 'ideal', discount_code: 'TIMEBONUS25' })).status).toBe(409);
  });

  test("a brand's codes: a value with a minimum order, a country, payment methods, expiry and status each refuse with their reason", async () => {
    const ann = await buyer(rt());
    const now = Date.now();
    for (const code of [
      { tenant_id: 'spetter', code: 'FIVE', value: 500, currency: 'EUR', minimum_order_value: 2000 },
      { tenant_id: 'spetter', code: 'GERMANY', percentage: 10, country: 'DE' },
      { tenant_id: 'spetter', code: 'IDEALONLY', percentage: 10, paymentmethods: JSON.stringify(['ideal']) },
      { tenant_id: 'spetter', code: 'OLD', percentage: 10, expires_at: new Date(now - 1000).toISOString() },
      { tenant_id: 'spetter', code: 'OFF', percentage: 10, status: 'disabled' as const },
      { tenant_id: 'velvet', code: 'ELSEWHERE', percentage: 10 },
    ])
      await rt().db.db.insertInto('discount_codes').values(code).execute();
    const five = (await lookup(ann, 'code=five')).json().discount_code;
    expect(five).toMatchObject({ code: 'FIVE', percentage: null, value: 500, currency: 'EUR', minimum_order_value: 2000, expires: null, validity: null, kind: 'campaign' });

    const tooSmall = await ann.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'FIVE' });
    expect(tooSmall.status).toBe(422);
    expect(tooSmall.json().error.message).toMatch(/^Deze code geldt vanaf een bestelling van €\s?20,00$/);
    const country = await ann.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'GERMANY' });
    expect([country.status, country.json().error.message]).toEqual([422, 'Deze code geldt niet in jouw land']);
    const method = await ann.client.post('/api/payment.php', { package_id: 'starter', method: 'creditcard', discount_code: 'IDEALONLY' });
    expect([method.status, method.json().error.message]).toEqual([422, 'Deze code geldt niet voor deze betaalmethode']);
    expect((await lookup(ann, 'code=OLD')).status).toBe(410);
    for (const unknown of ['OFF', 'ELSEWHERE', 'NOPE']) expect((await lookup(ann, `code=${unknown}`)).status).toBe(404);
    expect(await rt().db.db.selectFrom('payments').select('id').where('user_id', '=', ann.userId).execute()).toEqual([]);

    const popular = pack(rt(), 'popular');
    const { payment } = await buy(rt(), ann, { package_id: popular.id, discount_code: 'FIVE' });
    expect(payment).toMatchObject({ amount: popular.price - 500, list_amount: popular.price });
    const { payment: viaIdeal } = await buy(rt(), ann, { package_id: 'starter', discount_code: 'IDEALONLY' });
    expect(viaIdeal.amount).toBe(pack(rt(), 'starter').price - Math.round(pack(rt(), 'starter').price * 0.1));
  });

  test('the retention offer of the deletion flow is a real personal code; prices follow the payment country', async () => {
    const ann = await buyer(rt());
    const reasons = (await ann.client.get('/api/account.php')).json().reasons as { key: string; solution: { href: string } }[];
    const href = reasons.find((r) => r.key === 'expensive')!.solution.href;
    expect(href).toMatch(/^\/credits\?code=STAY-[0-9A-F]{8}$/);
    const code = (await lookup(ann, `code=${href.split('=')[1]}`)).json().discount_code;
    expect(code).toMatchObject({ percentage: brand(rt()).company.delete_discount, kind: 'retention', user_id: ann.userId });
    // Visitors get the plain link.
    const visitor = await hostFetch(rt(), 'spetter', '/api/account.php');
    expect(JSON.parse(visitor.text).reasons.find((r: { key: string }) => r.key === 'expensive').solution.href).toBe('/credits');

    // A Swiss member of a brand that prices in francs pays in francs; a Dutch one of a brand
    // that prices only in euros pays euros.
    const zoe = await activeMember(rt(), 'velvet', { gender: 'female', sexuality: 'hetero', country: 'CH', region: null, city: null });
    const taste = rt().services.tenants().find((t) => t.id === 'velvet')!.packages.find((p) => p.id === 'taste')!;
    const started = (await zoe.client.post('/api/payment.php', { package_id: taste.id, method: 'creditcard' })).json().payment;
    expect(started).toMatchObject({ currency: 'CHF', amount: taste.prices.CHF });
    // A value code in euros does not apply to francs.
    await rt().db.db.insertInto('discount_codes').values({ tenant_id: 'velvet', code: 'EURO', value: 300, currency: 'EUR' }).execute();
    const euro = await zoe.client.post('/api/payment.php', { package_id: taste.id, method: 'creditcard', discount_code: 'EURO' });
    expect([euro.status, euro.json().error.message]).toEqual([422, 'This code is not valid in this currency']);
    expect((await ann.client.post('/api/payment.php', { package_id: 'starter', method: 'creditcard' })).json().payment).toMatchObject({ currency: 'EUR', amount: pack(rt(), 'starter').price });
  });

  test('a code is held by one payment at a time: parallel checkouts get one discount; a failed or abandoned one lets it go', async () => {
    const ann = await buyer(rt());
    const starts = await Promise.all([0, 1, 2].map(() => ann.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'TIMEBONUS25' })));
    // A start that finds another's checkout open takes the code over and cancels that checkout:
    // however the three interleave, one checkout with the code can still be paid.
    expect(starts.some((r) => r.status === 200)).toBe(true);
    expect(starts.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const started = starts.filter((r) => r.status === 200).map((r) => new URL(r.json().checkout_url, 'http://x').searchParams.get('id')!);
    const payable = await rt().db.db.selectFrom('test_checkouts').select('id').where('id', 'in', started).where('status', '=', 'open').execute();
    expect(payable).toHaveLength(1);
    // The held checkout fails: the code is free again.
    await hostFetch(rt(), 'spetter', '/api/test-checkout.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${payable[0]!.id}&outcome=failed` });
    const again = await ann.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'TIMEBONUS25' });
    expect(again.status).toBe(200);
    // Abandoned (older than the hold) it is free again as well.
    await rt().db.db.updateTable('payments').set({ created_at: new Date(Date.now() - 31 * 60_000).toISOString() } as never).where('id', '=', again.json().payment.payment_id).execute();
    const { payment } = await buy(rt(), ann, { package_id: 'starter', discount_code: 'TIMEBONUS25' });
    expect(payment.discount_code).toBe('TIMEBONUS25');
    expect((await lookup(ann, 'code=TIMEBONUS25')).status).toBe(409);
    const paid = await rt().db.db.selectFrom('payments').select('id').where('user_id', '=', ann.userId).where('status', '=', 'paid').execute();
    expect(paid).toHaveLength(1);
  });

  test('back from a checkout left unpaid, the member pays with the code at once: the new checkout takes the hold over and the old one is cancelled', async () => {
    const ann = await buyer(rt());
    const start = (body: Record<string, unknown> = {}) => ann.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'TIMEBONUS25', ...body });
    const checkoutId = (res: Awaited<ReturnType<typeof start>>) => new URL(res.json().checkout_url, 'http://x').searchParams.get('id')!;
    const status = async (res: Awaited<ReturnType<typeof start>>) => (await ann.client.get(`/api/payment.php?id=${res.json().payment.payment_id}`)).json().payment.status;
    const choose = (id: string, outcome: string) =>
      hostFetch(rt(), 'spetter', '/api/test-checkout.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${id}&outcome=${outcome}` });

    const first = await start();
    expect(first.status).toBe(200);
    // A minute later, back on the credits page: the same code again, another bundle.
    const second = await start({ package_id: 'popular' });
    expect(second.status).toBe(200);
    expect(second.json().payment).toMatchObject({ discount_code: 'TIMEBONUS25', amount: pack(rt(), 'popular').price - Math.round(pack(rt(), 'popular').price * 0.25) });
    expect(await status(first)).toBe('canceled');
    // The old checkout can no longer be paid; the new one can, once.
    await choose(checkoutId(first), 'paid');
    expect((await rt().db.db.selectFrom('test_checkouts').select('status').where('id', '=', checkoutId(first)).executeTakeFirstOrThrow()).status).toBe('canceled');
    expect(await status(first)).toBe('canceled');
    expect((await choose(checkoutId(second), 'paid')).status).toBe(303);
    expect(await status(second)).toBe('paid');
    expect((await start()).status).toBe(409);
    const paid = await rt().db.db.selectFrom('payments').select(['package_id', 'discount_code']).where('user_id', '=', ann.userId).where('status', '=', 'paid').execute();
    expect(paid).toEqual([{ package_id: 'popular', discount_code: 'TIMEBONUS25' }]);

    // Paid at the provider before the runtime heard of it: asked first, that is the code's use.
    const bob = await buyer(rt());
    const bobStart = () => bob.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'TIMEBONUS25' });
    const open = await bobStart();
    await rt().db.db.updateTable('test_checkouts').set({ status: 'paid' }).where('id', '=', checkoutId(open)).execute();
    const refused = await bobStart();
    expect(refused.status).toBe(409);
    expect(refused.json().error.message).toBe('Code reeds gebruikt');
    expect((await bob.client.get(`/api/payment.php?id=${open.json().payment.payment_id}`)).json().payment.status).toBe('paid');
    expect(await rt().db.db.selectFrom('payments').select('id').where('user_id', '=', bob.userId).execute()).toHaveLength(1);

    // An open bank transfer keeps its code: its money may still come.
    const cas = await buyer(rt());
    const transfer = await cas.client.post('/api/payment.php', { package_id: 'starter', method: 'sct', discount_code: 'TIMEBONUS25' });
    expect(transfer.status).toBe(200);
    const held = await cas.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'TIMEBONUS25' });
    expect(held.status).toBe(409);
    expect(held.json().open_checkout_url).toBe(transfer.json().checkout_url);
    expect((await cas.client.get(`/api/payment.php?id=${transfer.json().payment.payment_id}`)).json().payment.status).toBe('open');
  });

  test('two checkouts taking over one open checkout at once: one gets the code', async () => {
    const ann = await buyer(rt());
    const start = () => ann.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'TIMEBONUS25' });
    expect((await start()).status).toBe(200);
    const both = await Promise.all([start(), start()]);
    expect(both.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(both.some((r) => r.status === 200)).toBe(true);
    const holding = await rt().db.db.selectFrom('payments').select('id').where('user_id', '=', ann.userId).where('discount_code', '=', 'TIMEBONUS25').where('status', '=', 'open').execute();
    const payable = await rt().db.db.selectFrom('test_checkouts as t').innerJoin('payments as p', 'p.provider_id', 't.id').select('t.id').where('p.user_id', '=', ann.userId).where('t.status', '=', 'open').execute();
    expect(holding).toHaveLength(1);
    expect(payable).toHaveLength(1);
    const use = await rt().db.db.selectFrom('discount_code_uses').select('payment_id').where('user_id', '=', ann.userId).executeTakeFirstOrThrow();
    expect(use.payment_id).toBe(holding[0]!.id);
  });

  test('a pending payment keeps its code however old; an expired checkout lets it go; a late payment of an abandoned one still uses it', async () => {
    const ann = await buyer(rt());
    const start = () => ann.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'TIMEBONUS25' });
    const checkoutId = (res: Awaited<ReturnType<typeof start>>) => new URL(res.json().checkout_url, 'http://x').searchParams.get('id')!;
    const choose = (id: string, outcome: string) =>
      hostFetch(rt(), 'spetter', '/api/test-checkout.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${id}&outcome=${outcome}` });
    const age = (res: Awaited<ReturnType<typeof start>>, minutes: number) =>
      rt().db.db.updateTable('payments').set({ created_at: new Date(Date.now() - minutes * 60_000).toISOString() } as never).where('id', '=', res.json().payment.payment_id).execute();

    // Pending: the money is under way, so the code stays with it past the hold's 30 minutes.
    const pending = await start();
    await choose(checkoutId(pending), 'pending');
    await age(pending, 60);
    expect((await start()).status).toBe(409);
    await rt().db.db.updateTable('test_checkouts').set({ status: 'failed' }).where('id', '=', checkoutId(pending)).execute();

    // An open checkout the provider expired (15 minutes at the test provider) frees the code at once.
    const open = await start();
    expect(open.status).toBe(200);
    await rt().db.db.updateTable('test_checkouts').set({ created_at: new Date(Date.now() - 16 * 60_000).toISOString() } as never).where('id', '=', checkoutId(open)).execute();
    const next = await start();
    expect(next.status).toBe(200);
    expect((await ann.client.get(`/api/payment.php?id=${open.json().payment.payment_id}`)).json().payment.status).toBe('expired');
    expect((await choose(checkoutId(open), 'paid')).status).toBe(303);
    expect((await ann.client.get(`/api/payment.php?id=${open.json().payment.payment_id}`)).json().payment.status).toBe('expired');

    // At a provider that cannot cancel it (some methods at Mollie), an open checkout keeps the code
    // until the hold ends; abandoned but still payable (older than the hold), a new checkout takes
    // the code over; if the old one is paid after all, that is the use, and no third checkout gets it.
    const cannotCancel = vi.spyOn(rt().services.testProvider, 'cancel').mockResolvedValue(false);
    try {
      // Refused, with the way back to the open checkout.
      const refused = await start();
      expect(refused.status).toBe(409);
      expect(refused.json().open_checkout_url).toBe(next.json().checkout_url);
      await age(next, 31);
      const third = await start();
      expect(third.status).toBe(200);
      await choose(checkoutId(next), 'paid');
      expect((await lookup(ann, 'code=TIMEBONUS25')).status).toBe(409);
      await age(third, 31);
      expect((await start()).status).toBe(409);
    } finally {
      cannotCancel.mockRestore();
    }
  });

  test('bad input: a malformed query or code is 400; visitors are asked to log in', async () => {
    const ann = await buyer(rt());
    expect((await lookup(ann, '')).status).toBe(400);
    expect((await lookup(ann, 'welcome=yes')).status).toBe(400);
    expect((await lookup(ann, `code=${'X'.repeat(41)}`)).status).toBe(400);
    expect((await ann.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal', discount_code: 'X'.repeat(41) })).status).toBe(400);
    expect((await hostFetch(rt(), 'spetter', '/api/discountcode.php?welcome=true')).status).toBe(401);
  });
});
