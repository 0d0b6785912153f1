import { z } from 'zod';
import { PAYMENT_METHOD_IDS } from '../lib/payment-methods.ts';

/** The outcomes the test provider's checkout page offers (POST /api/test-checkout.php). */
export const TEST_OUTCOMES = ['paid', 'failed', 'canceled', 'pending'] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

/** POST /api/payment.php: pay for one of the brand's credit packages by a method. */
export const StartPaymentBody = z.object({ package_id: z.string().max(40), method: z.enum(PAYMENT_METHOD_IDS) });

/** GET /api/payment.php */
export const PaymentQuery = z.object({ id: z.coerce.number().int().positive() });

/** POST /api/payment-webhook.php: the provider's form body. */
export const WebhookBody = z.object({ id: z.string().min(1).max(100) });

/** POST /api/test-checkout.php: the test checkout page's choice. */
export const TestCheckoutBody = z.object({ id: z.string().regex(/^tst_[a-f0-9]{24}$/), outcome: z.enum(TEST_OUTCOMES) });
export const TestCheckoutQuery = z.object({ id: z.string().regex(/^tst_[a-f0-9]{24}$/) });
