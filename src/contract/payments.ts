import { z } from 'zod';
import { PAYMENT_METHOD_IDS } from '../lib/payment-methods.ts';
import { QueryId } from './ids.ts';
import { LEDGER_REASONS, type LedgerReason } from './credits.ts';
import { PAYMENT_STATUSES } from './enums.ts';

/** The outcomes the test provider's checkout page offers (POST /api/test-checkout.php). */
export const TEST_OUTCOMES = ['paid', 'failed', 'canceled', 'pending'] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

/** POST /api/payment.php: pay for one of the brand's credit packages by a method. */
export const StartPaymentBody = z.object({
  package_id: z.string().max(40),
  method: z.enum(PAYMENT_METHOD_IDS),
  /** A discount code the member chose (the time bonus, the welcome code, one typed in). */
  discount_code: z.string().trim().min(1).max(40).optional(),
});

/**
 * GET /api/discountcode.php: `code` looks a code up for the member; `welcome=true` answers the
 * member's welcome discount (made on first ask) while the member may have it.
 */
export const DiscountQuery = z.union([
  z.object({ code: z.string().trim().min(1).max(40) }).strict(),
  z.object({ welcome: z.literal('true') }).strict(),
]);

/** GET /api/payment.php */
export const PaymentQuery = z.object({ id: QueryId });

/** POST /api/payment-webhook.php: the provider's form body. */
export const WebhookBody = z.object({ id: z.string().min(1).max(100) });

/** POST /api/test-checkout.php: the test checkout page's choice. */
export const TestCheckoutBody = z.object({ id: z.string().regex(/^tst_[a-f0-9]{24}$/), outcome: z.enum(TEST_OUTCOMES) });
export const TestCheckoutQuery = z.object({ id: z.string().regex(/^tst_[a-f0-9]{24}$/) });

/** GET /api/transactions.php: a page of the ledger (`before` a ledger id), or one purchase's invoice (`id` a payment id). */
export const TransactionsQuery = z.union([
  z.object({ id: QueryId }).strict(),
  z.object({ before: QueryId.optional() }).strict(),
]);

// ---- Answers

export { FINAL_PAYMENT_STATUSES, PAYMENT_STATUSES, type PaymentStatus } from './enums.ts';

/** A payment as the member's result screen shows it (SPEC §3 payment: payment_id, credits, amount). */
export const PaymentView = z.object({
  payment_id: z.number().int(),
  package_id: z.string(),
  credits: z.number().int(),
  /** Cents of `currency`: what the member pays. */
  amount: z.number().int(),
  /** Cents of `currency` before the discount code. */
  list_amount: z.number().int(),
  discount_code: z.string().nullable(),
  currency: z.string(),
  method: z.string(),
  status: z.enum(PAYMENT_STATUSES),
});
export type PaymentView = z.infer<typeof PaymentView>;

/** POST /api/payment.php: the payment and where the browser pays it. */
export const StartPaymentAnswer = z.object({ payment: PaymentView, checkout_url: z.string() });
/** GET /api/payment.php */
export const PaymentAnswer = z.object({ payment: PaymentView });
export type PaymentAnswer = z.infer<typeof PaymentAnswer>;

/** A mandate at the provider: what a repeat order is charged on ("Visa •••• 4242, 12/2028"). */
export const Mandate = z.object({ id: z.string(), status: z.enum(['valid', 'pending', 'invalid']), method: z.string(), label: z.string() });
export type Mandate = z.infer<typeof Mandate>;

/** What /credits/repeat-order offers (docs/API.md "Repeat orders"). */
export const RepeatOffer = z.object({
  package_id: z.string(),
  credits: z.number().int(),
  /** Cents of `currency`: the bundle's price today for the member's country. */
  amount: z.number().int(),
  currency: z.string(),
  /** The method of the last purchase. */
  method: z.string(),
  paid_at: z.string().nullable(),
  /** The saved card a repeat order is charged on, or null. */
  card: Mandate.nullable(),
});
export type RepeatOffer = z.infer<typeof RepeatOffer>;
/** GET /api/repeat-order.php */
export const RepeatOfferAnswer = z.object({ repeat_order: RepeatOffer });
/** POST /api/repeat-order.php: where the browser goes next, and the payment when one was made. */
export const RepeatAnswer = z.object({ next: z.string(), payment: PaymentView.nullable() });

/** A discount code as GET /api/discountcode.php answers it (SPEC §3 fields). */
export const DiscountView = z.object({
  code: z.string(),
  /** Either a percentage… */
  percentage: z.number().nullable(),
  /** …or a value in cents of `currency`. */
  value: z.number().int().nullable(),
  currency: z.string().nullable(),
  /** Cents of the order before the discount; 0 for none. */
  minimum_order_value: z.number().int(),
  country: z.string().nullable(),
  /** The member a personal code belongs to, else null. */
  user_id: z.number().int().nullable(),
  expires: z.string().nullable(),
  status: z.enum(['active', 'used', 'expired', 'disabled']),
  /** Seconds left until `expires`, null without an end. */
  validity: z.number().int().nullable(),
  expired: z.boolean(),
  /** Payment method ids the code is valid for, null for every method. */
  paymentmethods: z.array(z.string()).nullable(),
  /** The welcome discount (first purchase), the time bonus, the retention offer, or a campaign. */
  kind: z.enum(['welcome', 'time_bonus', 'retention', 'campaign']),
});
export type DiscountView = z.infer<typeof DiscountView>;
/** GET /api/discountcode.php */
export const DiscountAnswer = z.object({ discount_code: DiscountView });

/** One line of /transactions (docs/API.md "Transactions"). */
export const TransactionView = z.object({
  id: z.number().int(),
  created_at: z.string(),
  reason: z.enum(Object.keys(LEDGER_REASONS) as [LedgerReason, ...LedgerReason[]]),
  /** Credits in (+) or out (−). */
  credits: z.number().int(),
  /** The balance after this entry. */
  balance: z.number().int(),
  note: z.string().nullable(),
  /** A purchase's payment. */
  payment: z
    .object({ payment_id: z.number().int(), package_id: z.string(), amount: z.number().int(), currency: z.string(), method: z.string(), invoice_number: z.string().nullable() })
    .nullable(),
  /** The conversation a message, photo or gift was sent in, while it exists. */
  conversation_id: z.number().int().nullable(),
});
export type TransactionView = z.infer<typeof TransactionView>;

/** A purchase's invoice (SPEC §3 company info). Money in cents of `currency`. */
export const InvoiceView = z.object({
  payment_id: z.number().int(),
  invoice_number: z.string(),
  date: z.string(),
  company: z.object({ name: z.string(), address: z.string(), city: z.string(), country: z.string(), kvk: z.string(), tradenames: z.array(z.string()), vat_number: z.string().nullable() }),
  customer: z.object({ name: z.string().nullable(), email: z.string(), country: z.string().nullable() }),
  line: z.object({ credits: z.number().int(), package_id: z.string(), method: z.string() }),
  currency: z.string(),
  /** The price before a discount code, and the code's part. */
  list_amount: z.number().int(),
  discount_code: z.string().nullable(),
  discount: z.number().int(),
  /** What was paid, VAT included; `net + vat = gross`. */
  gross: z.number().int(),
  net: z.number().int(),
  vat: z.number().int(),
  vat_rate: z.number().nullable(),
  /** paid_at + the brand's refund_days: until then the purchase may be refunded or cancelled. */
  refundable_until: z.string(),
});
export type InvoiceView = z.infer<typeof InvoiceView>;
/** GET /api/transactions.php: a page of the ledger (`next`: the `before` of the next page), or one invoice. */
export const TransactionsAnswer = z.union([z.object({ transactions: z.array(TransactionView), next: z.number().int().nullable() }), z.object({ invoice: InvoiceView })]);

/** A credit bundle as the credits page offers it: priced for the member's payment country. */
export const PackageOption = z.object({
  id: z.string(),
  credits: z.number().int(),
  /** The brand's prices of the bundle, for pricing it again when the method or the code changes (src/lib/bundle-price.ts). */
  tariff: z.object({ credits: z.number().int(), price: z.number().int(), currency: z.string(), prices: z.record(z.string(), z.number().int()).optional() }),
  /** Cents of `currency` in the member's payment country, before a discount code. */
  amount: z.number().int(),
  /** Cents of `currency` the member pays: `amount` less the discount code given, where it applies. */
  toPay: z.number().int(),
  currency: z.string(),
  /** The euro price in cents (what direct debit charges), null where the bundle has none. */
  euroAmount: z.number().int().nullable(),
  /** `amount`, written in the member's language. */
  price: z.string(),
  /** `toPay`, written in the member's language. */
  payPrice: z.string(),
  /** Per credit of `toPay`, written in the member's language. */
  perCredit: z.string(),
  popular: z.boolean(),
  /** The saving the badge states (percent per credit against the base bundle), 0 for no badge. */
  discount: z.number().int(),
});
export type PackageOption = z.infer<typeof PackageOption>;

/** GET /api/packages.php: the bundles and methods the member may buy, exactly as /credits shows them. */
export const PackagesAnswer = z.object({
  packages: z.array(PackageOption),
  methods: z.array(z.object({ id: z.string(), name: z.string() })),
  /** The payment country the prices are for: the profile's country, else where the visitor is. */
  country: z.string(),
});
export type PackagesAnswer = z.infer<typeof PackagesAnswer>;
