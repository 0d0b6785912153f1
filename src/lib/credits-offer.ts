import type { Tenant } from '../tenant/schema.ts';
import type { PackageOption, PackagesAnswer } from '../contract/payments.ts';
import { methodsFor } from './payment-methods.ts';
import { formatMoney } from './money.ts';
import { currencyOfCountry } from './currencies.ts';
import { baseBundle, bundlePrice, savingPercent } from './bundle-price.ts';
import type { DiscountView } from './discounts.ts';

/**
 * What the credits pages show and GET /api/packages.php answers (SPEC §2 credit packages and
 * payment methods): the brand's packages priced in the currency of the member's payment country
 * (the profile's country, else where the visitor is, else the brand's first country), less the
 * discount code given where it applies, each with the saving its badge states, and the methods
 * the brand offers there (a method without countries is offered everywhere). Prices come from one
 * rule (bundlePrice), which the island and the payment service use too; one function for the
 * pages and the API, so they cannot differ. `method` 'sdd': priced for direct debit, in euros.
 */
export function creditsOffer(
  who: { tenant: Tenant; locale: string; country: string | null; user: { profile: { country: string } | null } | null },
  method?: 'sdd',
  code?: DiscountView | null,
): PackagesAnswer {
  const { tenant, locale, country, user } = who;
  const where = user?.profile?.country ?? country ?? tenant.countries[0]!;
  const priced = tenant.packages.flatMap((p) => {
    const price = bundlePrice(p, { country: where, method: method ?? null }, code);
    return price ? [{ pack: p, price }] : [];
  });
  const base = baseBundle(priced.map(({ pack, price }) => ({ credits: pack.credits, list: price.list })));
  const packages = priced.map(({ pack: p, price }): PackageOption => ({
    // Direct debit (SEPA) charges the euro price, whatever the country's currency.
    euroAmount: bundlePrice(p, { country: where, method: 'sdd' })?.list ?? null,
    id: p.id,
    credits: p.credits,
    tariff: { credits: p.credits, price: p.price, currency: p.currency, ...(p.prices ? { prices: p.prices } : {}) },
    amount: price.list,
    toPay: price.amount,
    currency: price.currency,
    price: formatMoney(price.list, price.currency, locale),
    payPrice: formatMoney(price.amount, price.currency, locale),
    perCredit: formatMoney(price.perCredit, price.currency, locale),
    popular: p.popular,
    // The ribbon (where the brand shows one) states the saving of these prices, not a number of its own.
    discount: p.discount > 0 && base ? savingPercent({ credits: p.credits, list: price.list }, base) : 0,
  }));
  // The first method is the one chosen at first: outside the euro, not a SEPA one (direct debit
  // charges euros), so the page opens on prices in the member's own currency.
  const offered = methodsFor(tenant, where).map((m) => ({ id: m.id, name: m.name }));
  const sepa = (m: { id: string }) => m.id === 'sdd' || m.id === 'sct';
  const methods = currencyOfCountry(where) === 'EUR' || method === 'sdd' ? offered : [...offered.filter((m) => !sepa(m)), ...offered.filter(sepa)];
  return { packages, methods, country: where };
}
