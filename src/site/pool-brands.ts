import type { AstroGlobal } from 'astro';
import type { Tenant } from '../tenant/schema.ts';
import { poolPeers } from '../server/services/pool.ts';

/**
 * The names of the other brands of a brand's pool (issue 24), which the signup, the privacy page
 * and the settings name, from the runtime's registry (it reloads as tenant files change; the
 * static output's renderer passes the tenant files it read). Empty when alone.
 */
export function poolBrandNames(astro: Pick<AstroGlobal, 'locals'>, tenant: Tenant): string[] {
  return poolPeers(tenant, astro.locals.services.tenants()).map((t) => t.name);
}
