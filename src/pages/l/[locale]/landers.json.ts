/**
 * The runtime's list of this locale's landers (src/site/static-paths.ts landerManifest): what a visit
 * of each address counts for, and the variants it chooses from. Read by the runtime from the
 * build's folder (src/server/registry.ts); no address of the site answers with it.
 */
import type { APIRoute } from 'astro';
import { buildTenant, pathsOf } from '../../../site/build-tenant.ts';
import { tenantLanders } from '../../../site/landers.ts';
import { landerManifest } from '../../../site/static-paths.ts';

export const prerender = true;
export function getStaticPaths() { return pathsOf('landers.json'); }
export const GET: APIRoute = ({ params }) => new Response(JSON.stringify(landerManifest(buildTenant(), tenantLanders(buildTenant()), params.locale!)), { headers: { 'content-type': 'application/json' } });
