/**
 * Direct debit (docs/API.md "Direct debit", SPEC §5, §6, §8) on every engine: the details are
 * checked (IBAN with ibantools, the mobile number with libphonenumber-js, consent), an SMS code
 * authorises the order with a limited number of tries, and the limit and the block refuse.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { activeMember, useRuntime } from '../support/accounts.ts';
import { DIRECT_DEBIT_CODE, DIRECT_DEBIT_LIMIT } from '../../src/lib/directdebit.ts';

const IBAN = 'NL91 ABNA 0417 1643 00';
const details = { holder: 'J. de Vries', iban: IBAN, street: 'Keizersgracht', house_number: '12a', postcode: '1015 cx', city: 'Amsterdam', mobile: '06 12345678', consent: true };

async function buyer(rt: TestRuntime) {
  const m = await activeMember(rt, 'spetter', { gender: 'male', sexuality: 'hetero' });
  const user = await m.client.user();
  return { ...m, userId: user.id as number, startCredits: user.credits as number };
}

/** The code of the newest SMS to a number in the runtime's outbox. */
function smsCode(rt: TestRuntime, to: string): string {
  const dir = join(rt.outbox, 'sms');
  for (const file of readdirSync(dir).sort().reverse()) {
    const text = readFileSync(join(dir, file), 'utf8');
    if (text.startsWith(`To: ${to}\n`)) return /\b(\d{6})\b/.exec(text)![1]!;
  }
  throw new Error(`no SMS to ${to}`);
}
const smsCount = (rt: TestRuntime) => {
  try {
    return readdirSync(join(rt.outbox, 'sms')).length;
  } catch {
    return 0;
  }
};

describe.each(engines())('direct debit on %s', (engine) => {
  const rt = useRuntime(engine);

  test('an order is confirmed with the SMS code: a wrong code costs a try, the right one debits once and adds the credits', async () => {
    const bob = await buyer(rt());
    const form = (await bob.client.get('/api/directdebit.php')).json();
    expect(form).toEqual({ details: null, limit: DIRECT_DEBIT_LIMIT.amount, left: DIRECT_DEBIT_LIMIT.amount, currency: 'EUR', blocked: false });

    const ordered = await bob.client.post('/api/directdebit.php', { package_id: 'starter', ...details });
    expect(ordered.status).toBe(200);
    const { order } = ordered.json();
    expect(order).toMatchObject({ mobile: '+31•••••5678', amount: 1499, list_amount: 1499, currency: 'EUR', tries_left: DIRECT_DEBIT_CODE.tries });
    const code = smsCode(rt(), '+31612345678');
    const stored = await rt().db.db.selectFrom('directdebit_orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ iban: 'NL91ABNA0417164300', mobile: '+31612345678', postcode: '1015 CX', status: 'awaiting_code', payment_id: null });
    expect(stored.code_hash).not.toContain(code);

    const wrong = await bob.client.post('/api/directdebit.php?confirm=1', { order_id: order.id, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.json()).toMatchObject({ error: { code: 'sms_code_invalid', message: 'Code ongeldig', field: 'code' }, tries_left: DIRECT_DEBIT_CODE.tries - 1 });

    // Two tabs confirm at once: one debit.
    const [a, b] = await Promise.all([0, 1].map(() => bob.client.post('/api/directdebit.php?confirm=1', { order_id: order.id, code })));
    expect([a!.status, b!.status].sort()).toEqual([200, 404]);
    const { payment, result_url } = (a!.status === 200 ? a! : b!).json();
    expect(payment).toMatchObject({ status: 'paid', method: 'sdd', amount: 1499, credits: 50 });
    expect(result_url).toBe(`/credits/starter/sdd?payment=${payment.payment_id}`);
    const user = await bob.client.user();
    expect(user).toMatchObject({ credits: bob.startCredits + 50, paid_user: true });
    expect(await rt().db.db.selectFrom('payments').select('id').where('user_id', '=', bob.userId).execute()).toHaveLength(1);

    // The next order starts from these details, within what is left of the limit.
    const again = (await bob.client.get('/api/directdebit.php')).json();
    expect(again).toMatchObject({ details: { holder: 'J. de Vries', iban: 'NL91ABNA0417164300', mobile: '+31612345678' }, left: DIRECT_DEBIT_LIMIT.amount - 1499 });
  });

  test('bad details are refused with their own message and send no SMS', async () => {
    const bob = await buyer(rt());
    const before = smsCount(rt());
    const cases: [Record<string, unknown>, string, string][] = [
      [{ iban: 'NL91 ABNA 0417 1643 01' }, 'iban', 'Ongeldig IBAN, controleer het rekeningnummer'],
      [{ iban: 'GB00 0000' }, 'iban', 'Ongeldig IBAN, controleer het rekeningnummer'],
      [{ mobile: '020 123 4567' }, 'mobile', 'Ongeldig mobiel nummer'],
      [{ mobile: '12' }, 'mobile', 'Ongeldig mobiel nummer'],
      [{ consent: false }, 'consent', 'Geef toestemming voor de automatische incasso'],
    ];
    for (const [change, field, message] of cases) {
      const res = await bob.client.post('/api/directdebit.php', { package_id: 'starter', ...details, ...change });
      expect([res.status, res.json().error.field, res.json().error.message]).toEqual([400, field, message]);
    }
    for (const body of [{ ...details, holder: '' }, { ...details, consent: 'yes' }, { ...details, package_id: 'none' }, { package_id: 'starter' }]) {
      expect((await bob.client.post('/api/directdebit.php', { package_id: 'starter', ...body })).status).toBe(400);
    }
    expect((await bob.client.post('/api/directdebit.php?confirm=1', { order_id: 1, code: 'abc' })).status).toBe(400);
    expect((await bob.client.post('/api/directdebit.php?confirm=1', { order_id: 999_999, code: '123456' })).status).toBe(404);
    expect(smsCount(rt())).toBe(before);
    expect(await rt().db.db.selectFrom('directdebit_orders').select('id').where('user_id', '=', bob.userId).execute()).toEqual([]);
  });

  test('after the last wrong try the order is cancelled; an expired code is refused; a new order replaces a waiting one', async () => {
    const bob = await buyer(rt());
    const first = (await bob.client.post('/api/directdebit.php', { package_id: 'starter', ...details })).json().order;
    const code = smsCode(rt(), '+31612345678');
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let left = DIRECT_DEBIT_CODE.tries - 1; left >= 0; left--) {
      const res = await bob.client.post('/api/directdebit.php?confirm=1', { order_id: first.id, code: wrongCode });
      expect([res.status, res.json().tries_left]).toEqual([400, left]);
    }
    expect((await bob.client.post('/api/directdebit.php?confirm=1', { order_id: first.id, code })).status).toBe(404);

    const second = (await bob.client.post('/api/directdebit.php', { package_id: 'starter', ...details })).json().order;
    await rt().db.db.updateTable('directdebit_orders').set({ code_expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', second.id).execute();
    const expired = await bob.client.post('/api/directdebit.php?confirm=1', { order_id: second.id, code: smsCode(rt(), '+31612345678') });
    expect([expired.status, expired.json().error.message]).toEqual([410, 'Code verlopen, vraag een nieuwe code aan']);

    const third = (await bob.client.post('/api/directdebit.php', { package_id: 'starter', ...details })).json().order;
    const thirdCode = smsCode(rt(), '+31612345678');
    const fourth = (await bob.client.post('/api/directdebit.php', { package_id: 'starter', ...details })).json().order;
    expect((await bob.client.post('/api/directdebit.php?confirm=1', { order_id: third.id, code: thirdCode })).status).toBe(404);
    expect((await bob.client.post('/api/directdebit.php?confirm=1', { order_id: fourth.id, code: smsCode(rt(), '+31612345678') })).status).toBe(200);
    expect((await bob.client.user()).credits).toBe(bob.startCredits + 50);
  });

  test('the limit per period and the direct-debit block refuse an order; another member cannot confirm it', async () => {
    const bob = await buyer(rt());
    const eve = await buyer(rt());
    const value = rt().services.tenants().find((t) => t.id === 'spetter')!.packages.find((p) => p.id === 'value')!;
    for (let i = 0; i < Math.floor(DIRECT_DEBIT_LIMIT.amount / value.price); i++) {
      const { order } = (await bob.client.post('/api/directdebit.php', { package_id: value.id, ...details })).json();
      if (i === 0) expect((await eve.client.post('/api/directdebit.php?confirm=1', { order_id: order.id, code: smsCode(rt(), '+31612345678') })).status).toBe(404);
      expect((await bob.client.post('/api/directdebit.php?confirm=1', { order_id: order.id, code: smsCode(rt(), '+31612345678') })).status).toBe(200);
    }
    const over = await bob.client.post('/api/directdebit.php', { package_id: value.id, ...details });
    expect([over.status, over.json().error.message]).toEqual([403, 'Uw limiet voor automatische incasso betalingen is bereikt...']);

    await rt().services.directDebit.setBlocked(eve.userId, true);
    const blocked = await eve.client.post('/api/directdebit.php', { package_id: 'starter', ...details });
    expect([blocked.status, blocked.json().error.message]).toEqual([403, 'Je account is geblokkeerd voor automatische incasso.']);
    expect((await eve.client.get('/api/directdebit.php')).json().blocked).toBe(true);
  });

  test('orders placed and confirmed side by side never debit past the limit', async () => {
    const cas = await buyer(rt());
    const value = rt().services.tenants().find((t) => t.id === 'spetter')!.packages.find((p) => p.id === 'value')!;
    const fits = Math.floor(DIRECT_DEBIT_LIMIT.amount / value.price);
    // Five orders at once: a new order cancels one waiting, but requests side by side can
    // interleave and leave several waiting; here all five are left waiting, the worst case.
    await Promise.all(Array.from({ length: 5 }, () => cas.client.post('/api/directdebit.php', { package_id: value.id, ...details })));
    const code = '123456'; // set here: the SMS texts do not say which order each code is for
    await rt().db.db.updateTable('directdebit_orders').set({ status: 'awaiting_code', code_hash: createHash('sha256').update(code).digest('hex') }).where('user_id', '=', cas.userId).execute();
    const waiting = await rt().db.db.selectFrom('directdebit_orders').select('id').where('user_id', '=', cas.userId).execute();
    expect(waiting).toHaveLength(5);
    const answers = await Promise.all(waiting.map((o) => cas.client.post('/api/directdebit.php?confirm=1', { order_id: o.id, code })));
    expect(answers.map((a) => a.status).sort()).toEqual(expect.arrayContaining([200]));
    for (const a of answers) if (a.status !== 200) expect([a.status, a.json().error.message]).toEqual([403, 'Uw limiet voor automatische incasso betalingen is bereikt...']);
    const debited = await rt().db.db.selectFrom('payments').select(['amount', 'status']).where('user_id', '=', cas.userId).where('method', '=', 'sdd').execute();
    const total = debited.filter((p) => p.status === 'paid').reduce((n, p) => n + p.amount, 0);
    expect(total).toBeLessThanOrEqual(DIRECT_DEBIT_LIMIT.amount);
    expect(total).toBeGreaterThanOrEqual(value.price); // the limit refuses the excess, not everything
    expect(debited.length).toBeLessThanOrEqual(fits);
    expect((await cas.client.user()).credits).toBe(cas.startCredits + debited.length * value.credits);
  });
});
