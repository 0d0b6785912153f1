import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { birthDatesOf, fitsAudience, type Audience, type AudiencePerson } from '../../lib/audience.ts';
import { GENDERS, SEXUALITIES, SEARCH_MIN_AGE, SEARCH_MAX_AGE } from '../../contract/enums.ts';

/**
 * Whose profiles a brand's viewers draw from (issue 24, DESIGN §12): the brand's own members, and
 * the members of the other brands of its pool where the pair fits both brands' audiences. The same
 * scope gives the same people to viewers on the same side of each audience (whether the viewer is
 * someone an audience is for: inScope), so a cache of candidates may key on `key` and that side;
 * per member only blocks, likes, the viewer's own filters and each profile's own choice
 * (`profiles.pooled`, `profiles.listed`) still apply.
 */
export interface PoolScope {
  /** The viewer's brand: its own members are always in scope. */
  brand: string;
  /** The other brands of the pool, in id order; empty for a brand alone. */
  others: string[];
  /** Of `others`, the brands whose fictional profiles are shown here (`network.share_fictional`). */
  fictionalFrom: string[];
  /** Whom of the others' members the brand shows. */
  audience: Audience;
  /** The other brands grouped by their own audience, which a pair must fit too (see inScope). */
  peerAudiences: { brands: string[]; audience: Audience }[];
  /** The scope as one text: equal keys, equal scopes. */
  key: string;
}

/**
 * The pool a brand takes part in now: its `network.pool`, none for a brand alone or suspended from
 * its pool (`network.suspended`: out of it both ways, its members back with it when it returns).
 * The one rule of pool membership: whatever asks which brands share members asks this.
 */
export const poolOf = (tenant: Pick<Tenant, 'network'>): string | undefined => (tenant.network && !tenant.network.suspended ? tenant.network.pool : undefined);

/** The other brands of a brand's pool among `tenants`, in id order; none for a brand alone or suspended (poolOf). */
export function poolPeers(tenant: Tenant, tenants: readonly Tenant[]): Tenant[] {
  const pool = poolOf(tenant);
  return pool ? tenants.filter((t) => t.id !== tenant.id && poolOf(t) === pool).sort((a, b) => a.id.localeCompare(b.id)) : [];
}

/** A brand's scope, as services are given it (createPoolScopes). */
export type ScopeOf = (tenant: Tenant) => PoolScope;

/** The scope of a brand among `tenants` (the registry's, which reloads as tenant files change). */
export function poolScope(tenant: Tenant, tenants: readonly Tenant[]): PoolScope {
  const peers = poolPeers(tenant, tenants);
  const others = peers.map((t) => t.id);
  const fictionalFrom = peers.filter((t) => t.network?.share_fictional).map((t) => t.id);
  const groups = new Map<string, { brands: string[]; audience: Audience }>();
  for (const peer of peers) {
    const key = JSON.stringify(peer.audience);
    const group = groups.get(key) ?? { brands: [], audience: peer.audience };
    group.brands.push(peer.id);
    groups.set(key, group);
  }
  const peerAudiences = [...groups.values()];
  const audience = tenant.audience;
  const key = others.length ? JSON.stringify([tenant.id, fictionalFrom, audience, peerAudiences]) : tenant.id;
  return { brand: tenant.id, others, fictionalFrom, audience, peerAudiences, key };
}

/**
 * The scopes of the brands served now, worked out once per reload of the registry's list (a
 * changed tenant file gives a new list): a brand removed from a pool takes its members out of the
 * others' listings on the next request.
 */
export function createPoolScopes(tenants: () => readonly Tenant[]): ScopeOf {
  let list: readonly Tenant[] | undefined;
  let scopes = new Map<string, PoolScope>();
  return (tenant) => {
    const now = tenants();
    if (now !== list) {
      list = now;
      scopes = new Map();
    }
    let scope = scopes.get(tenant.id);
    if (!scope) {
      // The registry's own copy of the brand when it has one: the request's may be older.
      scope = poolScope(now.find((t) => t.id === tenant.id) ?? tenant, now);
      scopes.set(tenant.id, scope);
    }
    return scope;
  };
}

/** The scope of a brand on its own (no registry: a tool or a bench that reads one brand). */
export const aloneScope = (tenant: Tenant): PoolScope => poolScope({ ...tenant, network: null }, []);

/** Whether a brand's members are in a scope at all (its own brand or a brand of its pool). */
export const brandInScope = (scope: PoolScope, tenantId: string): boolean => tenantId === scope.brand || scope.others.includes(tenantId);

/**
 * Whether two members still reach each other across brands (a conversation between them is open):
 * the other's brand is in the viewer's scope and neither chose to be shown on their own brand
 * only (`pooled`: 0). The same rule as inScope's, for one known pair: the choice works both ways,
 * so a conversation from before it stays readable but closed on both sides, and opens again when
 * the choice is turned off. Members of one brand always reach each other.
 */
export function reachesAcross(scope: PoolScope, viewerPooled: number, other: { tenant_id: string; pooled: number }): boolean {
  if (other.tenant_id === scope.brand) return true;
  return brandInScope(scope, other.tenant_id) && viewerPooled === 1 && other.pooled === 1;
}

/**
 * An audience as a condition on the profile columns of `alias`; null when it takes everyone.
 * Interests are a JSON array of keys: a key in quotes is the whole key.
 */
function audienceOf(a: Audience, alias: string, today: Date): RawBuilder<SqlBool> | null {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  const { bornOnOrBefore, bornAfter } = birthDatesOf(a.min_age, a.max_age, today);
  const parts: RawBuilder<SqlBool>[] = [];
  if (a.genders.length < GENDERS.length) parts.push(sql`${col('gender')} in (${sql.join(a.genders)})`);
  if (a.sexualities.length < SEXUALITIES.length) parts.push(sql`${col('sexuality')} in (${sql.join(a.sexualities)})`);
  if (a.min_age > SEARCH_MIN_AGE) parts.push(sql`${col('birth_date')} <= ${bornOnOrBefore}`);
  if (a.max_age < SEARCH_MAX_AGE) parts.push(sql`${col('birth_date')} > ${bornAfter}`);
  if (a.body_types) parts.push(sql`${col('body_type')} in (${sql.join(a.body_types)})`);
  if (a.interests.length) parts.push(sql`(${sql.join(a.interests.map((key) => sql`${col('interests')} like ${`%"${key}"%`}`), sql` or `)})`);
  if (a.countries) parts.push(sql`${col('country')} in (${sql.join(a.countries)})`);
  return parts.length ? sql<SqlBool>`(${sql.join(parts, sql` and `)})` : null;
}

/**
 * Whether a viewer is someone each audience of a scope is for: the brand's own audience (`mine`),
 * then each group of `peerAudiences` in order. A pair fits an audience when either side does
 * (pairFits), so viewers of the same fit draw the same profiles from the pool: a shared list is
 * keyed by the fit (listing-cache.ts), not by the viewer. A visitor fits none.
 */
export interface Fit {
  mine: boolean;
  peers: boolean[];
  /** False for a viewer shown on their own brand only: they see their own brand only too (inScope). */
  pooled: boolean;
}

/** A viewer as fitOf reads them: their profile's audience columns and their choice (`pooled`: 0 for their own brand only). */
export type PoolViewer = AudiencePerson & { pooled: number };

/** The fit of a viewer's profile (null: a visitor, or a member without a profile) to a scope's audiences on `today`. */
export function fitOf(scope: PoolScope, viewer: PoolViewer | null, today: Date): Fit {
  const fits = (a: Audience) => viewer !== null && fitsAudience(a, viewer, today);
  return { mine: fits(scope.audience), peers: scope.peerAudiences.map((p) => fits(p.audience)), pooled: viewer === null || viewer.pooled === 1 };
}

/** A fit as a short text for a cache key: a letter per audience, and `o` for a viewer of their own brand only. */
export const fitKey = (fit: Fit): string => (fit.pooled ? '' : 'o') + [fit.mine, ...fit.peers].map((f) => (f ? 'y' : 'n')).join('');

/**
 * A pair fits an audience when either side is one the audience is for: the profile, or the viewer
 * (a milf- brand shows its men the pool's women of 35 and older, and its women of 35 and older the
 * pool's men). The viewer's side is read in the statement (their profile id) or known already
 * (`viewerFits`, from fitOf). Null when the pair fits whatever the profile.
 */
function pairFits(a: Audience, viewer: number | boolean | null, today: Date): RawBuilder<SqlBool> | null {
  if (viewer === true) return null;
  const theirs = audienceOf(a, 'profiles', today);
  if (!theirs) return null;
  const mine = viewer === null || viewer === false ? null : audienceOf(a, 'viewer', today);
  return mine ? sql<SqlBool>`(${theirs} or exists (select 1 from profiles as viewer where viewer.id = ${viewer} and ${mine}))` : theirs;
}

/**
 * The scope as a condition on `profiles` (services/visibility.ts applies it): the brand's own
 * profiles, or a profile of another brand of the pool whose member did not choose their own brand
 * only, fictional only where its brand shares them, where the pair fits both the viewer's brand's
 * audience and the profile's brand's: the two brands see each other alike, so a like, a match or
 * a conversation never reaches a member who cannot see its sender. A viewer who chose their own
 * brand only sees their own brand only, for the same reason (the pool scope of a viewer: their
 * profile's `pooled`, read in the statement, or their fit's). `viewer` is the viewer's profile id
 * (null: a visitor), or their fit to the audiences when it is known (a shared list).
 */
export function inScope(scope: PoolScope, viewer: number | Fit | null, today: Date): (eb: ExpressionBuilder<Database, 'profiles'>) => Expression<SqlBool> {
  return (eb) => {
    if (scope.others.length === 0 || (viewer !== null && typeof viewer === 'object' && !viewer.pooled)) return eb('profiles.tenant_id', '=', scope.brand);
    // A profile id may be a compiled statement's placeholder (db/compiled.ts): anything but a fit is one.
    const side = (i: number | null) => (viewer === null || typeof viewer !== 'object' ? viewer : i === null ? viewer.mine : viewer.peers[i]!);
    const pooled: Expression<SqlBool>[] = [eb('profiles.pooled', '=', 1)];
    // The viewer's own choice, one read per statement (the subquery names no column of the row).
    if (viewer !== null && typeof viewer !== 'object') pooled.unshift(sql<SqlBool>`exists (select 1 from profiles as chooser where chooser.id = ${viewer} and chooser.pooled = 1)`);
    pooled.push(scope.fictionalFrom.length ? eb.or([eb('profiles.fictional', '=', 0), eb('profiles.tenant_id', 'in', scope.fictionalFrom)]) : eb('profiles.fictional', '=', 0));
    const mine = pairFits(scope.audience, side(null), today);
    if (mine) pooled.push(mine);
    pooled.push(
      eb.or(
        scope.peerAudiences.map(({ brands, audience }, i) => {
          const theirs = pairFits(audience, side(i), today);
          const brand = eb('profiles.tenant_id', 'in', brands);
          return theirs ? eb.and([brand, theirs]) : brand;
        }),
      ),
    );
    // One condition the planners cannot split into an index read per brand (SQLite's MULTI-INDEX
    // OR, then a sort of every match of the pool): a pool's listing walks the pool's last-seen
    // index (migrations 0055, 0100) and stops at its page (bench/README.md "The pool"). Written
    // as "not 0": PostgreSQL guesses an expression's "= 1" keeps 0.5% of the rows, and so sorted a
    // region's every match in parallel workers (35-400 ms at 1,000,000) rather than walk the
    // index to the list's size; for "<> 0" it guesses most rows, as a pool's scope does keep.
    return eb(eb.case().when(eb.or([eb('profiles.tenant_id', '=', scope.brand), eb.and(pooled)])).then(1).else(0).end(), '!=', 0);
  };
}
