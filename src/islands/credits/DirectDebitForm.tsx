/**
 * Paying a bundle by direct debit (SPEC §5 direct debit fields, §8): account holder, IBAN, street,
 * house number, postcode, city, mobile number and the consent checkbox; then the code sent by SMS
 * ("Code ongeldig" with the tries left). A confirmed order goes to the payment's result page.
 */
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { formatMoney } from '../../lib/money.ts';
import type { DirectDebitAnswer, DirectDebitDetails } from '../../lib/directdebit.ts';
import { api, ApiError } from '../../stores/api.ts';
import { useHydrated } from '../useHydrated.ts';
import { FormAlert, SubmitButton, TextField, formError, type FieldErrors } from '../signup/form.tsx';

interface Props {
  locale: Locale;
  packageId: string;
  discountCode: string | null;
  /** What will be debited, formatted. */
  amount: string;
  company: string;
  initial: Partial<DirectDebitDetails> | null;
}

const FIELDS = ['holder', 'iban', 'street', 'house_number', 'postcode', 'city', 'mobile'] as const;

export default function DirectDebitForm({ locale, packageId, discountCode, amount, company, initial }: Props) {
  const o = { locale };
  const hydrated = useHydrated();
  const [details, setDetails] = useState<DirectDebitDetails>(() => Object.fromEntries(FIELDS.map((f) => [f, initial?.[f] ?? ''])) as unknown as DirectDebitDetails);
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState('');
  const [busy, setBusy] = useState(false);
  const [order, setOrder] = useState<DirectDebitAnswer['order'] | null>(null);
  const [code, setCode] = useState('');
  const [triesLeft, setTriesLeft] = useState<number | null>(null);

  const set = (field: keyof DirectDebitDetails) => (value: string) => setDetails((d) => ({ ...d, [field]: value }));
  const fail = (error: unknown) => {
    const e = formError(error, locale);
    if (e.field && e.field !== 'package_id') setErrors({ [e.field]: e.message });
    else setAlert(e.message);
  };

  async function sendCode(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setAlert('');
    try {
      const answer = await api('POST', '/directdebit.php', { package_id: packageId, ...(discountCode ? { discount_code: discountCode } : {}), ...details, consent });
      setOrder(answer.order);
      setTriesLeft(null);
      setCode('');
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: React.FormEvent) {
    event.preventDefault();
    if (!order) return;
    setBusy(true);
    setErrors({});
    setAlert('');
    try {
      const { result_url } = await api('POST', '/directdebit.php?confirm=1', { order_id: order.id, code: code.trim() });
      location.assign(result_url);
    } catch (error) {
      const left = error instanceof ApiError ? (error.body as { tries_left?: number } | null)?.tries_left : undefined;
      if (typeof left === 'number') setTriesLeft(left);
      // A cancelled or expired order starts again from the form.
      if (error instanceof ApiError && (error.status === 404 || error.status === 410 || left === 0)) setOrder(null);
      fail(error);
      setBusy(false);
    }
  }

  if (order) {
    return (
      <form className="card space-y-4 p-5 sm:p-6" onSubmit={confirm} noValidate data-directdebit-code>
        <p>{m.directdebit_code_sent({ mobile: order.mobile, amount: formatMoney(order.amount, order.currency, locale) }, o)}</p>
        <TextField
          id="dd-code"
          label={m.directdebit_code({}, o)}
          value={code}
          onChange={setCode}
          error={errors.code}
          hint={triesLeft !== null ? m.directdebit_tries_left({ count: triesLeft }, o) : undefined}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          className="max-w-48"
          autoFocus
        />
        {alert && <FormAlert>{alert}</FormAlert>}
        <SubmitButton busy={busy}>{m.directdebit_confirm({}, o)}</SubmitButton>
        <button type="button" className="w-full text-sm font-semibold text-primary underline" onClick={() => setOrder(null)}>{m.directdebit_change({}, o)}</button>
      </form>
    );
  }

  // Each label named, not looked up by a built key: that would bundle the whole catalogue.
  const labels: Record<keyof DirectDebitDetails, string> = {
    holder: m.directdebit_holder({}, o),
    iban: m.directdebit_iban({}, o),
    street: m.directdebit_street({}, o),
    house_number: m.directdebit_house_number({}, o),
    postcode: m.directdebit_postcode({}, o),
    city: m.directdebit_city({}, o),
    mobile: m.directdebit_mobile({}, o),
  };
  const field = (name: keyof DirectDebitDetails, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField id={`dd-${name}`} name={name} label={labels[name]} value={details[name]} onChange={set(name)} error={errors[name]} required {...extra} />
  );
  return (
    <form className="card p-5 sm:p-6" onSubmit={sendCode} noValidate data-directdebit-form>
      {/* Nothing typed before the island is live can be lost. */}
      <fieldset className="space-y-4" disabled={!hydrated}>
      {field('holder', { autoComplete: 'name', maxLength: 70 })}
      {field('iban', { autoComplete: 'off', spellCheck: false, autoCapitalize: 'characters', maxLength: 42, placeholder: 'NL91 ABNA 0417 1643 00' })}
      <div className="grid grid-cols-[1fr_8rem] gap-3">
        {field('street', { autoComplete: 'address-line1', maxLength: 100 })}
        {field('house_number', { maxLength: 12 })}
      </div>
      <div className="grid grid-cols-[8rem_1fr] gap-3">
        {field('postcode', { autoComplete: 'postal-code', maxLength: 12 })}
        {field('city', { autoComplete: 'address-level2', maxLength: 60 })}
      </div>
      {field('mobile', { type: 'tel', autoComplete: 'tel', inputMode: 'tel', maxLength: 24 })}
      <div>
        <label className="flex items-start gap-3 text-sm">
          <input type="checkbox" name="consent" checked={consent} onChange={(e) => setConsent(e.currentTarget.checked)} className="mt-0.5 h-5 w-5 shrink-0 accent-[var(--c-primary)]" aria-invalid={errors.consent ? 'true' : undefined} aria-describedby={errors.consent ? 'dd-consent-error' : undefined} />
          <span>{m.directdebit_consent({ company, amount }, o)}</span>
        </label>
        {errors.consent && <p id="dd-consent-error" className="mt-1.5 text-sm font-medium text-danger">⚠ {errors.consent}</p>}
      </div>
      {alert && <FormAlert>{alert}</FormAlert>}
      <SubmitButton busy={busy}>{m.directdebit_send_code({}, o)}</SubmitButton>
      </fieldset>
    </form>
  );
}
