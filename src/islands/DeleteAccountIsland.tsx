import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import type { SiteUser } from '../contract/user.ts';
import { ApiError } from '../stores/api.ts';
import { $deleteReasons, deleteAccount, loadDeleteReasons, type DeleteReason } from '../stores/account.ts';
import { Field } from './profile/Field.tsx';
import { Notice } from './profile/Notice.tsx';
import { InvisibleSetting } from './profile/AccountSettings.tsx';
import { useSeedUser } from './profile/useSeedUser.ts';

interface Props {
  locale: Locale;
  user: SiteUser | null;
}

type Step = 1 | 2 | 3;

/** Solutions that point at the invisible-mode setting are offered right here instead. */
const isInvisibleSolution = (href: string | null | undefined) => href?.startsWith('/profile#account') ?? false;
/** The retention offer (SPEC §2, company delete_discount) is the solution that leads to buying credits. */
const isRetentionOffer = (href: string | null | undefined) => href === '/credits' || (href?.startsWith('/credits?') ?? false);

/**
 * The delete-account flow (SPEC §2, issue 4): choose a reason, see what the site offers against
 * it (keep the account or delete anyway), confirm with the password, land on /account-deleted.
 */
export default function DeleteAccountIsland({ locale, user: initialUser }: Props) {
  const o = { locale };
  const user = useSeedUser(initialUser);
  const data = useStore($deleteReasons);
  const [step, setStep] = useState<Step>(1);
  const [reasonKey, setReasonKey] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<{ field?: 'password' | 'reason'; text: string } | null>(null);
  const [kept, setKept] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  useEffect(() => {
    loadDeleteReasons().catch(() => setFailed(true));
  }, []);
  useEffect(() => {
    // Each step takes the focus to its heading so keyboard and screen-reader users follow along.
    if (moved.current) heading.current?.focus();
  }, [step]);

  const reason: DeleteReason | undefined = data?.reasons.find((r) => r.key === reasonKey);

  function go(next: Step) {
    moved.current = true;
    setError(null);
    setStep(next);
  }

  function keep() {
    setKept(true);
    setReasonKey('');
    setPassword('');
    go(1);
  }

  function chooseReason(e: FormEvent) {
    e.preventDefault();
    if (!reason) {
      setError({ field: 'reason', text: m.choose_reason({}, o) });
      return;
    }
    setKept(false);
    go(reason.solution ? 2 : 3);
  }

  async function confirm(e: FormEvent) {
    e.preventDefault();
    if (!reason) return go(1);
    setBusy(true);
    setError(null);
    try {
      await deleteAccount(reason.key, password);
      window.location.assign('/account-deleted');
    } catch (err) {
      const text = err instanceof ApiError && err.code !== 'network' && err.message ? err.message : m.error_generic({}, o);
      // The server refuses a wrong password with password_wrong (its catalogue message), on the field.
      const onPassword = err instanceof ApiError && (err.field === 'password' || err.code === 'password_wrong');
      setError(onPassword ? { field: 'password', text } : { text });
      if (onPassword) document.getElementById('delete-password')?.focus();
      setBusy(false);
    }
  }

  if (failed) return <Notice tone="error">{m.error_generic({}, o)}</Notice>;
  if (!data) return <p className="text-gray-600" role="status">{m.form_loading({}, o)}</p>;

  return (
    <div className="space-y-4">
      <p className="text-sm font-semibold text-gray-600">{m.delete_step({ step }, o)}</p>

      {step === 1 && (
        <form onSubmit={chooseReason} noValidate className="space-y-4">
          {kept && <Notice tone="success">{m.delete_kept({}, o)}</Notice>}
          <fieldset aria-describedby={error?.field === 'reason' ? 'delete-reason-error' : undefined}>
            <legend>
              <h3 ref={heading} tabIndex={-1} className="mb-3 text-lg font-bold">{m.delete_intro({}, o)}</h3>
            </legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {data.reasons.map((r) => (
                <label
                  key={r.key}
                  className={`flex cursor-pointer items-center gap-3 rounded-xl border-2 px-4 py-3 ${reasonKey === r.key ? 'border-primary bg-primary/5' : 'border-gray-200 hover:border-gray-300'}`}
                >
                  <input
                    type="radio"
                    name="delete-reason"
                    value={r.key}
                    checked={reasonKey === r.key}
                    onChange={() => {
                      setReasonKey(r.key);
                      setError(null);
                    }}
                    className="h-4 w-4 accent-[var(--c-primary)]"
                  />
                  <span>{r.label}</span>
                </label>
              ))}
            </div>
            {error?.field === 'reason' && <p id="delete-reason-error" className="mt-2 text-sm font-medium text-danger">{error.text}</p>}
          </fieldset>
          <div className="flex justify-end">
            <button type="submit" className="btn-light w-full sm:w-auto">{m.delete_next({}, o)}</button>
          </div>
        </form>
      )}

      {step === 2 && reason?.solution && (
        <div className="space-y-4">
          <h3 ref={heading} tabIndex={-1} className="text-lg font-bold">{m.delete_solution_title({}, o)}</h3>
          <div className="rounded-2xl border-2 border-secondary bg-secondary/10 p-5">
            {isRetentionOffer(reason.solution.href) && data.delete_discount > 0 && (
              <p className="mb-2 inline-block rounded-full bg-primary px-3 py-1 text-sm font-bold text-white">
                {m.delete_offer({ percent: data.delete_discount }, o)}
              </p>
            )}
            <p id="delete-solution" className="text-lg font-semibold">{reason.solution.label}</p>
            {isInvisibleSolution(reason.solution.href) ? (
              user && <InvisibleSetting locale={locale} invisible={user.invisible} bare />
            ) : (
              reason.solution.href && (
                <a href={reason.solution.href} className="btn-primary mt-4" aria-describedby="delete-solution">
                  {m.delete_solution_accept({}, o)}
                </a>
              )
            )}
          </div>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
            <button type="button" className="btn-primary" onClick={keep}>{m.delete_keep({}, o)}</button>
            <button type="button" className="btn text-danger hover:bg-danger/10" onClick={() => go(3)}>{m.delete_anyway({}, o)}</button>
          </div>
        </div>
      )}

      {step === 3 && (
        <form onSubmit={confirm} noValidate className="space-y-4">
          <h3 ref={heading} tabIndex={-1} className="text-lg font-bold">{m.delete_confirm_title({}, o)}</h3>
          <p className="text-gray-700">{m.delete_confirm_text({}, o)}</p>
          <div className="max-w-sm">
            <Field id="delete-password" label={m.delete_password({}, o)} error={error?.field === 'password' ? error.text : undefined}>
              {(p) => <input {...p} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />}
            </Field>
          </div>
          {error && !error.field && <Notice tone="error">{error.text}</Notice>}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
            <div className="flex flex-col-reverse gap-3 sm:flex-row">
              <button type="button" className="btn text-primary hover:bg-primary/10" onClick={() => go(reason?.solution ? 2 : 1)} disabled={busy}>
                {m.action_back({}, o)}
              </button>
              <button type="button" className="btn-light" onClick={keep} disabled={busy}>{m.delete_keep({}, o)}</button>
            </div>
            <button type="submit" className="btn bg-danger text-white hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-50" disabled={busy || !password}>
              {busy ? m.delete_deleting({}, o) : m.delete_submit({}, o)}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
