import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { electronicFormatIBAN, isSEPACountry, isValidIBAN } from 'ibantools';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { Database } from '../db/schema.ts';
import { lockMember } from '../db/engine.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { Limits } from '../limits.ts';
import type { SmsSender } from '../sms.ts';
import { AppError, notFound } from '../errors.ts';
import { message } from '../i18n.ts';
import { formatMoney } from '../../lib/money.ts';
import { euroPrice } from '../../lib/currencies.ts';
import { methodsFor } from '../../lib/payment-methods.ts';
import { DIRECT_DEBIT_CODE, DIRECT_DEBIT_LIMIT, maskMobile, type DirectDebitAnswer, type DirectDebitDetails } from '../../lib/directdebit.ts';
import type { DiscountMember, DiscountService } from './discounts.ts';
import type { PaymentView } from '../../contract/payments.ts';

const hash = (code: string) => createHash('sha256').update(code).digest('hex');

/** What a direct-debit order pays with once confirmed: the mandate's details and the order. */
export interface DirectDebitPayment {
  tenant: Tenant;
  userId: number;
  packageId: string;
  amount: number;
  listAmount: number;
  currency: string;
  discountCode: string | null;
  holder: string;
  iban: string;
  origin: string;
}

/**
 * Buying a bundle by SEPA direct debit (SPEC §5, §6, §8): the member enters the account holder,
 * IBAN, address and mobile number and consents; an SMS code authorises the order ("Code
 * ongeldig" when wrong, DIRECT_DEBIT_CODE.tries tries, valid DIRECT_DEBIT_CODE.minutes). Then a
 * mandate is made at the brand's provider and the bundle is debited on it. Refused for a member
 * with the direct-debit block, and past DIRECT_DEBIT_LIMIT (the sum of the member's direct-debit
 * payments in its window).
 */
export function createDirectDebitService(deps: {
  db: Kysely<Database>;
  sms: SmsSender;
  limits: Limits;
  discounts: DiscountService;
  /** Makes the mandate and the payment on it (the payment service). */
  pay: (order: DirectDebitPayment) => Promise<PaymentView>;
  now?: () => Date;
}) {
  const { db } = deps;
  const now = () => deps.now?.() ?? new Date();
  const sends = deps.limits({ name: 'directdebit-sms', points: DIRECT_DEBIT_CODE.sendsPerHour, windowSeconds: 3600 });

  async function refuseBlocked(userId: number): Promise<void> {
    const user = await db.selectFrom('users').select('directdebit_blocked').where('id', '=', userId).executeTakeFirstOrThrow();
    if (user.directdebit_blocked === 1) throw new AppError('directdebit_blocked', 403);
  }

  /**
   * Cents debited from the member in the limit's window: open, pending and paid direct debits,
   * and orders confirmed by their code whose debit is still being made (so orders confirmed side
   * by side each count the others).
   */
  async function used(userId: number, trx: Kysely<Database> = db): Promise<number> {
    const since = new Date(now().getTime() - DIRECT_DEBIT_LIMIT.days * 86_400_000).toISOString();
    const debits = await trx
      .selectFrom('payments')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
      .where('user_id', '=', userId)
      .where('method', '=', 'sdd')
      .where('status', 'in', ['open', 'pending', 'paid'])
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    const confirming = await trx
      .selectFrom('directdebit_orders')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
      .where('user_id', '=', userId)
      .where('status', '=', 'confirmed')
      .where('payment_id', 'is', null)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(debits.total) + Number(confirming.total);
  }

  return {
    /** What the form starts from: the member's last details, the limit and what is left of it. */
    async form(userId: number): Promise<{ details: Partial<DirectDebitDetails> | null; limit: number; left: number; currency: string; blocked: boolean }> {
      const user = await db.selectFrom('users').select('directdebit_blocked').where('id', '=', userId).executeTakeFirstOrThrow();
      const last = await db
        .selectFrom('directdebit_orders')
        .select(['holder', 'iban', 'street', 'house_number', 'postcode', 'city', 'mobile'])
        .where('user_id', '=', userId)
        .where('status', '=', 'confirmed')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      const spent = await used(userId);
      return { details: last ?? null, limit: DIRECT_DEBIT_LIMIT.amount, left: Math.max(0, DIRECT_DEBIT_LIMIT.amount - spent), currency: DIRECT_DEBIT_LIMIT.currency, blocked: user.directdebit_blocked === 1 };
    },

    /**
     * Places an order and sends its code by SMS. The details arrive validated and normalised by
     * the contract (IBAN electronic format, mobile number in E.164).
     */
    async order(
      tenant: Tenant,
      member: DiscountMember & { country: string | null },
      input: DirectDebitDetails & { package_id: string; discount_code?: string | undefined; consent: boolean },
      locale: string,
    ): Promise<DirectDebitAnswer> {
      if (!methodsFor(tenant, member.country).some((m) => m.id === 'sdd')) throw notFound();
      await refuseBlocked(member.id);
      const iban = electronicFormatIBAN(input.iban);
      if (!iban || !isValidIBAN(iban) || !isSEPACountry(iban.slice(0, 2))) throw new AppError('invalid_input', 400, { field: 'iban', key: 'directdebit_iban_invalid' });
      const phone = parsePhoneNumberFromString(input.mobile, (member.country ?? 'NL') as CountryCode);
      const kind = phone?.getType();
      if (!phone?.isValid() || (kind !== 'MOBILE' && kind !== 'FIXED_LINE_OR_MOBILE')) throw new AppError('invalid_input', 400, { field: 'mobile', key: 'directdebit_mobile_invalid' });
      if (!input.consent) throw new AppError('invalid_input', 400, { field: 'consent', key: 'directdebit_consent_required' });
      const details = { ...input, iban, mobile: phone.number };
      const pack = tenant.packages.find((p) => p.id === input.package_id);
      if (!pack) throw new AppError('invalid_input', 400, { field: 'package_id', key: 'error_bad_request' });
      const price = euroPrice(pack, member.country);
      if (!price) throw new AppError('invalid_input', 400, { field: 'package_id', key: 'error_bad_request' });
      const discount = input.discount_code ? await deps.discounts.quote(tenant, member, input.discount_code, { ...price, method: 'sdd', country: member.country, locale }) : null;
      const amount = price.amount - (discount?.discount ?? 0);
      if ((await used(member.id)) + amount > DIRECT_DEBIT_LIMIT.amount) throw new AppError('directdebit_limit', 403);
      await sends.take(member.id);

      const code = String(randomInt(0, 10 ** DIRECT_DEBIT_CODE.digits)).padStart(DIRECT_DEBIT_CODE.digits, '0');
      const expires = new Date(now().getTime() + DIRECT_DEBIT_CODE.minutes * 60_000).toISOString();
      // A new order replaces one still waiting for its code.
      await db.updateTable('directdebit_orders').set({ status: 'cancelled' }).where('user_id', '=', member.id).where('status', '=', 'awaiting_code').execute();
      const order = await db
        .insertInto('directdebit_orders')
        .values({
          tenant_id: tenant.id,
          user_id: member.id,
          package_id: pack.id,
          discount_code: discount?.code ?? null,
          amount,
          list_amount: price.amount,
          currency: price.currency,
          holder: details.holder,
          iban: details.iban,
          street: details.street,
          house_number: details.house_number,
          postcode: details.postcode.toUpperCase(),
          city: details.city,
          mobile: details.mobile,
          consent_at: now().toISOString(),
          code_hash: hash(code),
          code_expires_at: expires,
          tries_left: DIRECT_DEBIT_CODE.tries,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await deps.sms.send(details.mobile, message('sms_directdebit_code', locale, { brand: tenant.name, code, amount: formatMoney(amount, price.currency, locale) }));
      return { order: { id: order.id, mobile: maskMobile(details.mobile), amount, list_amount: price.amount, currency: price.currency, expires_at: expires, tries_left: DIRECT_DEBIT_CODE.tries } };
    },

    /**
     * Confirms an order with its SMS code: a wrong code costs a try ("Code ongeldig"); at the
     * last the order is cancelled. The right code is taken once (two tabs cannot debit twice);
     * then the mandate and the debit are made.
     */
    async confirm(tenant: Tenant, userId: number, input: { order_id: number; code: string }, origin: string): Promise<PaymentView> {
      await refuseBlocked(userId);
      const order = await db.selectFrom('directdebit_orders').selectAll().where('id', '=', input.order_id).where('user_id', '=', userId).where('tenant_id', '=', tenant.id).executeTakeFirst();
      if (!order || order.status !== 'awaiting_code') throw notFound();
      if (order.code_expires_at <= now().toISOString()) {
        await db.updateTable('directdebit_orders').set({ status: 'cancelled' }).where('id', '=', order.id).execute();
        throw new AppError('sms_code_expired', 410, { field: 'code' });
      }
      // A try is spent before the code is compared, so parallel guesses cannot outnumber the tries.
      const spent = await db
        .updateTable('directdebit_orders')
        .set((eb) => ({ tries_left: eb('tries_left', '-', 1) }))
        .where('id', '=', order.id)
        .where('status', '=', 'awaiting_code')
        .where('tries_left', '>', 0)
        .returning('tries_left')
        .executeTakeFirst();
      if (!spent) throw notFound();
      if (!timingSafeEqual(Buffer.from(hash(input.code)), Buffer.from(order.code_hash))) {
        if (spent.tries_left === 0) await db.updateTable('directdebit_orders').set({ status: 'cancelled' }).where('id', '=', order.id).where('status', '=', 'awaiting_code').execute();
        throw new AppError('sms_code_invalid', 400, { field: 'code', extra: { tries_left: spent.tries_left } });
      }
      // Confirmed and checked against the limit one order of the member at a time, this order
      // counted among the confirmed ones: orders placed side by side each passed the limit alone.
      const admitted = await db.transaction().execute(async (trx) => {
        await lockMember(trx, userId);
        const taken = await trx.updateTable('directdebit_orders').set({ status: 'confirmed' }).where('id', '=', order.id).where('status', '=', 'awaiting_code').executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 0) return 'gone';
        if ((await used(userId, trx)) > DIRECT_DEBIT_LIMIT.amount) {
          await trx.updateTable('directdebit_orders').set({ status: 'cancelled' }).where('id', '=', order.id).execute();
          return 'over';
        }
        return 'ok';
      });
      if (admitted === 'gone') throw notFound();
      if (admitted === 'over') throw new AppError('directdebit_limit', 403);
      try {
        const payment = await deps.pay({ tenant, userId, packageId: order.package_id, amount: order.amount, listAmount: order.list_amount, currency: order.currency, discountCode: order.discount_code, holder: order.holder, iban: order.iban, origin });
        await db.updateTable('directdebit_orders').set({ payment_id: payment.payment_id }).where('id', '=', order.id).execute();
        return payment;
      } catch (error) {
        await db.updateTable('directdebit_orders').set({ status: 'cancelled' }).where('id', '=', order.id).execute();
        throw error;
      }
    },

    /** The operator's direct-debit block (`sitegen directdebit block|unblock`). */
    async setBlocked(userId: number, blocked: boolean): Promise<void> {
      await db.updateTable('users').set({ directdebit_blocked: blocked ? 1 : 0 }).where('id', '=', userId).execute();
    },
  };
}

export type DirectDebitService = ReturnType<typeof createDirectDebitService>;
