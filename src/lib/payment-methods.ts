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
