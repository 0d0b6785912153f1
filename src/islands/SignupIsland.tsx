/**
 * Signup (SPEC §2, §4): steps 0 to 4 with a progress indicator, a back button and per-step checks,
 * then POST /api/signup.php, the complete step and the e-mail activation step. Shows the
 * invite-only notice instead when the brand's signups setting closes signup for this visitor.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import { readConsent } from '../lib/consent.ts';
import {
  $signupForm,
  $signupStep,
  $signupSettings,
  SIGNUP_STEPS,
  captureTracking,
  goToSignupStep,
  loadSignupSettings,
  signupInProgress,
  signupsOpen,
  submitSignup,
  updateSignup,
  type SignupStep,
  type Tracking,
} from '../stores/signup.ts';
import { $regions } from '../stores/profile.ts';
import { FormAlert, SubmitButton, formError, type FieldErrors, type FormError } from './signup/form.tsx';
import { FIELD_STEP, validateSignupStep } from './signup/validate.ts';
import { GenderStep, BirthDateStep, LocationStep, AccountStep, ProfileStep } from './signup/steps.tsx';
import { CompleteStep, ActivationStep } from './signup/done.tsx';

interface Props {
  locale: Locale;
  brand: string;
  /** The other brands of the brand's pool, named where the visitor consents (issue 24; empty when alone). */
  poolBrands: readonly string[];
}

const FORM_STEPS = [GenderStep, BirthDateStep, LocationStep, AccountStep, ProfileStep] as const;

export default function SignupIsland({ locale, brand, poolBrands }: Props) {
  const o = { locale };
  const settings = useStore($signupSettings);
  const step = useStore($signupStep);
  const form = useStore($signupForm);
  const regions = useStore($regions);
  const [tracking, setTracking] = useState<Tracking | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<FormError | null>(null);
  const [busy, setBusy] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  // Where focus goes after a render: the new step's heading, or the first field in error.
  const focusNext = useRef<'heading' | 'error' | null>(null);

  useEffect(() => {
    setTracking(captureTracking(location.search, sessionStorageOrNull()));
    loadSignupSettings().catch(() => setLoadFailed(true));
  }, []);

  // SPEC §2: once signup is in progress the modal cannot be closed by backdrop or Escape.
  useEffect(() => {
    const modal = document.getElementById('signup-modal');
    if (!modal) return;
    modal.dataset.inProgress = String(signupInProgress(step, form));
    // Once the account exists the modal's login link has no use.
    const loginLink = modal.querySelector<HTMLElement>('[data-signup-login]');
    if (loginLink) loginLink.hidden = step === 'complete' || step === 'activate';
  }, [step, form.gender, form.sexuality]);

  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target === 'heading') root.current?.querySelector<HTMLElement>('[data-step-heading]')?.focus();
    if (target === 'error') root.current?.querySelector<HTMLElement>('[aria-invalid="true"], fieldset[aria-describedby] input')?.focus();
  });

  function show(next: SignupStep) {
    setErrors({});
    setAlert(null);
    focusNext.current = 'heading';
    goToSignupStep(next);
  }

  function update(patch: Parameters<typeof updateSignup>[0]) {
    updateSignup(patch);
    // A corrected field loses its error.
    const fixed = Object.keys(patch);
    if (fixed.some((k) => errors[k])) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !fixed.includes(k))));
  }

  async function next(event: FormEvent) {
    event.preventDefault();
    if (typeof step !== 'number' || busy) return;
    const found = validateSignupStep(step, form, locale, regions);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      focusNext.current = 'error';
      return;
    }
    if (step < SIGNUP_STEPS - 1) return show((step + 1) as SignupStep);
    setBusy(true);
    setAlert(null);
    try {
      await submitSignup(tracking ?? {});
      focusNext.current = 'heading';
    } catch (error) {
      const e = formError(error, locale);
      const fieldStep = e.field ? FIELD_STEP[e.field] : undefined;
      if (e.code === 'signup_exists' || e.code === 'signup_deleted') {
        // The e-mail is taken: back to the login details, with the ways out.
        setErrors({});
        setAlert(e);
        if (step !== 3) goToSignupStep(3);
      } else if (e.field && fieldStep !== undefined) {
        if (fieldStep !== step) goToSignupStep(fieldStep);
        setErrors({ [e.field === 'birth_date' ? 'date_of_birth' : e.field]: e.message });
        focusNext.current = 'error';
      } else {
        setAlert(e);
      }
    } finally {
      setBusy(false);
    }
  }

  const title =
    step === 'complete'
      ? m.signup_complete_title({ name: form.name.trim() }, o)
      : step === 'activate'
        ? m.signup_activate_title({}, o)
        : m.signup_title({ brand }, o);

  let body;
  if (loadFailed && !settings) {
    body = <FormAlert>{m.error_generic({}, o)}</FormAlert>;
  } else if (!settings || !tracking) {
    body = (
      <p className="flex items-center justify-center gap-3 py-16 text-gray-600" role="status">
        <span aria-hidden="true" className="h-5 w-5 animate-spin rounded-full border-2 border-primary/30 border-t-primary" />
        {m.form_loading({}, o)}
      </p>
    );
  } else if (step === 'complete') {
    body = (
      <>
        <p className="mb-5 text-center text-gray-700">{m.signup_complete_text({ brand }, o)}</p>
        <CompleteStep locale={locale} credits={settings.signup_credits} onContinue={() => show('activate')} />
      </>
    );
  } else if (step === 'activate') {
    body = <ActivationStep locale={locale} email={form.email.trim()} />;
  } else if (!signupsOpen(settings.signups, tracking)) {
    body = (
      <div className="space-y-4 py-4 text-center">
        <div aria-hidden="true" className="mx-auto grid h-16 w-16 place-items-center rounded-full bg-primary/10 text-3xl text-primary">
          <span className="i-tabler-lock" />
        </div>
        <p className="text-gray-800">{m.signup_invite_only({}, o)}</p>
        <a className="btn-light" href="/login">
          {m.signup_page_login({}, o)}
        </a>
      </div>
    );
  } else {
    const Step = FORM_STEPS[step];
    const stepTitles = [
      m.signup_step_gender({}, o),
      m.signup_step_birth_date({}, o),
      m.signup_step_location({}, o),
      m.signup_step_account({}, o),
      m.signup_step_profile({}, o),
    ];
    const last = step === SIGNUP_STEPS - 1;
    body = (
      <form noValidate onSubmit={next} aria-labelledby="signup-step-heading">
        <Progress locale={locale} step={step} />
        <h3 id="signup-step-heading" data-step-heading tabIndex={-1} className="mb-4 text-lg font-bold text-gray-900 focus:outline-none">
          {stepTitles[step]}
        </h3>
        <Step locale={locale} form={form} errors={errors} update={update} />
        {last && poolBrands.length > 0 && (
          <p className="mt-4 text-sm text-gray-700" data-network-notice>
            {m.network_notice({ brand, brands: new Intl.ListFormat(locale, { type: 'conjunction' }).format(poolBrands) }, o)}
          </p>
        )}
        {alert && (
          <div className="mt-5">
            <FormAlert>
              <p>{alert.message}</p>
              {(alert.code === 'signup_exists' || alert.code === 'signup_deleted') && (
                <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 font-semibold">
                  <li>
                    <a href="/login">{m.nav_login({}, o)}</a>
                  </li>
                  <li>
                    <a href="/reset-password">{m.login_forgot({}, o)}</a>
                  </li>
                  <li>
                    <a href={`mailto:${settings.support_email}`}>{m.signup_support({ email: settings.support_email }, o)}</a>
                  </li>
                </ul>
              )}
            </FormAlert>
          </div>
        )}
        <div className={`mt-6 flex gap-3 ${last ? 'flex-col-reverse sm:flex-row sm:items-center' : 'items-center'}`}>
          {step > 0 && (
            <button type="button" className="btn-light shrink-0" onClick={() => show((step - 1) as SignupStep)} disabled={busy}>
              <span aria-hidden="true">←</span>
              {m.signup_back({}, o)}
            </button>
          )}
          <SubmitButton busy={busy} className="flex-1">
            {last ? m.signup_submit({}, o) : m.signup_next({}, o)}
            {!last && !busy && <span aria-hidden="true">→</span>}
          </SubmitButton>
        </div>
      </form>
    );
  }

  return (
    <div ref={root}>
      <h2 id="signup-title" className="mb-4 text-2xl font-bold leading-tight focus:outline-none" tabIndex={-1} data-step-heading={step === 'complete' || step === 'activate' ? '' : undefined}>
        {title}
      </h2>
      {body}
    </div>
  );
}

function Progress({ locale, step }: { locale: Locale; step: number }) {
  return (
    <div className="mb-5">
      <p className="mb-2 text-sm font-medium text-gray-600">{m.signup_progress({ step: step + 1, total: SIGNUP_STEPS }, { locale })}</p>
      <div className="flex gap-1.5" aria-hidden="true">
        {Array.from({ length: SIGNUP_STEPS }, (_, i) => (
          <span key={i} className={`h-1.5 flex-1 rounded-full transition-colors ${i <= step ? 'bg-primary' : 'bg-gray-200'}`} />
        ))}
      </div>
    </div>
  );
}

/**
 * Where the visit's network parameters may be kept for this tab: only with the visitor's consent
 * (issue 23, src/lib/consent.ts), storage on the device being what ePrivacy art. 5(3) asks it for.
 * Without it they come from the address alone (a lander's links to /signup carry them).
 */
function sessionStorageOrNull(): Storage | null {
  if (readConsent(document.cookie) !== 'accept') return null;
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
