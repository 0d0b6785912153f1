import type { DiscountView } from '../contract/payments.ts';
/**
 * Discount codes as a member meets them (SPEC §3 discount code, §4 welcome time bonus, §9): the
 * pure rules shared by the credits page and the payment service. Money is integer cents.
 */

/** SPEC §9: the time bonus, its code, percentage and how long after signup it lasts. */
export const TIME_BONUS = { code: 'TIMEBONUS25', percentage: 25, seconds: 14_400 } as const;
/** SPEC §4: the time-bonus modal appears this long after entering the members area. */
export const TIME_BONUS_MODAL_DELAY_MS = 40_000;
/** SPEC §9: the welcome discount, 25% on the first purchase, "limited time": 7 days after signup (chosen). */
export const WELCOME_DISCOUNT = { percentage: 25, days: 7 } as const;
/** The retention discount (company delete_discount) offered when a member starts deleting the account is valid this long (chosen). */
export const RETENTION_DISCOUNT_DAYS = 7;
/** A discounted price never goes below this (cents): a provider refuses a payment of 0. */
export const MINIMUM_CHARGE = 100;

/** A discount code as GET /api/discountcode.php answers it: declared in the contract. */
export type { DiscountView };

/** Why a code does not apply to an order (each has a catalogue text). */
export type NotApplicable = 'minimum' | 'country' | 'method' | 'currency';

/** Cents a code takes off a price: rounded once, never below MINIMUM_CHARGE (or the price itself when lower). */
export function discountCents(code: Pick<DiscountView, 'percentage' | 'value' | 'currency'>, amount: number, currency: string): number {
  const floor = Math.min(amount, MINIMUM_CHARGE);
  const off = code.percentage !== null ? Math.round((amount * code.percentage) / 100) : code.currency === currency ? (code.value ?? 0) : 0;
  return Math.max(0, Math.min(off, amount - floor));
}

/** Whether a code applies to an order; null when it does. */
export function notApplicable(code: DiscountView, order: { amount: number; currency: string; method: string | null; country: string | null }): NotApplicable | null {
  // A value, and a minimum order value, are in the code's currency.
  if (code.currency !== null && code.currency !== order.currency) return 'currency';
  // A minimum without a currency (codes made before one was required) is in euros.
  if (code.minimum_order_value > 0 && code.currency === null && order.currency !== 'EUR') return 'currency';
  if (order.amount < code.minimum_order_value) return 'minimum';
  if (code.country && code.country !== order.country) return 'country';
  if (code.paymentmethods && order.method && !code.paymentmethods.includes(order.method)) return 'method';
  return null;
}

/** The end of a member's time bonus (ms since the epoch). */
export function timeBonusEnd(signupDate: string): number {
  return Date.parse(signupDate) + TIME_BONUS.seconds * 1000;
}

/** Seconds left of the time bonus at `now`, 0 when over or not for this member (SPEC §4: logged in, not paying). */
export function timeBonusLeft(user: { paid_user: boolean; signup_date: string } | null, now: number): number {
  if (!user || user.paid_user) return 0;
  return Math.max(0, Math.ceil((timeBonusEnd(user.signup_date) - now) / 1000));
}

/** hh:mm:ss, each padded to two digits (SPEC §4). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}
