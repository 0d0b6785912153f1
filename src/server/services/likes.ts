import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { EventBus } from '../bus.ts';
import type { LikeAnswer, LikeItem, LikeTab, LikesAnswer, ProfileCardData, Relation } from '../../contract/likes.ts';
import { notFound } from '../errors.ts';
import { nowIso } from '../db/engine.ts';
import { publishToMember } from './events.ts';
import { visibleProfiles } from './visibility.ts';
import type { PoolScope, ScopeOf } from './pool.ts';
import { CARD_COLUMNS, profileCards } from './cards.ts';

/** Told of each new like after it is stored (the like mail): the member liked, and the profile that liked. */
export type OnLike = (userId: number, likerProfileId: number) => void;

/** The member who acts: their user and (always present for a member) profile. */
export interface Liker {
  userId: number;
  profileId: number;
}

/**
 * The profile a member acts on (likes, swipes, blocks), as the one visibility rule lets them see
 * it, with its member (null for a fictional profile); 404 otherwise.
 */
export async function visibleTarget(db: Kysely<Database>, scope: PoolScope, liker: Liker, profileId: number) {
  const found = await visibleProfiles(db, scope, liker).select(['profiles.id', 'profiles.user_id']).where('profiles.id', '=', profileId).executeTakeFirst();
  if (!found) throw notFound();
  return found;
}

/** Opening a profile clears the new-like flag of that profile's like of the member (SPEC §4). */
export async function clearNewLike(db: Kysely<Database>, me: number, profileId: number): Promise<void> {
  await db.updateTable('likes').set({ is_new: 0 }).where('from_profile_id', '=', profileId).where('to_profile_id', '=', me).where('is_new', '=', 1).execute();
}

/**
 * Records a like of `toProfileId` by `liker` (once per pair) and tells the members concerned:
 * the member liked hears of the like, and on a match both hear of it (DESIGN §9). Shared by the
 * like button and the swipe game; the caller has checked that the profile may be seen.
 */
export async function recordLike(db: Kysely<Database>, bus: EventBus, tenant: Tenant, liker: Liker, other: { id: number; user_id: number | null }, onLike?: OnLike): Promise<LikeAnswer> {
  const inserted = await db
    .insertInto('likes')
    .values({ tenant_id: tenant.id, from_profile_id: liker.profileId, to_profile_id: other.id, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['from_profile_id', 'to_profile_id']).doNothing())
    .returning(['id', 'created_at'])
    .executeTakeFirst();
  const like =
    inserted ??
    (await db.selectFrom('likes').select(['id', 'created_at']).where('from_profile_id', '=', liker.profileId).where('to_profile_id', '=', other.id).executeTakeFirstOrThrow());
  const back = await db.selectFrom('likes').select('id').where('from_profile_id', '=', other.id).where('to_profile_id', '=', liker.profileId).executeTakeFirst();
  const match = back !== undefined;
  if (inserted) {
    // Only a new like is news: to the member liked, and on a match to both.
    if (other.user_id !== null) {
      await publishToMember(bus, other.user_id, { type: match ? 'match' : 'like', profile_id: liker.profileId });
      onLike?.(other.user_id, liker.profileId);
    }
    if (match) await publishToMember(bus, liker.userId, { type: 'match', profile_id: other.id });
  }
  return { like: { id: like.id, profile_id: other.id, created_at: like.created_at }, match };
}

/** Where a member stands with a profile: the profile page's like and block buttons. */
export async function relationOf(db: Kysely<Database>, me: number, profileId: number): Promise<Relation> {
  const likes = await db
    .selectFrom('likes')
    .select(['from_profile_id'])
    .where((eb) => eb.or([eb.and([eb('from_profile_id', '=', me), eb('to_profile_id', '=', profileId)]), eb.and([eb('from_profile_id', '=', profileId), eb('to_profile_id', '=', me)])]))
    .execute();
  const block = await db.selectFrom('blocks').select('id').where('blocker_profile_id', '=', me).where('blocked_profile_id', '=', profileId).executeTakeFirst();
  return { liked: likes.some((r) => r.from_profile_id === me), liked_me: likes.some((r) => r.from_profile_id === profileId), blocked: block !== undefined };
}

/**
 * Likes between members and profiles (SPEC §3, §4, §7): one like per pair and direction, a match
 * when both exist. Only a profile the member may see can be liked (the one visibility rule), and
 * the lists show only profiles the member may still see.
 */
export function createLikeService(deps: { db: Kysely<Database>; bus: EventBus; scopeOf: ScopeOf; onLike?: OnLike }) {
  const { db, bus } = deps;

  /** One side of the likes: given (the member liked them) or received (they liked the member). */
  function side(tenant: Tenant, liker: Liker, direction: 'given' | 'received', matchesOnly: boolean) {
    const [mine, theirs] = direction === 'given' ? (['from_profile_id', 'to_profile_id'] as const) : (['to_profile_id', 'from_profile_id'] as const);
    return visibleProfiles(db, deps.scopeOf(tenant), liker)
      .innerJoin('likes', `likes.${theirs}`, 'profiles.id')
      .leftJoin('likes as back', (join) => join.onRef('back.from_profile_id', '=', 'likes.to_profile_id').onRef('back.to_profile_id', '=', 'likes.from_profile_id'))
      .where(`likes.${mine}`, '=', liker.profileId)
      .$if(matchesOnly, (q) => q.where('back.id', 'is not', null))
      .select([...CARD_COLUMNS, 'likes.id as like_id', 'likes.created_at as liked_at', 'likes.is_new', 'back.id as back_id']);
  }

  return {
    /** POST /api/like.php: likes a profile (liking again changes nothing) and says whether it is a match. */
    async like(tenant: Tenant, liker: Liker, profileId: number): Promise<LikeAnswer> {
      return recordLike(db, bus, tenant, liker, await visibleTarget(db, deps.scopeOf(tenant), liker, profileId), deps.onLike);
    },

    /** DELETE /api/like.php: takes a like back (a profile that was never liked is fine too). */
    async unlike(tenant: Tenant, liker: Liker, profileId: number): Promise<void> {
      const other = await visibleTarget(db, deps.scopeOf(tenant), liker, profileId);
      await db.deleteFrom('likes').where('from_profile_id', '=', liker.profileId).where('to_profile_id', '=', other.id).execute();
    },

    /**
     * GET /api/likes.php (SPEC §7, §4): the likes the member gave (`profiles`, newest first) and
     * received (`liked_by`, new ones first, then newest), each with the other profile's card and
     * whether it is a match; `total_new` counts the new received likes. A tab narrows the lists:
     * received, given, or matches (both lists then hold only matched profiles).
     */
    async list(tenant: Tenant, liker: Liker, tab?: LikeTab): Promise<LikesAnswer> {
      const matchesOnly = tab === 'matches';
      const given =
        tab === 'received' ? [] : await side(tenant, liker, 'given', matchesOnly).orderBy('likes.created_at', 'desc').orderBy('likes.id', 'desc').execute();
      const received =
        tab === 'given'
          ? []
          : await side(tenant, liker, 'received', matchesOnly).orderBy('likes.is_new', 'desc').orderBy('likes.created_at', 'desc').orderBy('likes.id', 'desc').execute();
      const cards = await profileCards(db, [...given, ...received]);
      const item = ({ row, card }: (typeof cards)[number], received: boolean): LikeItem => ({
        id: row.like_id,
        like_new: received && row.is_new === 1,
        match: row.back_id !== null,
        created_at: row.liked_at,
        profile: card,
      });
      const liked_by = cards.slice(given.length).map((c) => item(c, true));
      const total_new = tab === undefined || tab === 'received' ? liked_by.filter((l) => l.like_new).length : await this.newCount(tenant, liker);
      return { profiles: cards.slice(0, given.length).map((c) => item(c, false)), liked_by, total_new };
    },

    /** How many received likes are new (the likes badge, SPEC §2), from profiles the member may see. */
    async newCount(tenant: Tenant, liker: Liker): Promise<number> {
      const { n } = await visibleProfiles(db, deps.scopeOf(tenant), liker)
        .innerJoin('likes', 'likes.from_profile_id', 'profiles.id')
        .where('likes.to_profile_id', '=', liker.profileId)
        .where('likes.is_new', '=', 1)
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /**
     * GET /api/auto-like.php (SPEC §7): a profile for the like dialog when it was given none: the
     * newest profile that liked the member and was not liked back, else null (the caller then
     * asks the match finder).
     */
    async likedMeNotBack(tenant: Tenant, liker: Liker): Promise<ProfileCardData | null> {
      const row = await side(tenant, liker, 'received', false).where('back.id', 'is', null).orderBy('likes.is_new', 'desc').orderBy('likes.created_at', 'desc').limit(1).executeTakeFirst();
      return row ? (await profileCards(db, [row]))[0]!.card : null;
    },
  };
}

export type LikeService = ReturnType<typeof createLikeService>;
