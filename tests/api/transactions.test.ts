/**
 * The transactions page's API (docs/API.md "Transactions and invoices", SPEC §2, §3 company info,
 * §9 refund_days) on every engine: the ledger with what each entry was and the balance after it,
 * and each purchase's invoice with gap-free numbers and VAT that adds up.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { activeMember, useRuntime } from '../support/accounts.ts';
import { grant } from '../../src/server/ledger.ts';
import { splitVat } from '../../src/lib/vat.ts';

const brand = (rt: TestRuntime) => rt.services.tenants().find((t) => t.id === 'spetter')!;

async function member(rt: TestRuntime, gender: 'male' | 'female') {
  const m = await activeMember(rt, 'spetter', { gender, sexuality: 'hetero' });
  const user = await m.client.user();
  return { ...m, userId: user.id as number, profileId: user.profile.id as number, startCredits: user.credits as number };
}

async function buy(rt: TestRuntime, who: Awaited<ReturnType<typeof member>>, packageId: string, body: Record<string, unknown> = {}) {
  const { payment, checkout_url } = (await who.client.post('/api/payment.php', { package_id: packageId, method: 'ideal', ...body })).json();
  const id = new URL(checkout_url, 'http://x').searchParams.get('id')!;
  await hostFetch(rt, 'spetter', '/api/test-checkout.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${id}&outcome=paid` });
  return payment.payment_id as number;
}

describe.each(engines())('transactions on %s', (engine) => {
  const rt = useRuntime(engine);

  test('the ledger lists purchases, spends and grants newest first with the balance after each; each purchase has its invoice', async () => {
    const bob = await member(rt(), 'male');
    const anna = await member(rt(), 'female');
    const first = await buy(rt(), bob, 'starter', { discount_code: 'TIMEBONUS25' });
    const sent = await bob.client.post('/api/chat.php', { profile_id: anna.profileId, kind: 'text', text: 'Hoi!', client_id: randomUUID() });
    expect(sent.status).toBe(200);
    await grant(rt().db.db, { userId: bob.userId, credits: 7, reason: 'bonus', ref: `op:${randomUUID()}`, note: 'Excuses (Sanne)' });
    const second = await buy(rt(), bob, 'popular');

    const { transactions, next } = (await bob.client.get('/api/transactions.php')).json();
    expect(next).toBeNull();
    const user = await bob.client.user();
    expect(transactions[0].balance).toBe(user.credits);
    expect(transactions.map((t: { reason: string }) => t.reason)).toEqual(['purchase', 'bonus', 'message', 'purchase', 'signup']);
    const [p2, bonus, message, p1, signup] = transactions;
    expect(p2).toMatchObject({ credits: 125, payment: { payment_id: second, package_id: 'popular', amount: 2999, currency: 'EUR', method: 'ideal' } });
    expect(bonus).toMatchObject({ credits: 7, note: 'Excuses (Sanne)', payment: null });
    expect(message.credits).toBe(-brand(rt()).message_credits);
    expect(message.conversation_id).toBe(sent.json().conversation_id);
    expect(p1.payment.amount).toBe(1499 - Math.round(1499 * 0.25));
    expect(signup).toMatchObject({ credits: bob.startCredits, balance: bob.startCredits });
    // Each balance is the one below it plus the entry.
    for (let i = 0; i < transactions.length - 1; i++) expect(transactions[i].balance).toBe(transactions[i + 1].balance + transactions[i].credits);

    // Invoice numbers run on without gaps (one company for both brands' counter).
    const n1 = p1.payment.invoice_number as string;
    const n2 = p2.payment.invoice_number as string;
    expect(n1).toMatch(/^\d{4}-\d{6}$/);
    expect(Number(n2.slice(5))).toBe(Number(n1.slice(5)) + 1);

    const invoice = (await bob.client.get(`/api/transactions.php?id=${first}`)).json().invoice;
    expect(invoice).toMatchObject({
      invoice_number: n1,
      company: { name: brand(rt()).company.name, kvk: brand(rt()).company.kvk, vat_number: 'NL862345678B01' },
      customer: { email: bob.email },
      line: { credits: 50, package_id: 'starter', method: 'ideal' },
      currency: 'EUR',
      list_amount: 1499,
      discount_code: 'TIMEBONUS25',
      discount: Math.round(1499 * 0.25),
      gross: 1499 - Math.round(1499 * 0.25),
      vat_rate: 21,
    });
    expect(invoice.net + invoice.vat).toBe(invoice.gross);
    expect(invoice).toMatchObject(splitVat(invoice.gross, 21));
    expect(Date.parse(invoice.refundable_until) - Date.parse(invoice.date)).toBe(brand(rt()).refund_days * 86_400_000);
    // An issued invoice stays as issued: the member moving to Germany under another name changes nothing on it.
    await rt().db.db.updateTable('profiles').set({ country: 'DE', name: 'Anders' }).where('user_id', '=', bob.userId).execute();
    expect((await bob.client.get(`/api/transactions.php?id=${first}`)).json().invoice).toEqual(invoice);
    await rt().db.db.updateTable('profiles').set({ country: 'NL' }).where('user_id', '=', bob.userId).execute();

    // Nobody else's, nothing unpaid, nothing malformed.
    expect((await anna.client.get(`/api/transactions.php?id=${first}`)).status).toBe(404);
    const { payment: open } = (await bob.client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' })).json();
    expect((await bob.client.get(`/api/transactions.php?id=${open.payment_id}`)).status).toBe(404);
    for (const q of ['id=0', 'id=abc', 'before=-1', 'id=1&before=2']) expect((await bob.client.get(`/api/transactions.php?${q}`)).status).toBe(400);
    expect((await hostFetch(rt(), 'spetter', '/api/transactions.php')).status).toBe(401);
  });

  test('pages of the ledger follow each other without gaps or repeats', async () => {
    const bob = await member(rt(), 'male');
    for (let i = 0; i < 60; i++) await grant(rt().db.db, { userId: bob.userId, credits: 1, reason: 'bonus', ref: `page-${bob.userId}-${i}` });
    const first = (await bob.client.get('/api/transactions.php')).json();
    expect(first.transactions).toHaveLength(50);
    const second = (await bob.client.get(`/api/transactions.php?before=${first.next}`)).json();
    expect(second.next).toBeNull();
    const all = [...first.transactions, ...second.transactions];
    expect(all).toHaveLength(61);
    expect(new Set(all.map((t: { id: number }) => t.id)).size).toBe(61);
    expect(all.at(-1).balance).toBe(bob.startCredits);
    expect(all[0].balance).toBe(bob.startCredits + 60);
  });
});
