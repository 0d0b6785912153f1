/**
 * What a credit bundle costs a member (SPEC §2 credit packages, §3 payment country, §4 discount
 * code): one rule for the credits page, its island and the payment service, so the price on the
 * card, the per-credit line and the pay button are the amount the checkout charges.
 */
import { euroPrice, priceFor } from './currencies.ts';
import { discountCents, notApplicable, type DiscountView, type NotApplicable } from './discounts.ts';

/** A bundle's prices as the brand sets them (tenant `packages[]`): a base price and prices in other currencies. */
export interface BundleTariff {
  credits: number;
  price: number;
  currency: string;
  prices?: Record<string, number> | undefined;
}

export interface BundlePrice {
  currency: string;
  /** Cents before a discount code. */
  list: number;
  /** Cents the member pays: `list` less the code where it applies. */
  amount: number;
  /** Cents per credit of `amount`, rounded. */
  perCredit: number;
  /** Why the code given does not apply to this order; null when it does or none was given. */
  notApplicable: NotApplicable | null;
}

/**
 * A bundle's price for a member's payment country and method, less a discount code where it
 * applies: the price in the country's currency, except SEPA direct debit, which is in euros (null
 * when the bundle has no euro price).
 */
export function bundlePrice(pack: BundleTariff, order: { country: string | null; method?: string | null }, code?: DiscountView | null): BundlePrice | null {
  const base = order.method === 'sdd' ? euroPrice(pack, order.country) : priceFor(pack, order.country);
  if (!base) return null;
  const why = code ? notApplicable(code, { amount: base.amount, currency: base.currency, method: order.method ?? null, country: order.country }) : null;
  const off = code && !why ? discountCents(code, base.amount, base.currency) : 0;
  const amount = base.amount - off;
  return { currency: base.currency, list: base.amount, amount, perCredit: Math.round(amount / pack.credits), notApplicable: why };
}

/**
 * The saving a bundle's badge states (SPEC §2 discount ribbon): how much less a credit costs in
 * it than in the base bundle (the one with the fewest credits), both priced in the same currency,
 * in whole percent (rounded; 0 when it saves nothing).
 */
export function savingPercent(bundle: { credits: number; list: number }, base: { credits: number; list: number }): number {
  const ratio = (bundle.list * base.credits) / (base.list * bundle.credits);
  return Math.max(0, Math.round((1 - ratio) * 100));
}

/** The base bundle a saving is reckoned against: the one with the fewest credits. */
export function baseBundle<T extends { credits: number }>(bundles: readonly T[]): T | undefined {
  return bundles.reduce<T | undefined>((base, b) => (base === undefined || b.credits < base.credits ? b : base), undefined);
}
