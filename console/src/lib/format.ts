import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';

const TAGS: Record<ConsoleLocale, string> = { en: 'en-GB', nl: 'nl-NL' };

/** A date of an ISO timestamp as the console's language writes it (26 Nov 2026). */
export function formatDate(iso: string | null, locale: ConsoleLocale): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleDateString(TAGS[locale], { day: 'numeric', month: 'short', year: 'numeric' });
}

/** A moment of an ISO timestamp, to the minute (26 Nov 2026, 13:05). */
export function formatDateTime(iso: string | null, locale: ConsoleLocale): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(TAGS[locale], { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** A member's traffic source (the tracking parameters of SPEC §3) on one line: `utm_source=x · tracker=y`. */
export function sourceText(source: unknown): string {
  if (!source || typeof source !== 'object') return '—';
  const parts = Object.entries(source as Record<string, unknown>).filter(([, v]) => typeof v === 'string' && v);
  return parts.length ? parts.map(([k, v]) => `${k}=${v as string}`).join(' · ') : '—';
}

/** Cents of a currency as the console's language writes money (€ 14,99); never summed across currencies. */
export function formatAmount(cents: number | null, currency: string, locale: ConsoleLocale): string {
  return cents === null ? '—' : new Intl.NumberFormat(TAGS[locale], { style: 'currency', currency }).format(cents / 100);
}

/** A fraction as a percentage with one decimal (0.0125 is 1.3%). */
export function formatRate(value: number | null, locale: ConsoleLocale): string {
  return value === null ? '—' : new Intl.NumberFormat(TAGS[locale], { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}
