/**
 * VAT on an invoice (the transactions page). Credit prices include VAT. The rate is that of the
 * country of the VAT number the invoice is issued under: the company's number for the member's
 * country if it has one (an OSS registration), else its first; without a VAT number no VAT is
 * shown. Standard rates in percent (2026).
 */
export const VAT_RATES: Record<string, number> = {
  AT: 20, BE: 21, BG: 20, CY: 19, CZ: 21, DE: 19, DK: 25, EE: 24, EL: 24, GR: 24, ES: 21, FI: 25.5, FR: 20, HR: 25, HU: 27, IE: 23, IT: 22,
  LT: 21, LU: 17, LV: 21, MT: 18, NL: 21, PL: 23, PT: 23, RO: 21, SE: 25, SI: 22, SK: 23, GB: 20, CH: 8.1, NO: 25,
};

/** The VAT number an invoice for a member of `country` is issued under, and its rate. */
export function vatFor(vatNumbers: readonly string[], country: string | null): { number: string; rate: number } | null {
  const own = vatNumbers.find((n) => country && n.toUpperCase().startsWith(country === 'GR' ? 'EL' : country)) ?? vatNumbers[0];
  if (!own) return null;
  const rate = VAT_RATES[own.slice(0, 2).toUpperCase()];
  return rate === undefined ? null : { number: own, rate };
}

/** Splits a VAT-inclusive amount (cents): net rounded once, VAT the rest, so the parts add up. */
export function splitVat(gross: number, rate: number): { net: number; vat: number } {
  const net = Math.round((gross * 100) / (100 + rate));
  return { net, vat: gross - net };
}
