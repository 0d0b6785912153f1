import type { Tenant } from './schema.ts';

/** The host name of a Host header, lower-cased, without port. */
export function hostName(host: string | undefined | null): string {
  if (!host) return '';
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.replace(/:\d+$/, '');
}

/**
 * The brand for hosts that name none: the one DEFAULT_TENANT names, else the brand whose tenant
 * file says `"default": true`, else the first by id.
 */
export function defaultTenantOf<T extends Pick<Tenant, 'id'> & { default?: boolean }>(tenants: readonly T[], defaultId?: string): T | undefined {
  return tenants.find((t) => t.id === defaultId) ?? tenants.find((t) => t.default) ?? tenants[0];
}

/**
 * The tenant serving a host: one of its domains (or www. of one), `<id>.localhost`, or `<id>.<anything>`
 * on a local host name; otherwise the default tenant so that every host shows a brand.
 */
export function resolveTenant<T extends Pick<Tenant, 'id' | 'domains'> & { default?: boolean }>(tenants: readonly T[], host: string | null | undefined, defaultId?: string): T | undefined {
  const name = hostName(host).replace(/^www\./, '');
  const byDomain = tenants.find((t) => t.domains.includes(name));
  if (byDomain) return byDomain;
  if (isLocalName(name)) {
    const byId = tenants.find((t) => t.id === name.split('.')[0]);
    if (byId) return byId;
  }
  return defaultTenantOf(tenants, defaultId);
}

/** A local host name that names a brand by its id in the first label (`<id>.localhost`). */
const isLocalName = (name: string) => name.endsWith('.localhost') || name.endsWith('.local') || name.endsWith('.test');

/**
 * Whether a host names this brand itself, by one of its domains (or www. of one) or as
 * `<id>.localhost` (.local, .test): an address the brand is served at, not a host that only falls
 * back to it as the default brand.
 */
export function servesHost(tenant: Pick<Tenant, 'id' | 'domains'>, host: string | null | undefined): boolean {
  const name = hostName(host).replace(/^www\./, '');
  return tenant.domains.includes(name) || (isLocalName(name) && name.split('.')[0] === tenant.id);
}
