import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { createServer, type Server } from 'node:https';
import { selfSignedCert } from './tls.ts';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { tenantsWith } from './tenants.ts';

/**
 * A local stand-in for Mollie's API over HTTPS (@mollie/api-client speaks nothing else, and
 * trusts only its own CA bundle: a test using it sets NODE_TLS_REJECT_UNAUTHORIZED=0 in its own
 * process) (https://docs.mollie.com/reference): the payments, customers
 * and mandates endpoints the runtime uses, answering Mollie's documented JSON, so the Mollie
 * adapter is tested through @mollie/api-client without the internet. A test moves a payment's
 * status as Mollie would, and reads the requests it received.
 */
export interface MollieStandIn {
  /** The base URL for @mollie/api-client's `apiEndpoint` (…/v2/). */
  endpoint: string;
  requests: { method: string; path: string; authorization: string | undefined; body: Record<string, unknown> | null }[];
  payments: Map<string, Record<string, unknown>>;
  mandates: Map<string, Record<string, unknown>>;
  /** Moves a payment as Mollie would (paid, failed, canceled, expired…). */
  setStatus(id: string, status: string): void;
  /** Gives a paid payment back as Mollie reports it: refunded by the merchant or charged back by the bank (cents, totals so far). */
  giveBack(id: string, amounts: { refunded?: number; chargedBack?: number }): void;
  /** Recurring payments start with this status (Mollie: pending for SEPA, paid for cards soon after). */
  recurringStatus: string;
  close(): Promise<void>;
}

const token = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : null;
}

export async function startMollieStandIn(): Promise<MollieStandIn> {
  const payments = new Map<string, Record<string, unknown>>();
  const customers = new Map<string, Record<string, unknown>>();
  const mandates = new Map<string, Record<string, unknown>>();
  const requests: MollieStandIn['requests'] = [];
  let base = '';
  const link = (href: string, type = 'application/hal+json') => ({ href, type });

  const server: Server = createServer(selfSignedCert(), (req, res) => {
    void (async () => {
      const body = req.method === 'POST' ? await readJson(req) : null;
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
      const send = (status: number, json?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/hal+json' });
        res.end(json === undefined ? undefined : JSON.stringify(json));
      };
      const notFound = (what: string) => send(404, { status: 404, title: 'Not Found', detail: `No ${what} exists with token ${path.split('/').pop()}.`, _links: { documentation: link('https://docs.mollie.com/overview/handling-errors', 'text/html') } });
      let m: RegExpExecArray | null;

      if (req.method === 'POST' && path === '/v2/payments') {
        const id = token('tr');
        const recurring = body?.sequenceType === 'recurring';
        const payment = {
          resource: 'payment',
          id,
          mode: 'test',
          createdAt: new Date().toISOString(),
          amount: body?.amount,
          description: body?.description,
          method: body?.method ?? null,
          metadata: null,
          status: recurring ? stand.recurringStatus : 'open',
          isCancelable: false,
          expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
          profileId: 'pfl_standin',
          sequenceType: body?.sequenceType ?? 'oneoff',
          redirectUrl: body?.redirectUrl ?? null,
          webhookUrl: body?.webhookUrl ?? null,
          ...(body?.customerId ? { customerId: body.customerId } : {}),
          ...(body?.mandateId ? { mandateId: body.mandateId } : {}),
          _links: {
            self: link(`${base}payments/${id}`),
            ...(recurring ? {} : { checkout: link(`https://www.mollie.com/checkout/select-method/${id}`, 'text/html') }),
            dashboard: link(`https://www.mollie.com/dashboard/payments/${id}`, 'text/html'),
            documentation: link('https://docs.mollie.com/reference/create-payment', 'text/html'),
          },
        };
        payments.set(id, payment);
        return send(201, payment);
      }
      if (req.method === 'GET' && (m = /^\/v2\/payments\/([\w]+)$/.exec(path))) {
        const payment = payments.get(m[1]!);
        return payment ? send(200, payment) : notFound('payment');
      }
      if (req.method === 'POST' && path === '/v2/customers') {
        const id = token('cst');
        const customer = { resource: 'customer', id, mode: 'test', name: body?.name ?? null, email: body?.email ?? null, locale: null, metadata: body?.metadata ?? null, createdAt: new Date().toISOString(), _links: { self: link(`${base}customers/${id}`) } };
        customers.set(id, customer);
        return send(201, customer);
      }
      if ((m = /^\/v2\/customers\/(\w+)\/mandates(?:\/(\w+))?$/.exec(path))) {
        const [, customerId, mandateId] = m;
        if (!customers.has(customerId!)) return notFound('customer');
        if (req.method === 'POST' && !mandateId) {
          const id = token('mdt');
          const mandate = {
            resource: 'mandate',
            id,
            mode: 'test',
            status: 'valid',
            method: body?.method,
            details: { consumerName: body?.consumerName, consumerAccount: body?.consumerAccount, consumerBic: 'ABNANL2A' },
            mandateReference: null,
            signatureDate: body?.signatureDate ?? null,
            createdAt: new Date().toISOString(),
            customerId,
            _links: { self: link(`${base}customers/${customerId}/mandates/${id}`), customer: link(`${base}customers/${customerId}`) },
          };
          mandates.set(id, mandate);
          return send(201, mandate);
        }
        if (req.method === 'GET' && !mandateId) {
          const own = [...mandates.values()].filter((x) => x.customerId === customerId);
          return send(200, { count: own.length, _embedded: { mandates: own }, _links: { self: link(`${base}customers/${customerId}/mandates`), previous: null, next: null } });
        }
        if (req.method === 'DELETE' && mandateId) {
          const mandate = mandates.get(mandateId);
          if (!mandate) return notFound('mandate');
          mandate.status = 'invalid';
          return send(204);
        }
      }
      return send(404, { status: 404, title: 'Not Found', detail: `${req.method} ${path} is not part of the stand-in` });
    })().catch((error: Error) => {
      res.writeHead(500);
      res.end(error.message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v2/`;

  const stand: MollieStandIn = {
    endpoint: base,
    requests,
    payments,
    mandates,
    recurringStatus: 'paid',
    setStatus(id, status) {
      const payment = payments.get(id);
      if (!payment) throw new Error(`stand-in: no payment ${id}`);
      payment.status = status;
    },
    giveBack(id, { refunded, chargedBack }) {
      const payment = payments.get(id);
      if (!payment) throw new Error(`stand-in: no payment ${id}`);
      const amount = (cents: number) => ({ currency: (payment.amount as { currency: string }).currency, value: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` });
      if (refunded !== undefined) payment.amountRefunded = amount(refunded);
      if (chargedBack !== undefined) payment.amountChargedBack = amount(chargedBack);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return stand;
}

/**
 * The stand-in for the tests of one file, started before them: the runtime reaches it through
 * MOLLIE_API_ENDPOINT with a key in `keyEnv` (the brand's `payments.mollie_api_key_env`).
 */
export function useMollieStandIn(keyEnv: string): () => MollieStandIn {
  let mollie: MollieStandIn | undefined;
  beforeAll(async () => {
    // @mollie/api-client checks certificates against its own bundle only; this worker trusts the stand-in.
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    mollie = await startMollieStandIn();
    process.env[keyEnv] = 'test_standinkey';
    process.env.MOLLIE_API_ENDPOINT = mollie.endpoint;
  });
  afterAll(async () => {
    await mollie?.close();
  });
  return () => {
    if (!mollie) throw new Error('the Mollie stand-in has not started');
    return mollie;
  };
}

/**
 * A brand on Mollie for the tests of one file: a copy of the tenants with the brand's payments
 * set to Mollie, and the stand-in (useMollieStandIn) started before the file's tests and stopped
 * after. Pass `tenantsDir` to the runtime; `mollie()` is the stand-in.
 */
export function useMollieBrand(brand = 'spetter'): { tenantsDir: string; keyEnv: string; mollie: () => MollieStandIn } {
  const keyEnv = `MOLLIE_KEY_${brand.toUpperCase()}_TEST`;
  const mollie = useMollieStandIn(keyEnv);
  const tenants = tenantsWith({ [brand]: { payments: { provider: 'mollie', mollie_api_key_env: keyEnv } } });
  afterAll(() => tenants.remove());
  return { tenantsDir: tenants.dir, keyEnv, mollie };
}
