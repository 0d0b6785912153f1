import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';
import { filtersToAddress } from '../lib/filters.ts';

/** The revenue page's filters as GET /api/console/revenue takes them (the address keeps them). */
export const REVENUE_FILTERS = ['brand', 'from', 'to', 'group'] as const;
export type RevenueFilters = Partial<Record<(typeof REVENUE_FILTERS)[number], string>>;

export interface RevenueState {
  filters: RevenueFilters;
  result: AnswerOf<'GET revenue'> | null;
  loading: boolean;
  error: string;
}

/** The revenue figures (console/src/pages/[locale]/revenue.astro). */
export const $revenue = atom<RevenueState>({ filters: {}, result: null, loading: false, error: '' });

let asked = 0;

/** Loads the figures of these filters (the address follows); an older answer arriving late is dropped. */
export async function loadRevenue(filters: RevenueFilters): Promise<void> {
  const mine = ++asked;
  filtersToAddress(filters);
  $revenue.set({ ...$revenue.get(), filters, loading: true, error: '' });
  try {
    const result = await consoleApi('GET revenue', { query: filters });
    if (mine === asked) $revenue.set({ filters, result, loading: false, error: '' });
  } catch (e) {
    if (mine === asked) $revenue.set({ ...$revenue.get(), loading: false, error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}

/** The CSV download of a table with the same filters. */
export function revenueCsvHref(filters: RevenueFilters, table: 'money' | 'members'): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  query.set('format', 'csv');
  query.set('table', table);
  return `/api/console/revenue?${query}`;
}
