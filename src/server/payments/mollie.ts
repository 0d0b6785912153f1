import { createMollieClient, PaymentMethod, SequenceType, MandateMethod, type Mandate as MollieMandate } from '@mollie/api-client';
import type { PaymentStatus } from '../db/schema.ts';
import type { PaymentMethodId } from '../../lib/payment-methods.ts';
import type { Mandate, PaymentProvider } from './provider.ts';

/**
 * The product's payment methods (SPEC §9) as Mollie's. Card brands are Mollie's `creditcard`
 * (Mollie's own form tells the brand). Mollie has no giropay (ended 2024), SOFORT (historic),
 * or PostFinance: for those no method is sent, so Mollie's hosted page lets the member choose
 * among the brand's enabled methods.
 */
export const MOLLIE_METHODS: Record<PaymentMethodId, PaymentMethod | null> = {
  sdd: PaymentMethod.directdebit,
  sct: PaymentMethod.banktransfer,
  visa: PaymentMethod.creditcard,
  mastercard: PaymentMethod.creditcard,
  amex: PaymentMethod.creditcard,
  maestro: PaymentMethod.creditcard,
  creditcard: PaymentMethod.creditcard,
  cartebancaire: PaymentMethod.creditcard,
  blik: PaymentMethod.blik,
  przelewy24: PaymentMethod.przelewy24,
  mybank: PaymentMethod.mybank,
  satispay: PaymentMethod.satispay,
  giropay: null,
  sofort: null,
  eps: PaymentMethod.eps,
  ideal: PaymentMethod.ideal,
  bancontact: PaymentMethod.bancontact,
  mobilepay: PaymentMethod.mobilepay,
  swish: PaymentMethod.swish,
  twint: PaymentMethod.twint,
  postfinance: null,
  vipps: PaymentMethod.vipps,
  paysafecard: PaymentMethod.paysafecard,
  paypal: PaymentMethod.paypal,
  applepay: PaymentMethod.applepay,
};

/** Mollie's payment statuses as the product's: an authorized payment is not paid yet. */
const STATUSES: Record<string, PaymentStatus> = {
  open: 'open',
  pending: 'pending',
  authorized: 'pending',
  paid: 'paid',
  canceled: 'canceled',
  expired: 'expired',
  failed: 'failed',
};

/** Integer cents as Mollie's amount string ("12.34"), by integer arithmetic (every currency used has 2 decimals). */
export function mollieAmount(cents: number, currency: string): { currency: string; value: string } {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`mollie: ${cents} is not an amount in cents`);
  return { currency, value: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` };
}

/** Mollie's amount string ("12.34") as integer cents; 0 for none. */
export function centsOf(amount: { value: string } | undefined | null): number {
  const m = amount ? /^(\d+)\.(\d{2})$/.exec(amount.value) : null;
  return m ? Number(m[1]) * 100 + Number(m[2]) : 0;
}

const isNotFound = (error: unknown) => (error as { statusCode?: number } | null)?.statusCode === 404;

function mandateOf(m: MollieMandate): Mandate {
  const d = m.details as { cardLabel?: string | null; cardNumber?: string; cardExpiryDate?: string; consumerName?: string; consumerAccount?: string };
  const label =
    m.method === MandateMethod.directdebit
      ? `${d.consumerName ?? ''}, ${(d.consumerAccount ?? '').slice(0, 4)} •••• ${(d.consumerAccount ?? '').slice(-4)}`
      : `${d.cardLabel ?? 'Card'} •••• ${d.cardNumber ?? ''}${d.cardExpiryDate ? `, ${d.cardExpiryDate.slice(5, 7)}/${d.cardExpiryDate.slice(0, 4)}` : ''}`;
  return { id: m.id, status: m.status as Mandate['status'], method: m.method, label };
}

/**
 * Mollie (DESIGN §6) with @mollie/api-client, one client per brand with the brand's API key.
 * Its webhook carries only an id; `get` asks Mollie, so nothing is acted on without its word.
 * `apiEndpoint` points the client elsewhere (tests: a local stand-in of Mollie's API).
 */
export function createMollieProvider(opts: { apiKey: string; apiEndpoint?: string }): PaymentProvider {
  const client = createMollieClient({ apiKey: opts.apiKey, ...(opts.apiEndpoint ? { apiEndpoint: opts.apiEndpoint } : {}) });
  return {
    name: 'mollie',
    async create(input) {
      const method = MOLLIE_METHODS[input.method as PaymentMethodId] ?? undefined;
      const payment = await client.payments.create({
        amount: mollieAmount(input.amount, input.currency),
        description: input.description,
        redirectUrl: input.redirectUrl,
        webhookUrl: input.webhookUrl,
        ...(method ? { method } : {}),
        ...(input.customerId ? { customerId: input.customerId } : {}),
        ...(input.sequenceType ? { sequenceType: input.sequenceType as SequenceType } : {}),
        ...(input.mandateId ? { mandateId: input.mandateId } : {}),
      });
      return { id: payment.id, checkoutUrl: payment.getCheckoutUrl() ?? null };
    },
    async get(id) {
      try {
        const payment = await client.payments.get(id);
        return { id: payment.id, status: STATUSES[payment.status] ?? 'open', refunded: centsOf(payment.amountRefunded), chargedBack: centsOf(payment.amountChargedBack) };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async cancel(id) {
      // Mollie cancels some methods' open payments only (`isCancelable`); the others run until they expire.
      try {
        const payment = await client.payments.get(id);
        if (!payment.isCancelable) return false;
        return STATUSES[(await client.payments.cancel(id)).status] === 'canceled';
      } catch (error) {
        const status = (error as { statusCode?: number } | null)?.statusCode;
        if (status !== undefined && status >= 400 && status < 500) return false;
        throw error;
      }
    },
    async createCustomer(input) {
      return (await client.customers.create({ name: input.name, email: input.email, metadata: { tenant: input.tenantId } })).id;
    },
    async createMandate(customerId, input) {
      const mandate = await client.customerMandates.create({ customerId, method: MandateMethod.directdebit, consumerName: input.consumerName, consumerAccount: input.consumerAccount, signatureDate: input.signatureDate });
      return { id: mandate.id };
    },
    async mandates(customerId) {
      const page = await client.customerMandates.page({ customerId });
      return [...page].map(mandateOf);
    },
    async revokeMandate(customerId, mandateId) {
      await client.customerMandates.revoke(mandateId, { customerId });
    },
  };
}
