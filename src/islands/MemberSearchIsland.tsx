/**
 * /members (SPEC §2 route members, the post-login home): the filter form and the results. The
 * search lives in the URL query (SPEC §3 search state), so a reload, a shared link and the back
 * button show the same search; the results come from the search store.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import { $search, EMPTY_FILTERS, normalizeFilters, paramsFromQuery, queryFromParams, search, type SearchFilters as Filters, type SearchParams } from '../stores/search.ts';
import SearchFilters, { type SearchField } from './search/SearchFilters.tsx';
import SearchResults from './search/SearchResults.tsx';
import type { Fictional } from './search/ProfileCard.tsx';
import { captureTracking } from '../lib/tracking.ts';

interface Props {
  locale: Locale;
  /** The brand's countries with their names in the visitor's language (named on the server). */
  countries: { code: string; name: string }[];
  /** settings.search_fields */
  fields: readonly SearchField[];
  fictional: Fictional;
  /**
   * The query of the page's URL, so the server and the browser render the same form; a member
   * shell (the same page for every address) passes '' and the form takes the address's query once
   * hydrated.
   */
  query: string;
}

function filtersOf(params: SearchParams): Filters {
  const { page: _page, ...filters } = params;
  return filters;
}

function activeFilters(f: Filters): number {
  return [f.gender, f.country, f.min_age != null || f.max_age != null].filter(Boolean).length;
}

export default function MemberSearchIsland({ locale, countries, fields, fictional, query }: Props) {
  const o = { locale };
  const state = useStore($search);
  const [draft, setDraft] = useState<Filters>(() => filtersOf(paramsFromQuery(query)));
  const [filtersOpen, setFiltersOpen] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const names = useMemo(() => new Map(countries.map((c) => [c.code, c.name])), [countries]);
  const countryName = useCallback((code: string) => names.get(code) ?? code, [names]);
  // A traffic source in the URL stays there, so a reload passes the route guard again (SPEC §6).
  const [tracking, setTracking] = useState(() => captureTracking(query, null) as Record<string, string>);

  useEffect(() => {
    const fromAddress = captureTracking(location.search, null) as Record<string, string>;
    setTracking(fromAddress);
    const params = paramsFromQuery(location.search);
    setDraft(filtersOf(params));
    void search(params, fromAddress);
    const onPopState = () => {
      const params = paramsFromQuery(location.search);
      setDraft(filtersOf(params));
      void search(params, fromAddress);
    };
    addEventListener('popstate', onPopState);
    return () => removeEventListener('popstate', onPopState);
  }, []);

  /** The address of a search, with the visit's traffic source kept. */
  function urlOf(params: SearchParams): string {
    const q = queryFromParams(params);
    for (const [key, value] of Object.entries(tracking)) q.set(key, value);
    return q.size > 0 ? `${location.pathname}?${q}` : location.pathname;
  }

  /** A new search or page: into the history (so back returns to it), then into the store. */
  function go(params: SearchParams) {
    history.pushState(null, '', urlOf(params));
    void search(params, tracking);
  }

  // A page past the last shows the last one (the store decides): the address says so too, in
  // place of the one that led here, so a reload or a shared link shows the same.
  useEffect(() => {
    if (state.status === 'done' && paramsFromQuery(location.search).page !== state.params.page) history.replaceState(null, '', urlOf(state.params));
  }, [state.status, state.params.page]);

  function submit(filters: Filters) {
    const normalized = normalizeFilters(filters);
    setDraft(normalized);
    go({ ...normalized, page: 1 });
    if (filtersOpen) {
      // On a phone the panel folds away with the focused button in it: focus moves on to the results.
      setFiltersOpen(false);
      headingRef.current?.focus({ preventScroll: true });
      headingRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    }
  }

  function toPage(page: number) {
    go({ ...state.params, page });
    // The member reads on from the top of the new page; focus follows for keyboard and screen readers.
    headingRef.current?.focus({ preventScroll: true });
    headingRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }

  const count = activeFilters(filtersOf(state.params));

  return (
    <div className="lg:grid lg:grid-cols-[280px_minmax(0,1fr)] lg:items-start lg:gap-8">
      <aside aria-labelledby="search-filters-heading" className="mb-6 lg:sticky lg:top-20 lg:mb-0">
        <div className="card p-4 lg:p-5">
          <h2 id="search-filters-heading" className="flex items-center justify-between">
            <button
              type="button"
              className="flex w-full cursor-pointer items-center justify-between gap-2 rounded-lg border-0 bg-transparent p-0 text-left text-lg font-bold text-inherit focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary lg:hidden"
              aria-expanded={filtersOpen}
              aria-controls="search-filters-panel"
              onClick={() => setFiltersOpen((open) => !open)}
            >
              <span className="flex items-center gap-2">
                <FilterIcon />
                {m.search_filters({}, o)}
                {count > 0 && <span className="rounded-full bg-primary px-2 py-0.5 text-xs text-white">{count}</span>}
              </span>
              <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" className={`text-gray-500 transition-transform ${filtersOpen ? 'rotate-180' : ''}`}>
                <path d="M6 9l6 6 6-6" />
              </svg>
            </button>
            <span className="hidden items-center gap-2 text-lg font-bold lg:flex">
              <FilterIcon />
              {m.search_filters({}, o)}
            </span>
          </h2>
          <div id="search-filters-panel" className={`${filtersOpen ? 'block' : 'hidden'} mt-4 lg:block`}>
            <SearchFilters
              locale={locale}
              value={draft}
              onChange={setDraft}
              onSubmit={submit}
              countries={countries}
              fields={fields}
              busy={state.status === 'loading'}
              invalidField={state.status === 'error' ? state.error?.field : undefined}
            />
          </div>
        </div>
      </aside>
      <SearchResults
        locale={locale}
        state={state}
        fictional={fictional}
        countryName={countryName}
        onPage={toPage}
        onRetry={() => void search(state.params, tracking)}
        onReset={() => submit(EMPTY_FILTERS)}
        headingRef={headingRef}
      />
    </div>
  );
}

function FilterIcon() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round">
      <path d="M4 6h16M7 12h10M10 18h4" />
    </svg>
  );
}
