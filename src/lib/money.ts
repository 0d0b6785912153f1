/** Money is integer cents with a currency (DESIGN §3); this formats it for a locale. */
export function formatMoney(cents: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
}
