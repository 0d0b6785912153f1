import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, PaymentStatus, TestCheckoutsTable } from '../db/schema.ts';
import type { PaymentProvider } from './provider.ts';

/** What the hosted checkout page shows. */
export type TestCheckout = Pick<Selectable<TestCheckoutsTable>, 'id' | 'tenant_id' | 'amount' | 'currency' | 'description' | 'method' | 'status' | 'redirect_url'>;

import type { TestOutcome } from '../../contract/payments.ts';

/** The card a paid 'first' card payment saves: the brand of the method chosen, a test number. */
const TEST_CARD_LABEL = (method: string, today: Date) => `${CARD_NAMES[method] ?? 'Card'} •••• 4242, 12/${today.getFullYear() + 3}`;
const CARD_NAMES: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', maestro: 'Maestro', creditcard: 'Visa', cartebancaire: 'Carte Bancaire' };

/** "Pending, then paid after N seconds": N (chosen). */
export const TEST_PENDING_SECONDS = 5;
/** An open checkout nobody finished expires after this long, as iDEAL's do at Mollie (chosen). */
export const TEST_CHECKOUT_MINUTES = 15;

/**
 * The built-in test provider: works offline, with its own hosted checkout page in the runtime
 * (GET /api/test-checkout.php?id=…). Its payments live in `test_checkouts`, as a real provider
 * keeps them on its side; the page's buttons choose the outcome, and the provider then calls the
 * webhook as a real one does. A pending payment becomes paid TEST_PENDING_SECONDS later.
 */
export function createTestProvider(deps: { db: Kysely<Database>; now?: () => Date }) {
  const { db } = deps;
  const now = () => deps.now?.() ?? new Date();

  /** Checkouts opened before this are past TEST_CHECKOUT_MINUTES. */
  const expiredBefore = () => new Date(now().getTime() - TEST_CHECKOUT_MINUTES * 60_000).toISOString();

  /** A checkout as it stands now: an open one past TEST_CHECKOUT_MINUTES expires as it is read. */
  async function current<T extends { id: string; status: PaymentStatus; created_at: string }>(row: T | undefined): Promise<T | undefined> {
    if (!row || row.status !== 'open' || row.created_at > expiredBefore()) return row;
    await db.updateTable('test_checkouts').set({ status: 'expired' }).where('id', '=', row.id).where('status', '=', 'open').execute();
    return { ...row, status: 'expired' };
  }

  async function validMandate(customerId: string | undefined, mandateId: string | undefined): Promise<boolean> {
    if (!customerId || !mandateId) return false;
    const row = await db.selectFrom('test_mandates').select('status').where('id', '=', mandateId).where('customer_id', '=', customerId).executeTakeFirst();
    return row?.status === 'valid';
  }

  /** A 'first' card payment, once paid, leaves the card saved as the provider's mandate (simulated: a test card). */
  async function saveCard(row: { customer_id: string | null; sequence_type: string | null; method: string }): Promise<void> {
    if (row.sequence_type !== 'first' || !row.customer_id) return;
    await db.insertInto('test_mandates').values({ id: `tmdt_${randomBytes(8).toString('hex')}`, customer_id: row.customer_id, method: 'creditcard', label: TEST_CARD_LABEL(row.method, now()) }).execute();
  }

  const provider: PaymentProvider & {
    /** The checkout page's choice; answers the checkout or null for an unknown or settled one. */
    decide(id: string, outcome: TestOutcome): Promise<{ redirectUrl: string; webhookUrl: string; settleAt: string | null } | null>;
    /** What the hosted checkout page shows. */
    checkout(id: string): Promise<TestCheckout | null>;
  } = {
    name: 'test',
    async create(input) {
      const id = `tst_${randomBytes(12).toString('hex')}`;
      // A payment on a mandate is collected at once (SEPA collection simulated): paid, no checkout.
      const recurring = input.sequenceType === 'recurring';
      await db
        .insertInto('test_checkouts')
        .values({
          id,
          tenant_id: input.tenantId,
          amount: input.amount,
          currency: input.currency,
          description: input.description,
          method: input.method,
          redirect_url: input.redirectUrl,
          webhook_url: input.webhookUrl,
          created_at: now().toISOString(),
          customer_id: input.customerId ?? null,
          sequence_type: input.sequenceType ?? null,
          // A recurring payment is paid when its mandate is valid, and fails otherwise.
          ...(recurring ? { status: (await validMandate(input.customerId, input.mandateId)) ? ('paid' as const) : ('failed' as const) } : {}),
        })
        .execute();
      return { id, checkoutUrl: recurring ? null : `/api/test-checkout.php?id=${id}` };
    },
    async cancel(id) {
      // An open checkout can always be cancelled here, as some methods can be at Mollie.
      const result = await db.updateTable('test_checkouts').set({ status: 'canceled' }).where('id', '=', id).where('status', '=', 'open').where('created_at', '>', expiredBefore()).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async createCustomer() {
      return `tcst_${randomBytes(8).toString('hex')}`;
    },
    async createMandate(customerId, input) {
      const id = `tmdt_${randomBytes(8).toString('hex')}`;
      await db.insertInto('test_mandates').values({ id, customer_id: customerId, method: input.method, label: `${input.consumerName}, ${input.consumerAccount.slice(0, 4)} •••• ${input.consumerAccount.slice(-4)}` }).execute();
      return { id };
    },
    async mandates(customerId) {
      const rows = await db.selectFrom('test_mandates').select(['id', 'status', 'method', 'label']).where('customer_id', '=', customerId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      return rows;
    },
    async revokeMandate(customerId, mandateId) {
      await db.updateTable('test_mandates').set({ status: 'invalid' }).where('id', '=', mandateId).where('customer_id', '=', customerId).execute();
    },
    async get(id) {
      const row = await current(await db.selectFrom('test_checkouts').select(['id', 'status', 'created_at', 'settle_at', 'customer_id', 'sequence_type', 'method']).where('id', '=', id).executeTakeFirst());
      if (!row) return null;
      if (row.status === 'pending' && row.settle_at && row.settle_at <= now().toISOString()) {
        const settled = await db.updateTable('test_checkouts').set({ status: 'paid' }).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
        // Whoever turned it paid saves the card (the webhook and the return can ask at once).
        if (Number(settled.numUpdatedRows) === 1) await saveCard(row);
        return { id, status: 'paid' };
      }
      return { id, status: row.status };
    },
    async decide(id, outcome) {
      const settleAt = outcome === 'pending' ? new Date(now().getTime() + TEST_PENDING_SECONDS * 1000).toISOString() : null;
      const result = await db
        .updateTable('test_checkouts')
        .set({ status: outcome, settle_at: settleAt })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .where('created_at', '>', expiredBefore())
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      const row = await db.selectFrom('test_checkouts').select(['redirect_url', 'webhook_url', 'customer_id', 'sequence_type', 'method']).where('id', '=', id).executeTakeFirstOrThrow();
      if (outcome === 'paid') await saveCard(row);
      return { redirectUrl: row.redirect_url, webhookUrl: row.webhook_url, settleAt };
    },
    async checkout(id) {
      return (await current(await db.selectFrom('test_checkouts').select(['id', 'tenant_id', 'amount', 'currency', 'description', 'method', 'status', 'redirect_url', 'created_at']).where('id', '=', id).executeTakeFirst())) ?? null;
    },
  };
  return provider;
}

export type TestProvider = ReturnType<typeof createTestProvider>;
