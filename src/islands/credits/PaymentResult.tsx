/**
 * The payment result (SPEC §4 payment order, §8): pending ("being processed") until the provider
 * answers, updated live over the event stream and by asking every 2 s; then completed (the
 * credits added and the new balance), or failed or cancelled with a retry through another method.
 */
import { useEffect, useState } from 'react';
import { FINAL_PAYMENT_STATUSES } from '../../contract/enums.ts';
import type { PaymentView } from '../../contract/payments.ts';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { api } from '../../stores/api.ts';
import { onEvent } from '../../stores/events.ts';
import { $user, loadUser } from '../../stores/user.ts';
import { useStoreOnceHydrated } from '../useStoreOnceHydrated.ts';

type Payment = Pick<PaymentView, 'payment_id' | 'package_id' | 'credits' | 'discount_code' | 'status'>;

/** How often a pending payment is asked about (ms). */
const POLL_MS = 2_000;

export default function PaymentResult({ locale, initial, credits }: { locale: Locale; initial: Payment; credits: number }) {
  const o = { locale };
  const [payment, setPayment] = useState(initial);
  // The balance the page was rendered with, then the member's as the store follows it.
  const user = useStoreOnceHydrated($user, null);
  const final = FINAL_PAYMENT_STATUSES.includes(payment.status);

  useEffect(() => {
    if (final) {
      if (payment.status === 'paid') void loadUser().catch(() => undefined);
      return;
    }
    const ask = () => api('GET', '/payment.php', undefined, { id: payment.payment_id }).then((a) => setPayment(a.payment), () => undefined);
    const timer = setInterval(ask, POLL_MS);
    const off = onEvent('payment', (data) => {
      if (data?.payment_id === payment.payment_id) void ask();
    });
    return () => {
      clearInterval(timer);
      off();
    };
  }, [final]);

  if (payment.status === 'paid') {
    return (
      <div className="card p-6 text-center" role="status" data-payment="paid">
        <span aria-hidden="true" className="i-tabler-circle-check mb-2 inline-block text-6xl text-success" />
        <h2 className="text-2xl font-bold">{m.payment_done_title({}, o)}</h2>
        <p className="mt-2">{m.payment_done_text({ credits: payment.credits }, o)}</p>
        <p className="mt-1 font-semibold" data-balance>{m.credits_balance({ count: user?.credits ?? credits }, o)}</p>
        <a href="/chats" className="btn-primary mt-5">{m.payment_to_chats({}, o)}</a>
        <a href={`/transactions/${payment.payment_id}`} className="mt-3 block text-sm font-semibold">{m.invoice_title({}, o)}</a>
      </div>
    );
  }
  if (final) {
    return (
      <div className="card p-6 text-center" role="alert" data-payment={payment.status}>
        <span aria-hidden="true" className="i-tabler-circle-x mb-2 inline-block text-6xl text-danger" />
        <h2 className="text-2xl font-bold">{payment.status === 'canceled' ? m.payment_cancelled({}, o) : m.payment_failed({}, o)}</h2>
        <p className="mt-2">{m.payment_failed_or_cancelled({}, o)}</p>
        <a href={`/credits/${payment.package_id}${payment.discount_code ? `?code=${encodeURIComponent(payment.discount_code)}` : ''}`} className="btn-primary mt-5">{m.payment_retry({}, o)}</a>
      </div>
    );
  }
  return (
    <div className="card p-6 text-center" role="status" aria-busy="true" data-payment="pending">
      <span aria-hidden="true" className="i-tabler-loader-2 mb-2 inline-block animate-spin text-5xl text-primary" />
      <h2 className="text-2xl font-bold">{m.payment_pending_title({}, o)}</h2>
      <p className="mt-2 text-gray-700">{m.payment_pending_text({}, o)}</p>
    </div>
  );
}
