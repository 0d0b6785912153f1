import type { AstroGlobal } from 'astro';
import type { Tenant } from '../tenant/schema.ts';
import { loadAllTenants } from '../tenant/load.ts';
import { poolPeers } from '../server/services/pool.ts';

let built: Tenant[] | undefined;

/**
 * The names of the other brands of a brand's pool (issue 24), which the signup, the privacy page
 * and the settings name: on a server-rendered page from the runtime's registry (it reloads as
 * tenant files change), on a prerendered one from the tenant files at build time. Empty when alone.
 */
export function poolBrandNames(astro: Pick<AstroGlobal, 'locals'>, tenant: Tenant): string[] {
  const tenants = astro.locals.services ? astro.locals.services.tenants() : (built ??= loadAllTenants());
  return poolPeers(tenant, tenants).map((t) => t.name);
}
