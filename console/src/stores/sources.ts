import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';
import { filtersToAddress } from '../lib/filters.ts';

/** The sources table's filters as GET /api/console/sources takes them. */
export const SOURCE_FILTERS = ['brand', 'from', 'to'] as const;
export type SourceFilters = Partial<Record<(typeof SOURCE_FILTERS)[number], string>>;

export interface SourcesState {
  filters: SourceFilters;
  result: AnswerOf<'GET sources'> | null;
  loading: boolean;
  error: string;
}

/** The traffic sources table (console/src/pages/[locale]/sources.astro). */
export const $sources = atom<SourcesState>({ filters: {}, result: null, loading: false, error: '' });

let asked = 0;

/** Reads the table for these filters (the address follows); an older answer arriving late is dropped. */
export async function loadSources(filters: SourceFilters): Promise<void> {
  const mine = ++asked;
  filtersToAddress(filters);
  $sources.set({ ...$sources.get(), filters, loading: true, error: '' });
  try {
    const result = await consoleApi('GET sources', { query: filters });
    if (mine === asked) $sources.set({ filters, result, loading: false, error: '' });
  } catch (e) {
    if (mine === asked) $sources.set({ ...$sources.get(), loading: false, error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}
