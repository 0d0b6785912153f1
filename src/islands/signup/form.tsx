/**
 * The form pieces the account islands share (signup, login, password reset, activation): labelled
 * fields whose server or client error sits next to them (aria-invalid + aria-describedby), a
 * password field with a show/hide toggle, and the alert box for errors that name no field.
 */
import { useState, type ReactNode, type InputHTMLAttributes } from 'react';
import { m } from '../../paraglide/messages.js';
import { ApiError } from '../../stores/api.ts';
import type { Locale } from '../../lib/locales.ts';

export const inputClass =
  'block w-full rounded-xl border border-gray-300 bg-white px-4 py-3 text-base text-[#1d1a22] shadow-sm transition-colors placeholder:text-gray-400 hover:border-gray-400 focus:border-primary focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-primary aria-[invalid=true]:border-danger';
export const labelClass = 'mb-1.5 block text-sm font-semibold text-gray-800';

/** Errors per field name, as the API names fields (`email`, `name`, `date_of_birth` …). */
export type FieldErrors = Partial<Record<string, string>>;

/** What an API error means for a form: the field it belongs to, or an alert for the whole form. */
export interface FormError {
  field?: string;
  code: string;
  message: string;
}

/**
 * The message to show for a failed call: the server's (already translated) message, or the generic
 * catalogue message when the network failed or the answer was no API error.
 */
export function formError(error: unknown, locale: Locale): FormError {
  if (error instanceof ApiError && error.code !== 'network' && error.status > 0) {
    return { field: error.field, code: error.code, message: error.message };
  }
  return { code: 'network', message: m.error_generic({}, { locale }) };
}

export function errorId(id: string): string {
  return `${id}-error`;
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={errorId(id)} className="mt-1.5 flex items-start gap-1.5 text-sm font-medium text-danger">
      <span aria-hidden="true">⚠</span>
      <span>{message}</span>
    </p>
  );
}

/** The aria attributes that tie a control to its error and hint. */
export function describedBy(id: string, error?: string, hint?: string): { 'aria-invalid': 'true' | undefined; 'aria-describedby': string | undefined } {
  const ids = [error ? errorId(id) : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': ids || undefined };
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  optional?: string;
};

export function TextField({ id, label, value, onChange, error, hint, optional, className, ...input }: TextFieldProps) {
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
        {optional && <span className="ml-1 font-normal text-gray-500">({optional})</span>}
      </label>
      <input id={id} className={inputClass} value={value} onChange={(e) => onChange(e.currentTarget.value)} {...describedBy(id, error, hint)} {...input} />
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-sm text-gray-600">
          {hint}
        </p>
      )}
      <FieldError id={id} message={error} />
    </div>
  );
}

/** An e-mail input: the keyboard, capitalisation and spelling an address needs (login, reset, signup). */
export function EmailField(props: Omit<TextFieldProps, 'type'>) {
  return <TextField type="email" inputMode="email" autoCapitalize="none" spellCheck={false} maxLength={254} {...props} />;
}

type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'optional'> & { locale: Locale };

/** A password input with a button that shows or hides what was typed. */
export function PasswordField({ id, label, value, onChange, error, hint, locale, className, ...input }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          className={`${inputClass} pr-14`}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          autoCapitalize="none"
          spellCheck={false}
          {...describedBy(id, error, hint)}
          {...input}
        />
        <button
          type="button"
          className="absolute inset-y-1 right-1 grid w-11 cursor-pointer place-items-center rounded-lg border-0 bg-transparent text-gray-600 hover:bg-gray-100 hover:text-primary focus-visible:outline-3 focus-visible:outline-primary"
          aria-label={visible ? m.form_hide_password({}, { locale }) : m.form_show_password({}, { locale })}
          aria-pressed={visible}
          aria-controls={id}
          onClick={() => setVisible((v) => !v)}
        >
          <EyeIcon crossed={visible} />
        </button>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-sm text-gray-600">
          {hint}
        </p>
      )}
      <FieldError id={id} message={error} />
    </div>
  );
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M3 3l18 18" />}
    </svg>
  );
}

/** An error or notice for the whole form. Errors are announced at once (role="alert"). */
export function FormAlert({ tone = 'danger', children }: { tone?: 'danger' | 'success' | 'info'; children: ReactNode }) {
  const tones = {
    danger: 'border-danger/40 bg-danger/8 text-[#7a1020]',
    success: 'border-success/40 bg-success/10 text-[#0f4d2a]',
    info: 'border-info/40 bg-info/10 text-[#0b4f5c]',
  } as const;
  return (
    <div role={tone === 'danger' ? 'alert' : 'status'} className={`rounded-xl border px-4 py-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}

/** The main button of a form; shows a spinner and keeps its label for screen readers while busy. */
export function SubmitButton({ busy, children, className = '' }: { busy?: boolean; children: ReactNode; className?: string }) {
  return (
    <button type="submit" className={`btn-primary w-full py-3 text-base disabled:cursor-wait disabled:opacity-80 ${className}`} disabled={busy} aria-busy={busy || undefined}>
      {busy && <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white" />}
      {children}
    </button>
  );
}

/**
 * Renders a catalogue message whose parameters are links: the message is formatted with markers,
 * then each marker is replaced by its element, so translators keep the word order of their language.
 */
export function withLinks(format: (params: Record<string, string>) => string, links: Record<string, ReactNode>): ReactNode[] {
  const markers = Object.fromEntries(Object.keys(links).map((key) => [key, `\u0000${key}\u0000`]));
  return format(markers)
    .split('\u0000')
    .map((part, i) => (i % 2 === 1 && part in links ? <span key={i}>{links[part]}</span> : part));
}
