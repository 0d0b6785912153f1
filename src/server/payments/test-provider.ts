import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, TestCheckoutsTable } from '../db/schema.ts';
import type { PaymentProvider } from './provider.ts';

/** What the hosted checkout page shows. */
export type TestCheckout = Pick<Selectable<TestCheckoutsTable>, 'id' | 'tenant_id' | 'amount' | 'currency' | 'description' | 'method' | 'status' | 'redirect_url'>;

import type { TestOutcome } from '../../contract/payments.ts';

/** "Pending, then paid after N seconds": N (chosen). */
export const TEST_PENDING_SECONDS = 5;

/**
 * The built-in test provider: works offline, with its own hosted checkout page in the runtime
 * (GET /api/test-checkout.php?id=…). Its payments live in `test_checkouts`, as a real provider
 * keeps them on its side; the page's buttons choose the outcome, and the provider then calls the
 * webhook as a real one does. A pending payment becomes paid TEST_PENDING_SECONDS later.
 */
export function createTestProvider(deps: { db: Kysely<Database>; now?: () => Date }) {
  const { db } = deps;
  const now = () => deps.now?.() ?? new Date();

  const provider: PaymentProvider & {
    /** The checkout page's choice; answers the checkout or null for an unknown or settled one. */
    decide(id: string, outcome: TestOutcome): Promise<{ redirectUrl: string; webhookUrl: string; settleAt: string | null } | null>;
    /** What the hosted checkout page shows. */
    checkout(id: string): Promise<TestCheckout | null>;
  } = {
    name: 'test',
    async create(input) {
      const id = `tst_${randomBytes(12).toString('hex')}`;
      await db
        .insertInto('test_checkouts')
        .values({ id, tenant_id: input.tenantId, amount: input.amount, currency: input.currency, description: input.description, method: input.method, redirect_url: input.redirectUrl, webhook_url: input.webhookUrl, created_at: now().toISOString() })
        .execute();
      return { id, checkoutUrl: `/api/test-checkout.php?id=${id}` };
    },
    async get(id) {
      const row = await db.selectFrom('test_checkouts').select(['id', 'status', 'settle_at']).where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      if (row.status === 'pending' && row.settle_at && row.settle_at <= now().toISOString()) {
        await db.updateTable('test_checkouts').set({ status: 'paid' }).where('id', '=', id).where('status', '=', 'pending').execute();
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
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      const row = await db.selectFrom('test_checkouts').select(['redirect_url', 'webhook_url']).where('id', '=', id).executeTakeFirstOrThrow();
      return { redirectUrl: row.redirect_url, webhookUrl: row.webhook_url, settleAt };
    },
    async checkout(id) {
      return (await db.selectFrom('test_checkouts').select(['id', 'tenant_id', 'amount', 'currency', 'description', 'method', 'status', 'redirect_url']).where('id', '=', id).executeTakeFirst()) ?? null;
    },
  };
  return provider;
}

export type TestProvider = ReturnType<typeof createTestProvider>;
