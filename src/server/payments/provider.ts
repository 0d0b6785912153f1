import type { PaymentStatus } from '../db/schema.ts';

/**
 * A payment provider (DESIGN §6): creates a payment with a hosted checkout, and says where a
 * payment stands. The runtime never trusts a webhook's word: a webhook carries only the
 * provider's payment id, and the runtime asks the provider (`get`) before it acts.
 */
export interface PaymentProvider {
  readonly name: 'test' | 'mollie';
  create(input: {
    tenantId: string;
    /** Cents of `currency`. */
    amount: number;
    currency: string;
    description: string;
    method: string;
    /** Where the member's browser returns after the checkout. */
    redirectUrl: string;
    /** Where the provider reports a change (form body `id=<provider payment id>`). */
    webhookUrl: string;
  }): Promise<{ id: string; checkoutUrl: string }>;
  get(id: string): Promise<{ id: string; status: PaymentStatus } | null>;
}
