/** The page of a one-time enrolment link (`sitegen staff add`, or the staff page): the new staff member sets their password. */
import { useState, type FormEvent } from 'react';
import { PASSWORD_MIN } from '../../../src/lib/account-rules.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { consoleApi, ConsoleApiError } from '../lib/api.ts';
import Alert from '../components/Alert.tsx';

export default function SetPasswordIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const token = new URLSearchParams(location.search).get('token') ?? '';
    if (!token) return setError(m.link_incomplete({}, o));
    if (password.length < PASSWORD_MIN) return setError(m.password_hint({ min: PASSWORD_MIN }, o));
    setBusy(true);
    setError('');
    try {
      setDone((await consoleApi('POST enrol/password', { body: { token, password } })).email);
    } catch (e) {
      setError(e instanceof ConsoleApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <section className="panel w-full max-w-md p-6">
        <h1 className="text-xl font-bold">{m.password_set_title({}, o)}</h1>
        <Alert tone="success">{m.password_done({ email: done }, o)}</Alert>
        <a href="/console/login" className="btn-primary mt-4 w-full no-underline">{m.login_submit({}, o)}</a>
      </section>
    );
  }
  return (
    <form className="panel w-full max-w-md p-6 flex flex-col gap-4" onSubmit={submit} noValidate>
      <h1 className="text-xl font-bold">{m.password_set_title({}, o)}</h1>
      <div>
        <label className="label" htmlFor="new-password">{m.password_new({}, o)}</label>
        <input id="new-password" className="field" type="password" autoComplete="new-password" minLength={PASSWORD_MIN} required value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby="password-hint" />
        <p id="password-hint" className="mt-1 text-xs text-slate-500">{m.password_hint({ min: PASSWORD_MIN }, o)}</p>
      </div>
      <Alert>{error}</Alert>
      <button className="btn-primary" disabled={busy}>{m.password_save({}, o)}</button>
    </form>
  );
}
