import { sql, type Compilable, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../db/index.ts';
import type { Profile } from '../db/schema.ts';
import { compileOnce } from '../db/compiled.ts';
import { blockedWith } from './visibility.ts';
import { newestProfile } from './listing-cache.ts';
import type { ListingChangeSource } from './listing-changes.ts';

/**
 * What of a members search is the searcher's own (bench/README.md "The own view kept"): their
 * profile's row, the profiles of their blocks either way, their hearts. The shared lists and cards
 * of listing-cache.ts are the same for everyone who searches alike; this is each member's alone.
 *
 * On PostgreSQL it is read for each search (one statement; the hearts with the page, search.ts
 * theirsOf), since other processes write and nothing tells this one which rows they wrote. On
 * SQLite one process writes: each member's view is kept (OWN_VIEWS_KEPT members) and forgotten as
 * the connection writes a row of theirs (db/sqlite-dialect.ts onRowWrite: a like they give, a
 * block either way, an edit of their profile's searched columns or their own-brand-only choice),
 * and all of them when another process wrote (the epoch, SQLite's data_version), so a warm search
 * runs no statement of its own.
 */

/** Members whose view is kept (chosen: the members searching in the same minutes on a large runtime). */
const OWN_VIEWS_KEPT = 10_000;
/** Ids (blocks and hearts) the kept views hold together at most (chosen: a few tens of MB; a view holding more is read each time). */
const OWN_VIEW_IDS_KEPT = 1_000_000;

/** The searcher's own row: the columns the search reads (their wishes, their place, their fit to a pool's audiences). */
export type OwnRow = Pick<Profile, 'id' | 'gender' | 'sexuality' | 'country' | 'region' | 'birth_date' | 'body_type' | 'interests' | 'pooled'>;
const OWN_COLUMNS = ['id', 'gender', 'sexuality', 'country', 'region', 'birth_date', 'body_type', 'interests', 'pooled'] as const;

export interface OwnView {
  /** Their profile; null for a member without one. */
  me: OwnRow | null;
  /** The profiles they are never shown in a listing: their own, and those of a block either way (SPEC §4). */
  hidden: ReadonlySet<number>;
  /** The profiles they like; null when not read with the view (search.ts reads the page's hearts with it then). */
  hearts: ReadonlySet<number> | null;
  /** The highest profile id: a new profile anywhere changes it (listing-cache.ts newestProfile). */
  newest: number;
}

export interface OwnViews {
  /** The view of the member with the user id `userId`. */
  of(userId: number): Promise<OwnView>;
  /** The highest profile id, for a visitor's search. */
  newest(): Promise<number>;
}

/** A row of the own view's statement: the own row with the newest id (`kind` 0), a profile of a block either way (1), a heart (2). */
type ViewRow = OwnRow & { newest: number | string | null; kind: 0 | 1 | 2 | string };

/** Placeholder of the statements compiled once (db/compiled.ts). */
const USER_SLOT = '\u0000own-view-user' as unknown as number;

/**
 * The searcher's own row, the profiles of their blocks either way (visibility.ts `blockedWith`,
 * found through their user id) and, with `hearts`, the profiles they like: one statement.
 */
function ownViewQuery(db: Kysely<Database>, hearts: boolean) {
  const none = sql<null>`null`;
  const nothing = [none.as('gender'), none.as('sexuality'), none.as('country'), none.as('region'), none.as('birth_date'), none.as('body_type'), none.as('interests'), none.as('pooled'), none.as('newest')];
  const myProfile = db.selectFrom('profiles').select('profiles.id').where('profiles.user_id', '=', USER_SLOT).$asScalar();
  const own = db.selectFrom('profiles').select(OWN_COLUMNS).select(newestProfile.as('newest')).select(sql.lit(0).as('kind')).where('user_id', '=', USER_SLOT);
  const blocked = db.selectFrom(blockedWith(db, myProfile).as('b')).select(['b.id', ...nothing, sql.lit(1).as('kind')]);
  const liked = db.selectFrom('likes').select(['likes.to_profile_id as id', ...nothing, sql.lit(2).as('kind')]).where('likes.from_profile_id', '=', myProfile);
  const query = hearts ? own.unionAll(blocked as never).unionAll(liked as never) : own.unionAll(blocked as never);
  return query as unknown as Compilable<ViewRow>;
}

/** Reads a member's view in one statement (compiled once); `hearts`: with the profiles they like. */
function ownViewReader(db: Kysely<Database>, hearts: boolean): (userId: number) => Promise<OwnView> {
  const read = compileOnce<ViewRow, [number]>(db, ownViewQuery(db, hearts), [USER_SLOT]);
  return async (userId) => {
    const rows = await read(userId);
    const own = rows.find((r) => Number(r.kind) === 0);
    const me = own ? (Object.fromEntries(OWN_COLUMNS.map((c) => [c, own[c]])) as OwnRow) : null;
    const hidden = new Set<number>(me ? [me.id] : []);
    const liked = hearts ? new Set<number>() : null;
    for (const r of rows) {
      const kind = Number(r.kind);
      if (kind === 1 && me) hidden.add(r.id);
      else if (kind === 2 && me) liked!.add(r.id);
    }
    // No own row (a member without a profile): the highest id is read alone.
    const newest = own ? Number(own.newest ?? 0) : await readNewest(db);
    return { me, hidden, hearts: liked, newest };
  };
}

async function readNewest(db: Kysely<Database>): Promise<number> {
  return Number((await db.selectNoFrom(newestProfile.as('newest')).executeTakeFirstOrThrow()).newest ?? 0);
}

/**
 * The own views of the search: kept where the rows written are told (`changes.onRowWrite`, SQLite),
 * read for each search otherwise.
 */
export function createOwnViews(deps: { db: Kysely<Database>; changes?: ListingChangeSource | null }): OwnViews {
  const { db } = deps;
  const changes = deps.changes;
  if (!changes?.onRowWrite) {
    const read = ownViewReader(db, false);
    return { of: read, newest: () => readNewest(db) };
  }
  const read = ownViewReader(db, true);

  /** The user id of each kept view's profile, so a row of a profile finds whose view to forget. */
  const userOf = new Map<number, number>();
  type Kept = Omit<OwnView, 'newest'>;
  const views = new LRUCache<number, Kept>({
    max: OWN_VIEWS_KEPT,
    maxSize: OWN_VIEW_IDS_KEPT,
    sizeCalculation: (v) => 1 + v.hidden.size + v.hearts!.size,
    dispose: (v, userId) => {
      if (v.me && userOf.get(v.me.id) === userId) userOf.delete(v.me.id);
    },
  });
  /** The highest profile id, known since the epoch began (null: read it). */
  let newest: number | null = null;
  /** The epoch the kept views were read in: another process's write empties them all. */
  let epoch: number | null = null;
  /** Views forgotten so far: a view read while one was forgotten may be older than the write, so it is not kept. */
  let forgotten = 0;

  const forgetUser = (userId: unknown) => {
    forgotten++;
    views.delete(Number(userId));
  };
  const forgetProfile = (profileId: unknown) => {
    forgotten++;
    const userId = userOf.get(Number(profileId));
    if (userId !== undefined) views.delete(userId);
  };
  // A like they give (its `is_new` flag aside); a block either way; their profile's row as the
  // view reads it (a new profile: the highest id as well).
  changes.onRowWrite('likes', ['from_profile_id'], ['from_profile_id', 'to_profile_id'], ([from]) => forgetProfile(from));
  changes.onRowWrite('blocks', ['blocker_profile_id', 'blocked_profile_id'], ['blocker_profile_id', 'blocked_profile_id'], ([by, of]) => {
    forgetProfile(by);
    forgetProfile(of);
  });
  changes.onRowWrite('profiles', ['user_id', 'id'], [...OWN_COLUMNS, 'user_id'], ([userId, id]) => {
    forgetUser(userId);
    if (newest !== null && Number(id) > newest) newest = Number(id);
  });

  /** Whether what is kept is of the current epoch (emptied when it is not); false while nothing may be kept. */
  function current(): boolean {
    const now = changes!.epoch();
    if (now === null) return false;
    if (now !== epoch) {
      views.clear();
      newest = null;
      epoch = now;
    }
    return true;
  }

  return {
    async of(userId) {
      const keeping = current();
      const kept = keeping ? views.get(userId) : undefined;
      if (kept && newest !== null) return { ...kept, newest };
      const at = forgotten;
      const view = await read(userId);
      if (keeping && at === forgotten && epoch === changes.epoch()) {
        const { newest: highest, ...own } = view;
        views.set(userId, own);
        if (own.me && views.has(userId)) userOf.set(own.me.id, userId);
        newest = Math.max(newest ?? 0, highest);
      }
      return view;
    },
    async newest() {
      const keeping = current();
      if (keeping && newest !== null) return newest;
      const at = forgotten;
      const highest = await readNewest(db);
      if (keeping && at === forgotten && epoch === changes.epoch()) newest = Math.max(newest ?? 0, highest);
      return highest;
    },
  };
}
