/**
 * Choosing and paying a credit bundle (SPEC §2 credit packages, §4 payment order): the brand's
 * packages (popular tag, discount ribbon, price per credit), the payment methods of the member's
 * country, and the pay button, which starts the payment (POST /api/payment.php) and goes to the
 * provider's checkout.
 */
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { api, ApiError } from '../../stores/api.ts';
import { useHydrated } from '../useHydrated.ts';

export interface PackageOption {
  id: string;
  credits: number;
  price: string;
  perCredit: string;
  popular: boolean;
  discount: number;
}

interface Props {
  locale: Locale;
  packages: PackageOption[];
  methods: { id: string; name: string }[];
  /** The package chosen before (credits-id-paymentmethod), else the popular one. */
  selected?: string;
  method?: string;
  testMode: boolean;
}

export default function BuyCredits({ locale, packages, methods, selected, method, testMode }: Props) {
  const o = { locale };
  const hydrated = useHydrated();
  const [pack, setPack] = useState(selected ?? packages.find((p) => p.popular)?.id ?? packages[0]!.id);
  const [via, setVia] = useState(method && methods.some((x) => x.id === method) ? method : methods[0]!.id);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const chosen = packages.find((p) => p.id === pack)!;

  async function pay() {
    setBusy(true);
    setError('');
    try {
      const { checkout_url } = await api<{ checkout_url: string }>('POST', '/payment.php', { package_id: pack, method: via });
      location.assign(checkout_url);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(false);
    }
  }

  return (
    <div className="space-y-6" data-buy-credits>
      <fieldset>
        <legend className="mb-3 text-lg font-bold">{m.credits_choose_package({}, o)}</legend>
        <div className="grid gap-3 md:grid-cols-3">
          {packages.map((p) => (
            <label key={p.id} className={`card relative block cursor-pointer p-5 transition-shadow hover:shadow-md has-[:checked]:ring-2 has-[:checked]:ring-primary ${p.popular ? 'border-primary/50' : ''}`} data-package={p.id}>
              <input type="radio" name="package" value={p.id} checked={pack === p.id} onChange={() => setPack(p.id)} className="sr-only" />
              {p.discount > 0 && <span className="absolute right-3 top-3 rounded-full bg-danger px-2.5 py-0.5 text-xs font-bold text-white">{m.pricing_discount({ percent: p.discount }, o)}</span>}
              {p.popular && <span className="mb-1 inline-block rounded-full bg-primary px-2.5 py-0.5 text-xs font-bold text-white">{m.pricing_popular({}, o)}</span>}
              <span className="block text-2xl font-extrabold">{m.pricing_credits({ credits: p.credits }, o)}</span>
              <span className="block text-lg text-gray-800">{p.price}</span>
              <span className="block text-xs text-gray-500">{m.credits_per_credit({ price: p.perCredit }, o)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="mb-3 text-lg font-bold">{m.credits_choose_method({}, o)}</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 md:grid-cols-4">
          {methods.map((x) => (
            <label key={x.id} className="flex cursor-pointer items-center gap-2 rounded-xl border border-gray-300 bg-white px-3 py-2.5 text-sm font-semibold has-[:checked]:border-primary has-[:checked]:bg-primary/5" data-method={x.id}>
              <input type="radio" name="method" value={x.id} checked={via === x.id} onChange={() => setVia(x.id)} className="accent-[var(--c-primary)]" />
              {x.name}
            </label>
          ))}
        </div>
      </fieldset>
      {testMode && <p className="rounded-xl bg-info/15 px-4 py-2 text-sm text-gray-800">{m.credits_test_provider({}, o)}</p>}
      {error && <p role="alert" className="text-danger">{error}</p>}
      <button type="button" className="btn-primary w-full py-3 text-lg sm:w-auto" onClick={pay} disabled={busy || !hydrated} data-pay>
        <span aria-hidden="true" className="i-tabler-lock" />
        {m.credits_pay({ amount: chosen.price }, o)}
      </button>
    </div>
  );
}
