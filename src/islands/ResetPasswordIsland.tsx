/**
 * Forgotten password, first half (SPEC §8): the e-mail form that mails a reset link
 * (POST /api/reset-password.php {email}). Shows "E-mailadres niet gevonden" and the
 * too-many-mails message from the server.
 */
import { useState, type FormEvent } from 'react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import { isValidEmail } from '../lib/account-rules.ts';
import { requestPasswordReset } from '../stores/auth.ts';
import { EmailField, FormAlert, SubmitButton, formError } from './signup/form.tsx';

export default function ResetPasswordIsland({ locale }: { locale: Locale }) {
  const o = { locale };
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [alert, setAlert] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setAlert(null);
    if (!isValidEmail(email)) {
      setFieldError(m.signup_email_invalid({}, o));
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    try {
      await requestPasswordReset(email);
      setSentTo(email.trim());
    } catch (error) {
      const e = formError(error, locale);
      // "E-mailadres niet gevonden" is about the field; too many mails is about the account.
      if (e.field === 'email' || e.code === 'reset_not_found') setFieldError(e.message);
      else setAlert(e.message);
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <div className="space-y-5">
        <FormAlert tone="success">{m.reset_sent({ email: sentTo }, o)}</FormAlert>
        <a href="/login" className="btn-light w-full">
          {m.reset_back_to_login({}, o)}
        </a>
      </div>
    );
  }
  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <p className="text-gray-700">{m.reset_intro({}, o)}</p>
      {alert && <FormAlert>{alert}</FormAlert>}
      <EmailField
        id="reset-email"
        label={m.login_email({}, o)}
        autoComplete="email"
        value={email}
        onChange={setEmail}
        error={fieldError}
      />
      <SubmitButton busy={busy}>{busy ? m.form_busy({}, o) : m.reset_submit({}, o)}</SubmitButton>
      <p className="text-center text-sm">
        <a href="/login" className="font-semibold">
          {m.reset_back_to_login({}, o)}
        </a>
      </p>
    </form>
  );
}
