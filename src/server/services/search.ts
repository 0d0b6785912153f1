import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Gender, Profile } from '../db/schema.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { AppError } from '../errors.ts';
import type { SearchAnswer as SearchResult, SearchCard, SearchQuery } from '../../contract/search.ts';
import { findRegion } from '../data/regions.ts';
import { profileCards } from './cards.ts';
import { bandedPage, countBands, homeBands, type Band, type ProfileQuery, type Viewer } from './visibility.ts';
import { bandsOf, narrowedPage, sourceOf, stillMatches, type IdList, type ListFilters, type ListingCache, type Source } from './listing-cache.ts';
import { createOwnViews, type OwnViews } from './own-views.ts';
import { fitKey } from './pool.ts';
import { compiledPerCount } from '../db/compiled.ts';
import { LRUCache } from 'lru-cache';
import type { ScopeOf } from './pool.ts';
import { yearsBefore } from '../../lib/account-rules.ts';
import { withJsonText } from '../json-text.ts';

import { GENDERS, SEARCH_GENDER_ALL, PER_PAGE, SIMILAR_PROFILES, SEARCH_COUNT_LIMIT, SEARCH_MIN_AGE, SEARCH_MAX_AGE, MAX_PAGE } from '../../contract/enums.ts';

export { PER_PAGE, SIMILAR_PROFILES, SEARCH_MIN_AGE, SEARCH_MAX_AGE, MAX_PAGE };

/** The query of GET /api/members.php after its types and ranges were checked: the contract's. */
export type { SearchQuery };

/** One result of the search, and a page of them: the contract's (GET /api/members.php). */
export type { SearchCard, SearchResult };

const invalid = (field: string) => new AppError('invalid_input', 400, { key: 'error_bad_request', field });


/** The genders a member looks for, from the own gender and sexuality. */
export function wantedGenders(me: Pick<Profile, 'gender' | 'sexuality'>): Gender[] {
  if (me.sexuality === 'bi') return ['male', 'female'];
  if (me.sexuality === 'hetero') return [me.gender === 'male' ? 'female' : 'male'];
  return [me.gender];
}

type CardRow = Pick<Profile, 'id' | 'name' | 'birth_date' | 'gender' | 'country' | 'region' | 'city' | 'fictional'>;
/** A card's row; for a member, whether they like the profile (`liked`, read with the rows). */
type Row = CardRow & { liked: boolean | 0 | 1 | null };
/** Reads a page of card rows of a listing. */
type Read = (q: ProfileQuery, limit: number, offset: number) => Promise<Row[]>;
const CARD_COLUMNS = ['profiles.id', 'profiles.name', 'profiles.birth_date', 'profiles.gender', 'profiles.country', 'profiles.region', 'profiles.city', 'profiles.fictional'] as const;

/** Rows of the shared list read beyond a page, to fill it when one was hidden since the list was read (chosen). */
const STALE_SPARE = 4;

/** Ids of a shared read compiled once up to (a page, its spares, and the few the member's own view moved it by; chosen). */
const SHARED_READ_KEPT_UP_TO = PER_PAGE + 2 * STALE_SPARE;
/** Compiled statements of a page's shared rows kept (chosen: a shape per brand scope, fit and day, each compiled per page length). */
const PAGE_SHAPES_KEPT = 500;
/** Placeholder of the statements compiled once (db/compiled.ts). */
const PROFILE_SLOT = '\u0000search-profile' as unknown as number;

/** A card of a shared list as every viewer sees it (`liked` aside), with the fields its filters are checked on again. */
interface SharedCard {
  row: Pick<Profile, 'gender' | 'country' | 'region' | 'birth_date'>;
  card: SearchCard;
  /** The card's JSON without its closing brace, made the first time it is shown (cardJson). */
  open?: string;
}

/** A shared card's JSON, with a member's heart on it (`liked`, appended last as `{ ...card, liked }` places it). */
function cardJson(shared: SharedCard, liked: boolean | undefined): string {
  const open = (shared.open ??= JSON.stringify(shared.card).slice(0, -1));
  return liked === undefined ? `${open}}` : liked ? `${open},"liked":true}` : `${open},"liked":false}`;
}
/** A member's own of a profile on their page (search.ts theirsOf). */
type Theirs = Pick<Profile, 'id' | 'listed' | 'pooled' | 'tenant_id'> & { liked: boolean | 0 | 1 };

/**
 * `views`: each member's own view (own-views.ts), read for each search unless given: the runtime
 * keeps them on SQLite (services/create.ts).
 */
export function createSearchService(deps: { db: Kysely<Database>; listings: ListingCache; scopeOf: ScopeOf; views?: OwnViews }) {
  const { db, listings } = deps;
  const views = deps.views ?? createOwnViews({ db });

  // The statements every search runs while its list is kept, built and compiled once (db/compiled.ts):
  // the searcher's own view (own-views.ts: their row with the newest profile id and their blocks
  // either way in one statement, none while it is kept), and what is theirs of the page unless
  // the view holds their hearts (theirsOf); the page's cards are the list's (sharedCards).
  const shapes = new LRUCache<string, (ids: readonly number[]) => Promise<CardRow[]>>({ max: PAGE_SHAPES_KEPT });

  /**
   * The card rows of `ids` the list's viewers may see now, through the one visibility rule as the
   * list was read (its scope for viewers of its fit, listing-cache.ts Source): the same for every
   * viewer of the list, so kept with it. A statement compiled once for each brand's scope, fit and
   * day (its audiences' birth dates) and number of ids (db/compiled.ts compiledPerCount).
   */
  function sharedRows(source: Source, day: string, ids: number[]): Promise<CardRow[]> {
    const key = JSON.stringify([source.scope.key, source.fit ? fitKey(source.fit) : null, day]);
    let run = shapes.get(key);
    if (!run) {
      run = compiledPerCount<CardRow>(db, (ids) => listings.visible(source).where('profiles.id', 'in', ids).select(CARD_COLUMNS), { keptUpTo: SHARED_READ_KEPT_UP_TO });
      shapes.set(key, run);
    }
    return run(ids);
  }

  /**
   * What of a page is the member's own (`me`, their profile id), read fresh each time in one
   * statement by primary key: their heart on each profile, and whether each is still listed
   * and, from another brand, still pooled (what a list and its cards are dropped for as soon as
   * it changes anywhere: this guards the bus's delivery time on PostgreSQL). Not read where the
   * member's view holds their hearts (SQLite, one process): every write there reaches the lists
   * and cards as it runs, or by the epoch from the next turn on.
   */
  const theirsOf = compiledPerCount<Theirs, [number]>(
    db,
    (ids, me) =>
      db
        .selectFrom('profiles')
        .select(['profiles.id', 'profiles.listed', 'profiles.pooled', 'profiles.tenant_id'])
        .select((eb) => sql<boolean | 0 | 1>`${eb.exists(eb.selectFrom('likes').select(sql.lit(1).as('one')).where('likes.from_profile_id', '=', me).whereRef('likes.to_profile_id', '=', 'profiles.id'))}`.as('liked'))
        .where('profiles.id', 'in', ids),
    { keptUpTo: PER_PAGE + STALE_SPARE, slots: [PROFILE_SLOT] },
  );

  /**
   * The shared cards of `ids` (null: not visible), from those kept with the list, the others read
   * and kept. When cards are read, the list's own ids at the page's place (`around`) are read with
   * them, so the members whose pages the own profile or a block moved by a few find theirs kept.
   */
  async function sharedCards(source: Source, list: IdList, ids: number[], around: ArrayLike<number>, today: Date): Promise<(id: number) => SharedCard | null> {
    const day = today.toISOString().slice(0, 10);
    const kept = listings.cardsOf<SharedCard>(list, day);
    let missing = kept ? ids.filter((id) => !kept.has(id)) : ids;
    if (kept && missing.length > 0) missing = [...new Set([...missing, ...Array.from(around).filter((id) => !kept.has(id))])];
    const read = new Map<number, SharedCard>();
    if (missing.length > 0) {
      for (const { row, card } of await profileCards(db, await sharedRows(source, day, missing), today)) read.set(row.id, { row, card: { ...card, gender: row.gender } });
      if (kept) for (const id of missing) kept.set(id, read.get(id) ?? null);
    }
    return (id) => kept?.get(id) ?? read.get(id) ?? null;
  }

  /** A listing's card rows; for a member (`me`, their profile id), whether they like each (the heart), in the same statement. */
  function cardRows(q: ProfileQuery, me: number | undefined, limit: number, offset: number) {
    return q
      .select(CARD_COLUMNS)
      .select((eb) =>
        (me !== undefined
          ? sql<boolean | 0 | 1 | null>`${eb.exists(eb.selectFrom('likes').select(sql.lit(1).as('one')).where('likes.from_profile_id', '=', me).whereRef('likes.to_profile_id', '=', 'profiles.id'))}`
          : sql<boolean | 0 | 1 | null>`null`
        ).as('liked'),
      )
      .limit(limit)
      .offset(offset);
  }

  /** The cards of rows; for a member, whether they like each (`liked`, read with the rows). */
  async function cards(rows: Row[]): Promise<SearchCard[]> {
    return (await profileCards(db, rows)).map(({ row, card }) => ({ ...card, gender: row.gender, ...(row.liked === null ? {} : { liked: Boolean(row.liked) }) }));
  }

  return {
    /**
     * The member search (GET /api/members.php). `userId` is the searching member, or null for a
     * visitor the brand lets search (SPEC §6). A member without a gender filter sees the genders
     * the own profile looks for; a visitor sees both, and so does anyone who chose "everyone"
     * (`all`). Results come from the brand's active, visible profiles, the searcher's own country
     * first, then the own region, then the most recently seen. `visitorCountry` (geo-IP) orders a visitor's results the same way.
     */
    members(tenant: Tenant, userId: number | null, query: SearchQuery, visitorCountry: string | null = null): Promise<SearchResult> {
      return listings.gate(() => search(tenant, userId, query, visitorCountry));
    },
  };

  async function search(tenant: Tenant, userId: number | null, query: SearchQuery, visitorCountry: string | null): Promise<SearchResult> {
    if (query.country !== undefined && !tenant.countries.includes(query.country)) throw invalid('country');
    if (query.min_age !== undefined && query.max_age !== undefined && query.min_age > query.max_age) throw invalid('max_age');
    // A region is stored by its name; without a country it may name a region of any of the brand's countries.
    let regions: { country: string; name: string }[] | undefined;
    if (query.region !== undefined) {
      regions = (query.country ? [query.country] : tenant.countries).flatMap((country) => {
        const found = findRegion(country, query.region);
        return found ? [{ country, name: found.name }] : [];
      });
      if (regions.length === 0) throw invalid('region');
    }

    const view = userId === null ? null : await views.of(userId);
    const me = view?.me ?? undefined;
    // What this member is never shown in a listing: their own profile, and a block either way (SPEC §4).
    const hidden = view?.hidden ?? new Set<number>();
    // Their hearts when their view holds them (kept on SQLite); read with the page otherwise (theirsOf).
    const hearts = me ? (view?.hearts ?? null) : null;
    const genders: Gender[] | undefined = query.gender === SEARCH_GENDER_ALL ? [...GENDERS] : query.gender ? [query.gender] : me ? wantedGenders(me) : undefined;
    const homeCountry = me?.country ?? (visitorCountry && tenant.countries.includes(visitorCountry) ? visitorCountry : null);
    const homeRegion = me?.region ?? null;
    const viewer = me && userId !== null ? { userId, profileId: me.id } : null;

    const today = new Date();
    // age >= min ⇔ born on or before today − min years; age <= max ⇔ born after today − (max + 1) years.
    const filters: ListFilters = {
      genders: genders && !GENDERS.every((g) => genders.includes(g)) ? genders : undefined,
      country: query.country,
      regions,
      bornOnOrBefore: query.min_age !== undefined ? yearsBefore(today, query.min_age) : undefined,
      bornAfter: query.max_age !== undefined ? yearsBefore(today, query.max_age + 1) : undefined,
      home: { country: homeCountry, region: homeRegion },
    };
    const source = sourceOf(deps.scopeOf(tenant), me ?? null, today);
    const read: Read = (q, limit, offset) => cardRows(q, me?.id, limit, offset).execute();

    // The brand's list for these filters, shared with everyone who searches alike, less what
    // this member is never shown; the count stops at the limit (a brand of 100,000 has no use for more).
    const newest = view?.newest ?? (await views.newest());
    const list = await listings.ids(source, filters, newest, SEARCH_COUNT_LIMIT);
    const offset = (query.page - 1) * PER_PAGE;
    // The page's ids, with a few more in case one was hidden or changed since the list was read.
    const mine = narrowedPage(list, hidden, offset, PER_PAGE + STALE_SPARE);
    // More blocks than the list's headroom: the list no longer reaches the limit, so count and page without it.
    if (!list.complete && mine.total < SEARCH_COUNT_LIMIT) return searchEach(source, filters, viewer, read, query.page);
    const total = Math.min(mine.total, SEARCH_COUNT_LIMIT);
    const shown = Math.max(0, Math.min(PER_PAGE, total - offset));
    // The page's cards, shared with every viewer of the list (read once while it is kept), and
    // what is the member's own of them: their hearts, from their view or read fresh with whether
    // each is still listed.
    const asked = mine.ids.slice(0, shown + STALE_SPARE);
    const profiles: SearchCard[] = [];
    const texts: string[] = [];
    if (shown > 0) {
      const around = list.ids.subarray(offset, offset + shown + STALE_SPARE);
      const [shared, theirs] = await Promise.all([sharedCards(source, list, asked, around, today), me && !hearts ? theirsOf(asked, me.id) : null]);
      const own = theirs && new Map(theirs.map((t) => [t.id, t]));
      let stale = false;
      for (const id of asked) {
        const card = shared(id);
        const t = own?.get(id);
        if (!card || (own && !(t && Number(t.listed) === 1 && (t.tenant_id === source.scope.brand || Number(t.pooled) === 1)))) {
          stale = true;
          continue;
        }
        if (profiles.length < shown && stillMatches(card.row, filters)) {
          const liked = hearts ? hearts.has(id) : t ? Boolean(t.liked) : undefined;
          profiles.push(liked === undefined ? card.card : { ...card.card, liked });
          texts.push(cardJson(card, liked));
        }
      }
      if (stale) listings.forget(list);
    }
    if (total === 0) return answer(profiles, total, query.page, () => similar(source, filters, viewer, read));
    // The answer's JSON from the cards' kept JSON (json-text.ts): the cards are the same for every viewer.
    const result = await answer(profiles, total, query.page, () => similar(source, filters, viewer, read));
    return withJsonText(result, `{"profiles":[${texts.join(',')}],"total":${total},"total_capped":${result.total_capped},"page":${result.page},"per_page":${PER_PAGE},"pages":${result.pages}}`);
  }

  /** When nothing matches: profiles of the genders looked for, nearest first, without the other filters. */
  function similar(source: Source, filters: ListFilters, viewer: Viewer | null, read: Read): Promise<Row[]> {
    const looked = (band: Band) => listings.matching(source, { home: filters.home, genders: filters.genders }, viewer, band);
    return bandedPage(looked, homeBands(filters.home.country, filters.home.region), read, { offset: 0, limit: SIMILAR_PROFILES });
  }

  /** The page and its figures; when nothing matched, profiles like those looked for (`similar`). */
  async function answer(profiles: SearchCard[], total: number, page: number, similar: () => Promise<Row[]>): Promise<SearchResult> {
    const result: SearchResult = {
      profiles,
      total,
      total_capped: total >= SEARCH_COUNT_LIMIT,
      page,
      per_page: PER_PAGE,
      pages: Math.ceil(total / PER_PAGE),
    };
    if (total === 0) result.similar = await cards(await similar());
    return result;
  }

  /**
   * The search without a shared list: each band counted and read for this member alone, a
   * statement each (a member with more blocks than a shared list's headroom).
   */
  async function searchEach(source: Source, filters: ListFilters, viewer: Viewer | null, read: Read, page: number): Promise<SearchResult> {
    const filtered = (band: Band) => listings.matching(source, filters, viewer, band);
    const bands = bandsOf(filters);
    const counts = await countBands(db, filtered, bands, SEARCH_COUNT_LIMIT);
    const total = counts.reduce((a, b) => a + b, 0);
    const rows = await bandedPage(filtered, bands, read, { offset: (page - 1) * PER_PAGE, limit: PER_PAGE, counts });
    return answer(await cards(rows), total, page, () => similar(source, filters, viewer, read));
  }
}

export type SearchService = ReturnType<typeof createSearchService>;
