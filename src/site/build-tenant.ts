import { loadTenant } from '../tenant/load.ts';
import type { Tenant } from '../tenant/schema.ts';
import { tenantLanders } from './landers.ts';
import { staticPaths, type StaticRoute } from './static-paths.ts';

let cached: Tenant | undefined;

/**
 * The tenant whose pages are being prerendered (prerendered pages only; server-rendered pages get it
 * from locals). Read from the build process's environment when a page is prerendered, never baked
 * into the server code: the program built for one brand is the program of every brand of its
 * languages (docs/ONE-BUILD.md, step 1).
 */
export function buildTenant(): Tenant {
  const id = process.env.SITEGEN_TENANT;
  if (!id) throw new Error('buildTenant(): SITEGEN_TENANT is not set; prerendered pages are built through `sitegen build <id>`');
  cached ??= loadTenant(id);
  return cached;
}

/** getStaticPaths of one page under src/pages/l/[locale]/: its entries of the build's tenant's static output. */
export function pathsOf(route: StaticRoute) {
  const tenant = buildTenant();
  return staticPaths(tenant, tenantLanders(tenant))
    .filter((path) => path.route === route)
    .map(({ params, props }) => ({ params, props }));
}
