import type { Tenant } from '../tenant/schema.ts';
import type { PackagesAnswer } from '../contract/payments.ts';
import { methodsFor } from './payment-methods.ts';
import { formatMoney } from './money.ts';
import { euroPrice, priceFor } from './currencies.ts';

/**
 * What the credits pages show and GET /api/packages.php answers (SPEC §2 credit packages and
 * payment methods): the brand's packages priced in the currency of the member's payment country
 * (the profile's country, else where the visitor is, else the brand's first country), and the
 * methods the brand offers there (a method without countries is offered everywhere). One
 * function for both, so the page and the API cannot differ.
 */
export function creditsOffer(
  who: { tenant: Tenant; locale: string; country: string | null; user: { profile: { country: string } | null } | null },
  method?: 'sdd',
): PackagesAnswer {
  const { tenant, locale, country, user } = who;
  const where = user?.profile?.country ?? country ?? tenant.countries[0]!;
  const packages = tenant.packages.flatMap((p) => {
    // Direct debit (SEPA) is in euros.
    const price = method === 'sdd' ? euroPrice(p, where) : priceFor(p, where);
    if (!price) return [];
    const { amount, currency } = price;
    // Direct debit (SEPA) charges the euro price, whatever the country's currency.
    const euroAmount = euroPrice(p, where)?.amount ?? null;
    return {
      euroAmount,
      id: p.id,
      credits: p.credits,
      amount,
      currency,
      price: formatMoney(amount, currency, locale),
      perCredit: formatMoney(Math.round(amount / p.credits), currency, locale),
      popular: p.popular,
      discount: p.discount,
    };
  });
  const methods = methodsFor(tenant, where).map((m) => ({ id: m.id, name: m.name }));
  return { packages, methods, country: where };
}
