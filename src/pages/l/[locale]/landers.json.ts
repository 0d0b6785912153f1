/**
 * The runtime's list of this locale's landers (src/site/landers.ts landerManifest): what a visit
 * of each address counts for, and the variants it chooses from. Read by the runtime from the
 * build's folder (src/server/registry.ts); no address of the site answers with it.
 */
import type { APIRoute } from 'astro';
import { buildTenant, localePaths } from '../../../site/build-tenant.ts';
import { landerManifest } from '../../../site/landers.ts';

export const prerender = true;
export function getStaticPaths() { return localePaths(); }
export const GET: APIRoute = ({ params }) => new Response(JSON.stringify(landerManifest(buildTenant(), params.locale!)), { headers: { 'content-type': 'application/json' } });
