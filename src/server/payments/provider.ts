import type { Mandate } from '../../contract/payments.ts';
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
    /** The member's customer at the provider (saved cards and mandates hang off it). */
    customerId?: string;
    /** 'recurring': charged on `mandateId` at once, without a checkout. */
    sequenceType?: 'oneoff' | 'first' | 'recurring';
    mandateId?: string;
  }): Promise<{ id: string; checkoutUrl: string | null }>;
  /**
   * Where a payment stands, and cents of a paid payment given back since: `refunded` by the
   * operator, `chargedBack` by the member's bank (0 or absent when none).
   */
  get(id: string): Promise<{ id: string; status: PaymentStatus; refunded?: number; chargedBack?: number } | null>;
  /**
   * Cancels a payment nobody finished (its checkout can no longer be paid): true when it is
   * cancelled now, false when the provider cannot cancel it (some methods at Mollie) or it has
   * moved on (paid, pending, expired). `get` then says where it stands.
   */
  cancel(id: string): Promise<boolean>;
  /** Makes the member's customer at the provider; answers its id. */
  createCustomer(input: { tenantId: string; name: string; email: string }): Promise<string>;
  /** A SEPA direct-debit mandate the member authorised on the site (SMS code); answers its id. */
  createMandate(customerId: string, input: { method: 'directdebit'; consumerName: string; consumerAccount: string; signatureDate: string }): Promise<{ id: string }>;
  /** The customer's mandates: saved cards (from a 'first' card payment) and direct-debit mandates. */
  mandates(customerId: string): Promise<Mandate[]>;
  /** Forgets a mandate (the member removes a saved card). */
  revokeMandate(customerId: string, mandateId: string): Promise<void>;
}

export type { Mandate };
