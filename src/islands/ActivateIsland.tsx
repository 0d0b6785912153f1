/**
 * The one-button actions that bring an account (back) to life: sending the activation mail again
 * on /activate/error (SPEC §4), and reactivating a deleted account within 14 days on
 * /account-deleted?token=… (SPEC §4, POST /api/account.php?reactivate=1).
 */
import { useState } from 'react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import { reactivateAccount, resendActivation } from '../stores/auth.ts';
import { FormAlert, formError } from './signup/form.tsx';

type Props = { locale: Locale } & ({ action: 'resend' } | { action: 'reactivate'; token: string });

export default function ActivateIsland(props: Props) {
  const { locale } = props;
  const o = { locale };
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setState('busy');
    setError(null);
    try {
      if (props.action === 'resend') {
        await resendActivation();
        setState('done');
      } else {
        await reactivateAccount(props.token);
        window.location.assign('/members');
      }
    } catch (e) {
      setError(formError(e, locale).message);
      setState('idle');
    }
  }

  const label = props.action === 'resend' ? m.banner_activate_action({}, o) : m.account_deleted_reactivate({}, o);
  return (
    <div className="space-y-4">
      {error && <FormAlert>{error}</FormAlert>}
      <div aria-live="polite">{state === 'done' && <FormAlert tone="success">{m.activate_resent({}, o)}</FormAlert>}</div>
      {state !== 'done' && (
        <button type="button" className="btn-primary w-full py-3 text-base sm:w-auto" onClick={run} disabled={state === 'busy'} aria-busy={state === 'busy' || undefined}>
          {state === 'busy' && <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white" />}
          {state === 'busy' ? m.form_busy({}, o) : label}
        </button>
      )}
    </div>
  );
}
