/**
 * The currency a member pays in, by payment country (SPEC §3 payment country). A brand's package
 * names a base price and may name prices in other currencies (tenant `packages[].prices`); a
 * country whose currency the package does not price pays the base price.
 */
const COUNTRY_CURRENCY: Record<string, string> = {
  DK: 'DKK',
  SE: 'SEK',
  NO: 'NOK',
  PL: 'PLN',
  CH: 'CHF',
  LI: 'CHF',
  GB: 'GBP',
  CZ: 'CZK',
  HU: 'HUF',
  RO: 'RON',
};

export function currencyOfCountry(country: string | null | undefined): string {
  return (country && COUNTRY_CURRENCY[country]) || 'EUR';
}

/** The price of a package for a payment country: cents of a currency. */
export function priceFor(pack: { price: number; currency: string; prices?: Record<string, number> }, country: string | null | undefined): { amount: number; currency: string } {
  const currency = currencyOfCountry(country);
  const local = pack.prices?.[currency];
  return local !== undefined && currency !== pack.currency ? { amount: local, currency } : { amount: pack.price, currency: pack.currency };
}

/** SEPA direct debit is in euros: a package's euro price for a payment country, or null when it has none. */
export function euroPrice(pack: { price: number; currency: string; prices?: Record<string, number> }, country: string | null | undefined): { amount: number; currency: string } | null {
  const local = priceFor(pack, country);
  if (local.currency === 'EUR') return local;
  if (pack.currency === 'EUR') return { amount: pack.price, currency: 'EUR' };
  return pack.prices?.EUR !== undefined ? { amount: pack.prices.EUR, currency: 'EUR' } : null;
}
