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
  return new HostIndex(tenants).resolve(host, defaultId);
}

/**
 * resolveTenant over a fixed list of tenants, answered from maps made once: every request looks its
 * brand up by Host, and a scan of every brand's domains per request costs a runtime serving 1,000
 * brands a third of its throughput (bench/README.md, "The lander with 1,000 brands loaded"). The
 * registry makes a new one when a tenant file changes.
 */
export class HostIndex<T extends Pick<Tenant, 'id' | 'domains'> & { default?: boolean }> {
  readonly tenants: readonly T[];
  readonly #byDomain = new Map<string, T>();
  readonly #byId = new Map<string, T>();
  readonly #defaults = new Map<string | undefined, T | undefined>();

  constructor(tenants: readonly T[]) {
    this.tenants = tenants;
    // The first tenant in the list wins a domain two of them claim, as a scan in list order would.
    for (const tenant of tenants) {
      for (const domain of tenant.domains) if (!this.#byDomain.has(domain)) this.#byDomain.set(domain, tenant);
      if (!this.#byId.has(tenant.id)) this.#byId.set(tenant.id, tenant);
    }
  }

  /** The tenant with this id. */
  byId(id: string): T | undefined {
    return this.#byId.get(id);
  }

  /** The tenant serving a host (see resolveTenant). */
  resolve(host: string | null | undefined, defaultId?: string): T | undefined {
    const name = hostName(host).replace(/^www\./, '');
    const byDomain = this.#byDomain.get(name);
    if (byDomain) return byDomain;
    if (isLocalName(name)) {
      const byId = this.#byId.get(name.split('.')[0]!);
      if (byId) return byId;
    }
    if (!this.#defaults.has(defaultId)) this.#defaults.set(defaultId, defaultTenantOf(this.tenants, defaultId));
    return this.#defaults.get(defaultId);
  }
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
