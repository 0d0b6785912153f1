import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { notFound } from '../errors.ts';
import { splitVat, vatFor } from '../../lib/vat.ts';
import type { LedgerReason } from '../../contract/credits.ts';
import type { InvoiceView, TransactionView } from '../../contract/payments.ts';

/** Entries a page of /transactions holds (keyset paging by ledger id, chosen). */
export const TRANSACTIONS_PAGE = 50;

/**
 * Gives a paid payment its invoice number, in the transaction that marks it paid: the next of
 * its company's counter for the year, so numbers run without gaps (`2026-000001`). The counter
 * row is taken by an upsert, which serialises concurrent payments of one company. The invoice is
 * kept as issued (`payments.invoice`): later changes of the member or the company leave it be.
 */
export async function assignInvoiceNumber(trx: Transaction<Database>, paymentId: number, tenant: Tenant, paidAt: string): Promise<string> {
  const year = new Date(paidAt).getUTCFullYear();
  const row = await trx
    .insertInto('invoice_counters')
    .values({ company_id: tenant.company.id, year, last: 1 })
    .onConflict((oc) => oc.columns(['company_id', 'year']).doUpdateSet({ last: sql`invoice_counters.last + 1` }))
    .returning('last')
    .executeTakeFirstOrThrow();
  const number = `${year}-${String(row.last).padStart(6, '0')}`;
  const issued = invoiceOf(tenant, { ...(await invoiceRow(trx).where('payments.id', '=', paymentId).executeTakeFirstOrThrow()), invoice_number: number, paid_at: paidAt });
  await trx.updateTable('payments').set({ invoice_number: number, invoice: JSON.stringify(issued), invoice_net: issued.net }).where('id', '=', paymentId).execute();
  return number;
}

/** What an invoice is drawn from: the payment, its member and profile. */
const invoiceRow = (db: Kysely<Database>) =>
  db
    .selectFrom('payments')
    .innerJoin('users', 'users.id', 'payments.user_id')
    .leftJoin('profiles', 'profiles.user_id', 'users.id')
    .select(['payments.id', 'payments.invoice_number', 'payments.invoice', 'payments.paid_at', 'payments.credits', 'payments.package_id', 'payments.method', 'payments.currency', 'payments.amount', 'payments.list_amount', 'payments.discount_code', 'users.email', 'profiles.name', 'profiles.country']);

type InvoiceRow = Omit<Awaited<ReturnType<ReturnType<typeof invoiceRow>['executeTakeFirstOrThrow']>>, 'invoice_number' | 'paid_at'> & { invoice_number: string; paid_at: string };

/** The invoice of a paid payment: the brand's company, VAT of the member's country (SPEC §3 company info). */
function invoiceOf(tenant: Tenant, p: InvoiceRow): InvoiceView {
  const c = tenant.company;
  const vat = vatFor(c.vat_numbers, p.country);
  const split = vat ? splitVat(p.amount, vat.rate) : { net: p.amount, vat: 0 };
  const listAmount = p.list_amount ?? p.amount;
  return {
    payment_id: p.id,
    invoice_number: p.invoice_number,
    date: p.paid_at,
    company: { name: c.name, address: c.address, city: c.city, country: c.country, kvk: c.kvk, tradenames: c.tradenames, vat_number: vat?.number ?? null },
    customer: { name: p.name, email: p.email, country: p.country },
    line: { credits: p.credits, package_id: p.package_id, method: p.method },
    currency: p.currency,
    list_amount: listAmount,
    discount_code: p.discount_code,
    discount: listAmount - p.amount,
    gross: p.amount,
    net: split.net,
    vat: split.vat,
    vat_rate: vat?.rate ?? null,
    refundable_until: new Date(Date.parse(p.paid_at) + tenant.refund_days * 86_400_000).toISOString(),
  };
}

/** One line of /transactions and a purchase's invoice: the contract's. */
export type { InvoiceView, TransactionView };


/**
 * The transactions page: a member's credit ledger with what each entry was, and the invoice of
 * each purchase.
 */
export function createTransactionService(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    /** The member's credits now (the balance the ledger adds up to). */
    async balance(userId: number): Promise<number> {
      const user = await db.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirst();
      if (!user) throw notFound();
      return user.credits;
    },

    /** The member's ledger, newest first, TRANSACTIONS_PAGE at a time before ledger id `before`. */
    async list(userId: number, before: number | null): Promise<{ transactions: TransactionView[]; next: number | null }> {
      const rows = await db
        .selectFrom('credit_ledger as l')
        .leftJoin('payments as p', (join) => join.onRef('p.provider_id', '=', 'l.ref').on('l.reason', '=', 'purchase'))
        // The message's id is the entry's ref: cast on the ledger's side, so the messages' key is used.
        .leftJoin('messages as m', (join) => join.on(sql<boolean>`m.id = case when l.reason in ('message', 'photo', 'gift') then cast(l.ref as integer) end`))
        .select(['l.id', 'l.created_at', 'l.reason', 'l.delta', 'l.note', 'p.id as payment_id', 'p.package_id', 'p.amount', 'p.currency', 'p.method', 'p.invoice_number', 'm.conversation_id'])
        .where('l.user_id', '=', userId)
        .$if(before !== null, (q) => q.where('l.id', '<', before!))
        .orderBy('l.id', 'desc')
        .limit(TRANSACTIONS_PAGE + 1)
        .execute();
      const page = rows.slice(0, TRANSACTIONS_PAGE);
      if (page.length === 0) return { transactions: [], next: null };
      // The balance after the newest entry of the page: today's balance less what came later.
      const later = await db
        .selectFrom('credit_ledger')
        .select(sql<number>`coalesce(sum(delta), 0)`.as('sum'))
        .where('user_id', '=', userId)
        .where('id', '>', page[0]!.id)
        .executeTakeFirstOrThrow();
      const user = await db.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirstOrThrow();
      let balance = user.credits - Number(later.sum);
      const transactions = page.map((r): TransactionView => {
        const view: TransactionView = {
          id: r.id,
          created_at: r.created_at,
          reason: r.reason as LedgerReason,
          credits: r.delta,
          balance,
          note: r.note,
          payment: r.payment_id === null ? null : { payment_id: r.payment_id, package_id: r.package_id!, amount: r.amount!, currency: r.currency!, method: r.method!, invoice_number: r.invoice_number },
          conversation_id: r.conversation_id,
        };
        balance -= r.delta;
        return view;
      });
      return { transactions, next: rows.length > TRANSACTIONS_PAGE ? page[page.length - 1]!.id : null };
    },

    /** The invoice of one of the member's paid purchases as it was issued, or 404. */
    async invoice(tenant: Tenant, userId: number, paymentId: number): Promise<InvoiceView> {
      const p = await invoiceRow(db)
        .where('payments.id', '=', paymentId)
        .where('payments.user_id', '=', userId)
        .where('payments.tenant_id', '=', tenant.id)
        .where('payments.status', '=', 'paid')
        .executeTakeFirst();
      if (!p || !p.invoice_number || !p.paid_at) throw notFound();
      return p.invoice ? (JSON.parse(p.invoice) as InvoiceView) : invoiceOf(tenant, { ...p, invoice_number: p.invoice_number, paid_at: p.paid_at });
    },
  };
}

export type TransactionService = ReturnType<typeof createTransactionService>;
