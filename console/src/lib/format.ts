import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { formatMoney } from '../../../src/lib/money.ts';

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

/** Cents of a currency as the console's language writes money (€ 14,99; £14.99). */
export function formatCents(cents: number | null, currency: string, locale: ConsoleLocale): string {
  return cents === null ? '—' : formatMoney(cents, currency, TAGS[locale]);
}

/** A fraction as a percentage with one decimal (25.0%); — for none. */
export function formatPercent(fraction: number | null | undefined, locale: ConsoleLocale): string {
  return fraction === null || fraction === undefined ? '—' : fraction.toLocaleString(TAGS[locale], { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A p-value to three decimals, below 0.001 as < 0.001. */
export function formatP(p: number, locale: ConsoleLocale): string {
  return p < 0.001 ? `< ${(0.001).toLocaleString(TAGS[locale])}` : p.toLocaleString(TAGS[locale], { minimumFractionDigits: 3, maximumFractionDigits: 3 });
}
