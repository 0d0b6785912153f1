import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/index.ts';
import { inScope, type Fit, type PoolScope } from './pool.ts';

/** Who is looking: a member (their user and profile ids) or a visitor (null). */
export interface Viewer {
  userId: number;
  profileId: number | null;
}

/**
 * The profiles a block stands between `me` and, as the ids of one statement: those who blocked
 * `me`, and those `me` blocked (not with `theirsOnly`: the blocker still opens the profile they
 * blocked, to lift the block). A block hides the two from each other, both ways (SPEC §4):
 * the visibility rule takes these out in its statement, a shared list's narrowing reads them
 * (search.ts `ownViewQuery`, with `me` the searcher's profile found by their user id;
 * listing-cache.ts `hiddenFrom`).
 */
export function blockedWith(db: Kysely<Database>, me: number | Expression<number>, options: { theirsOnly?: boolean } = {}) {
  const blockedMe = db.selectFrom('blocks').select('blocks.blocker_profile_id as id').where('blocks.blocked_profile_id', '=', me);
  return options.theirsOnly ? blockedMe : blockedMe.unionAll(db.selectFrom('blocks').select('blocks.blocked_profile_id as id').where('blocks.blocker_profile_id', '=', me));
}

/** A condition on `profiles` a listing narrows by: a filter, or one band of its order. */
export type Condition = (eb: ExpressionBuilder<Database, 'profiles'>) => Expression<SqlBool>;

/**
 * The one rule of which profiles a viewer may see (DESIGN §8, §12): the brand's own and those of
 * its pool within its audience (`scope`, services/pool.ts), listed (active,
 * and not invisible: `profiles.listed`, kept by relist() below), and not the viewer's own in a
 * listing (a member still opens their own profile while it is active: `self: true`). Every
 * listing and every single-profile read starts from this query; a block hides the two members
 * from each other, both ways.
 *
 * `scopeOnly`: the listed profiles of the scope alone, for viewers of one fit to the pool's
 * audiences (`fit`, pool.ts fitOf; none: a visitor's), a list shared a few seconds
 * (listing-cache.ts) and narrowed by each member's own profile and blocks when read.
 *
 * `where`: the listing's own conditions (its filters, its band), written before the scope: SQLite
 * tests a statement's terms in the order written, and a pool's scope is the costliest of them, so
 * it is tested only for the profiles the filters keep (bench/README.md "The pool's lists from
 * their index alone").
 */
export function visibleProfiles(
  db: Kysely<Database>,
  scope: PoolScope,
  viewer: Viewer | null,
  options: { self?: boolean; blockedByMe?: boolean; scopeOnly?: boolean; fit?: Fit; where?: (Condition | null)[] } = {},
) {
  let q = db.selectFrom('profiles');
  for (const condition of options.where ?? []) if (condition) q = q.where(condition);
  if (options.scopeOnly) return q.where('profiles.listed', '=', 1).where(inScope(scope, options.fit ?? null, new Date()));
  if (viewer && options.self) {
    // Invisible mode hides a member from others, never from themselves.
    q = q.where((eb) => eb.or([eb('profiles.listed', '=', 1), eb.and([eb('profiles.user_id', '=', viewer.userId), eb('profiles.status', '=', 'active')])]));
  } else {
    q = q.where('profiles.listed', '=', 1);
    if (viewer?.profileId) q = q.where('profiles.id', '!=', viewer.profileId);
  }
  // NOT IN a list read once per query (a member blocks few): the planner keeps the listing's
  // index order on both engines, where a correlated NOT EXISTS became an anti-join over every
  // profile on PostgreSQL.
  if (viewer?.profileId) q = q.where('profiles.id', 'not in', blockedWith(db, viewer.profileId, { theirsOnly: options.blockedByMe }));
  return q.where(inScope(scope, viewer?.profileId ?? null, new Date()));
}

/**
 * Sets `profiles.listed` of a member's profile from its status, the member's invisible
 * mode and a suspension by staff (console), and `profiles.pooled` from the member's choice to be
 * shown on their own brand only (issue 24). Called in the same transaction as every change of
 * either; fictional profiles have no member and are listed while active.
 */
export async function relist(db: Kysely<Database>, userId: number): Promise<void> {
  await db
    .updateTable('profiles')
    .set({
      listed: sql<0 | 1>`case when status = 'active' and not exists (select 1 from users where users.id = profiles.user_id and (users.invisible = 1 or users.suspended_at is not null)) then 1 else 0 end`,
      pooled: sql<0 | 1>`case when exists (select 1 from users where users.id = profiles.user_id and users.own_brand_only = 1) then 0 else 1 end`,
    })
    .where('user_id', '=', userId)
    .execute();
}

/** Sets a member's profile active or disabled and whether listings show it, in one go. */
export async function setProfileStatus(db: Kysely<Database>, userId: number, status: 'active' | 'disabled'): Promise<void> {
  await db.updateTable('profiles').set({ status, updated_at: new Date().toISOString() }).where('user_id', '=', userId).execute();
  await relist(db, userId);
}

/** The profiles query visibleProfiles() starts, with whatever filters a listing adds. */
export type ProfileQuery = ReturnType<typeof visibleProfiles>;

/** One band of a listing: the profiles matching it (null: all), most recently seen first. */
export type Band = Condition | null;

/**
 * The bands of a listing that shows a home country first and, within it, a home region first
 * (search, signup matches, related profiles): each band is read from an index in last-seen
 * order, so a page costs the rows it shows, not a sort of every match.
 */
export function homeBands(country: string | null, region: string | null): Band[] {
  if (!country) return [null];
  if (!region) return [(eb) => eb('profiles.country', '=', country), (eb) => eb('profiles.country', '!=', country)];
  return [
    (eb) => eb.and([eb('profiles.country', '=', country), eb('profiles.region', '=', region)]),
    (eb) => eb.and([eb('profiles.country', '=', country), eb.or([eb('profiles.region', 'is', null), eb('profiles.region', '!=', region)])]),
    (eb) => eb('profiles.country', '!=', country),
  ];
}

/** A listing's query for one of its bands (visibleProfiles with the band among its `where`). */
export type BandQuery = (band: Band) => ProfileQuery;

/** Most recently seen first; the id decides between equal times (an index gives both orders). */
const lastSeenOrder = (q: ProfileQuery): ProfileQuery => q.orderBy('profiles.last_seen_at', 'desc').orderBy('profiles.id', 'desc');

/**
 * How many profiles each band holds, each counted up to `limit` (one query for all bands): a
 * count stops at the limit instead of reading every match (a brand of 100,000 members has no
 * use for more). The caller caps the sum.
 */
export async function countBands(db: Kysely<Database>, query: BandQuery, bands: Band[], limit: number): Promise<number[]> {
  const row = await db
    .selectNoFrom((eb) =>
      bands.map((where, i) =>
        eb
          .selectFrom(query(where).select(sql.lit(1).as('one')).limit(limit).as(`b${i}`))
          .select((inner) => inner.fn.countAll<number | string | bigint>().as('n'))
          .as(`n${i}`),
      ),
    )
    .executeTakeFirstOrThrow();
  const counts = bands.map((_, i) => Number((row as Record<string, unknown>)[`n${i}`]));
  // Past the limit in all, later bands count for nothing: their pages are never shown.
  let left = limit;
  return counts.map((n) => {
    const kept = Math.min(n, Math.max(left, 0));
    left -= kept;
    return kept;
  });
}

/**
 * One page of a banded listing: `limit` rows from `offset`, the bands one after the other,
 * each most recently seen first. `counts` (from countBands) skip whole bands; without them
 * every band is read in turn until the page is full (small pages: related profiles).
 */
export async function bandedPage<Row>(
  query: BandQuery,
  bands: Band[],
  read: (q: ProfileQuery, limit: number, offset: number) => Promise<Row[]>,
  opts: { offset: number; limit: number; counts?: number[] },
): Promise<Row[]> {
  const rows: Row[] = [];
  let offset = opts.offset;
  for (const [i, where] of bands.entries()) {
    const need = opts.limit - rows.length;
    if (need <= 0) break;
    const count = opts.counts?.[i];
    if (count !== undefined && offset >= count) {
      offset -= count;
      continue;
    }
    rows.push(...(await read(lastSeenOrder(query(where)), need, offset)));
    offset = 0;
  }
  return rows;
}
