import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, PaymentStatus, PaymentsTable } from '../db/schema.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { EventBus } from '../bus.ts';
import { AppError, notFound } from '../errors.ts';
import { grant, spend } from '../ledger.ts';
import { publishToMember } from './events.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { FINAL_PAYMENT_STATUSES, type Mandate, type PaymentView, type RepeatOffer } from '../../contract/payments.ts';
import { PAYMENT_METHODS, methodsFor } from '../../lib/payment-methods.ts';
import type { DiscountMember, DiscountService } from './discounts.ts';
import type { DirectDebitPayment } from './directdebit.ts';
import { assignInvoiceNumber } from './invoices.ts';
import { keepPayer } from './revenue.ts';
import { bundlePrice } from '../../lib/bundle-price.ts';
import { lockMember, lockingRows } from '../db/engine.ts';
import type { PostbackService } from './postbacks.ts';
import type { CountMemberEvent } from './traffic.ts';

/**
 * A repeat order on the saved card within this many seconds of the same one answers that charge
 * instead of charging the card again: a double click, or the button in two tabs (chosen).
 */
export const REPEAT_ORDER_ONCE_SECONDS = 60;

/** Statuses a payment never leaves. */
const FINAL: ReadonlySet<PaymentStatus> = new Set(FINAL_PAYMENT_STATUSES);

/** Card methods: paid as a provider's 'first' payment, they leave a saved card. */
const isCard = (method: string) => PAYMENT_METHODS.some((m) => m.id === method && m.kind === 'card');

export type { PaymentView, RepeatOffer };

/**
 * Buying credit bundles (SPEC §1, §4 payment order): a payment for one of the brand's packages
 * through the brand's provider, settled only on the provider's word. Settling is idempotent: the
 * status moves to paid once (a conditional update), and the credits are granted once through the
 * ledger with the provider's payment id as reference (a unique index), so a replayed webhook, a
 * duplicate, or the member's return racing the webhook never credits twice. The first completed
 * purchase makes the member premium (SPEC §4 membership).
 */
export function createPaymentService(deps: { db: Kysely<Database>; bus: EventBus; provider: (tenant: Tenant, name?: PaymentProvider['name']) => PaymentProvider; tenants: () => Tenant[]; discounts: DiscountService; log?: (line: string) => void; now?: () => Date; postbacks?: Pick<PostbackService, 'record' | 'dispatch'>; countMember?: CountMemberEvent }) {
  const { db, bus } = deps;
  /** The one clock of payments, as of discounts and direct debit (tests move it). */
  const now = () => deps.now?.() ?? new Date();
  const view = (p: { id: number; package_id: string; credits: number; amount: number; list_amount: number | null; discount_code: string | null; currency: string; method: string; status: PaymentStatus }): PaymentView => ({
    payment_id: p.id,
    package_id: p.package_id,
    credits: p.credits,
    amount: p.amount,
    list_amount: p.list_amount ?? p.amount,
    discount_code: p.discount_code,
    currency: p.currency,
    method: p.method,
    status: p.status,
  });

  /** A payments row, then the provider's payment, then the row names it. */
  async function open(
    tenant: Tenant,
    userId: number,
    order: { pack: Tenant['packages'][number]; amount: number; listAmount: number; currency: string; discountCode: string | null; method: string },
    origin: string,
    extra: { customerId?: string; mandateId?: string; sequenceType?: 'oneoff' | 'first' | 'recurring' },
    once = false,
  ): Promise<{ payment: Selectable<PaymentsTable>; checkoutUrl: string | null; again?: true }> {
    const { pack, amount, method } = order;
    const provider = deps.provider(tenant);
    // A card payment outside a mandate is a 'first' payment of the member's customer: the provider keeps the card for repeat orders.
    if (!extra.sequenceType && isCard(method)) extra = { customerId: await customerOf(tenant, userId, provider), sequenceType: 'first' };
    // The payment holding the code may have moved on at the provider (paid, or an abandoned
    // checkout expired): ask before the hold is judged. A provider that cannot answer leaves it as stored.
    const holder = order.discountCode ? await deps.discounts.holder(userId, order.discountCode) : undefined;
    if (holder && (holder.status === 'open' || holder.status === 'pending')) {
      const seen = await settle(holder.provider_id).catch(() => undefined);
      if (seen?.status === 'open' && holder.method !== 'sct') await takeOver(tenant, holder);
    }
    // The row and its discount code's hold commit together: one code, one payment at a time.
    const row = await db.transaction().execute(async (trx) => {
      if (once) {
        // The second of two requests at once sees the first one's payment.
        await lockMember(trx, userId);
        const recent = await trx
          .selectFrom('payments')
          .selectAll()
          .where('user_id', '=', userId)
          .where('package_id', '=', pack.id)
          .where('method', '=', method)
          .where('checkout_url', '=', '')
          .where('status', 'in', ['open', 'pending', 'paid'])
          .where('created_at', '>', new Date(now().getTime() - REPEAT_ORDER_ONCE_SECONDS * 1000).toISOString())
          .orderBy('id', 'desc')
          .executeTakeFirst();
        if (recent) return { id: recent.id, recent };
      }
      const inserted = await trx
        .insertInto('payments')
        .values({
          tenant_id: tenant.id,
          user_id: userId,
          package_id: pack.id,
          credits: pack.credits,
          amount,
          list_amount: order.listAmount,
          discount_code: order.discountCode,
          discount_amount: order.listAmount - amount,
          currency: order.currency,
          method,
          provider: provider.name,
          provider_id: `pending-${crypto.randomUUID()}`,
          checkout_url: '',
          created_at: now().toISOString(),
          updated_at: now().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (order.discountCode) await deps.discounts.reserve(trx, userId, order.discountCode, inserted.id);
      return { id: inserted.id, recent: undefined };
    }).catch(async (error: unknown) => {
      // Held by a checkout the provider could not cancel: the member may go on with that one.
      const still = error instanceof AppError && error.code === 'discount_used' && order.discountCode ? await deps.discounts.holder(userId, order.discountCode) : undefined;
      if (still?.status === 'open' && still.checkout_url) throw new AppError('discount_used', 409, { field: 'code', extra: { open_checkout_url: still.checkout_url } });
      throw error;
    });
    if (row.recent) return { payment: row.recent, checkoutUrl: null, again: true };
    let created: Awaited<ReturnType<PaymentProvider['create']>>;
    try {
      created = await provider.create({
        tenantId: tenant.id,
        amount,
        currency: order.currency,
        description: `${tenant.name}: ${pack.credits} credits`,
        method,
        redirectUrl: `${origin}/credits/${pack.id}/${method}?payment=${row.id}`,
        webhookUrl: `${origin}/api/payment-webhook.php`,
        ...extra,
      });
    } catch (error) {
      // The provider refused (a method or currency it does not take) or could not be reached:
      // the payment is failed, so it holds no code and counts toward no limit.
      await db.updateTable('payments').set({ status: 'failed', updated_at: now().toISOString() }).where('id', '=', row.id).execute();
      const status = (error as { statusCode?: number }).statusCode;
      if (status !== undefined && status >= 400 && status < 500) throw new AppError('invalid_input', 400, { field: 'method', key: 'payment_failed' });
      throw error;
    }
    const payment = await db.updateTable('payments').set({ provider_id: created.id, checkout_url: created.checkoutUrl ?? '' }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();
    return { payment, checkoutUrl: created.checkoutUrl };
  }

  /**
   * A checkout the member left unpaid (back from the provider's page, another tab) while it holds
   * the code of the payment being started: cancelled at its provider where the provider can, and
   * recorded as the provider then reports it, so the new payment takes the hold over (reserve).
   * Paid meanwhile, it is the code's use and the new payment is refused; a provider that cannot
   * cancel it leaves it holding the code. A bank transfer is not taken over: its money may still come.
   */
  async function takeOver(tenant: Tenant, holder: { provider_id: string; provider: string }): Promise<void> {
    const cancelled = await deps
      .provider(tenant, holder.provider as PaymentProvider['name'])
      .cancel(holder.provider_id)
      .catch((error: Error) => {
        deps.log?.(`payments: ${holder.provider_id} could not be cancelled: ${error.message}`);
        return false;
      });
    if (cancelled) await settle(holder.provider_id).catch(() => undefined);
  }

  /** The member's customer at the brand's provider, made on first need. */
  async function customerOf(tenant: Tenant, userId: number, provider: PaymentProvider): Promise<string> {
    const known = await db.selectFrom('payment_customers').select('customer_id').where('user_id', '=', userId).where('provider', '=', provider.name).executeTakeFirst();
    if (known) return known.customer_id;
    const user = await db.selectFrom('users').leftJoin('profiles', 'profiles.user_id', 'users.id').select(['users.email', 'profiles.name']).where('users.id', '=', userId).executeTakeFirstOrThrow();
    const id = await provider.createCustomer({ tenantId: tenant.id, name: user.name ?? user.email, email: user.email });
    await db.insertInto('payment_customers').values({ user_id: userId, provider: provider.name, customer_id: id }).onConflict((oc) => oc.doNothing()).execute();
    const row = await db.selectFrom('payment_customers').select('customer_id').where('user_id', '=', userId).where('provider', '=', provider.name).executeTakeFirstOrThrow();
    return row.customer_id;
  }

  /** The member's valid saved card at the brand's provider, or null (no customer made for asking). */
  async function savedCard(tenant: Tenant, userId: number): Promise<Mandate | null> {
    const provider = deps.provider(tenant);
    const known = await db.selectFrom('payment_customers').select('customer_id').where('user_id', '=', userId).where('provider', '=', provider.name).executeTakeFirst();
    if (!known) return null;
    return (await provider.mandates(known.customer_id)).find((m) => m.status === 'valid' && m.method === 'creditcard') ?? null;
  }

  /**
   * Each rise of the refunded and the charged-back amount as a `payment_reversals` row, dated now
   * (the revenue figures of the day it was seen), and its postback; answers the postbacks' ids.
   */
  async function recordReversals(trx: Transaction<Database>, payment: Selectable<PaymentsTable>, given: { refunded: number; chargedBack: number }): Promise<number[]> {
    const ids: number[] = [];
    for (const [kind, total] of [['refund', given.refunded], ['chargeback', given.chargedBack]] as const) {
      const recorded = await trx.selectFrom('payment_reversals').select((eb) => eb.fn.max<number>('total').as('total')).where('payment_id', '=', payment.id).where('kind', '=', kind).executeTakeFirst();
      const amount = total - Number(recorded?.total ?? 0);
      if (amount <= 0) continue;
      await trx
        .insertInto('payment_reversals')
        .values({ payment_id: payment.id, tenant_id: payment.tenant_id, user_id: payment.user_id, kind, amount, total, currency: payment.currency, at: now().toISOString() })
        .execute();
      // Counted for the member's lander and source too (issue 23), each kind with its own amount.
      await deps.countMember?.(trx, payment.user_id, { kind, amount, currency: payment.currency });
      if (deps.postbacks) ids.push(...(await deps.postbacks.record(trx, { tenantId: payment.tenant_id, userId: payment.user_id, event: kind, key: `${kind}:${payment.id}:${total}`, payout: amount, currency: payment.currency, txid: payment.id })));
    }
    return ids;
  }

  /**
   * A paid payment given back since, in part or whole (refunded at the provider, or charged back
   * by the member's bank, as a SEPA direct debit may be for 8 weeks): the bundle's credits go
   * back in proportion, as far as the member still has them (credits spent on messages stay
   * spent), once for each rise of the amount given back. A direct debit charged back also blocks
   * the member's direct debit (SPEC §6).
   */
  async function reverse(payment: Selectable<PaymentsTable>, given: { refunded: number; chargedBack: number }): Promise<void> {
    const reversed = given.refunded + given.chargedBack;
    const chargedBack = given.chargedBack > 0;
    const postbacks: number[] = [];
    const balance = await db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('payments').select('reversed_amount').where('id', '=', payment.id).$call(lockingRows(trx)).executeTakeFirstOrThrow();
      if (reversed <= before.reversed_amount) return null;
      await trx.updateTable('payments').set({ reversed_amount: reversed, updated_at: now().toISOString() }).where('id', '=', payment.id).execute();
      postbacks.push(...(await recordReversals(trx, payment, given)));
      if (chargedBack && payment.method === 'sdd') await trx.updateTable('users').set({ directdebit_blocked: 1 }).where('id', '=', payment.user_id).execute();
      const share = (cents: number) => Math.floor((payment.credits * Math.min(cents, payment.amount)) / payment.amount);
      const owed = share(reversed) - share(before.reversed_amount);
      const user = await trx.selectFrom('users').select('credits').where('id', '=', payment.user_id).$call(lockingRows(trx)).executeTakeFirstOrThrow();
      const take = Math.min(owed, user.credits);
      if (take <= 0) return null;
      return (await spend(trx, { userId: payment.user_id, credits: take, reason: 'refund', ref: `reversal:${payment.provider_id}:${reversed}` })).balance;
    });
    deps.postbacks?.dispatch(postbacks);
    if (balance !== null) {
      await publishToMember(bus, payment.user_id, { type: 'credits', balance });
      await publishToMember(bus, payment.user_id, { type: 'user' });
    }
  }

  /**
   * Asks the provider where a payment stands and records it (the webhook, and the member's
   * return): paid grants the credits once and makes the member premium. Unknown ids are 404, and
   * so is a payment of another brand than `brandId` (a webhook posted to another brand's host).
   */
  async function settle(providerId: string, brandId?: string): Promise<PaymentView> {
    const payment = await db.selectFrom('payments').selectAll().where('provider_id', '=', providerId).executeTakeFirst();
    if (!payment || (brandId !== undefined && payment.tenant_id !== brandId)) throw notFound();
    const tenant = deps.tenants().find((t) => t.id === payment.tenant_id);
    if (!tenant) throw notFound();
    // The provider that took the payment, even if the brand has moved to another since.
    const reported = await deps.provider(tenant, payment.provider as PaymentProvider['name']).get(providerId);
    if (!reported) throw notFound();
    const given = { refunded: reported.refunded ?? 0, chargedBack: reported.chargedBack ?? 0 };
    const reversed = given.refunded + given.chargedBack;
    if (payment.status === 'paid') {
      if (reversed > payment.reversed_amount) await reverse(payment, given);
      return view(payment);
    }
    if (reported.status === payment.status) return view(payment);
    const postbacks: number[] = [];
    const credited = await db.transaction().execute(async (trx) => {
      const at = now().toISOString();
      const moved = await trx
        .updateTable('payments')
        .set({ status: reported.status, updated_at: at, ...(reported.status === 'paid' ? { paid_at: at } : {}) })
        .where('id', '=', payment.id)
        .where('status', '!=', 'paid')
        .executeTakeFirst();
      if (reported.status !== 'paid' || Number(moved.numUpdatedRows) === 0) return null;
      const { balance, duplicate } = await grant(trx, { userId: payment.user_id, credits: payment.credits, reason: 'purchase', ref: providerId });
      if (duplicate) return null;
      await assignInvoiceNumber(trx, payment.id, tenant, at);
      // The member's first purchase (revenue's first and repeat purchases). The grant's update of the
      // member's row holds it until commit, so two payments settling at once are not both first; a
      // FOR UPDATE here would deadlock with the other's ledger insert (its foreign-key share lock).
      const earlier = await trx.selectFrom('payments').select('id').where('user_id', '=', payment.user_id).where('status', '=', 'paid').where('id', '!=', payment.id).executeTakeFirst();
      if (!earlier) await trx.updateTable('payments').set({ first_purchase: 1 }).where('id', '=', payment.id).execute();
      // Counted for the member's lander and source (issue 23): their first purchase, or a further one.
      await deps.countMember?.(trx, payment.user_id, { kind: 'purchase', first: !earlier, amount: payment.amount, currency: payment.currency });
      await trx.updateTable('users').set({ paid_user: 1 }).where('id', '=', payment.user_id).execute();
      await keepPayer(trx, { ...payment, paid_at: at });
      if (deps.postbacks) {
        const sale = { tenantId: payment.tenant_id, userId: payment.user_id, payout: payment.amount, currency: payment.currency, txid: payment.id };
        if (!earlier) postbacks.push(...(await deps.postbacks.record(trx, { ...sale, event: 'first_purchase', key: `first_purchase:${payment.id}` })));
        postbacks.push(...(await deps.postbacks.record(trx, { ...sale, event: 'purchase', key: `purchase:${payment.id}` })));
      }
      return balance;
    });
    deps.postbacks?.dispatch(postbacks);
    if (credited !== null) {
      await publishToMember(bus, payment.user_id, { type: 'credits', balance: credited });
      await publishToMember(bus, payment.user_id, { type: 'user' });
    }
    // Given back already when first seen paid (a late webhook): credited, then taken back.
    if (reported.status === 'paid' && reversed > 0) await reverse({ ...payment, status: 'paid' }, given);
    await publishToMember(bus, payment.user_id, { type: 'payment', payment_id: payment.id });
    const fresh = await db.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow();
    return view(fresh);
  }

  return {
    /**
     * Starts a payment of a package by a method the brand offers, priced in the currency of the
     * member's payment country, less a discount code if one is given (refused with its reason if
     * it does not apply); answers it and where to pay.
     */
    async start(
      tenant: Tenant,
      member: DiscountMember & { country: string | null },
      input: { package_id: string; method: string; discount_code?: string | undefined },
      context: { origin: string; locale: string },
    ): Promise<{ payment: PaymentView; checkout_url: string }> {
      const pack = tenant.packages.find((p) => p.id === input.package_id);
      if (!pack) throw new AppError('invalid_input', 400, { field: 'package_id', key: 'error_bad_request' });
      // Direct debit is authorised through its own form and SMS code (/directdebit), never a checkout.
      if (input.method === 'sdd' || !methodsFor(tenant, member.country).some((m) => m.id === input.method)) throw new AppError('invalid_input', 400, { field: 'method', key: 'error_bad_request' });
      // The price the credits page showed for this method (one rule: bundlePrice), less the code.
      const order = { country: member.country, method: input.method };
      const list = bundlePrice(pack, order)!;
      const discount = input.discount_code
        ? await deps.discounts.quote(tenant, member, input.discount_code, { amount: list.list, currency: list.currency, method: input.method, country: member.country, locale: context.locale })
        : null;
      const price = bundlePrice(pack, order, discount?.view)!;
      const opened = await open(tenant, member.id, { pack, amount: price.amount, listAmount: price.list, currency: price.currency, discountCode: discount?.code ?? null, method: input.method }, context.origin, {});
      if (!opened.checkoutUrl) throw new Error(`payments: ${opened.payment.provider_id} has no checkout`);
      return { payment: view(opened.payment), checkout_url: opened.checkoutUrl };
    },

    /**
     * What /credits/repeat-order offers: the member's last purchase, its bundle at today's price
     * for the member's country, and the saved card it can be charged on (null without one).
     */
    async repeatOffer(tenant: Tenant, member: { id: number; country: string | null }): Promise<RepeatOffer | null> {
      const last = await db.selectFrom('payments').selectAll().where('user_id', '=', member.id).where('tenant_id', '=', tenant.id).where('status', '=', 'paid').orderBy('id', 'desc').executeTakeFirst();
      const pack = last && tenant.packages.find((p) => p.id === last.package_id);
      if (!last || !pack) return null;
      const card = await savedCard(tenant, member.id);
      // Priced for the method it is charged by (bundlePrice): the saved card, else the last one (direct debit in euros).
      const charged = card ? (isCard(last.method) ? last.method : 'creditcard') : last.method;
      const price = bundlePrice(pack, { country: member.country, method: charged }) ?? bundlePrice(pack, { country: member.country })!;
      return { package_id: pack.id, credits: pack.credits, amount: price.list, currency: price.currency, method: last.method, paid_at: last.paid_at, card };
    },

    /**
     * The last purchase again in one step (SPEC §1 repeat orders): charged on the saved card
     * without a checkout when there is one; by direct debit through its SMS form; else through the
     * checkout of the same method. Answers where the browser goes next.
     */
    async repeat(tenant: Tenant, member: { id: number; country: string | null }, origin: string): Promise<{ next: string; payment: PaymentView | null }> {
      const offer = await this.repeatOffer(tenant, member);
      if (!offer) throw notFound();
      const pack = tenant.packages.find((p) => p.id === offer.package_id)!;
      if (offer.card) {
        const provider = deps.provider(tenant);
        const customerId = await customerOf(tenant, member.id, provider);
        const method = isCard(offer.method) ? offer.method : 'creditcard';
        const opened = await open(tenant, member.id, { pack, amount: offer.amount, listAmount: offer.amount, currency: offer.currency, discountCode: null, method }, origin, { customerId, mandateId: offer.card.id, sequenceType: 'recurring' }, true);
        // The charge a moment ago may still be on its way to the provider: then it is shown as it stands.
        const payment = await settle(opened.payment.provider_id).catch((error) => (opened.again ? view(opened.payment) : Promise.reject(error)));
        return { next: `/credits/${pack.id}/${method}?payment=${payment.payment_id}`, payment };
      }
      if (offer.method === 'sdd') return { next: `/directdebit?package=${pack.id}`, payment: null };
      const opened = await open(tenant, member.id, { pack, amount: offer.amount, listAmount: offer.amount, currency: offer.currency, discountCode: null, method: offer.method }, origin, {});
      return { next: opened.checkoutUrl!, payment: view(opened.payment) };
    },

    /** Removes the member's saved cards (the saved-card part of /credits/repeat-order): every valid card mandate, so none is charged again. */
    async removeSavedCard(tenant: Tenant, userId: number): Promise<void> {
      if (!(await savedCard(tenant, userId))) throw notFound();
      const provider = deps.provider(tenant);
      const customerId = await customerOf(tenant, userId, provider);
      for (const m of await provider.mandates(customerId)) if (m.status === 'valid' && m.method === 'creditcard') await provider.revokeMandate(customerId, m.id);
    },

    /**
     * A direct-debit order confirmed by its SMS code (services/directdebit.ts): a SEPA mandate for
     * the member's account at the provider, and the bundle debited on it at once; settled as the
     * provider reports it.
     */
    async directDebit(order: DirectDebitPayment): Promise<PaymentView> {
      const { tenant } = order;
      const pack = tenant.packages.find((p) => p.id === order.packageId);
      if (!pack) throw notFound();
      const provider = deps.provider(tenant);
      const customerId = await customerOf(tenant, order.userId, provider);
      const mandate = await provider.createMandate(customerId, { method: 'directdebit', consumerName: order.holder, consumerAccount: order.iban, signatureDate: now().toISOString().slice(0, 10) });
      const opened = await open(tenant, order.userId, { pack, amount: order.amount, listAmount: order.listAmount, currency: order.currency, discountCode: order.discountCode, method: 'sdd' }, order.origin, { customerId, mandateId: mandate.id, sequenceType: 'recurring' });
      return settle(opened.payment.provider_id);
    },

    settle,

    /**
     * The result screen's payment (GET /api/payment.php, /credits/{id}/{method}?payment=): where it
     * stands, asking the provider while it is not final, since the member's return may come before
     * the webhook. A provider that cannot answer now (down, or the payment still being handed to
     * it) leaves the stored status: the screen shows it and asks again. Another member's is 404.
     */
    async refresh(userId: number, paymentId: number): Promise<PaymentView> {
      const payment = await db.selectFrom('payments').selectAll().where('id', '=', paymentId).where('user_id', '=', userId).executeTakeFirst();
      if (!payment) throw notFound();
      if (FINAL.has(payment.status)) return view(payment);
      try {
        return await settle(payment.provider_id);
      } catch (error) {
        deps.log?.(`payments: payment ${payment.id} (${payment.provider_id}) could not be asked: ${(error as Error).message}`);
        return view(payment);
      }
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
