/**
 * Forgotten password, second half (SPEC §8): the new password twice, checked to match, then
 * POST /api/reset-password.php {token, password}. An expired or used link gets "Link verlopen of
 * invalide, vraag een nieuwe e-mail aan" with the way back to /reset-password.
 */
import { useState, type FormEvent } from 'react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import { PASSWORD_MIN } from '../lib/account-rules.ts';
import { resetPassword } from '../stores/auth.ts';
import { PasswordField, FormAlert, SubmitButton, formError, type FieldErrors } from './signup/form.tsx';

interface Props {
  locale: Locale;
  /** The token of the link in the mail; empty when the link was cut short. */
  token: string;
}

export default function ResetPasswordDoIsland({ locale, token }: Props) {
  const o = { locale };
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<{ message: string; linkInvalid: boolean } | null>(
    token ? null : { message: m.reset_link_invalid({}, o), linkInvalid: true },
  );
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found: FieldErrors = {};
    if (password.length < PASSWORD_MIN) found.password = m.password_too_short({}, o);
    else if (password !== repeat) found.password_repeat = m.password_mismatch({}, o);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setAlert(null);
    try {
      await resetPassword(token, password);
      setDone(true);
    } catch (error) {
      const e = formError(error, locale);
      if (e.field === 'password') setErrors({ password: e.message });
      else setAlert({ message: e.message, linkInvalid: e.code === 'reset_link_invalid' });
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <div className="space-y-5">
        <FormAlert tone="success">{m.reset_do_done({}, o)}</FormAlert>
        <a href="/login" className="btn-primary w-full py-3 text-base">
          {m.login_submit({}, o)}
        </a>
      </div>
    );
  }
  if (alert?.linkInvalid) {
    return (
      <div className="space-y-5">
        <FormAlert>{alert.message}</FormAlert>
        <a href="/reset-password" className="btn-primary w-full py-3 text-base">
          {m.reset_request_new({}, o)}
        </a>
      </div>
    );
  }
  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <p className="text-gray-700">{m.reset_do_intro({ min: PASSWORD_MIN }, o)}</p>
      {alert && <FormAlert>{alert.message}</FormAlert>}
      <PasswordField id="reset-password" locale={locale} label={m.reset_do_password({}, o)} autoComplete="new-password" maxLength={200} value={password} onChange={setPassword} error={errors.password} />
      <PasswordField id="reset-password-repeat" locale={locale} label={m.reset_do_repeat({}, o)} autoComplete="new-password" maxLength={200} value={repeat} onChange={setRepeat} error={errors.password_repeat} />
      <SubmitButton busy={busy}>{busy ? m.form_busy({}, o) : m.reset_do_submit({}, o)}</SubmitButton>
    </form>
  );
}
