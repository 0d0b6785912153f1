import { OkAnswer } from '../../contract/public.ts';
import { DirectDebitBody, DirectDebitConfirmAnswer, DirectDebitConfirmBody, DirectDebitFormAnswer, DirectDebitOrderAnswer } from '../../contract/directdebit.ts';
import {
  DiscountAnswer,
  DiscountQuery,
  PackagesAnswer,
  PaymentAnswer,
  PaymentQuery,
  RepeatAnswer,
  RepeatOfferAnswer,
  StartPaymentAnswer,
  TransactionsAnswer,
  TransactionsQuery,
  StartPaymentBody,
  TestCheckoutBody,
  TestCheckoutQuery,
  WebhookBody,
} from '../../contract/payments.ts';
import { formatMoney } from '../../lib/money.ts';
import { creditsOffer } from '../../lib/credits-offer.ts';
import { notFound } from '../errors.ts';
import { html, json, redirect, route } from '../http/routes.ts';
import { request } from 'node:http';
import type { SiteUser } from '../../contract/user.ts';
import { TEST_PENDING_SECONDS } from '../payments/test-provider.ts';

/** The member as the checkout needs them: the payment country is the profile's. */
const payer = (user: SiteUser) => ({ id: user.id, paid_user: user.paid_user, signup_date: user.signup_date, country: user.profile?.country ?? null });

/** The test provider's call of a webhook: a form post of the payment id, to the brand's host on this runtime's own port. */
function callWebhook(webhookUrl: string, id: string, port: number): Promise<void> {
  const url = new URL(webhookUrl);
  const body = `id=${encodeURIComponent(id)}`;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: url.pathname, headers: { host: url.host, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`test provider: webhook answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Buying credits (docs/API.md "Payments"). */
export const paymentRoutes = [
  route({
    // The bundles and methods the member may buy, priced for their payment country: the same
    // function as the /credits page (src/lib/credits-offer.ts), so the two cannot differ.
    method: 'GET',
    path: 'packages.php',
    who: 'member',
    answer: PackagesAnswer,
    handler: async (ctx) => {
      // Less the code the checkout would start with, as on the page (`?code=` names one).
      const { user } = ctx.session;
      const discount = await ctx.services.discounts.active(ctx.tenant, { id: user.id, paid_user: user.paid_user, signup_date: user.signup_date }, ctx.params.get('code'));
      return json(creditsOffer({ tenant: ctx.tenant, locale: ctx.locale, country: ctx.country, user }, undefined, discount.code));
    },
  }),
  route({
    // Starts a payment of a package; the browser goes to checkout_url.
    method: 'POST',
    path: 'payment.php',
    answer: StartPaymentAnswer,
    who: 'member',
    body: StartPaymentBody,
    handler: async (ctx) => json(await ctx.services.payments.start(ctx.tenant, payer(ctx.session.user), ctx.body, { origin: ctx.origin, locale: ctx.locale })),
  }),
  route({
    // A discount code for the member (SPEC §3, §7): 404 "Code niet gevonden", 409 "Code reeds
    // gebruikt", 410 when expired; welcome=true answers the welcome discount or 404.
    method: 'GET',
    path: 'discountcode.php',
    answer: DiscountAnswer,
    who: 'member',
    query: DiscountQuery,
    handler: async (ctx) => {
      const { user } = ctx.session;
      const discount_code = 'welcome' in ctx.query ? await ctx.services.discounts.welcome(ctx.tenant, user) : await ctx.services.discounts.lookup(ctx.tenant, user, ctx.query.code);
      return json({ discount_code });
    },
  }),
  route({
    // The last purchase and the saved card it can be charged on (/credits/repeat-order); 404 before a first purchase.
    method: 'GET',
    path: 'repeat-order.php',
    answer: RepeatOfferAnswer,
    who: 'member',
    handler: async (ctx) => {
      const offer = await ctx.services.payments.repeatOffer(ctx.tenant, payer(ctx.session.user));
      if (!offer) throw notFound();
      return json({ repeat_order: offer });
    },
  }),
  route({
    // The last purchase again: on the saved card at once, else through the method's own way; `next` is where the browser goes.
    method: 'POST',
    path: 'repeat-order.php',
    answer: RepeatAnswer,
    who: 'member',
    handler: async (ctx) => json(await ctx.services.payments.repeat(ctx.tenant, payer(ctx.session.user), ctx.origin)),
  }),
  route({
    // Removes the saved card.
    method: 'DELETE',
    path: 'saved-card.php',
    answer: OkAnswer,
    who: 'member',
    handler: async (ctx) => {
      await ctx.services.payments.removeSavedCard(ctx.tenant, ctx.session.user.id);
      return json({ ok: true });
    },
  }),
  route({
    // The member's ledger a page at a time, or one purchase's invoice (/transactions/{id}).
    method: 'GET',
    path: 'transactions.php',
    answer: TransactionsAnswer,
    who: 'member',
    query: TransactionsQuery,
    handler: async (ctx) =>
      'id' in ctx.query
        ? json({ invoice: await ctx.services.transactions.invoice(ctx.tenant, ctx.session.user.id, ctx.query.id) })
        : json(await ctx.services.transactions.list(ctx.session.user.id, ctx.query.before ?? null)),
  }),
  route({
    // The direct-debit form's start: the member's last details, the limit and what is left.
    method: 'GET',
    path: 'directdebit.php',
    answer: DirectDebitFormAnswer,
    who: 'member',
    handler: async (ctx) => json(await ctx.services.directDebit.form(ctx.session.user.id)),
  }),
  route({
    // A bundle by direct debit: validated, limited, then an SMS code is sent.
    method: 'POST',
    path: 'directdebit.php',
    answer: DirectDebitOrderAnswer,
    who: 'member',
    body: DirectDebitBody,
    handler: async (ctx) => json(await ctx.services.directDebit.order(ctx.tenant, payer(ctx.session.user), ctx.body, ctx.locale)),
  }),
  route({
    // The SMS code: the mandate and the debit are made; answers the payment and its result page.
    method: 'POST',
    path: 'directdebit.php',
    answer: DirectDebitConfirmAnswer,
    variant: { query: { confirm: '1' } },
    who: 'member',
    body: DirectDebitConfirmBody,
    handler: async (ctx) => {
      const payment = await ctx.services.directDebit.confirm(ctx.tenant, ctx.session.user.id, ctx.body, ctx.origin);
      return json({ payment, result_url: `/credits/${payment.package_id}/sdd?payment=${payment.payment_id}` });
    },
  }),
  route({
    // The result screen: where the payment stands, asking the provider while it is not final
    // (the member's return may come before the webhook).
    method: 'GET',
    path: 'payment.php',
    answer: PaymentAnswer,
    who: 'member',
    query: PaymentQuery,
    handler: async (ctx) => {
      return json({ payment: await ctx.services.payments.refresh(ctx.session.user.id, ctx.query.id) });
    },
  }),
  route({
    // The provider's webhook: only an id; the payment is fetched from the provider before anything happens.
    method: 'POST',
    path: 'payment-webhook.php',
    answer: OkAnswer,
    who: 'outside',
    body: WebhookBody,
    handler: async (ctx) => {
      // A payment of another brand is unknown on this brand's host.
      await ctx.services.payments.settle(ctx.body.id, ctx.tenant.id);
      return json({ ok: true });
    },
  }),
  route({
    // The test provider's hosted checkout page: pay, fail, cancel, or pending then paid.
    method: 'GET',
    path: 'test-checkout.php',
    answer: 'html',
    who: 'visitor',
    query: TestCheckoutQuery,
    handler: async (ctx) => {
      // Only while the brand uses the test provider.
      if (ctx.tenant.payments.provider !== 'test') throw notFound();
      const checkout = await ctx.services.testProvider.checkout(ctx.query.id);
      if (!checkout || checkout.tenant_id !== ctx.tenant.id) throw notFound();
      const t = (key: string, params: Record<string, string | number> = {}) => escapeHtml(ctx.t(key, params));
      const button = (outcome: string, label: string, colour: string) =>
        `<form method="post" action="/api/test-checkout.php"><input type="hidden" name="id" value="${escapeHtml(checkout.id)}"><input type="hidden" name="outcome" value="${outcome}"><button type="submit" style="background:${colour}">${label}</button></form>`;
      const body =
        checkout.status === 'open'
          ? `<p>${t('test_checkout_intro')}</p>
<p class="amount">${escapeHtml(formatMoney(checkout.amount, checkout.currency, ctx.locale))}</p><p>${escapeHtml(checkout.description)} · ${escapeHtml(checkout.method)}</p>
${button('paid', t('test_checkout_pay'), '#15803d')}${button('pending', t('test_checkout_pending', { seconds: TEST_PENDING_SECONDS }), '#0e7490')}${button('failed', t('test_checkout_fail'), '#b91c1c')}${button('canceled', t('test_checkout_cancel'), '#4b5563')}`
          : `<p>${t('test_checkout_done')}</p><p><a href="${escapeHtml(checkout.redirect_url)}">${t('test_checkout_back')}</a></p>`;
      return html(`<!doctype html><html lang="${ctx.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t('test_checkout_title')}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1d1a22}h1{font-size:1.4rem}.amount{font-size:2rem;font-weight:700}form{margin:.6rem 0}button{width:100%;color:#fff;border:0;border-radius:999px;padding:.8rem 1.2rem;font-weight:600;font-size:1rem;cursor:pointer}</style></head>
<body><h1>${t('test_checkout_title')}</h1>${body}</body></html>`);
    },
  }),
  route({
    // The test checkout's buttons (the provider's own page: a form post, no member session needed).
    // It settles as a provider does (the webhook), then sends the browser back to the brand.
    method: 'POST',
    path: 'test-checkout.php',
    answer: 'redirect',
    who: 'outside',
    body: TestCheckoutBody,
    handler: async (ctx) => {
      if (ctx.tenant.payments.provider !== 'test') throw notFound();
      const checkout = await ctx.services.testProvider.checkout(ctx.body.id);
      if (!checkout || checkout.tenant_id !== ctx.tenant.id) throw notFound();
      const decided = await ctx.services.testProvider.decide(ctx.body.id, ctx.body.outcome);
      if (!decided) return redirect(checkout.redirect_url);
      // As a real provider: the webhook is called over HTTP (this runtime's own port, the brand's host).
      const port = ctx.req.socket.localPort!;
      await callWebhook(decided.webhookUrl, ctx.body.id, port).catch(() => ctx.services.payments.settle(ctx.body.id));
      if (decided.settleAt) {
        const id = ctx.body.id;
        setTimeout(() => void callWebhook(decided.webhookUrl, id, port).catch(() => undefined), TEST_PENDING_SECONDS * 1000 + 50).unref();
      }
      return redirect(decided.redirectUrl);
    },
  }),
];
