// Which proxies in front of the runtime are believed (TRUST_PROXY), with proxy-addr, the module
// Fastify reads X-Forwarded-For through. A client writes X-Forwarded-For itself and a proxy such as
// nginx (proxy_add_x_forwarded_for) appends the address it saw: the visitor is the nearest hop that
// is not a trusted proxy, never the first entry of the header.
import proxyAddr from '@fastify/proxy-addr';

/**
 * TRUST_PROXY as configured: false (no proxy: the socket's address, the connection's scheme), the
 * number of proxies in front (1: one nginx), or the proxies' addresses and CIDR ranges (proxy-addr's
 * names loopback, linklocal and uniquelocal too).
 */
export type TrustProxy = false | number | string[];

/** Whether an address at a hop (0: the socket's peer, 1: the last X-Forwarded-For entry, ...) is a trusted proxy. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** The largest hop count TRUST_PROXY takes: more proxies than this in a row is a mistake. */
const MAX_HOPS = 32;

/** A TRUST_PROXY value the runtime cannot start with. */
export class TrustProxyError extends Error {}

/**
 * Reads TRUST_PROXY: unset, empty, 0 or false = no proxy; 1..32 = that many proxies in front;
 * otherwise a comma-separated list of the proxies' addresses or CIDR ranges. Throws a
 * TrustProxyError naming the mistake for anything else (true included: believing every hop would
 * take the client's own first X-Forwarded-For entry as its address).
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text === '0' || text.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw new TrustProxyError(`TRUST_PROXY=${text}: at most ${MAX_HOPS} proxies in front (the number of proxies, e.g. 1 for one nginx)`);
    return hops;
  }
  if (text.toLowerCase() === 'true') {
    throw new TrustProxyError(
      'TRUST_PROXY=true would take the address a client writes itself in X-Forwarded-For: give the number of proxies in front (1 for one nginx) or their addresses (e.g. 10.0.0.0/8)',
    );
  }
  const list = text.split(',').map((entry) => entry.trim());
  for (const entry of list) {
    try {
      if (!entry) throw new TypeError('an empty entry');
      proxyAddr.compile(entry);
    } catch (error) {
      const what = entry ? `"${entry}" is not an address, a CIDR range or loopback/linklocal/uniquelocal (${(error as Error).message})` : 'an empty entry';
      throw new TrustProxyError(`TRUST_PROXY=${text}: ${what}; give the number of proxies in front (1 for one nginx) or their addresses`);
    }
  }
  return list;
}

/** The trust function of a TRUST_PROXY setting (Fastify's trustProxy option and the checks of the socket's peer); false for none. */
export function proxyTrust(setting: TrustProxy): ProxyTrust | false {
  if (setting === false || setting === 0) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting);
}

/** Whether the request's socket peer is a trusted proxy, so that its X-Forwarded-Proto and country headers are believed. */
export function fromTrustedProxy(trust: ProxyTrust | false, remoteAddress: string | undefined): boolean {
  return trust !== false && remoteAddress !== undefined && trust(remoteAddress, 0);
}
