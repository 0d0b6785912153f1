import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, DiscountCodesTable, DiscountPurpose, PaymentStatus } from '../db/schema.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { AppError } from '../errors.ts';
import { formatMoney } from '../../lib/money.ts';
import { RETENTION_DISCOUNT_DAYS, TIME_BONUS, WELCOME_DISCOUNT, discountCents, notApplicable, timeBonusEnd, timeBonusLeft, type DiscountView, type NotApplicable } from '../../lib/discounts.ts';
import { hasForbiddenControl } from '../../contract/text.ts';

/** What a code needs to know of the member asking. */
export interface DiscountMember {
  id: number;
  paid_user: boolean;
  signup_date: string;
}

const DAY = 86_400_000;
/** A code held by a started payment stays its own this long; an abandoned checkout then lets it go (chosen). */
export const DISCOUNT_RESERVATION_MINUTES = 30;
/** The welcome code and the time bonus are both "the first purchase": one may be held at a time. */
const FIRST_PURCHASE = '#first-purchase';
const reservationKey = (code: string) => (code === TIME_BONUS.code || code.startsWith('WELCOME-') ? FIRST_PURCHASE : code);
const NOT_APPLICABLE_KEY: Record<NotApplicable, 'discount_minimum' | 'discount_country' | 'discount_method' | 'discount_currency'> = {
  minimum: 'discount_minimum',
  country: 'discount_country',
  method: 'discount_method',
  currency: 'discount_currency',
};

/** A code as typed: trimmed, upper case, letters, digits and dashes. */
export function normaliseCode(code: string): string {
  return code.trim().toUpperCase();
}

/**
 * Discount codes (SPEC §3, §4, §5, §9). A code is looked up for a member: a brand's campaign
 * code, a member's personal welcome or retention code, or the time bonus TIMEBONUS25, which is
 * no row but follows from the member's signup time. Each code is used once per member, when a
 * payment with it is paid (`discount_code_uses`, unique per member and code). The checkout
 * (payments.start) asks `quote` for the cents a code takes off an order.
 */
export function createDiscountService(deps: { db: Kysely<Database>; now?: () => Date }) {
  const { db } = deps;
  const now = () => deps.now?.() ?? new Date();

  /**
   * Used: a paid payment of the member carries the code (for the first-purchase key, either
   * first-purchase code), whichever payment holds it now.
   */
  async function usedBy(userId: number, code: string, trx: Kysely<Database> = db): Promise<boolean> {
    const key = reservationKey(code);
    const row = await trx
      .selectFrom('payments')
      .select('id')
      .where('user_id', '=', userId)
      .where('status', '=', 'paid')
      .where((eb) => (key === FIRST_PURCHASE ? eb.or([eb('discount_code', '=', TIME_BONUS.code), eb('discount_code', 'like', 'WELCOME-%')]) : eb('discount_code', '=', key)))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The payment holding a code's key for the member now, if any. */
  function holding(trx: Kysely<Database>, userId: number, key: string) {
    return trx
      .selectFrom('discount_code_uses as u')
      .innerJoin('payments as p', 'p.id', 'u.payment_id')
      .select(['u.payment_id', 'p.provider_id', 'p.provider', 'p.status', 'p.created_at', 'p.method', 'p.checkout_url'])
      .where('u.user_id', '=', userId)
      .where('u.code', '=', key)
      .executeTakeFirst();
  }

  async function hasPurchased(userId: number): Promise<boolean> {
    return (await db.selectFrom('payments').select('id').where('user_id', '=', userId).where('status', '=', 'paid').limit(1).executeTakeFirst()) !== undefined;
  }

  function rowView(row: Selectable<DiscountCodesTable>, used: boolean): DiscountView {
    const left = row.expires_at ? Math.ceil((Date.parse(row.expires_at) - now().getTime()) / 1000) : null;
    const expired = left !== null && left <= 0;
    return {
      code: row.code,
      percentage: row.percentage,
      value: row.value,
      currency: row.currency,
      minimum_order_value: row.minimum_order_value,
      country: row.country,
      user_id: row.user_id,
      expires: row.expires_at,
      status: row.status === 'disabled' ? 'disabled' : used ? 'used' : expired ? 'expired' : 'active',
      validity: left === null ? null : Math.max(0, left),
      expired,
      paymentmethods: row.paymentmethods ? (JSON.parse(row.paymentmethods) as string[]) : null,
      kind: row.purpose === 'welcome' ? 'welcome' : row.purpose === 'retention' ? 'retention' : 'campaign',
    };
  }

  function timeBonusView(member: DiscountMember, used: boolean): DiscountView {
    const end = timeBonusEnd(member.signup_date);
    const left = Math.ceil((end - now().getTime()) / 1000);
    const expired = left <= 0 || member.paid_user;
    return {
      code: TIME_BONUS.code,
      percentage: TIME_BONUS.percentage,
      value: null,
      currency: null,
      minimum_order_value: 0,
      country: null,
      user_id: member.id,
      expires: new Date(end).toISOString(),
      status: used ? 'used' : expired ? 'expired' : 'active',
      validity: Math.max(0, left),
      expired,
      paymentmethods: null,
      kind: 'time_bonus',
    };
  }

  /** A member's personal code of a purpose, made once (unique code per brand). */
  async function personal(tenant: Tenant, member: DiscountMember, purpose: DiscountPurpose, percentage: number, expiresAt: Date): Promise<Selectable<DiscountCodesTable>> {
    const existing = await db.selectFrom('discount_codes').selectAll().where('user_id', '=', member.id).where('purpose', '=', purpose).orderBy('id', 'desc').executeTakeFirst();
    if (existing) return existing;
    const prefix = purpose === 'welcome' ? 'WELCOME' : 'STAY';
    const code = `${prefix}-${randomBytes(4).toString('hex').toUpperCase()}`;
    return db
      .insertInto('discount_codes')
      .values({ tenant_id: tenant.id, code, percentage, user_id: member.id, expires_at: expiresAt.toISOString(), purpose })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * A code for a member: 404 "Code niet gevonden" for an unknown code or another member's; the
   * view says whether it is active, used or expired (the lookup answers it either way).
   */
  async function find(tenant: Tenant, member: DiscountMember, typed: string): Promise<DiscountView> {
    const code = normaliseCode(typed);
    if (code === TIME_BONUS.code) return timeBonusView(member, await usedBy(member.id, code));
    const row = await db.selectFrom('discount_codes').selectAll().where('tenant_id', '=', tenant.id).where('code', '=', code).executeTakeFirst();
    if (!row || (row.user_id !== null && row.user_id !== member.id) || row.status === 'disabled') throw new AppError('discount_not_found', 404, { field: 'code' });
    return rowView(row, await usedBy(member.id, code));
  }

  /** Refuses a code that cannot be used now: used, expired, or (welcome) after a first purchase. */
  async function usable(member: DiscountMember, view: DiscountView): Promise<DiscountView> {
    if (view.status === 'used') throw new AppError('discount_used', 409, { field: 'code' });
    if (view.status !== 'active') throw new AppError('discount_expired', 410, { field: 'code' });
    if (view.kind === 'welcome' && (await hasPurchased(member.id))) throw new AppError('discount_used', 409, { field: 'code' });
    return view;
  }

  return {
    find,

    /** GET /api/discountcode.php?code=: a usable code, or the refusal saying why not. */
    async lookup(tenant: Tenant, member: DiscountMember, typed: string): Promise<DiscountView> {
      return usable(member, await find(tenant, member, typed));
    },

    /**
     * The welcome discount (SPEC §9: 25% on the first purchase, for a limited time): the member's
     * personal code, made on first ask, while the member has bought nothing and within
     * WELCOME_DISCOUNT.days of signup; otherwise 404.
     */
    async welcome(tenant: Tenant, member: DiscountMember): Promise<DiscountView> {
      const end = new Date(Date.parse(member.signup_date) + WELCOME_DISCOUNT.days * DAY);
      if (member.paid_user || end <= now() || (await hasPurchased(member.id))) throw new AppError('discount_not_found', 404);
      const row = await personal(tenant, member, 'welcome', WELCOME_DISCOUNT.percentage, end);
      return usable(member, rowView(row, await usedBy(member.id, row.code)));
    },

    /**
     * The code a member's checkout starts with (SPEC §4), for the credits pages and GET
     * /api/packages.php alike: a code the member names (`?code=`, such as the retention offer's
     * link) if it is usable, else the time bonus while it runs (it takes priority over the welcome
     * code), else the member's welcome code. Failing to find one is silent (SPEC §8), except for a
     * named code: its refusal comes back as the catalogue key `error`.
     */
    async active(tenant: Tenant, member: DiscountMember, named?: string | null): Promise<{ code: DiscountView | null; error: string | null }> {
      const typed = named?.trim();
      if (typed && typed.length <= 40) {
        // A code holding a character a person cannot type is no code (and PostgreSQL cannot even look for it).
        if (hasForbiddenControl(typed)) return { code: null, error: 'discount_not_found' };
        try {
          return { code: await this.lookup(tenant, member, typed), error: null };
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          // An ended time bonus in an old link falls through to the welcome code.
          if (typed.toUpperCase() !== TIME_BONUS.code) return { code: null, error: error.messageKey ?? 'discount_not_found' };
        }
      }
      if (timeBonusLeft(member, now().getTime()) > 0) {
        const bonus = await this.lookup(tenant, member, TIME_BONUS.code).catch(() => null);
        if (bonus) return { code: bonus, error: null };
      }
      return { code: await this.welcome(tenant, member).catch(() => null), error: null };
    },

    /** The retention offer (company delete_discount) for a member who starts deleting the account; null when the brand offers none. */
    async retention(tenant: Tenant, member: DiscountMember): Promise<DiscountView | null> {
      const percent = tenant.company.delete_discount;
      if (percent <= 0) return null;
      const row = await personal(tenant, member, 'retention', percent, new Date(now().getTime() + RETENTION_DISCOUNT_DAYS * DAY));
      const view = rowView(row, await usedBy(member.id, row.code));
      return view.status === 'active' ? view : null;
    },

    /**
     * The cents a code takes off an order at the checkout, or the refusal: a code that is unknown,
     * used, expired, or not for this order (minimum order value, country, method, currency).
     */
    async quote(tenant: Tenant, member: DiscountMember, typed: string, order: { amount: number; currency: string; method: string; country: string | null; locale: string }): Promise<{ code: string; discount: number; view: DiscountView }> {
      const view = await usable(member, await find(tenant, member, typed));
      const reason = notApplicable(view, order);
      if (reason) {
        const params: Record<string, string> = reason === 'minimum' ? { amount: formatMoney(view.minimum_order_value, view.currency ?? order.currency, order.locale) } : {};
        throw new AppError('discount_not_applicable', 422, { field: 'code', key: NOT_APPLICABLE_KEY[reason], params });
      }
      return { code: view.code, discount: discountCents(view, order.amount, order.currency), view };
    },

    /** The payment that holds a code for the member now (its provider, provider id, status, method and checkout), if any. */
    async holder(userId: number, code: string): Promise<{ provider_id: string; provider: string; status: PaymentStatus; method: string; checkout_url: string } | undefined> {
      return holding(db, userId, reservationKey(code));
    },

    /**
     * Holds a code for a payment being started (in the transaction that inserts it), so one code
     * is never on two payments that may still be paid: refused (409 "Code reeds gebruikt") when a
     * paid payment carries it, or the payment holding it is pending (money under way), or open
     * and either started less than DISCOUNT_RESERVATION_MINUTES ago or a bank transfer (open
     * until the money arrives). A failed, cancelled or expired one lets it go, and so does an open
     * checkout older than that (abandoned: the caller asked the provider first). The welcome code
     * and the time bonus share one hold.
     */
    async reserve(trx: Transaction<Database>, userId: number, code: string, paymentId: number): Promise<void> {
      const key = reservationKey(code);
      const refused = () => new AppError('discount_used', 409, { field: 'code' });
      if (await usedBy(userId, code, trx)) throw refused();
      const held = await holding(trx, userId, key);
      if (held) {
        const stale = held.created_at <= new Date(now().getTime() - DISCOUNT_RESERVATION_MINUTES * 60_000).toISOString();
        const free = held.status === 'failed' || held.status === 'canceled' || held.status === 'expired' || (held.status === 'open' && stale && held.method !== 'sct');
        if (!free) throw refused();
        // Only from the payment seen here: two checkouts taking over one hold at once, one wins.
        const moved = await trx.updateTable('discount_code_uses').set({ payment_id: paymentId }).where('user_id', '=', userId).where('code', '=', key).where('payment_id', '=', held.payment_id).executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw refused();
      }
      // Two payments started at once: the unique (member, code) key lets one in.
      else await trx.insertInto('discount_code_uses').values({ user_id: userId, code: key, payment_id: paymentId }).execute().catch(() => Promise.reject(refused()));
    },
  };
}

export type DiscountService = ReturnType<typeof createDiscountService>;
