import { atom } from './browser-only.ts';
import { api, ApiError } from './api.ts';
import { GENDERS, MAX_PAGE, SEARCH_GENDER_CHOICES, SEARCH_MAX_AGE, SEARCH_MIN_AGE } from '../contract/enums.ts';
import type { SearchAnswer, SearchCard } from '../contract/search.ts';

/**
 * The members search (SPEC §2 route members, §3 "Search state"): the filters (gender, country,
 * countryregion, min_age, max_age), the results by page number, the total result count and the
 * similar results by page. The filters and the page also live in the URL query, so a reload or
 * the back button shows the same search.
 */

export type SearchGender = (typeof GENDERS)[number];
export const SEARCH_GENDERS: readonly SearchGender[] = GENDERS;
/** The gender filter's choices: everyone (both genders), or one. */
export type SearchGenderChoice = (typeof SEARCH_GENDER_CHOICES)[number];
export { SEARCH_GENDER_CHOICES };
/** Ages the search offers, as GET /api/members.php accepts them (members are 18+, SPEC §5). */
export { SEARCH_MAX_AGE, SEARCH_MIN_AGE };

/** The filters as GET /api/members.php takes them; '' and null mean "any". */
export interface SearchFilters {
  /** '' is no choice made: the genders the member's profile looks for (both for a visitor). */
  gender: SearchGenderChoice | '';
  country: string;
  /** A region code of the chosen country (GET /api/regions.php), SPEC's countryregion. */
  region: string;
  min_age: number | null;
  max_age: number | null;
}

export interface SearchParams extends SearchFilters {
  page: number;
}

/** A member as the search and the profile page list one (GET /api/members.php: the contract's card; related profiles come without gender). */
export type MemberCard = Omit<SearchCard, 'gender'> & Partial<Pick<SearchCard, 'gender'>>;
export type { SearchAnswer };

export interface SearchState {
  params: SearchParams;
  status: 'idle' | 'loading' | 'done' | 'error';
  /** Results by page number, for the current filters. */
  results: Record<number, MemberCard[]>;
  /** Similar profiles by page number (offered when a page has no results). */
  similar: Record<number, MemberCard[]>;
  total: number;
  /** The count stopped at its limit: "1000+". */
  totalCapped: boolean;
  pages: number;
  error: { status: number; code: string; message: string; field?: string } | null;
}

export const EMPTY_FILTERS: SearchFilters = { gender: '', country: '', region: '', min_age: null, max_age: null };

function initialState(params: SearchParams = { ...EMPTY_FILTERS, page: 1 }): SearchState {
  return { params, status: 'idle', results: {}, similar: {}, total: 0, totalCapped: false, pages: 0, error: null };
}

export const $search = atom<SearchState>(initialState());

// ---- The search in the URL query ----

function age(value: string | null): number | null {
  if (!value || !/^\d{1,3}$/.test(value)) return null;
  const n = Number(value);
  return n >= SEARCH_MIN_AGE && n <= SEARCH_MAX_AGE ? n : null;
}

/** The search a URL query describes; what does not parse is left out ("any"). */
export function paramsFromQuery(query: string | URLSearchParams): SearchParams {
  const q = typeof query === 'string' ? new URLSearchParams(query) : query;
  const gender = q.get('gender');
  const country = (q.get('country') ?? '').toUpperCase();
  const page = Number(q.get('page'));
  return {
    gender: SEARCH_GENDER_CHOICES.includes(gender as SearchGenderChoice) ? (gender as SearchGenderChoice) : '',
    country: /^[A-Z]{2}$/.test(country) ? country : '',
    region: /^[\w-]{1,20}$/.test(q.get('region') ?? '') && /^[A-Z]{2}$/.test(country) ? (q.get('region') as string) : '',
    min_age: age(q.get('min_age')),
    max_age: age(q.get('max_age')),
    // A page past the API's last one asks for the last page there is (see search()).
    page: Number.isInteger(page) && page > 1 ? Math.min(page, MAX_PAGE) : 1,
  };
}

/** The query of a search: only the filters that are set, and the page when it is not the first. */
export function queryFromParams(params: SearchParams): URLSearchParams {
  const q = new URLSearchParams();
  if (params.gender) q.set('gender', params.gender);
  if (params.country) q.set('country', params.country);
  if (params.country && params.region) q.set('region', params.region);
  if (params.min_age != null) q.set('min_age', String(params.min_age));
  if (params.max_age != null) q.set('max_age', String(params.max_age));
  if (params.page > 1) q.set('page', String(params.page));
  return q;
}

/** Filters as they go out: a reversed age range is turned round, an age at the end of the range means "any". */
export function normalizeFilters(filters: SearchFilters): SearchFilters {
  let { min_age, max_age } = filters;
  if (min_age != null && max_age != null && min_age > max_age) [min_age, max_age] = [max_age, min_age];
  return {
    gender: filters.gender,
    country: filters.country,
    region: filters.country ? filters.region : '',
    min_age: min_age === SEARCH_MIN_AGE ? null : min_age,
    max_age: max_age === SEARCH_MAX_AGE ? null : max_age,
  };
}

function sameFilters(a: SearchFilters, b: SearchFilters): boolean {
  return a.gender === b.gender && a.country === b.country && a.region === b.region && a.min_age === b.min_age && a.max_age === b.max_age;
}

// ---- Actions ----

let latest = 0;

/**
 * Runs a search (GET /api/members.php) and keeps its page in the store. A page already loaded for
 * the same filters is shown from the store; new filters start over. Only the newest call's answer
 * is kept, so quick changes never show an older search. `trafficSource` (the visit's tracking
 * parameters) goes along so a visitor may search where the brand allows it only with one (SPEC §6).
 * A page past the last (an old link, members who left since) shows the last page, or the first
 * when nothing matches: the store's params say which page is shown, and the island's URL follows.
 */
export async function search(params: SearchParams, trafficSource: Record<string, string> = {}): Promise<void> {
  const before = $search.get();
  const state = sameFilters(before.params, params) && before.status !== 'idle' ? before : initialState(params);
  if (state.results[params.page] && state.status !== 'error') {
    $search.set({ ...state, params, status: 'done', error: null });
    return;
  }
  const call = ++latest;
  $search.set({ ...state, params, status: 'loading', error: null });
  const q = queryFromParams(params);
  const query: Record<string, string> = { ...trafficSource, ...Object.fromEntries(q.entries()) };
  try {
    const answer = await api('GET', '/members.php', undefined, query);
    if (call !== latest) return;
    const last = Math.max(1, answer.pages);
    if (params.page > last && answer.total > 0) return await search({ ...params, page: last }, trafficSource);
    // Nothing matched: every page is the empty first one, with its similar profiles.
    const page = Math.min(params.page, last);
    const now = $search.get();
    $search.set({
      ...now,
      params: { ...params, page },
      status: 'done',
      results: { ...now.results, [page]: answer.profiles },
      similar: { ...now.similar, [page]: answer.similar ?? [] },
      total: answer.total,
      totalCapped: answer.total_capped,
      pages: answer.pages,
      error: null,
    });
  } catch (error) {
    if (call !== latest) return;
    const e = error instanceof ApiError ? error : new ApiError(0, 'network', String(error), undefined, undefined);
    $search.set({ ...$search.get(), status: 'error', error: { status: e.status, code: e.code, message: e.message, field: e.field } });
  }
}
