import type { ReactNode } from 'react';

/** Text inputs and selects of the profile and settings forms. */
export const INPUT_CLASS = 'block w-full rounded-lg border bg-white px-3 py-2.5 text-base text-[#1d1a22] disabled:bg-gray-100';
export const inputTone = (invalid: boolean) => (invalid ? 'border-danger' : 'border-gray-300');

/** What a control needs to be tied to its label, hint and error. */
export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  className: string;
}

interface FieldProps {
  id: string;
  label: string;
  /** The server's or the form's message about this field. */
  error?: string | undefined;
  hint?: ReactNode;
  /** Shown after the label on the same line, e.g. a character counter. */
  aside?: ReactNode;
  children: (control: ControlProps) => ReactNode;
}

/** A labelled control with its hint and its error, the error announced and linked by aria-describedby. */
export function Field({ id, label, error, hint, aside, children }: FieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="min-w-0">
      <div className="mb-1 flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-semibold text-gray-800">{label}</label>
        {aside}
      </div>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy, className: `${INPUT_CLASS} ${inputTone(Boolean(error))}` })}
      {hint && <p id={`${id}-hint`} className="mt-1 text-xs text-gray-600">{hint}</p>}
      {error && <p id={`${id}-error`} className="mt-1 text-sm font-medium text-danger">{error}</p>}
    </div>
  );
}
