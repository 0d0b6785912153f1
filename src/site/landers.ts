import { join } from 'node:path';
import { readLanders, pickLander, type LanderVariant } from '../tenant/landers.ts';
import { tenantsDir } from '../tenant/load.ts';
import type { Tenant } from '../tenant/schema.ts';
import { landingSlug, NICHES, type Niche } from '../lib/slugs.ts';

let cache: ReturnType<typeof readLanders> | undefined;

/** The lander variant for this build's tenant; falls back to the tenant's fallback locale, then Dutch. */
export function landerVariant(tenant: Tenant, lander: string, locale: string, niche: Niche = tenant.niche): LanderVariant {
  cache ??= readLanders(tenantsDir(), tenant.id);
  if (cache.errors.length) throw new Error(`lander files are invalid:\n${cache.errors.join('\n')}`);
  for (const l of [locale, tenant.locales.fallback, 'nl']) {
    const v = pickLander(cache.own, cache.shared, lander, l, niche);
    if (v) return v;
  }
  throw new Error(`no lander variant for ${lander} ${locale} in ${join('tenants', tenant.id, 'landers')} or tenants/_defaults/landers`);
}

/** Every landing slug of a tenant: each niche in each of its locales, with what it stands for. */
export function tenantSlugs(tenant: Tenant): { slug: string; niche: Niche; locale: string }[] {
  return tenant.locales.available.flatMap((locale) => NICHES.map((niche) => ({ slug: landingSlug(niche, locale), niche, locale })));
}
