import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Gender, Profile } from '../db/schema.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { EventBus } from '../bus.ts';
import { MATCH_FINDER_SIZE, SWIPE_DECK_SIZE, SWIPE_LIKES_PER_DAY, type MatchReason, type MatchSuggestion, type SwipeCard, type SwipeState } from '../../contract/likes.ts';
import { GENDERS, SEARCH_COUNT_LIMIT } from '../../contract/enums.ts';
import { AppError, notFound } from '../errors.ts';
import { lockProfiles, nowIso } from '../db/engine.ts';
import { ageOn, yearsBefore } from '../../lib/account-rules.ts';
import { brandDay } from '../../lib/brand-day.ts';
import { wantedGenders } from './search.ts';
import { bandedPage, homeBands, visibleProfiles, type Band, type Condition, type ProfileQuery } from './visibility.ts';
import type { ScopeOf } from './pool.ts';
import { CARD_COLUMNS, profileCards } from './cards.ts';
import { newestProfile, sourceOf, stillMatches, type ListFilters, type ListingCache, type Source } from './listing-cache.ts';
import { compileOnce, compiledPerCount } from '../db/compiled.ts';
import { LRUCache } from 'lru-cache';
import { recordLike, visibleTarget, type Liker, type OnLike } from './likes.ts';

/** Years either side of the member's own age the match finder looks in (chosen). */
export const MATCH_AGE_SPAN = 10;
/** Profiles the match finder weighs before it picks the best (chosen: a few index pages). */
const MATCH_POOL = 240;

/** Profiles of the shared list the swipe deck reads fresh before it reads the member's own list (chosen: a few decks' worth). */
const DECK_LOOKS = 120;
/** Of those, read in one statement (chosen: a deck's worth three times over, most members have answered few). */
const DECK_CHUNK = 3 * SWIPE_DECK_SIZE;
/** Compiled statements of the deck's chunk kept (chosen: a shape per brand scope and day, each compiled per chunk length). */
const CHUNK_SHAPES_KEPT = 500;
/** Placeholders of the deck's statements compiled once (db/compiled.ts). */
const PROFILE_SLOT = '\u0000deck-profile' as unknown as number;
const DAY_START_SLOT = '\u0000deck-day-start';

/** The genders a member looks for, or undefined for every gender (no filter). */
const wantedBy = (me: Pick<Profile, 'gender' | 'sexuality'>): Gender[] | undefined => {
  const genders = wantedGenders(me);
  return genders.length < GENDERS.length ? genders : undefined;
};

const parseInterests = (json: string): string[] => {
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) ? list.filter((i): i is string => typeof i === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * The swipe game and the match finder (SPEC §2, §4, §9): profiles of the genders the member looks
 * for, nearest first (region, then country, then everyone), most recently seen first; the game
 * never shows a profile already answered or liked, and takes at most 4 likes in the brand's day.
 */
export function createSwipeService(deps: { db: Kysely<Database>; bus: EventBus; scopeOf: ScopeOf; now?: () => Date; onLike?: OnLike; listings: ListingCache }) {
  const { db, bus } = deps;
  const now = deps.now ?? (() => new Date());

  // The statements of every deck, built and compiled once (db/compiled.ts): the member's own row with
  // the newest profile id, the likes given in the game today, and the chunk of the shared list read
  // fresh (per scope and day, compiled per chunk length).
  const deckRow = compileOnce<Profile & { newest: number | string | null }, [number]>(
    db,
    db.selectFrom('profiles').selectAll().select(newestProfile.as('newest')).where('id', '=', PROFILE_SLOT),
    [PROFILE_SLOT],
  );
  const likesToday = (executor: Kysely<Database>, profileId: number, dayStart: string) =>
    executor
      .selectFrom('swipes')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('from_profile_id', '=', profileId)
      .where('action', '=', 'like')
      .where('created_at', '>=', dayStart);
  const likesTodayCompiled = compileOnce<{ n: number | string | bigint }, [number, string]>(db, likesToday(db, PROFILE_SLOT, DAY_START_SLOT), [PROFILE_SLOT, DAY_START_SLOT]);
  const chunks = new LRUCache<string, (ids: readonly number[], me: number) => Promise<DeckRow[]>>({ max: CHUNK_SHAPES_KEPT });

  /** Not answered nor liked by `me`: a list read once per query keeps the listing's index order (tested before the scope, visibility.ts `where`). */
  const unanswered =
    (me: number): Condition =>
    (eb) =>
      eb(
        'profiles.id',
        'not in',
        eb
          .selectFrom('swipes')
          .select('swipes.to_profile_id as id')
          .where('swipes.from_profile_id', '=', me)
          .unionAll(eb.selectFrom('likes').select('likes.to_profile_id as id').where('likes.from_profile_id', '=', me)),
      );
  const readDeck = (q: ProfileQuery, limit: number, offset: number) => q.select([...CARD_COLUMNS, 'profiles.gender', 'profiles.about', 'profiles.interests']).limit(limit).offset(offset);
  type DeckRow = Awaited<ReturnType<ReturnType<typeof readDeck>['execute']>>[number];

  /** The rows of `ids` (a chunk of the shared list) the member may see now and has not answered, through the one visibility rule. */
  function chunkRows(source: Source, liker: Liker, ids: number[]): Promise<DeckRow[]> {
    const key = JSON.stringify([source.scope.key, new Date().toISOString().slice(0, 10)]);
    let run = chunks.get(key);
    if (!run) {
      const build = (ids: readonly number[], me: number) => readDeck(deps.listings.visible(source, { userId: Number.NaN, profileId: me }, [(eb) => eb('profiles.id', 'in', ids), unanswered(me)]), ids.length, 0);
      run = compiledPerCount<DeckRow, [number]>(db, build, { keptUpTo: DECK_CHUNK, slots: [PROFILE_SLOT] });
      chunks.set(key, run);
    }
    return run(ids, liker.profileId);
  }

  async function own(liker: Liker): Promise<Profile> {
    const me = await db.selectFrom('profiles').selectAll().where('id', '=', liker.profileId).executeTakeFirst();
    if (!me) throw notFound();
    return me;
  }

  /** The brand's profiles the member may see, of the genders they look for, with the listing's own conditions (`where`). */
  function wanted(tenant: Tenant, liker: Liker, me: Profile, ...where: (Condition | null)[]): ProfileQuery {
    const genders = wantedBy(me);
    return visibleProfiles(db, deps.scopeOf(tenant), liker, { where: [genders ? (eb) => eb('profiles.gender', 'in', genders) : null, ...where] });
  }

  /** Likes given in the swipe game today, and the state the game shows. */
  async function state(tenant: Tenant, liker: Liker, executor: Kysely<Database> = db): Promise<SwipeState> {
    const day = brandDay(now(), tenant.timezone);
    const start = day.start.toISOString();
    const [{ n }] = (executor === db ? await likesTodayCompiled(liker.profileId, start) : await likesToday(executor, liker.profileId, start).execute()) as [{ n: number | string | bigint }];
    const left = Math.max(0, SWIPE_LIKES_PER_DAY - Number(n));
    return { likes_left: left, next_at: left === 0 ? day.end.toISOString() : null };
  }

  /** The next cards of the deck and the likes left today (GET /api/swipe.php: deck() below runs it through the turn gate). */
  async function deck(tenant: Tenant, liker: Liker): Promise<SwipeState & { profiles: SwipeCard[] }> {
    const [me] = await deckRow(liker.profileId);
    if (!me) throw notFound();
    const read = (q: ProfileQuery, limit: number, offset: number) => readDeck(q, limit, offset).execute();
    // The search's shared list of the genders looked for, nearest first, its first profiles read
    // fresh through the visibility rule without those answered; the member's own list when the
    // first DECK_LOOKS of it were all answered.
    const source = sourceOf(deps.scopeOf(tenant), me);
    const filters: ListFilters = { genders: wantedBy(me), home: { country: me.country, region: me.region } };
    const list = await deps.listings.ids(source, filters, Number(me.newest ?? 0), SEARCH_COUNT_LIMIT);
    const looked = Array.from(list.ids.subarray(0, DECK_LOOKS)).filter((id) => id !== me.id);
    let rows: DeckRow[] = [];
    let covered = 0;
    while (covered < looked.length && rows.length < SWIPE_DECK_SIZE) {
      const chunk = looked.slice(covered, covered + DECK_CHUNK);
      covered += chunk.length;
      const at = new Map(chunk.map((id, i) => [id, i]));
      const found = await chunkRows(source, liker, chunk);
      rows.push(...found.filter((row) => stillMatches(row, filters)).sort((a, b) => at.get(a.id)! - at.get(b.id)!));
      // A chunk all answered: the member has swiped past the head of the shared list, so their
      // own list (below) is read rather than the rest of the head, chunk by chunk.
      if (found.length === 0) break;
    }
    rows = rows.slice(0, SWIPE_DECK_SIZE);
    if (rows.length < SWIPE_DECK_SIZE && (covered < looked.length || list.ids.length > DECK_LOOKS)) {
      rows = await bandedPage((band) => wanted(tenant, liker, me, band, unanswered(liker.profileId)), homeBands(me.country, me.region), read, { offset: 0, limit: SWIPE_DECK_SIZE });
    }
    const cards = await profileCards(db, rows, now());
    return { ...(await state(tenant, liker)), profiles: cards.map(({ row, card }) => ({ ...card, about: row.about, interests: parseInterests(row.interests) })) };
  }

  return {
    state,

    /**
     * GET /api/swipe.php: the next cards (never one answered or liked before) and the likes left
     * today. Decks take their turns of the event loop from the searches' share (listing-cache.ts
     * SEARCH_TURN_MS): they read the same lists the same way.
     */
    deck(tenant: Tenant, liker: Liker): Promise<SwipeState & { profiles: SwipeCard[] }> {
      return deps.listings.gate(() => deck(tenant, liker));
    },

    /**
     * POST /api/swipe.php: a card answered. A pass is remembered; a like also likes the profile
     * (a match opens the match dialog) and counts toward the day's 4, refused past them with 429
     * and the start of the next day. The count and the write are one transaction, the member's
     * profile row locked on PostgreSQL, so two tabs together never give a fifth like.
     */
    async swipe(tenant: Tenant, liker: Liker, profileId: number, action: 'like' | 'pass'): Promise<SwipeState & { match: boolean }> {
      const other = await visibleTarget(db, deps.scopeOf(tenant), liker, profileId);
      const result = await db.transaction().execute(async (trx) => {
        await lockProfiles(trx, [liker.profileId]);
        const before = await state(tenant, liker, trx);
        if (action === 'like' && before.likes_left === 0) {
          const wait = (Date.parse(before.next_at!) - now().getTime()) / 1000;
          throw new AppError('swipe_limit', 429, { key: 'swipe_limit', extra: { retry_after: Math.max(1, Math.ceil(wait)), likes_left: 0, next_at: before.next_at } });
        }
        const inserted = await trx
          .insertInto('swipes')
          .values({ tenant_id: tenant.id, from_profile_id: liker.profileId, to_profile_id: other.id, action, created_at: now().toISOString() })
          .onConflict((oc) => {
            const pair = oc.columns(['from_profile_id', 'to_profile_id']);
            // A like of a card passed before (an old tab) turns the pass into a like, and counts.
            return action === 'like' ? pair.doUpdateSet({ action: 'like', created_at: now().toISOString() }).where('swipes.action', '=', 'pass') : pair.doNothing();
          })
          .executeTakeFirst();
        const counted = action === 'like' && Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
        const left = counted ? before.likes_left - 1 : before.likes_left;
        return { likes_left: left, next_at: left === 0 ? brandDay(now(), tenant.timezone).end.toISOString() : null };
      });
      const match = action === 'like' ? (await recordLike(db, bus, tenant, liker, other, deps.onLike)).match : false;
      return { ...result, match };
    },

    /**
     * GET /api/match-finder.php: suggestions by the member's preferences: the genders they look
     * for, within MATCH_AGE_SPAN years of their age, not liked yet, weighed by shared interests,
     * same region or country, and having liked the member; each with the reasons shown.
     */
    async suggestions(tenant: Tenant, liker: Liker, limit = MATCH_FINDER_SIZE): Promise<MatchSuggestion[]> {
      const me = await own(liker);
      const today = now();
      const myAge = ageOn(me.birth_date, today);
      const minAge = Math.max(18, myAge - MATCH_AGE_SPAN);
      const maxAge = myAge + MATCH_AGE_SPAN;
      const mine = new Set(parseInterests(me.interests));
      const [bornOnOrBefore, bornAfter] = [yearsBefore(today, minAge), yearsBefore(today, maxAge + 1)];
      const pool = (band: Band) =>
        wanted(tenant, liker, me, band, (eb) => eb('profiles.birth_date', '<=', bornOnOrBefore), (eb) => eb('profiles.birth_date', '>', bornAfter)).where('profiles.id', 'not in', (eb) =>
          eb.selectFrom('likes').select('likes.to_profile_id').where('likes.from_profile_id', '=', liker.profileId),
        );
      const rows = await bandedPage(pool, homeBands(me.country, me.region), (q, n, offset) => q.select([...CARD_COLUMNS, 'profiles.interests']).limit(n).offset(offset).execute(), {
        offset: 0,
        limit: MATCH_POOL,
      });
      const likedMe = new Set(
        rows.length === 0
          ? []
          : (await db.selectFrom('likes').select('from_profile_id').where('to_profile_id', '=', liker.profileId).where('from_profile_id', 'in', rows.map((r) => r.id)).execute()).map((r) => r.from_profile_id),
      );
      const weighed = rows.map((row, order) => {
        const reasons: MatchReason[] = [];
        const shared = parseInterests(row.interests).filter((i) => mine.has(i)).length;
        if (likedMe.has(row.id)) reasons.push({ type: 'liked_you' });
        if (shared > 0) reasons.push({ type: 'interests', count: shared });
        if (me.region && row.country === me.country && row.region === me.region) reasons.push({ type: 'region' });
        else if (row.country === me.country) reasons.push({ type: 'country' });
        reasons.push({ type: 'age' });
        const score = (likedMe.has(row.id) ? 6 : 0) + shared * 2 + (reasons.some((r) => r.type === 'region') ? 3 : reasons.some((r) => r.type === 'country') ? 1 : 0);
        return { row, reasons, score, order };
      });
      // Best first; among equals the nearest, most recently seen (the pool's order).
      const best = weighed.sort((a, b) => b.score - a.score || a.order - b.order).slice(0, limit);
      const cards = await profileCards(db, best.map((b) => b.row), now());
      return cards.map(({ card }, i) => ({ ...card, reasons: best[i]!.reasons }));
    },
  };
}

export type SwipeService = ReturnType<typeof createSwipeService>;
