import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { StaffView } from '../../contract/console.ts';
import type { PhotoStatus } from '../../lib/photo-screening.ts';
import { inScope } from './brand-scope.ts';
import { poolPeers } from './pool.ts';

/**
 * What staff of one brand see of a member of another brand of its pool (issue 24, docs/API.md
 * "The pool's members in the console"). A member belongs to their home brand: its staff alone see
 * their account (e-mail, credits, ledger, payments, sessions, source) and act on it. Staff of a
 * brand of the same pool see such a member only where the member is involved with one of their
 * own brand's members (a conversation, a like, a block or a complaint either way), and then only
 * what that involvement needs: the profile and photos, and the conversations, likes, blocks and
 * complaints with their own brand's members. Staff of a brand outside the pool see nothing (404).
 */

/** How a member of another brand is involved with a staff member's brands. */
export const POOL_INVOLVEMENTS = ['conversation', 'like', 'block', 'complaint'] as const;
export type PoolInvolvement = (typeof POOL_INVOLVEMENTS)[number];

/**
 * The brands of a staff member's scope that share a pool with `brand` (not `brand` itself): the
 * brands through which they may see that brand's members. None for staff of every brand (they see
 * every member in full), for a brand alone, and for staff whose brands are outside its pool.
 */
export function partnerBrands(staff: Pick<StaffView, 'brands'>, brand: string, tenants: readonly Tenant[]): string[] {
  if (staff.brands === null || inScope(staff, brand)) return [];
  const tenant = tenants.find((t) => t.id === brand);
  return tenant ? poolPeers(tenant, tenants).filter((t) => inScope(staff, t.id)).map((t) => t.id) : [];
}

/** The status of the photos staff see of a member of another brand of their pool: approved ones, as the pool shows them. */
export const POOL_PHOTO_STATUS = 'active' satisfies PhotoStatus;

/**
 * Which photos of a brand's members a staff member sees (issue 24): `all`, whatever their status,
 * of a brand in their scope (its moderators screen them); of another brand of their pools
 * `approved` ones only (POOL_PHOTO_STATUS), those the pool's members see too: pending and rejected
 * photos stay their own brand's. Null for any other brand: nothing.
 */
export function photosShown(staff: Pick<StaffView, 'brands'>, brand: string, tenants: readonly Tenant[]): 'all' | 'approved' | null {
  if (inScope(staff, brand)) return 'all';
  return partnerBrands(staff, brand, tenants).length > 0 ? 'approved' : null;
}

/**
 * The brands outside a staff member's scope that share a pool with one of their brands: those whose
 * members they may meet (through their own members), so the console names them. None for staff of
 * every brand.
 */
export function poolBrands(staff: Pick<StaffView, 'brands'>, tenants: readonly Tenant[]): Tenant[] {
  return tenants.filter((t) => partnerBrands(staff, t.id, tenants).length > 0);
}

/** The two profile columns of a relation between two profiles, one each way. */
const EITHER_WAY = { likes: ['from_profile_id', 'to_profile_id'], blocks: ['blocker_profile_id', 'blocked_profile_id'] } as const;

/** A like or block between the profile and a member of `brands`, either way: one indexed look-up. */
function eitherWay(db: Kysely<Database>, table: keyof typeof EITHER_WAY, profileId: number, brands: string[]) {
  const [from, to] = EITHER_WAY[table];
  const one = sql.ref<number>(`r.${from}`);
  const other = sql.ref<number>(`r.${to}`);
  return db
    .selectFrom(sql.table(table).as('r'))
    .innerJoin('profiles as o', (join) => join.on((eb) => eb.or([eb.and([eb(one, '=', profileId), eb('o.id', '=', other)]), eb.and([eb(other, '=', profileId), eb('o.id', '=', one)])])))
    .select('o.id')
    .where((eb) => eb.or([eb(one, '=', profileId), eb(other, '=', profileId)]))
    .where('o.tenant_id', 'in', brands)
    .limit(1)
    .executeTakeFirst();
}

/**
 * How a member (their profile, their user) is involved with members of `brands`: the kinds found,
 * none when they are not (the staff member then sees nothing of them). Each is one indexed look-up.
 */
export async function involvement(db: Kysely<Database>, member: { profileId: number; userId: number }, brands: string[]): Promise<PoolInvolvement[]> {
  if (brands.length === 0) return [];
  const { profileId, userId } = member;
  const [conversation, like, block, complaint] = await Promise.all([
    db
      .selectFrom('conversation_members as cm')
      .innerJoin('profiles as o', 'o.id', 'cm.other_profile_id')
      .select('cm.conversation_id')
      .where('cm.profile_id', '=', profileId)
      .where('o.tenant_id', 'in', brands)
      .limit(1)
      .executeTakeFirst(),
    eitherWay(db, 'likes', profileId, brands),
    eitherWay(db, 'blocks', profileId, brands),
    // A complaint filed on one of the brands about the member, or by the member about one of their members.
    db
      .selectFrom('complaints as c')
      .leftJoin('profiles as o', 'o.id', 'c.reported_profile_id')
      .select('c.id')
      .where((eb) => eb.or([eb.and([eb('c.reported_profile_id', '=', profileId), eb('c.tenant_id', 'in', brands)]), eb.and([eb('c.reporter_user_id', '=', userId), eb('o.tenant_id', 'in', brands)])]))
      .limit(1)
      .executeTakeFirst(),
  ]);
  const found: [PoolInvolvement, unknown][] = [
    ['conversation', conversation],
    ['like', like],
    ['block', block],
    ['complaint', complaint],
  ];
  return found.filter(([, row]) => row !== undefined).map(([kind]) => kind);
}
