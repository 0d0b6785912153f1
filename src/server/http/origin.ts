import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

function firstHeader(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.split(',')[0]?.trim() || undefined;
}

/**
 * The origin (scheme, host and port) this request was sent to: the Host header with the
 * connection's scheme, or the proxy's (X-Forwarded-Proto) when the runtime trusts a proxy.
 */
export function requestOrigin(req: IncomingMessage, trustProxy: boolean): string | null {
  const forwarded = trustProxy ? firstHeader(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const host = req.headers.host;
  if (!host) return null;
  try {
    const url = new URL(`${scheme}://${host}`);
    return url.host === host.toLowerCase() ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * A state-changing call must come from the brand's own pages (DESIGN §7): a browser's Origin
 * must equal the request's own origin in scheme, host and port; without an Origin header,
 * Sec-Fetch-Site must say same-origin (or none: typed in the address bar). Calls with neither
 * come from programs that are not browsers, which cross-site forgery cannot use.
 */
export function sameOrigin(req: IncomingMessage, trustProxy: boolean): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const own = requestOrigin(req, trustProxy);
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
