import type { AstroGlobal } from 'astro';
import { PAYMENT_METHODS } from '../lib/payment-methods.ts';
import { formatMoney } from '../lib/money.ts';
import type { PackageOption } from '../islands/credits/BuyCredits.tsx';

/**
 * What the credits pages show (SPEC §2 credit packages and payment methods): the brand's
 * packages priced for the member's language, and the methods the brand offers in the member's
 * country (a method without countries is offered everywhere).
 */
export function creditsOptions(astro: Pick<AstroGlobal, 'locals'>): { packages: PackageOption[]; methods: { id: string; name: string }[] } {
  const { tenant, locale, country, user } = astro.locals;
  const where = country ?? user?.profile?.country ?? tenant.countries[0]!;
  const packages = tenant.packages.map((p) => ({
    id: p.id,
    credits: p.credits,
    price: formatMoney(p.price, p.currency, locale),
    perCredit: formatMoney(Math.round(p.price / p.credits), p.currency, locale),
    popular: p.popular,
    discount: p.discount,
  }));
  const offered = PAYMENT_METHODS.filter((m) => (tenant.payment_methods as string[]).includes(m.id) && ((m.countries as readonly string[]).length === 0 || (m.countries as readonly string[]).includes(where)));
  // The country's own methods first (iDEAL in the Netherlands), then those offered everywhere.
  const methods = (offered.length ? offered : PAYMENT_METHODS.filter((m) => (tenant.payment_methods as string[]).includes(m.id)))
    .map((m, i) => ({ m, i, local: (m.countries as readonly string[]).length > 0 }))
    .sort((a, b) => Number(b.local) - Number(a.local) || a.i - b.i)
    .map(({ m }) => ({ id: m.id, name: m.name }));
  return { packages, methods };
}
