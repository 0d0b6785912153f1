import { z } from 'zod';
import { PAYMENT_METHOD_IDS } from '../lib/payment-methods.ts';
import { QueryId } from './ids.ts';

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
