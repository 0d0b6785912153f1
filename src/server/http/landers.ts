import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tenant } from '../../tenant/schema.ts';
import { ATTRIBUTION_COOKIE, CONTROL_VARIANT, isPageVisit } from '../../lib/attribution.ts';
import { readCookies } from '../../lib/cookies.ts';
import { CONSENT_COOKIE, consentChoice } from '../../lib/consent.ts';
import type { TenantRegistry } from '../registry.ts';
import type { TrafficService } from '../services/traffic.ts';

/** The build's folder of lander variants (src/pages/l/[locale]/lander-variants/), never an address of its own. */
export const VARIANT_FOLDER = 'lander-variants';

/**
 * A prerendered page about to be served: when it is a lander, the file of the variant the visitor
 * is on (the attribution cookie's seed; the control for bots), the visit counted and the cookie
 * set (issue 23). A lander is then `private`: a shared cache must not give one visitor's variant
 * to all. The network parameters go into the cookie only with the visitor's consent (the
 * lander's consent bar, src/lib/consent.ts). Any other page comes back as it was.
 */
export async function landerFile(
  deps: { registry: TenantRegistry; traffic: TrafficService },
  request: FastifyRequest,
  reply: FastifyReply,
  page: { tenant: Tenant; locale: string; path: string; file: string },
): Promise<{ file: string; private: boolean }> {
  const lander = deps.registry.lander(page.tenant.id, page.locale, page.path);
  if (!lander) return { file: page.file, private: false };
  // A browser asking again for a page it has (If-None-Match) is not a new visit, nor is a HEAD.
  const counted = request.method === 'GET' && request.headers['if-none-match'] === undefined && isPageVisit(request.headers);
  const query = new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '');
  const cookies = readCookies(request.headers.cookie, [ATTRIBUTION_COOKIE, CONSENT_COOKIE]);
  const landed = await deps.traffic.land(page.tenant, lander, { cookie: cookies[ATTRIBUTION_COOKIE], consent: consentChoice(cookies[CONSENT_COOKIE]), query, counted });
  if (landed.cookie) reply.header('set-cookie', landed.cookie);
  if (landed.variant === CONTROL_VARIANT) return { file: page.file, private: true };
  const variantFile = `l/${page.locale}/${VARIANT_FOLDER}/${landed.variant}${page.path}/index.html`;
  return { file: deps.registry.hasPage(page.tenant.id, variantFile) ? variantFile : page.file, private: true };
}
