/** After the account is made: the complete step (welcome, signup credits) and the e-mail activation step (SPEC §2, §4). */
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { resendActivation } from '../../stores/auth.ts';
import { FormAlert, formError } from './form.tsx';

export function CompleteStep({ locale, credits, onContinue }: { locale: Locale; credits: number; onContinue: () => void }) {
  return (
    <div className="space-y-5 text-center">
      <div aria-hidden="true" className="mx-auto grid h-20 w-20 place-items-center rounded-full bg-success/15 text-4xl text-success">
        <span className="i-tabler-check" />
      </div>
      {credits > 0 && (
        <p className="mx-auto flex max-w-sm items-center gap-3 rounded-2xl bg-primary/8 px-4 py-3 text-left text-gray-800">
          <span aria-hidden="true" className="i-tabler-gift text-3xl text-primary" />
          <span>{m.signup_complete_credits({ credits }, { locale })}</span>
        </p>
      )}
      <button type="button" className="btn-primary w-full py-3 text-base" onClick={onContinue}>
        {m.signup_complete_continue({}, { locale })}
      </button>
    </div>
  );
}

export function ActivationStep({ locale, email }: { locale: Locale; email: string }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState<string | null>(null);
  async function resend() {
    setState('sending');
    setError(null);
    try {
      await resendActivation();
      setState('sent');
    } catch (e) {
      setError(formError(e, locale).message);
      setState('idle');
    }
  }
  const [before, after] = m.signup_activate_text({ email: '\u0000' }, { locale }).split('\u0000');
  return (
    <div className="space-y-5 text-center">
      <div aria-hidden="true" className="mx-auto grid h-20 w-20 place-items-center rounded-full bg-primary/10 text-4xl text-primary">
        <span className="i-tabler-mail-heart" />
      </div>
      <p className="text-gray-800">
        {before}
        <strong className="[overflow-wrap:anywhere]">{email}</strong>
        {after}
      </p>
      <p className="text-sm text-gray-600">{m.signup_activate_spam({}, { locale })}</p>
      <div aria-live="polite">
        {state === 'sent' && <FormAlert tone="success">{m.activate_resent({}, { locale })}</FormAlert>}
      </div>
      {error && <FormAlert>{error}</FormAlert>}
      <div className="flex flex-col gap-3">
        <a href="/complete-signup" className="btn-primary w-full py-3 text-base">
          {m.signup_activate_continue({}, { locale })}
        </a>
        <button type="button" className="btn-light w-full" onClick={resend} disabled={state === 'sending'} aria-busy={state === 'sending' || undefined}>
          {state === 'sending' ? m.form_busy({}, { locale }) : m.banner_activate_action({}, { locale })}
        </button>
      </div>
    </div>
  );
}
