/**
 * The results of the members search: a grid of cards, skeletons while a page loads, pages with
 * "page x of y", the empty state with similar profiles, and API errors in an alert.
 */
import type { ReactNode, Ref } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { queryFromParams, type MemberCard, type SearchParams, type SearchState } from '../../stores/search.ts';
import ProfileCard, { ProfileCardSkeletons, type Fictional } from './ProfileCard.tsx';
import LikeButton from '../likes/LikeButton.tsx';

/** Placeholders while a page loads; a page of the API is about this size. */
const SKELETONS = 12;
/** Cards whose photos load at once: a phone's first screen shows two rows of two. */
const EAGER = 4;
const gridClass = 'grid grid-cols-2 gap-3 sm:grid-cols-3 md:gap-4 xl:grid-cols-4';

interface Props {
  locale: Locale;
  state: SearchState;
  fictional: Fictional;
  countryName: (code: string) => string;
  onPage: (page: number) => void;
  onRetry: () => void;
  /** Clears the filters (offered when the API refused them). */
  onReset: () => void;
  headingRef: Ref<HTMLHeadingElement>;
}

/** The members search at a page of these filters. */
export function pageHref(params: SearchParams, page: number): string {
  const q = queryFromParams({ ...params, page }).toString();
  return q ? `/members?${q}` : '/members';
}

export default function SearchResults({ locale, state, fictional, countryName, onPage, onRetry, onReset, headingRef }: Props) {
  const o = { locale };
  const { params, status, error } = state;
  const loading = status === 'loading' || status === 'idle';
  const profiles = state.results[params.page];
  const similar = state.similar[params.page] ?? [];

  // The first row or two fill a phone's first screen.
  const cards = (list: MemberCard[]) =>
    list.map((member, i) => (
      <li key={member.id} className="relative">
        <ProfileCard locale={locale} member={member} fictional={fictional} countryName={countryName} eager={i < EAGER} />
        {/* A member's search: like from the card (SPEC §2), the heart over the photo's lower corner. */}
        {member.liked !== undefined && (
          <div className="absolute bottom-14 right-2">
            <LikeButton locale={locale} profile={member} liked={member.liked} compact />
          </div>
        )}
      </li>
    ));

  return (
    <section aria-labelledby="search-results-heading" className="min-w-0">
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id="search-results-heading" ref={headingRef} tabIndex={-1} className="text-xl font-bold outline-none">
          {m.search_results({}, o)}
        </h2>
        <p role="status" className="text-sm text-gray-600">
          {loading ? m.form_loading({}, o) : status === 'done' ? (state.total === 1 ? m.search_count_one({}, o) : m.search_count({ count: `${state.total.toLocaleString(locale)}${state.totalCapped ? '+' : ''}` }, o)) : ''}
        </p>
      </div>

      {status === 'error' && error && (
        <div role="alert" className="card mb-4 flex flex-col items-start gap-3 border-danger/40 bg-danger/5 p-4 text-[#7a1020] sm:flex-row sm:items-center">
          <p className="flex-1">
            <span aria-hidden="true">⚠ </span>
            {error.code === 'network' ? m.error_generic({}, o) : error.message}
          </p>
          {error.status === 401 ? (
            <a className="btn-primary" href={`/login?next=${encodeURIComponent(pageHref(params, params.page))}`}>
              {m.nav_login({}, o)}
            </a>
          ) : error.status === 400 ? (
            <button type="button" className="btn-light" onClick={onReset}>
              {m.search_reset({}, o)}
            </button>
          ) : (
            <button type="button" className="btn-light" onClick={onRetry}>
              {m.search_retry({}, o)}
            </button>
          )}
        </div>
      )}

      {loading && (
        <ul className={gridClass} aria-busy="true" aria-label={m.form_loading({}, o)}>
          <ProfileCardSkeletons count={SKELETONS} />
        </ul>
      )}

      {status === 'done' && profiles && profiles.length > 0 && <ul className={gridClass}>{cards(profiles)}</ul>}

      {status === 'done' && profiles && profiles.length === 0 && (
        <div className="space-y-8">
          <div className="card flex flex-col items-center gap-3 px-6 py-10 text-center">
            <span aria-hidden="true" className="i-tabler-user-search text-5xl text-primary/70" />
            <p className="max-w-md font-semibold text-gray-800">{m.search_empty({}, o)}</p>
            <p className="max-w-md text-sm text-gray-600">{m.search_empty_hint({}, o)}</p>
            <button type="button" className="btn-light mt-2" onClick={onReset}>
              {m.search_reset({}, o)}
            </button>
          </div>
          {similar.length > 0 && (
            <section aria-labelledby="search-similar-heading">
              <h2 id="search-similar-heading" className="mb-4 text-xl font-bold">
                {m.search_similar({}, o)}
              </h2>
              <ul className={gridClass}>{cards(similar)}</ul>
            </section>
          )}
        </div>
      )}

      {state.pages > 1 && status !== 'error' && (
        <nav aria-label={m.search_pagination({}, o)} className="mt-8 flex items-center justify-between gap-3">
          <PageLink page={params.page - 1} enabled={params.page > 1} params={params} onPage={onPage} rel="prev">
            <span aria-hidden="true">←</span>
            <span className="sr-only sm:not-sr-only">{m.search_previous({}, o)}</span>
          </PageLink>
          <p className="whitespace-nowrap text-sm font-semibold text-gray-700">{m.search_page_of({ page: params.page, pages: state.pages }, o)}</p>
          <PageLink page={params.page + 1} enabled={params.page < state.pages} params={params} onPage={onPage} rel="next">
            <span className="sr-only sm:not-sr-only">{m.search_next({}, o)}</span>
            <span aria-hidden="true">→</span>
          </PageLink>
        </nav>
      )}
    </section>
  );
}

function PageLink({ page, enabled, params, onPage, rel, children }: { page: number; enabled: boolean; params: SearchParams; onPage: (page: number) => void; rel: 'prev' | 'next'; children: ReactNode }) {
  const className = 'btn-light min-w-12 px-4 py-2 text-sm sm:min-w-28';
  if (!enabled) {
    return (
      <span className={`${className} cursor-default opacity-40`} aria-disabled="true">
        {children}
      </span>
    );
  }
  return (
    <a
      href={pageHref(params, page)}
      rel={rel}
      className={className}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return; // a new tab keeps working
        e.preventDefault();
        onPage(page);
      }}
    >
      {children}
    </a>
  );
}
