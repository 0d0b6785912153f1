/**
 * The login form (SPEC §2): e-mail and password, POST /api/user.php through the user store. Shows
 * the server's "Login mislukt, probeer opnieuw" or lockout message (SPEC §8) and goes on to the
 * page the visitor came for, or the members home.
 */
import { useState, type FormEvent } from 'react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import { login } from '../stores/user.ts';
import { EmailField, PasswordField, FormAlert, SubmitButton, formError, type FieldErrors } from './signup/form.tsx';

interface Props {
  locale: Locale;
  /** Where to go after logging in: a same-site path, already made safe by the page. */
  next: string;
}

export default function LoginIsland({ locale, next }: Props) {
  const o = { locale };
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const missing: FieldErrors = {};
    if (!email.trim()) missing.email = m.signup_email_invalid({}, o);
    if (!password) missing.password = m.password_required({}, o);
    setErrors(missing);
    setAlert(null);
    if (Object.keys(missing).length > 0) return;
    setBusy(true);
    try {
      await login(email.trim(), password);
      window.location.assign(next);
    } catch (error) {
      const e = formError(error, locale);
      // "Login mislukt" and the lockout are about the whole form; a malformed field is shown at the field.
      if (e.field === 'email' || e.field === 'password') setErrors({ [e.field]: e.message });
      else setAlert(e.message);
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {alert && <FormAlert>{alert}</FormAlert>}
      <EmailField
        id="login-email"
        label={m.login_email({}, o)}
        autoComplete="username"
        value={email}
        onChange={setEmail}
        error={errors.email}
      />
      <PasswordField id="login-password" locale={locale} label={m.login_password({}, o)} autoComplete="current-password" value={password} onChange={setPassword} error={errors.password} />
      <div className="text-right text-sm">
        <a href="/reset-password" className="font-semibold">
          {m.login_forgot({}, o)}
        </a>
      </div>
      <SubmitButton busy={busy}>{busy ? m.form_busy({}, o) : m.login_submit({}, o)}</SubmitButton>
    </form>
  );
}
