/**
 * The date-of-birth picker (SPEC §2): day, month and year selects in the order the locale writes
 * dates, years from the youngest allowed age back to the oldest. Used by signup and the profile.
 */
import { useMemo, useState, useEffect } from 'react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import { MIN_AGE, MAX_AGE } from '../lib/account-rules.ts';
import { inputClass, FieldError, describedBy } from './signup/form.tsx';

interface Props {
  locale: Locale;
  /** YYYY-MM-DD, or '' while not all three parts are chosen. */
  value: string;
  onChange: (value: string) => void;
  /** Prefix of the ids of the three selects. */
  id?: string;
  error?: string;
  hint?: string;
  /** Shown as the legend; the catalogue's "birth date" when not given. */
  legend?: string;
}

type Part = 'day' | 'month' | 'year';

/** The order of day, month and year in a locale's dates (d-m-y in Dutch, m-d-y in American English). */
function partOrder(locale: string): Part[] {
  const order = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric', year: 'numeric' })
    .formatToParts(new Date(2000, 10, 22))
    .map((p) => p.type)
    .filter((t): t is Part => t === 'day' || t === 'month' || t === 'year');
  return order.length === 3 ? order : ['day', 'month', 'year'];
}

function split(value: string): Record<Part, string> {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? { year: match[1]!, month: String(Number(match[2])), day: String(Number(match[3])) } : { year: '', month: '', day: '' };
}

export default function DateOfBirthPicker({ locale, value, onChange, id = 'birth-date', error, hint, legend }: Props) {
  const [parts, setParts] = useState<Record<Part, string>>(() => split(value));
  // A value set from outside (a loaded profile) replaces what was chosen.
  useEffect(() => {
    if (value && value !== join(parts)) setParts(split(value));
  }, [value]);

  const options = useMemo(() => {
    // This year in UTC, as the birth-date rule counts it: the same on the server and in any browser.
    const thisYear = new Date().getUTCFullYear();
    const years: string[] = [];
    for (let y = thisYear - MIN_AGE; y >= thisYear - MAX_AGE; y--) years.push(String(y));
    const monthName = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
    const months = Array.from({ length: 12 }, (_, i) => ({ value: String(i + 1), label: monthName.format(Date.UTC(2000, i, 1)) }));
    return { years, months };
  }, [locale]);

  const daysInMonth = parts.month ? new Date(Date.UTC(Number(parts.year || 2000), Number(parts.month), 0)).getUTCDate() : 31;
  const days = Array.from({ length: daysInMonth }, (_, i) => String(i + 1));

  function set(part: Part, next: string) {
    const updated = { ...parts, [part]: next };
    // 31 February becomes the last day of February rather than an invalid date.
    if (updated.day && updated.month) {
      const max = new Date(Date.UTC(Number(updated.year || 2000), Number(updated.month), 0)).getUTCDate();
      if (Number(updated.day) > max) updated.day = String(max);
    }
    setParts(updated);
    onChange(join(updated));
  }

  const labels: Record<Part, string> = {
    day: m.profile_day({}, { locale }),
    month: m.profile_month({}, { locale }),
    year: m.profile_year({}, { locale }),
  };
  const choices: Record<Part, { value: string; label: string }[]> = {
    day: days.map((d) => ({ value: d, label: d })),
    month: options.months,
    year: options.years.map((y) => ({ value: y, label: y })),
  };
  const aria = describedBy(id, error, hint);
  const widths: Record<Part, string> = { day: 'flex-[1]', month: 'flex-[1.8]', year: 'flex-[1.2]' };

  return (
    <fieldset aria-describedby={aria['aria-describedby']}>
      <legend className="mb-1.5 block text-sm font-semibold text-gray-800">{legend ?? m.profile_birth_date({}, { locale })}</legend>
      <div className="flex gap-2">
        {partOrder(locale).map((part) => (
          <div key={part} className={`min-w-0 ${widths[part]}`}>
            <label htmlFor={`${id}-${part}`} className="mb-1 block text-xs font-medium text-gray-600">
              {labels[part]}
            </label>
            <select
              id={`${id}-${part}`}
              className={`${inputClass} appearance-auto px-2 sm:px-3`}
              value={parts[part]}
              onChange={(e) => set(part, e.currentTarget.value)}
              aria-invalid={aria['aria-invalid']}
              autoComplete={part === 'day' ? 'bday-day' : part === 'month' ? 'bday-month' : 'bday-year'}
            >
              <option value="" disabled>
                {labels[part]}
              </option>
              {choices[part].map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        ))}
      </div>
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-sm text-gray-600">
          {hint}
        </p>
      )}
      <FieldError id={id} message={error} />
    </fieldset>
  );
}

function join(parts: Record<Part, string>): string {
  if (!parts.day || !parts.month || !parts.year) return '';
  return `${parts.year}-${parts.month.padStart(2, '0')}-${parts.day.padStart(2, '0')}`;
}
