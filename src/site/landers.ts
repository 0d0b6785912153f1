import { readLanders, type LanderVariant } from '../tenant/landers.ts';
import { tenantsDir } from '../tenant/load.ts';
import type { Tenant } from '../tenant/schema.ts';
import type { Niche } from '../lib/slugs.ts';
import { CONTROL_VARIANT } from '../lib/attribution.ts';
import { landerExperiment, type LanderFiles } from './static-paths.ts';

const files = new Map<string, LanderFiles>();

/** A tenant's lander files and the shared defaults, read once per build process. */
export function tenantLanders(tenant: Tenant): LanderFiles {
  let read = files.get(tenant.id);
  if (!read) files.set(tenant.id, (read = readLanders(tenantsDir(), tenant.id)));
  return read;
}

/**
 * The texts of a lander for this build's tenant, control first, then the variants of its
 * experiment; falls back to the tenant's fallback locale, then Dutch.
 */
export function landerTexts(tenant: Tenant, lander: string, locale: string, niche: Niche = tenant.niche): LanderVariant[] {
  return landerExperiment(tenant, tenantLanders(tenant), lander, locale, niche);
}

/** The text of a lander shown to a visitor on `variant` (the control by default). */
export function landerVariant(tenant: Tenant, lander: string, locale: string, niche: Niche = tenant.niche, variant = CONTROL_VARIANT): LanderVariant {
  const texts = landerTexts(tenant, lander, locale, niche);
  return texts.find((v) => v.variant === variant) ?? texts[0]!;
}
