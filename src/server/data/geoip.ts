// Country of a client IP address, offline, with the `geoip-country` package (GeoLite2 data
// shipped in the package). The package reads its ~8 MB of data when it is first required,
// so it is required on the first lookup only.
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';

type GeoipCountry = { lookup(ip: string): { country?: string } | null };

const require = createRequire(import.meta.url);
let geoip: GeoipCountry | null = null;

function db(): GeoipCountry {
  geoip ??= require('geoip-country') as GeoipCountry;
  return geoip;
}

/** Loopback, private, link-local, CGNAT, unspecified, documentation and multicast ranges. */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b:1::', 48],
] as const) NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

/**
 * Normalise an address as it comes from a socket or a header: trims, drops [brackets], an
 * IPv4 ':port', an IPv6 zone ('%eth0') and unwraps IPv4-mapped IPv6 ('::ffff:1.2.3.4').
 * Returns null when it is not an IP address.
 */
export function normaliseIp(ip: string | null | undefined): string | null {
  if (typeof ip !== 'string') return null;
  let s = ip.trim();
  if (!s) return null;
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracket) s = bracket[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const mapped = /^(?:::|(?:0{1,4}:){5})ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(s);
  if (mapped && isIP(mapped[1]!) === 4) s = mapped[1]!;
  return isIP(s) ? s.toLowerCase() : null;
}

/** True for addresses that are not on the public internet (loopback, private, link-local...). */
export function isNonPublicIp(ip: string): boolean {
  const v = isIP(ip);
  if (v === 0) return true;
  return NON_PUBLIC.check(ip, v === 4 ? 'ipv4' : 'ipv6');
}

/** ISO 3166-1 alpha-2 country (upper case) of a public IP address, or null. */
export function countryOfIp(ip: string | undefined): string | null {
  const addr = normaliseIp(ip);
  if (!addr || isNonPublicIp(addr)) return null;
  const hit = db().lookup(addr);
  const cc = hit?.country;
  return typeof cc === 'string' && /^[A-Z]{2}$/.test(cc) ? cc : null;
}

export type HeaderSource =
  | { get(name: string): string | null }
  | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource | null | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const rec = headers as Record<string, string | string[] | undefined>;
  const v = rec[name] ?? rec[Object.keys(rec).find((k) => k.toLowerCase() === name) ?? ''];
  return Array.isArray(v) ? v.join(',') : v;
}

/**
 * Country set by a trusted proxy or CDN in X-Country-Code or CF-IPCountry, upper case; null
 * when the request did not come from a trusted proxy (fromProxy: its socket peer is one, see
 * http/proxy.ts), the header is absent or it holds no real country (CF's XX, T1).
 */
export function countryFromHeaders(headers: HeaderSource | null | undefined, fromProxy: boolean): string | null {
  if (!fromProxy) return null;
  for (const name of ['x-country-code', 'cf-ipcountry']) {
    const v = header(headers, name)?.trim().toUpperCase();
    if (v && /^[A-Z]{2}$/.test(v) && v !== 'XX' && v !== 'T1') return v;
  }
  return null;
}
