import type { AstroGlobal } from 'astro';
import type { Tenant } from '../tenant/schema.ts';
import { poolPeers } from '../server/services/pool.ts';

/**
 * The names worked out per tenant list and brand: the registry's list stays the same object until
 * a rescan finds a change, so a request pays a look-up, not a filter of every brand (1,000 at a
 * time, bench/README.md "The lander with 1,000 brands loaded"). Weak keys: a replaced list goes.
 */
const namesByList = new WeakMap<readonly Tenant[], WeakMap<Tenant, string[]>>();

/**
 * The names of the other brands of a brand's pool (issue 24), which the signup, the privacy page
 * and the settings name, from the runtime's registry (it reloads as tenant files change; the
 * static output's renderer passes the tenant files it read). Empty when alone.
 */
export function poolBrandNames(astro: Pick<AstroGlobal, 'locals'>, tenant: Tenant): string[] {
  const tenants = astro.locals.services.tenants();
  let names = namesByList.get(tenants);
  if (!names) namesByList.set(tenants, (names = new WeakMap()));
  let found = names.get(tenant);
  if (!found) names.set(tenant, (found = poolPeers(tenant, tenants).map((t) => t.name)));
  return found;
}
