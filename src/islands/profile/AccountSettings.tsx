import { useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import type { SiteUser } from '../../contract/user.ts';
import { ApiError } from '../../stores/api.ts';
import { saveUserSettings } from '../../stores/user.ts';
import { changePassword, requestMailChange } from '../../stores/account.ts';
import { Field } from './Field.tsx';
import { Notice } from './Notice.tsx';
import { Switch } from './Switch.tsx';
import ActivateIsland from '../ActivateIsland.tsx';

type Status = { tone: 'error' | 'success' | 'info'; text: string } | null;

function messageOf(error: unknown, locale: Locale): string {
  return error instanceof ApiError && error.code !== 'network' && error.message ? error.message : m.error_generic({}, { locale });
}

interface Props {
  locale: Locale;
  user: SiteUser;
  /** The locales the visitor may switch to (Astro.locals.locales). */
  locales: readonly Locale[];
  /** The brand's name, and the names of the other brands of its pool (issue 24; empty when alone). */
  brand: string;
  poolBrands: readonly string[];
}

/** Account settings on /profile#account: e-mail, password, invisible mode, the own brand only (in a pool) and language. */
export function AccountSettings({ locale, user, locales, brand, poolBrands }: Props) {
  return (
    <div className="divide-y divide-gray-200">
      {user.status === 'not_confirmed' && (
        // The activate reminder banner links here (SPEC §2): the mail can be sent again.
        <div className="pb-6" id="activate">
          <h3 className="text-lg font-bold">{m.settings_activate_title({}, { locale })}</h3>
          <p className="mb-3 text-sm text-gray-700">{m.settings_activate_text({ email: user.email }, { locale })}</p>
          <ActivateIsland locale={locale} action="resend" />
        </div>
      )}
      <MailChangeForm locale={locale} email={user.email} />
      <PasswordForm locale={locale} />
      <InvisibleSetting locale={locale} invisible={user.invisible} />
      {poolBrands.length > 0 && <OwnBrandSetting locale={locale} ownBrandOnly={user.own_brand_only} brand={brand} poolBrands={poolBrands} />}
      {locales.length > 1 && <LanguageSetting locale={locale} locales={locales} />}
    </div>
  );
}

function MailChangeForm({ locale, email }: { locale: Locale; email: string }) {
  const o = { locale };
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setStatus(null);
    try {
      await requestMailChange(newEmail.trim(), password);
      setStatus({ tone: 'success', text: m.settings_mail_sent({ email: newEmail.trim() }, o) });
      setNewEmail('');
      setPassword('');
    } catch (error) {
      const text = messageOf(error, locale);
      const field = error instanceof ApiError ? error.field : undefined;
      const code = error instanceof ApiError ? error.code : '';
      if (field === 'password' || code === 'password_old_wrong') setErrors({ password: text });
      else if (field === 'email' || code === 'mail_new_invalid' || code === 'mail_in_use') setErrors({ email: text });
      else setStatus({ tone: 'error', text });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4 py-6 first:pt-0" aria-labelledby="mail-change-title">
      <div>
        <h3 id="mail-change-title" className="text-lg font-bold">{m.settings_mail_title({}, o)}</h3>
        <p className="text-sm text-gray-600">{m.settings_mail_current({ email }, o)}</p>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <Field id="mail-change-email" label={m.settings_mail_new({}, o)} error={errors.email}>
          {(p) => <input {...p} type="email" autoComplete="email" required value={newEmail} onChange={(e) => setNewEmail(e.currentTarget.value)} />}
        </Field>
        <Field id="mail-change-password" label={m.settings_password_current({}, o)} error={errors.password}>
          {(p) => <input {...p} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />}
        </Field>
      </div>
      <Notice tone={status?.tone ?? 'success'}>{status?.text}</Notice>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy || !newEmail || !password}>
          {busy ? m.form_busy({}, o) : m.settings_mail_submit({}, o)}
        </button>
      </div>
    </form>
  );
}

function PasswordForm({ locale }: { locale: Locale }) {
  const o = { locale };
  const [values, setValues] = useState({ old_password: '', password: '', password_repeat: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof values, value: string) => setValues((v) => ({ ...v, [field]: value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setStatus(null);
    // SPEC §5: the passwords must match; checked here first so nothing is sent in vain.
    if (values.password !== values.password_repeat) {
      setErrors({ password_repeat: m.password_mismatch({}, o) });
      document.getElementById('password-repeat')?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await changePassword(values);
      setValues({ old_password: '', password: '', password_repeat: '' });
      setStatus({ tone: 'success', text: m.settings_password_changed({}, o) });
    } catch (error) {
      const text = messageOf(error, locale);
      const field = error instanceof ApiError ? error.field : undefined;
      if (field === 'old_password' || field === 'password' || field === 'password_repeat') setErrors({ [field]: text });
      else setStatus({ tone: 'error', text });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4 py-6" aria-labelledby="password-title">
      <h3 id="password-title" className="text-lg font-bold">{m.settings_password_title({}, o)}</h3>
      <div className="grid gap-4 md:grid-cols-3">
        <Field id="password-old" label={m.settings_password_old({}, o)} error={errors.old_password}>
          {(p) => <input {...p} type="password" autoComplete="current-password" value={values.old_password} onChange={(e) => set('old_password', e.currentTarget.value)} />}
        </Field>
        <Field id="password-new" label={m.settings_password_new({}, o)} error={errors.password} hint={m.settings_password_hint({}, o)}>
          {(p) => <input {...p} type="password" autoComplete="new-password" value={values.password} onChange={(e) => set('password', e.currentTarget.value)} />}
        </Field>
        <Field id="password-repeat" label={m.settings_password_repeat({}, o)} error={errors.password_repeat}>
          {(p) => <input {...p} type="password" autoComplete="new-password" value={values.password_repeat} onChange={(e) => set('password_repeat', e.currentTarget.value)} />}
        </Field>
      </div>
      <Notice tone={status?.tone ?? 'success'}>{status?.text}</Notice>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy || !values.old_password || !values.password}>
          {busy ? m.form_busy({}, o) : m.settings_password_submit({}, o)}
        </button>
      </div>
    </form>
  );
}

/** A switch of the user record saved at once (PUT /api/user.php), with its own saved or error notice. */
function useUserSwitch(locale: Locale, field: 'invisible' | 'own_brand_only', initial: boolean) {
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  async function change(next: boolean) {
    setOn(next);
    setBusy(true);
    setStatus(null);
    try {
      const user = await saveUserSettings({ [field]: next });
      setOn(user[field]);
      setStatus({ tone: 'success', text: m.settings_saved({}, { locale }) });
    } catch (error) {
      setOn(!next);
      setStatus({ tone: 'error', text: messageOf(error, locale) });
    } finally {
      setBusy(false);
    }
  }
  return { on, busy, status, change };
}

/** Invisible mode, saved on the user at once (PUT /api/user.php {invisible}); `bare` leaves out the heading. */
export function InvisibleSetting({ locale, invisible, bare = false }: { locale: Locale; invisible: boolean; bare?: boolean }) {
  const o = { locale };
  const { on, busy, status, change } = useUserSwitch(locale, 'invisible', invisible);
  return (
    <div className={bare ? '' : 'py-6 last:pb-0'}>
      {!bare && <h3 className="text-lg font-bold">{m.settings_privacy_title({}, o)}</h3>}
      <Switch id="invisible-mode" label={m.settings_invisible({}, o)} hint={m.settings_invisible_hint({}, o)} checked={on} disabled={busy} onChange={(v) => void change(v)} />
      <Notice tone={status?.tone ?? 'success'}>{status?.text}</Notice>
    </div>
  );
}

/** Being shown on the own brand only, not on the pool's others, which it names (issue 24; PUT /api/user.php {own_brand_only}). */
function OwnBrandSetting({ locale, ownBrandOnly, brand, poolBrands }: { locale: Locale; ownBrandOnly: boolean; brand: string; poolBrands: readonly string[] }) {
  const o = { locale };
  const { on, busy, status, change } = useUserSwitch(locale, 'own_brand_only', ownBrandOnly);
  const brands = new Intl.ListFormat(locale, { type: 'conjunction' }).format(poolBrands);
  return (
    <div className="py-6 last:pb-0">
      <Switch id="own-brand-only" label={m.settings_own_brand_only({ brand }, o)} hint={m.settings_own_brand_only_hint({ brand, brands }, o)} checked={on} disabled={busy} onChange={(v) => void change(v)} />
      <Notice tone={status?.tone ?? 'success'}>{status?.text}</Notice>
    </div>
  );
}

function LanguageSetting({ locale, locales }: { locale: Locale; locales: readonly Locale[] }) {
  const o = { locale };
  const [busy, setBusy] = useState(false);
  const name = (l: string) => {
    const own = new Intl.DisplayNames([l], { type: 'language' }).of(l) ?? l;
    return own.charAt(0).toLocaleUpperCase(l) + own.slice(1);
  };

  async function change(next: Locale) {
    setBusy(true);
    // SPEC §1: a member's language is saved to the user; the cookie follows through /lang-config.
    await saveUserSettings({ language: next }).catch(() => undefined);
    window.location.assign(`/lang-config?locale=${encodeURIComponent(next)}&next=${encodeURIComponent('/profile')}`);
  }

  return (
    <div className="pt-6">
      <h3 className="mb-3 text-lg font-bold">{m.settings_language_title({}, o)}</h3>
      <div className="max-w-xs">
        <Field id="settings-language" label={m.settings_language({}, o)}>
          {(p) => (
            <select {...p} value={locale} disabled={busy} onChange={(e) => void change(e.currentTarget.value as Locale)}>
              {locales.map((l) => (
                <option key={l} value={l} lang={l}>{name(l)}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
    </div>
  );
}
