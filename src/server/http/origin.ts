import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { servesHost } from '../../tenant/resolve.ts';
import type { Tenant } from '../../tenant/schema.ts';

/**
 * The origin (scheme, host and port) this request was sent to: Fastify's request.protocol and
 * request.host, which take X-Forwarded-Proto and X-Forwarded-Host only from a trusted proxy
 * (TRUST_PROXY, proxy.ts), else the connection's scheme and the Host header.
 */
export function requestOrigin(request: FastifyRequest): string | null {
  const scheme = request.protocol?.toLowerCase() === 'https' ? 'https' : 'http';
  const host = request.host;
  if (!host) return null;
  try {
    const url = new URL(`${scheme}://${host}`);
    return url.host === host.toLowerCase() ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The brand's own address for links that leave the site and come back (a payment provider's return
 * and webhook addresses): the host this request reached when it is one the brand is served at (one
 * of its domains or `<id>.localhost`, not a host that only falls back to it), else the brand's
 * domain; https in production or when the connection or a trusted proxy says so, never because an
 * untrusted header says so.
 */
export function brandOrigin(request: FastifyRequest, tenant: Pick<Tenant, 'id' | 'domain' | 'domains'>, production: boolean): string {
  const scheme = production || request.protocol?.toLowerCase() === 'https' ? 'https' : 'http';
  const host = request.host;
  const own = servesHost(tenant, host) && /^[a-z0-9.:[\]-]+$/i.test(host);
  return `${scheme}://${own ? host.toLowerCase() : tenant.domain}`;
}

/**
 * A state-changing call must come from the brand's own pages (DESIGN §7): a browser's Origin
 * must equal the request's own origin in scheme, host and port; without an Origin header,
 * Sec-Fetch-Site must say same-origin (or none: typed in the address bar). Calls with neither
 * come from programs that are not browsers, which cross-site forgery cannot use.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const req = request.raw;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const own = requestOrigin(request);
    if (!own || origin === 'null') return false;
    try {
      return new URL(origin).origin === own;
    } catch {
      return false;
    }
  }
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

/** A request the browser made from the brand's own pages (Sec-Fetch-Site: same-origin), as a logout by GET must be. */
export function fromOwnPage(req: IncomingMessage): boolean {
  return req.headers['sec-fetch-site'] === 'same-origin';
}
