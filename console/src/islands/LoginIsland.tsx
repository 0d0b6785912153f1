/**
 * The console's login (issue 22): e-mail, password and a TOTP code or a recovery code. At the first
 * login (no second factor yet) the API answers the secret instead: its QR code is shown, the first
 * code confirms it, and the ten recovery codes are shown once before the console opens.
 */
import { useState, type FormEvent } from 'react';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { consoleApi, ConsoleApiError } from '../lib/api.ts';
import Alert from '../components/Alert.tsx';

type Step = { kind: 'login' } | { kind: 'enrol'; secret: string; qr_svg: string } | { kind: 'codes'; codes: string[] };

/** Where to go after logging in: a console path of the `next` parameter, else the members. */
function nextPage(): string {
  const next = new URLSearchParams(location.search).get('next') ?? '';
  return /^\/console\/[^/\\]/.test(next) ? next : '/console/members';
}

export default function LoginIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const [step, setStep] = useState<Step>({ kind: 'login' });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      if (step.kind === 'enrol') {
        const done = await consoleApi('POST enrol', { body: { email, password, code: code.trim() } });
        setStep({ kind: 'codes', codes: done.recovery_codes });
        return;
      }
      const answer = await consoleApi('POST login', { body: { email, password, code: code.trim() || undefined } });
      if ('enrol' in answer) {
        setCode('');
        setStep({ kind: 'enrol', secret: answer.secret, qr_svg: answer.qr_svg });
        return;
      }
      location.assign(nextPage());
    } catch (e) {
      setError(e instanceof ConsoleApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  if (step.kind === 'codes') {
    return (
      <section className="panel w-full max-w-md p-6" aria-labelledby="codes-title">
        <h1 id="codes-title" className="text-xl font-bold">{m.codes_title({}, o)}</h1>
        <p className="mt-2 text-sm text-slate-600">{m.codes_intro({}, o)}</p>
        <ol className="mt-4 grid grid-cols-2 gap-x-6 gap-y-1 rounded-md bg-slate-50 p-4 font-mono text-sm" aria-label={m.codes_title({}, o)}>
          {step.codes.map((c) => <li key={c}>{c}</li>)}
        </ol>
        <a href={nextPage()} className="btn-primary mt-5 w-full no-underline">{m.codes_continue({}, o)}</a>
      </section>
    );
  }

  return (
    <form className="panel w-full max-w-md p-6 flex flex-col gap-4" onSubmit={submit} noValidate>
      <h1 className="text-xl font-bold flex items-center gap-2">
        <span className="i-tabler-shield-half-filled text-indigo-700" aria-hidden="true" />
        {step.kind === 'enrol' ? m.enrol_title({}, o) : m.login_title({}, o)}
      </h1>
      <div hidden={step.kind === 'enrol'} className="flex flex-col gap-4">
        <div>
          <label className="label" htmlFor="email">{m.email({}, o)}</label>
          <input id="email" className="field" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div>
          <label className="label" htmlFor="password">{m.password({}, o)}</label>
          <input id="password" className="field" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
      </div>
      {step.kind === 'enrol' && (
        <div className="flex flex-col gap-3 text-sm">
          <p className="text-slate-600">{m.enrol_intro({}, o)}</p>
          <div className="qr mx-auto w-52 rounded-md border border-slate-200 bg-white p-2" role="img" aria-label={m.enrol_qr({}, o)} dangerouslySetInnerHTML={{ __html: step.qr_svg }} />
          <p className="text-slate-600">
            {m.enrol_secret({}, o)} <code className="break-all rounded bg-slate-100 px-1 font-mono" data-testid="totp-secret">{step.secret}</code>
          </p>
        </div>
      )}
      <div>
        <label className="label" htmlFor="code">{step.kind === 'enrol' ? m.enrol_code({}, o) : m.code({}, o)}</label>
        <input id="code" className="field font-mono" autoComplete="one-time-code" inputMode={step.kind === 'enrol' ? 'numeric' : 'text'} value={code} onChange={(e) => setCode(e.target.value)} aria-describedby="code-hint" />
        <p id="code-hint" className="mt-1 text-xs text-slate-500">{step.kind === 'enrol' ? m.enrol_code_hint({}, o) : m.code_hint({}, o)}</p>
      </div>
      <Alert>{error}</Alert>
      <button className="btn-primary" disabled={busy}>{step.kind === 'enrol' ? m.enrol_submit({}, o) : m.login_submit({}, o)}</button>
    </form>
  );
}
