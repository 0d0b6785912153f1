import { z } from 'zod';
import { BodyId } from './ids.ts';

export { DIRECT_DEBIT_CODE, DIRECT_DEBIT_LIMIT, maskMobile, type DirectDebitAnswer, type DirectDebitDetails } from '../lib/directdebit.ts';

import { PaymentView } from './payments.ts';

const text = (max: number) => z.string().trim().min(1).max(max);

/**
 * POST /api/directdebit.php: a bundle by direct debit. The IBAN (ibantools) and the mobile number
 * (libphonenumber-js, in the member's country unless it starts with +) are checked by the
 * service, which answers each with its own message; consent must be given.
 */
export const DirectDebitBody = z.object({
  package_id: z.string().max(40),
  discount_code: z.string().trim().min(1).max(40).optional(),
  holder: text(70),
  iban: text(42),
  street: text(100),
  house_number: text(12),
  postcode: text(12),
  city: text(60),
  mobile: text(24),
  consent: z.boolean(),
});

/** POST /api/directdebit.php?confirm=1: the SMS code of an order. */
export const DirectDebitConfirmBody = z.object({
  order_id: BodyId,
  code: z.string().trim().regex(/^\d{4,8}$/),
});

// ---- Answers

/** GET /api/directdebit.php: the member's last details, the limit and what is left of it. */
export const DirectDebitFormAnswer = z.object({
  details: z
    .object({ holder: z.string(), iban: z.string(), street: z.string(), house_number: z.string(), postcode: z.string(), city: z.string(), mobile: z.string() })
    .partial()
    .nullable(),
  limit: z.number().int(),
  left: z.number().int(),
  currency: z.string(),
  blocked: z.boolean(),
});

/** POST /api/directdebit.php: the order waits for its SMS code. */
export const DirectDebitOrderAnswer = z.object({
  order: z.object({
    id: z.number().int(),
    /** The number the code went to, all but the last 4 digits hidden. */
    mobile: z.string(),
    /** Cents of `currency` to be debited. */
    amount: z.number().int(),
    list_amount: z.number().int(),
    currency: z.string(),
    expires_at: z.string(),
    tries_left: z.number().int(),
  }),
});

/** POST /api/directdebit.php?confirm=1: the payment and its result page. */
export const DirectDebitConfirmAnswer = z.object({ payment: PaymentView, result_url: z.string() });
