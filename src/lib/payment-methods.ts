/**
 * The 25 payment methods of SPEC §9: direct debit, bank transfer, card brands and a generic
 * card option, regional bank, wallet and prepaid methods, a global online wallet and a
 * mobile-device wallet. `countries` empty means offered everywhere.
 */
export const PAYMENT_METHODS = [
  { id: 'sdd', name: 'SEPA Direct Debit', kind: 'debit', countries: [] },
  { id: 'sct', name: 'SEPA Bank Transfer', kind: 'bank', countries: [] },
  { id: 'visa', name: 'Visa', kind: 'card', countries: [] },
  { id: 'mastercard', name: 'Mastercard', kind: 'card', countries: [] },
  { id: 'amex', name: 'American Express', kind: 'card', countries: [] },
  { id: 'maestro', name: 'Maestro', kind: 'card', countries: [] },
  { id: 'creditcard', name: 'Credit card', kind: 'card', countries: [] },
  { id: 'blik', name: 'BLIK', kind: 'bank', countries: ['PL'] },
  { id: 'przelewy24', name: 'Przelewy24', kind: 'bank', countries: ['PL'] },
  { id: 'mybank', name: 'MyBank', kind: 'bank', countries: ['IT'] },
  { id: 'satispay', name: 'Satispay', kind: 'wallet', countries: ['IT'] },
  { id: 'giropay', name: 'giropay', kind: 'bank', countries: ['DE'] },
  { id: 'sofort', name: 'SOFORT', kind: 'bank', countries: ['DE', 'AT', 'BE', 'CH'] },
  { id: 'eps', name: 'eps', kind: 'bank', countries: ['AT'] },
  { id: 'ideal', name: 'iDEAL', kind: 'bank', countries: ['NL'] },
  { id: 'bancontact', name: 'Bancontact', kind: 'bank', countries: ['BE'] },
  { id: 'cartebancaire', name: 'Carte Bancaire', kind: 'card', countries: ['FR'] },
  { id: 'mobilepay', name: 'MobilePay', kind: 'wallet', countries: ['DK', 'FI'] },
  { id: 'swish', name: 'Swish', kind: 'wallet', countries: ['SE'] },
  { id: 'twint', name: 'TWINT', kind: 'wallet', countries: ['CH'] },
  { id: 'postfinance', name: 'PostFinance', kind: 'bank', countries: ['CH'] },
  { id: 'vipps', name: 'Vipps', kind: 'wallet', countries: ['NO'] },
  { id: 'paysafecard', name: 'paysafecard', kind: 'prepaid', countries: [] },
  { id: 'paypal', name: 'PayPal', kind: 'wallet', countries: [] },
  { id: 'applepay', name: 'Apple Pay', kind: 'wallet', countries: [] },
] as const satisfies readonly { id: string; name: string; kind: string; countries: readonly string[] }[];

export type PaymentMethodId = (typeof PAYMENT_METHODS)[number]['id'];
export const PAYMENT_METHOD_IDS = PAYMENT_METHODS.map((m) => m.id) as [PaymentMethodId, ...PaymentMethodId[]];

/**
 * How a method is drawn where the member chooses it: a small badge in the method's own colour
 * with its mark (an icon where one exists, else its short name). Drawn by the product, with
 * colours dark enough for white text.
 */
export const METHOD_LOGOS: Record<PaymentMethodId, { bg: string; icon?: string; text?: string; dark?: boolean }> = {
  sdd: { bg: '#0b4ea2', icon: 'i-simple-icons-sepa' },
  sct: { bg: '#0b4ea2', icon: 'i-simple-icons-sepa' },
  visa: { bg: '#1a1f71', icon: 'i-simple-icons-visa' },
  mastercard: { bg: '#252525', icon: 'i-simple-icons-mastercard' },
  amex: { bg: '#1f5fa8', icon: 'i-simple-icons-americanexpress' },
  maestro: { bg: '#0a6fb0', text: 'Maestro' },
  creditcard: { bg: '#374151', icon: 'i-tabler-credit-card' },
  blik: { bg: '#000000', text: 'BLIK' },
  przelewy24: { bg: '#b0262d', text: 'P24' },
  mybank: { bg: '#1c4e9d', text: 'MyBank' },
  satispay: { bg: '#c42b26', text: 'Satispay' },
  giropay: { bg: '#000268', text: 'giropay' },
  sofort: { bg: '#a3305a', text: 'SOFORT' },
  eps: { bg: '#9e0457', text: 'eps' },
  ideal: { bg: '#a8005a', text: 'iDEAL' },
  bancontact: { bg: '#005498', text: 'BC' },
  cartebancaire: { bg: '#1b3b7a', text: 'CB' },
  mobilepay: { bg: '#3c50c8', text: 'MobilePay' },
  swish: { bg: '#0d6e3f', text: 'Swish' },
  twint: { bg: '#000000', text: 'TWINT' },
  postfinance: { bg: '#ffcc00', text: 'PF', dark: true },
  vipps: { bg: '#b83c10', text: 'Vipps' },
  paysafecard: { bg: '#006c9e', text: 'paysafe' },
  paypal: { bg: '#003087', icon: 'i-simple-icons-paypal' },
  applepay: { bg: '#000000', icon: 'i-simple-icons-applepay' },
};

/**
 * The methods a brand offers in a payment country, in the order shown: the brand's own list for
 * the country (tenant `country_payment_methods`) if it has one, else its methods made for that
 * country (iDEAL in the Netherlands) followed by those offered everywhere (all of its methods when
 * none is for the country).
 */
export function methodsFor(brand: { payment_methods: readonly string[]; country_payment_methods?: Partial<Record<string, readonly string[]>> }, country: string | null): (typeof PAYMENT_METHODS)[number][] {
  const own = country ? brand.country_payment_methods?.[country] : undefined;
  if (own) return own.flatMap((id) => PAYMENT_METHODS.filter((m) => m.id === id));
  const offered = PAYMENT_METHODS.filter((m) => brand.payment_methods.includes(m.id));
  const here = offered.filter((m) => (m.countries as readonly string[]).length === 0 || (country !== null && (m.countries as readonly string[]).includes(country)));
  const local = here.filter((m) => (m.countries as readonly string[]).length > 0);
  // A brand whose methods are all for other countries still offers them rather than nothing.
  return here.length ? [...local, ...here.filter((m) => !local.includes(m))] : offered;
}

/**
 * The methods a brand accepts: those its checkout offers in any of its countries (methodsFor for
 * each), in the order of PAYMENT_METHODS. The footer lists these, never a method no checkout offers.
 */
export function acceptedMethods(brand: Parameters<typeof methodsFor>[0] & { countries: readonly string[] }): (typeof PAYMENT_METHODS)[number][] {
  const ids = new Set(brand.countries.flatMap((country) => methodsFor(brand, country).map((m) => m.id)));
  return PAYMENT_METHODS.filter((m) => ids.has(m.id));
}
