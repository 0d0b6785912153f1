import { useEffect, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { MAX_AGE, MIN_AGE } from '../../lib/account-rules.ts';
import { INPUT_CLASS, inputTone } from './Field.tsx';

interface Props {
  id: string;
  locale: Locale;
  label: string;
  /** YYYY-MM-DD, or '' when not (completely) chosen. */
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Birth date as day, month and year selects; the value is a date only once all three are chosen. */
export function BirthDateSelects({ id, locale, label, value, error, onChange }: Props) {
  const o = { locale };
  const [parts, setParts] = useState(() => split(value));
  useEffect(() => {
    // A new value from outside (a reload after saving) replaces what was picked.
    if (value) setParts(split(value));
  }, [value]);

  const thisYear = new Date().getFullYear();
  const years: number[] = [];
  for (let y = thisYear - MIN_AGE; y >= thisYear - MAX_AGE; y--) years.push(y);
  if (parts.year && !years.includes(Number(parts.year))) years.push(Number(parts.year));
  const monthName = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });

  function update(part: 'day' | 'month' | 'year', v: string) {
    const next = { ...parts, [part]: v };
    setParts(next);
    onChange(next.day && next.month && next.year ? `${next.year}-${next.month}-${next.day}` : '');
  }

  const describedBy = error ? `${id}-error` : undefined;
  const select = (part: 'day' | 'month' | 'year', name: string, options: [string, string][]) => (
    <select
      id={part === 'day' ? id : `${id}-${part}`}
      aria-label={name}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      className={`${INPUT_CLASS} ${inputTone(Boolean(error))}`}
      value={parts[part]}
      onChange={(e) => update(part, e.currentTarget.value)}
    >
      <option value="">{name}</option>
      {options.map(([v, text]) => (
        <option key={v} value={v}>{text}</option>
      ))}
    </select>
  );

  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-sm font-semibold text-gray-800">{label}</legend>
      <div className="grid grid-cols-[1fr_1.6fr_1.2fr] gap-2">
        {select('day', m.profile_day({}, o), Array.from({ length: 31 }, (_, i) => [pad(i + 1), String(i + 1)]))}
        {select('month', m.profile_month({}, o), Array.from({ length: 12 }, (_, i) => [pad(i + 1), monthName.format(Date.UTC(2000, i, 1))]))}
        {select('year', m.profile_year({}, o), years.map((y) => [String(y), String(y)]))}
      </div>
      {error && <p id={`${id}-error`} className="mt-1 text-sm font-medium text-danger">{error}</p>}
    </fieldset>
  );
}

function split(value: string): { day: string; month: string; year: string } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? { year: match[1]!, month: match[2]!, day: match[3]! } : { day: '', month: '', year: '' };
}
