import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';
import { filtersToAddress } from '../lib/filters.ts';

/** The members search's filters as GET /api/console/members takes them. */
export const MEMBER_FILTERS = ['q', 'brand', 'status', 'from', 'to', 'source', 'page'] as const;
export type MemberFilters = Partial<Record<(typeof MEMBER_FILTERS)[number], string>>;

export interface MembersState {
  filters: MemberFilters;
  result: AnswerOf<'GET members'> | null;
  loading: boolean;
  error: string;
}

/** The members search (console/src/pages/[locale]/members.astro). */
export const $members = atom<MembersState>({ filters: {}, result: null, loading: false, error: '' });

let asked = 0;

/** Searches with these filters (the address follows); an older answer arriving late is dropped. */
export async function searchMembers(filters: MemberFilters): Promise<void> {
  const mine = ++asked;
  filtersToAddress(filters);
  $members.set({ ...$members.get(), filters, loading: true, error: '' });
  try {
    const result = await consoleApi('GET members', { query: filters });
    if (mine === asked) $members.set({ filters, result, loading: false, error: '' });
  } catch (e) {
    if (mine === asked) $members.set({ ...$members.get(), loading: false, error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}
