import { sql, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../db/index.ts';
import type { Gender, Profile } from '../db/schema.ts';
import { fitKey, fitOf, type Fit, type PoolScope, type PoolViewer } from './pool.ts';
import type { AudiencePerson } from '../../lib/audience.ts';
import { cardGeneration, followListingChanges, listingGeneration, type ListingChangeSource } from './listing-changes.ts';
import { createTurnGate } from '../turn-gate.ts';
import { compileOnce } from '../db/compiled.ts';
import { bandedPage, blockedWith, homeBands, visibleProfiles, type Band, type Condition, type ProfileQuery, type Viewer } from './visibility.ts';

/**
 * The work members who search alike share (bench/README.md "The search under load"): for one set
 * of brands, an audience and the same filters, the ids of the listed profiles in the listing's
 * order (the home bands, each most recently seen first), read once and kept a few seconds, and
 * beside each list the cards of its profiles as its pages are shown (`cardsOf`). Each member
 * narrows the list by their own (their profile, their blocks either way, read fresh each time,
 * and in the deck what they answered in the swipe game) and reads their own hearts; the cards
 * are the same for every viewer.
 *
 * A list and its cards are kept until LIST_TTL_MS has passed or something they show changed
 * (listing-changes.ts: a profile listed or unlisted, suspended, deleted, made invisible or own-brand
 * only, its searched fields edited; for the cards also its name, city or photos): this process's
 * writes at once, as the database adapter sends them and again when they commit; another runtime's
 * on PostgreSQL when the bus delivers its trigger's event (migration 2026-11-27-0300, about a
 * millisecond). A profile added anywhere shows in the highest profile id, read with the searcher's
 * own row. What no event tells (a write of another process on SQLite, such as the CLI; the bus not
 * listening) changes the epoch: SQLite's data_version, the bus's listening stretch; while the bus
 * does not listen, no card is kept. A brand leaving the pool or suspended changes its scope's key.
 * A list a few seconds old may keep an old order (last seen), never show whom the rule hides now.
 */

/** How long a shared list is used (chosen: a newcomer shows within seconds on every runtime). */
const LIST_TTL_MS = 5_000;
/** Lists kept per runtime (chosen: each at most LIST_SIZE ids). */
const LISTS_KEPT = 2_000;
/**
 * The share of a turn of the event loop searches and swipe decks take (ms, chosen: about the two
 * searches of the demo's size the gate before it let run in a turn; a search at a million takes a
 * turn alone). On SQLite a search is synchronous work with no real wait in it, so fifty searches
 * that arrived together would otherwise all run to the end in one turn and every other request of
 * every brand would wait behind them (bench/README.md "No stall"); past this share they wait for a
 * later turn, in arrival order (turn-gate.ts). The deck reads the same lists the same way, so it
 * takes its turns from the same share.
 */
const SEARCH_TURN_MS = 0.5;
/** Ids beyond the count limit a list holds, so the member's own profile and blocks can be taken out and the limit still reached. */
const HEADROOM = 64;

/**
 * Which profiles a brand's listings draw from: its scope (services/pool.ts: the brand, and its
 * pool's brands within the audiences). A brand alone draws the same for every viewer. In a pool
 * the scope also depends on whether the viewer is someone each audience is for (a pair fits an
 * audience when either side does, pool.ts `inScope`): viewers of the same fit draw the same
 * profiles, so a pool's lists are keyed by the fit and shared by everyone of that fit who
 * searches alike (a visitor fits none).
 */
export interface Source {
  scope: PoolScope;
  /** The viewers' fit to the pool's audiences; null for a brand alone. */
  fit: Fit | null;
}

/** The source of a viewer's listings: their profile's fit to the scope's audiences (null: a visitor). */
export function sourceOf(scope: PoolScope, viewer: PoolViewer | null, today = new Date()): Source {
  return { scope, fit: scope.others.length ? fitOf(scope, viewer, today) : null };
}

/** What a list is of: the source, the filters (as their SQL bounds) and the home bands' place. */
export interface ListFilters {
  genders?: Gender[];
  country?: string;
  regions?: { country: string; name: string }[];
  bornOnOrBefore?: string;
  bornAfter?: string;
  home: { country: string | null; region: string | null };
}

/** A shared list: profile ids in listing order; `complete` when it holds every match (not cut at its size). */
export interface IdList {
  key: string;
  ids: Int32Array;
  complete: boolean;
  /** The ids as a set, made the first time a member's view is taken from the list (narrowedPage). */
  members?: Set<number>;
}

/** The cards of a list's profiles as read for a page (null: the profile was not visible when read), kept with the list (cardsOf). */
export type KeptCards<Card> = Map<number, Card | null>;

/**
 * The home bands of a listing (own region, own country, everyone) that its filters can fill: a
 * country filter leaves the home country's bands (no "everyone else") or, for another country, one
 * band; a region filter leaves the bands holding one of its regions. A band the filters leave
 * empty is not read (PostgreSQL planned such a read as a walk of the whole index).
 */
export function bandsOf(f: Pick<ListFilters, 'country' | 'regions' | 'home'>): Band[] {
  const { country, region } = f.home;
  const home = homeBands(country, region);
  if (!country) return home;
  if (f.country && f.country !== country) return [null];
  const kinds = region ? (['region', 'country', 'others'] as const) : (['country', 'others'] as const);
  const regions = f.regions;
  const fillable = (kind: (typeof kinds)[number]) => {
    if (kind === 'others') return !f.country && (!regions || regions.some((r) => r.country !== country));
    if (!regions) return true;
    const atHome = regions.filter((r) => r.country === country);
    return kind === 'region' ? atHome.some((r) => r.name === region) : atHome.some((r) => r.name !== region);
  };
  return home.filter((_, i) => fillable(kinds[i]!));
}

/** The highest profile id: a new profile anywhere changes it (select it beside the searcher's own row). */
export const newestProfile = sql<number | string | null>`(select max(p.id) from profiles as p)`;

export function createListingCache(deps: { db: Kysely<Database>; changes?: ListingChangeSource | null }) {
  const { db } = deps;
  const changes = deps.changes ?? null;
  if (changes) followListingChanges(changes);
  /** The cards kept beside each list, with the card generation, day and epoch they were read in. */
  const cards = new WeakMap<IdList, { at: string; cards: KeptCards<unknown> }>();
  // Searches that miss the same list at once (its expiry under load) wait for one read of it: the
  // cache's fetch shares the read in flight.
  const lists = new LRUCache<string, IdList, { source: Source; f: ListFilters; size: number }>({
    max: LISTS_KEPT,
    ttl: LIST_TTL_MS,
    ttlAutopurge: false,
    fetchMethod: async (key, _stale, { context: { source, f, size } }) => {
      const rows = await bandedPage((band) => matching(source, f, null, band), bandsOf(f), (q, limit, offset) => q.select('profiles.id').limit(limit).offset(offset).execute(), {
        offset: 0,
        limit: size + HEADROOM,
      });
      return { key, ids: Int32Array.from(rows, (r) => r.id), complete: rows.length < size + HEADROOM };
    },
  });

  /**
   * The source's profiles `viewer` may see now (the one visibility rule); for no viewer (the
   * shared list) those the source's scope holds for every viewer of its fit (see Source).
   * `where`: the listing's own conditions (visibleProfiles tests them before the scope).
   */
  function visible(source: Source, viewer: Viewer | null = null, where: (Condition | null)[] = []): ProfileQuery {
    return viewer ? visibleProfiles(db, source.scope, viewer, { where }) : visibleProfiles(db, source.scope, null, { scopeOnly: true, fit: source.fit ?? undefined, where });
  }

  /** The source's profiles in `band` (null: all) matching the filters that `viewer` may see now. */
  function matching(source: Source, f: ListFilters, viewer: Viewer | null = null, band: Band = null): ProfileQuery {
    return visible(source, viewer, [band, ...filtersOf(f)]);
  }

  const PROFILE_SLOT = '\u0000hidden-from' as unknown as number;
  const blocks = compileOnce<{ id: number }, [number]>(db, blockedWith(db, PROFILE_SLOT), [PROFILE_SLOT]);

  return {
    visible,
    matching,
    /** The turn gate searches and decks run through (SEARCH_TURN_MS). */
    gate: createTurnGate(SEARCH_TURN_MS),

    /** The profiles a member is never shown in a listing: their own, and those of a block either way (SPEC §4, visibility.ts `blockedWith`; compiled once). */
    async hiddenFrom(profileId: number): Promise<Set<number>> {
      return new Set([profileId, ...(await blocks(profileId)).map((r) => r.id)]);
    },

    /**
     * The ids of the first `size` profiles of the listing (size: the count limit and some
     * headroom), from the kept list when one of the same source and filters is fresh, read
     * otherwise (a statement per home band it reaches; once for all who ask while it is read).
     */
    async ids(source: Source, f: ListFilters, newest: number, size: number): Promise<IdList> {
      const key = JSON.stringify([listingGeneration(), changes?.epoch() ?? 0, newest, size, source.scope.key, source.fit ? fitKey(source.fit) : null, f.genders ? [...f.genders].sort() : null, f.country ?? null, f.regions ?? null, f.bornOnOrBefore ?? null, f.bornAfter ?? null, f.home.country, f.home.region]);
      return (await lists.fetch(key, { context: { source, f, size } }))!;
    },

    /**
     * The cards kept with `list` for the day `day` (ages change with it), shared by every viewer
     * of the list until it or a card changes (see above); null when none may be kept (no source
     * of changes, or the bus not listening).
     */
    cardsOf<Card>(list: IdList, day: string): KeptCards<Card> | null {
      const epoch = changes?.epoch() ?? null;
      if (epoch === null) return null;
      const at = `${cardGeneration()}:${epoch}:${day}`;
      let kept = cards.get(list);
      if (kept?.at !== at) cards.set(list, (kept = { at, cards: new Map() }));
      return kept.cards as KeptCards<Card>;
    },

    /** A kept list turned out older than what a member may see now (a row the fresh read refused): read it again next time. */
    forget(list: IdList): void {
      if (lists.peek(list.key) === list) lists.delete(list.key);
    },
  };
}

export type ListingCache = ReturnType<typeof createListingCache>;

/** The filters of a list as conditions on `profiles` (their SQL side; stillMatches is the same in code). */
function filtersOf(f: ListFilters): Condition[] {
  const { genders, country, regions, bornOnOrBefore, bornAfter } = f;
  const out: Condition[] = [];
  if (genders) out.push((eb) => eb('profiles.gender', 'in', genders));
  if (country) out.push((eb) => eb('profiles.country', '=', country));
  if (regions) out.push((eb) => eb.or(regions.map((r) => eb.and([eb('profiles.country', '=', r.country), eb('profiles.region', '=', r.name)]))));
  if (bornOnOrBefore) out.push((eb) => eb('profiles.birth_date', '<=', bornOnOrBefore));
  if (bornAfter) out.push((eb) => eb('profiles.birth_date', '>', bornAfter));
  return out;
}

/**
 * Whether a profile read again by id still matches the filters of the list it came from (its
 * gender, place or birth date may have changed since). Checked here rather than in the statement,
 * whose planner would otherwise read a filter's index range instead of the few ids.
 */
export function stillMatches(row: Pick<Profile, 'gender' | 'country' | 'region' | 'birth_date'>, f: ListFilters): boolean {
  if (f.genders && !f.genders.includes(row.gender)) return false;
  if (f.country && row.country !== f.country) return false;
  if (f.regions && !f.regions.some((r) => r.country === row.country && r.name === row.region)) return false;
  if (f.bornOnOrBefore && row.birth_date > f.bornOnOrBefore) return false;
  if (f.bornAfter && row.birth_date <= f.bornAfter) return false;
  return true;
}

/**
 * Of the ids of a list a member may be shown (narrowed), how many there are and `count` of them
 * from `from`: a member hides few, so the count is the list's less those of `without` it holds,
 * and only the ids up to the page are walked (not the whole list each search).
 */
export function narrowedPage(list: IdList, without: ReadonlySet<number>, from: number, count: number): { total: number; ids: number[] } {
  const members = (list.members ??= new Set(list.ids));
  let hidden = 0;
  for (const id of without) if (members.has(id)) hidden++;
  const ids: number[] = [];
  let at = 0;
  for (let i = 0; i < list.ids.length && ids.length < count; i++) {
    const id = list.ids[i]!;
    if (without.has(id)) continue;
    if (at++ >= from) ids.push(id);
  }
  return { total: list.ids.length - hidden, ids };
}

/** The ids of a list a member may be shown: without their own profile and the profiles of their blocks either way. */
export function narrowed(list: IdList, without: ReadonlySet<number>): number[] {
  const out: number[] = [];
  for (const id of list.ids) if (!without.has(id)) out.push(id);
  return out;
}
