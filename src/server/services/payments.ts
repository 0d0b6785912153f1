import type { Kysely } from 'kysely';
import type { Database, PaymentStatus } from '../db/schema.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { EventBus } from '../bus.ts';
import { AppError, notFound } from '../errors.ts';
import { grant } from '../ledger.ts';
import { publishToMember } from './events.ts';
import type { PaymentProvider } from '../payments/provider.ts';

/** A payment as the member's result screen shows it (SPEC §3 payment: payment_id, credits, amount). */
export interface PaymentView {
  payment_id: number;
  package_id: string;
  credits: number;
  /** Cents of `currency`. */
  amount: number;
  currency: string;
  method: string;
  status: PaymentStatus;
}

/**
 * Buying credit bundles (SPEC §1, §4 payment order): a payment for one of the brand's packages
 * through the brand's provider, settled only on the provider's word. Settling is idempotent: the
 * status moves to paid once (a conditional update), and the credits are granted once through the
 * ledger with the provider's payment id as reference (a unique index), so a replayed webhook, a
 * duplicate, or the member's return racing the webhook never credits twice. The first completed
 * purchase makes the member premium (SPEC §4 membership).
 */
export function createPaymentService(deps: { db: Kysely<Database>; bus: EventBus; provider: (tenant: Tenant) => PaymentProvider; tenants: () => Tenant[]; log?: (line: string) => void }) {
  const { db, bus } = deps;
  const view = (p: { id: number; package_id: string; credits: number; amount: number; currency: string; method: string; status: PaymentStatus }): PaymentView => ({
    payment_id: p.id,
    package_id: p.package_id,
    credits: p.credits,
    amount: p.amount,
    currency: p.currency,
    method: p.method,
    status: p.status,
  });

  return {
    /** Starts a payment of a package by a method the brand offers; answers it and where to pay. */
    async start(tenant: Tenant, userId: number, input: { package_id: string; method: string }, origin: string): Promise<{ payment: PaymentView; checkout_url: string }> {
      const pack = tenant.packages.find((p) => p.id === input.package_id);
      if (!pack) throw new AppError('invalid_input', 400, { field: 'package_id', key: 'error_bad_request' });
      if (!(tenant.payment_methods as string[]).includes(input.method)) throw new AppError('invalid_input', 400, { field: 'method', key: 'error_bad_request' });
      const provider = deps.provider(tenant);
      const row = await db
        .insertInto('payments')
        .values({ tenant_id: tenant.id, user_id: userId, package_id: pack.id, credits: pack.credits, amount: pack.price, currency: pack.currency, method: input.method, provider: provider.name, provider_id: `pending-${crypto.randomUUID()}`, checkout_url: '' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const created = await provider.create({
        tenantId: tenant.id,
        amount: pack.price,
        currency: pack.currency,
        description: `${tenant.name}: ${pack.credits} credits`,
        method: input.method,
        redirectUrl: `${origin}/credits/${pack.id}/${input.method}?payment=${row.id}`,
        webhookUrl: `${origin}/api/payment-webhook.php`,
      });
      const payment = await db.updateTable('payments').set({ provider_id: created.id, checkout_url: created.checkoutUrl }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();
      return { payment: view(payment), checkout_url: created.checkoutUrl };
    },

    /**
     * Asks the provider where a payment stands and records it (the webhook, and the member's
     * return): paid grants the credits once and makes the member premium. Unknown ids are 404.
     */
    async settle(providerId: string): Promise<PaymentView> {
      const payment = await db.selectFrom('payments').selectAll().where('provider_id', '=', providerId).executeTakeFirst();
      if (!payment) throw notFound();
      const tenant = deps.tenants().find((t) => t.id === payment.tenant_id);
      if (!tenant) throw notFound();
      const reported = await deps.provider(tenant).get(providerId);
      if (!reported) throw notFound();
      if (reported.status === payment.status || payment.status === 'paid') return view(payment);
      const credited = await db.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        const moved = await trx
          .updateTable('payments')
          .set({ status: reported.status, updated_at: now, ...(reported.status === 'paid' ? { paid_at: now } : {}) })
          .where('id', '=', payment.id)
          .where('status', '!=', 'paid')
          .executeTakeFirst();
        if (reported.status !== 'paid' || Number(moved.numUpdatedRows) === 0) return null;
        const { balance, duplicate } = await grant(trx, { userId: payment.user_id, credits: payment.credits, reason: 'purchase', ref: providerId });
        if (duplicate) return null;
        await trx.updateTable('users').set({ paid_user: 1 }).where('id', '=', payment.user_id).execute();
        return balance;
      });
      if (credited !== null) {
        await publishToMember(bus, payment.user_id, { type: 'credits', balance: credited });
        await publishToMember(bus, payment.user_id, { type: 'user' });
      }
      await publishToMember(bus, payment.user_id, { type: 'payment', payment_id: payment.id });
      const fresh = await db.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow();
      return view(fresh);
    },

    /** One of the member's payments (the result screen), or 404. */
    async get(userId: number, paymentId: number): Promise<PaymentView> {
      const payment = await db.selectFrom('payments').selectAll().where('id', '=', paymentId).where('user_id', '=', userId).executeTakeFirst();
      if (!payment) throw notFound();
      return view(payment);
    },

    /** The provider id of a member's payment (the return from the checkout settles it too). */
    async providerIdOf(userId: number, paymentId: number): Promise<string> {
      const payment = await db.selectFrom('payments').select('provider_id').where('id', '=', paymentId).where('user_id', '=', userId).executeTakeFirst();
      if (!payment) throw notFound();
      return payment.provider_id;
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
