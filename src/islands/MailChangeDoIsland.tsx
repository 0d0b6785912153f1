import { useState } from 'react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import { ApiError } from '../stores/api.ts';
import { confirmMailChange } from '../stores/account.ts';
import { Notice } from './profile/Notice.tsx';

interface Props {
  locale: Locale;
  /** The token from the mail's link (?token=…), or null when the link lost it. */
  token: string | null;
}

/**
 * /mail-change/do: confirms the new e-mail address with the mail's token. It waits for a press
 * rather than posting on load, so mail scanners that open links do not use the token up.
 */
export default function MailChangeDoIsland({ locale, token }: Props) {
  const o = { locale };
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const [error, setError] = useState('');

  async function confirm() {
    if (!token) return;
    setState('busy');
    setError('');
    try {
      await confirmMailChange(token);
      setState('done');
    } catch (e) {
      setError(e instanceof ApiError && e.code !== 'network' && e.message ? e.message : m.error_generic({}, o));
      setState('idle');
    }
  }

  return (
    <div className="card max-w-lg space-y-4 p-6">
      {state === 'done' ? (
        <>
          <Notice tone="success">{m.mail_change_do_done({}, o)}</Notice>
          <a href="/profile#account" className="btn-primary">{m.mail_change_do_to_profile({}, o)}</a>
        </>
      ) : !token ? (
        <Notice tone="error">{m.mail_change_do_no_token({}, o)}</Notice>
      ) : (
        <>
          <p className="text-gray-700">{m.mail_change_do_intro({}, o)}</p>
          <Notice tone="error">{error}</Notice>
          <button type="button" className="btn-primary w-full sm:w-auto" disabled={state === 'busy'} onClick={() => void confirm()}>
            {state === 'busy' ? m.form_busy({}, o) : m.mail_change_do_submit({}, o)}
          </button>
        </>
      )}
    </div>
  );
}
