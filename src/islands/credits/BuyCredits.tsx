/**
 * Choosing and paying a credit bundle (SPEC §2 credit packages, §4 payment order): the brand's
 * packages (popular tag, discount ribbon, price per credit), the discount code selector, the
 * payment methods of the member's country, and the pay button, which starts the payment
 * (POST /api/payment.php) and goes to the provider's checkout.
 */
import { useEffect, useState } from 'react';
import type { BodyOf } from '../../contract/endpoints.ts';
import type { PackageOption } from '../../contract/payments.ts';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { formatMoney } from '../../lib/money.ts';
import { formatCountdown, type DiscountView, type NotApplicable } from '../../lib/discounts.ts';
import { baseBundle, bundlePrice, savingPercent, type BundleTariff } from '../../lib/bundle-price.ts';
import { api, ApiError } from '../../stores/api.ts';
import { METHOD_LOGOS, type PaymentMethodId } from '../../lib/payment-methods.ts';
import { useHydrated } from '../useHydrated.ts';

export type { PackageOption };

interface Props {
  locale: Locale;
  packages: PackageOption[];
  methods: { id: string; name: string }[];
  /** The package chosen before (credits-id-paymentmethod), else the popular one. */
  selected?: string;
  method?: string;
  testMode: boolean;
  /** The member's payment country (a code may be for one country). */
  country: string;
  /** The active code (SPEC §4: the address's code, the time bonus, or the welcome code). */
  discount: DiscountView | null;
  /** Why the address's code was refused, in the member's language. */
  discountError?: string | null;
}

const NOT_APPLICABLE_TEXT: Record<NotApplicable, (code: DiscountView, o: { locale: Locale }) => string> = {
  minimum: (code, o) => m.discount_minimum({ amount: formatMoney(code.minimum_order_value, code.currency ?? 'EUR', o.locale) }, o),
  country: (_code, o) => m.discount_country({}, o),
  method: (_code, o) => m.discount_method({}, o),
  currency: (_code, o) => m.discount_currency({}, o),
};

export default function BuyCredits({ locale, packages, methods, selected, method, testMode, country, discount: initialDiscount, discountError }: Props) {
  const o = { locale };
  const hydrated = useHydrated();
  const [pack, setPack] = useState(selected ?? packages.find((p) => p.popular)?.id ?? packages[0]!.id);
  const [via, setVia] = useState(method && methods.some((x) => x.id === method) ? method : methods[0]!.id);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  // The member's open checkout holding the code, when its provider could not cancel it: go on there.
  const [openCheckout, setOpenCheckout] = useState<string | null>(null);
  const [discount, setDiscount] = useState(initialDiscount);
  // Back from the provider's checkout, the browser may show this page as it was left (busy): it can pay again.
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => event.persisted && setBusy(false);
    addEventListener('pageshow', shown);
    return () => removeEventListener('pageshow', shown);
  }, []);
  const chosen = packages.find((p) => p.id === pack)!;
  // The one rule the server prices by (bundlePrice): direct debit charges the euro price, every
  // other method the price of the member's country; the code comes off where it applies.
  const priced = (p: PackageOption) => bundlePrice(p.tariff, { country, method: via }, discount) ?? bundlePrice(p.tariff, { country }, discount)!;
  const money = (cents: number, p: PackageOption) => formatMoney(cents, priced(p).currency, locale);
  const why = priced(chosen).notApplicable;
  const base = baseBundle(packages.map((p) => ({ credits: p.credits, list: priced(p).list })));
  // The badge states the saving of the prices it stands beside.
  const saving = (p: PackageOption) => (p.discount > 0 && base ? savingPercent({ credits: p.credits, list: priced(p).list }, base) : 0);

  async function pay() {
    setBusy(true);
    setError('');
    if (via === 'sdd') {
      // Direct debit has its own form with an SMS code (/directdebit).
      const code = discount && !why ? `&code=${encodeURIComponent(discount.code)}` : '';
      location.assign(`/directdebit?package=${encodeURIComponent(pack)}${code}`);
      return;
    }
    try {
      const body = { package_id: pack, method: via as BodyOf<'POST payment.php'>['method'], ...(discount && !why ? { discount_code: discount.code } : {}) };
      const { checkout_url } = await api('POST', '/payment.php', body);
      location.assign(checkout_url);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      const open = e instanceof ApiError ? (e.body as { open_checkout_url?: unknown } | null)?.open_checkout_url : undefined;
      setOpenCheckout(typeof open === 'string' ? open : null);
      setBusy(false);
    }
  }

  return (
    <div className="space-y-6" data-buy-credits>
      <fieldset>
        <legend className="mb-3 text-lg font-bold">{m.credits_choose_package({}, o)}</legend>
        <div className="grid gap-3 md:grid-cols-3">
          {packages.map((p) => (
            <label key={p.id} className={`card relative block cursor-pointer p-5 transition-shadow hover:shadow-md has-[:checked]:ring-2 has-[:checked]:ring-primary has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary has-[:focus-visible]:outline-solid ${p.popular ? 'border-primary/50' : ''}`} data-package={p.id}>
              <input type="radio" name="package" value={p.id} checked={pack === p.id} onChange={() => setPack(p.id)} className="sr-only" />
              {saving(p) > 0 && <span className="absolute right-3 top-3 rounded-full bg-danger px-2.5 py-0.5 text-xs font-bold text-white" data-saving={saving(p)}>{m.pricing_discount({ percent: saving(p) }, o)}</span>}
              {p.popular && <span className="mb-1 inline-block rounded-full bg-primary px-2.5 py-0.5 text-xs font-bold text-white">{m.pricing_popular({}, o)}</span>}
              <span className="block text-2xl font-extrabold">{m.pricing_credits({ credits: p.credits }, o)}</span>
              {priced(p).amount < priced(p).list ? (
                <span className="block text-lg">
                  <s className="mr-2 text-gray-500" aria-label={m.credits_list_price({ amount: money(priced(p).list, p) }, o)}>{money(priced(p).list, p)}</s>
                  <strong className="text-success" data-discounted>{money(priced(p).amount, p)}</strong>
                </span>
              ) : (
                <span className="block text-lg text-gray-800" data-price>{money(priced(p).list, p)}</span>
              )}
              <span className="block text-xs text-gray-500" data-per-credit>{m.credits_per_credit({ price: money(priced(p).perCredit, p) }, o)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="mb-3 text-lg font-bold">{m.credits_choose_method({}, o)}</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 md:grid-cols-4">
          {methods.map((x) => (
            <label key={x.id} className="flex cursor-pointer items-center gap-1.5 rounded-xl border border-gray-300 bg-white px-2.5 py-2.5 text-[13px] font-semibold has-[:checked]:border-primary has-[:checked]:bg-primary/5 has-[:checked]:ring-1 has-[:checked]:ring-primary has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary has-[:focus-visible]:outline-solid sm:gap-2 sm:px-3 sm:text-sm" data-method={x.id}>
              {/* On a phone the chosen method shows by its frame alone: the names need the room. */}
              <input type="radio" name="method" value={x.id} checked={via === x.id} onChange={() => setVia(x.id)} className="sr-only accent-[var(--c-primary)] sm:not-sr-only" />
              <MethodLogo id={x.id} />
              <span className="min-w-0 break-words">{x.name}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <DiscountCode locale={locale} discount={discount} onChange={setDiscount} initialError={discountError ?? ''} notApplicable={discount && why ? NOT_APPLICABLE_TEXT[why](discount, o) : ''} />
      {testMode && <p className="rounded-xl bg-info/15 px-4 py-2 text-sm text-gray-800">{m.credits_test_provider({}, o)}</p>}
      {error && (
        <p role="alert" className="text-danger">
          {error}
          {openCheckout && (
            <a href={openCheckout} className="ml-2 font-semibold underline" data-open-checkout>{m.credits_continue_checkout({}, o)}</a>
          )}
        </p>
      )}
      <button type="button" className="btn-primary w-full py-3 text-lg sm:w-auto" onClick={pay} disabled={busy || !hydrated} data-pay>
        <span aria-hidden="true" className="i-tabler-lock" />
        {m.credits_pay({ amount: money(priced(chosen).amount, chosen) }, o)}
      </button>
    </div>
  );
}

/**
 * The discount code selector: the active code with what it gives and how long it lasts (the time
 * bonus counts down every second and is dropped at zero), or a field to enter one, looked up with
 * GET /api/discountcode.php ("Code niet gevonden", "Code reeds gebruikt").
 */
function DiscountCode({ locale, discount, onChange, initialError, notApplicable: notHere }: { locale: Locale; discount: DiscountView | null; onChange: (code: DiscountView | null) => void; initialError: string; notApplicable: string }) {
  const o = { locale };
  const [typed, setTyped] = useState('');
  const [error, setError] = useState(initialError);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(initialError !== '');
  const hydrated = useHydrated();
  const [ends] = useState(() => (discount?.validity != null ? Date.now() + discount.validity * 1000 : null));
  const [left, setLeft] = useState(discount?.validity ?? null);
  const [until, setUntil] = useState(ends);

  useEffect(() => {
    setUntil(discount?.validity != null ? Date.now() + discount.validity * 1000 : null);
    setLeft(discount?.validity ?? null);
  }, [discount?.code]);
  useEffect(() => {
    if (until === null || discount?.kind !== 'time_bonus') return;
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      setLeft(seconds);
      if (seconds === 0) onChange(null);
    };
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [until, discount?.kind]);

  async function apply(event: React.FormEvent) {
    event.preventDefault();
    if (!typed.trim()) return;
    setBusy(true);
    setError('');
    try {
      const { discount_code } = await api('GET', '/discountcode.php', undefined, { code: typed.trim() });
      onChange(discount_code);
      setTyped('');
      setOpen(false);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  if (discount) {
    const what = discount.percentage !== null ? m.discount_applied_percent({ code: discount.code, percent: discount.percentage }, o) : m.discount_applied_value({ code: discount.code, amount: formatMoney(discount.value ?? 0, discount.currency ?? 'EUR', locale) }, o);
    return (
      <div className="rounded-2xl border border-success/40 bg-success/10 px-4 py-3" data-discount={discount.code}>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span aria-hidden="true" className="i-tabler-discount-check text-xl text-success" />
          <strong>{what}</strong>
          {discount.kind === 'time_bonus' && left !== null ? (
            <span className="font-mono tabular-nums" data-countdown>{m.discount_time_left({ time: formatCountdown(left) }, o)}</span>
          ) : (
            // The day in the browser's time zone, which the server does not know: shown once hydrated.
            discount.expires && hydrated && <span className="text-sm text-gray-700">{m.discount_valid_until({ date: new Date(discount.expires).toLocaleDateString(locale, { dateStyle: 'medium' }) }, o)}</span>
          )}
          <button type="button" className="ml-auto text-sm font-semibold text-gray-700 underline" onClick={() => onChange(null)}>{m.discount_remove({}, o)}</button>
        </p>
        {notHere && <p className="mt-1 text-sm text-danger" data-discount-not-applicable>{notHere}</p>}
      </div>
    );
  }
  return (
    <details open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)} className="rounded-2xl border border-gray-200 bg-white px-4 py-3" data-discount-form>
      <summary className="cursor-pointer font-semibold">{m.discount_label({}, o)}</summary>
      <form className="mt-3 flex flex-wrap gap-2" onSubmit={apply}>
        <label className="sr-only" htmlFor="discount-code">{m.discount_label({}, o)}</label>
        <input id="discount-code" name="code" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={40} autoComplete="off" autoCapitalize="characters" className="min-w-40 flex-1 rounded-xl border border-gray-300 px-3 py-2 uppercase" aria-invalid={error !== ''} aria-describedby={error ? 'discount-error' : undefined} />
        <button type="submit" className="btn-light" disabled={busy || !typed.trim()}>{m.discount_apply({}, o)}</button>
      </form>
      {error && <p id="discount-error" role="alert" className="mt-2 text-sm text-danger">{error}</p>}
    </details>
  );
}

/** A payment method's badge (METHOD_LOGOS); the name beside it is what is read out. */
function MethodLogo({ id }: { id: string }) {
  const logo = METHOD_LOGOS[id as PaymentMethodId];
  if (!logo) return null;
  return (
    <span aria-hidden="true" className={`flex h-6 w-9 shrink-0 items-center sm:w-11 justify-center overflow-hidden rounded-md text-[9px] font-extrabold leading-none tracking-tight ${logo.dark ? 'text-black' : 'text-white'}`} style={{ background: logo.bg }}>
      {logo.icon ? <span className={`${logo.icon} text-lg`} /> : logo.text}
    </span>
  );
}
