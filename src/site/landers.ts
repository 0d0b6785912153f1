import { join } from 'node:path';
import { readLanders, pickLander, experimentOf, type LanderVariant } from '../tenant/landers.ts';
import { tenantsDir } from '../tenant/load.ts';
import type { Tenant } from '../tenant/schema.ts';
import { LANDER_NAMES, landingSlug, NICHES, type Niche } from '../lib/slugs.ts';
import { CONTROL_VARIANT, type LanderManifest } from '../lib/attribution.ts';

let cache: ReturnType<typeof readLanders> | undefined;

/**
 * The texts of a lander for this build's tenant, control first, then the variants of its
 * experiment; falls back to the tenant's fallback locale, then Dutch.
 */
export function landerTexts(tenant: Tenant, lander: string, locale: string, niche: Niche = tenant.niche): LanderVariant[] {
  cache ??= readLanders(tenantsDir(), tenant.id);
  if (cache.errors.length) throw new Error(`lander files are invalid:\n${cache.errors.join('\n')}`);
  for (const l of [locale, tenant.locales.fallback, 'nl']) {
    const control = pickLander(cache.own, cache.shared, lander, l, niche);
    if (control) return experimentOf(cache.own, cache.shared, control);
  }
  throw new Error(`no lander variant for ${lander} ${locale} in ${join('tenants', tenant.id, 'landers')} or tenants/_defaults/landers`);
}

/** The text of a lander shown to a visitor on `variant` (the control by default). */
export function landerVariant(tenant: Tenant, lander: string, locale: string, niche: Niche = tenant.niche, variant = CONTROL_VARIANT): LanderVariant {
  const texts = landerTexts(tenant, lander, locale, niche);
  return texts.find((v) => v.variant === variant) ?? texts[0]!;
}

/** Every landing slug of a tenant: each niche in each of its locales, with what it stands for. */
export function tenantSlugs(tenant: Tenant): { slug: string; niche: Niche; locale: string }[] {
  return tenant.locales.available.flatMap((locale) => NICHES.map((niche) => ({ slug: landingSlug(niche, locale), niche, locale })));
}

/** One prerendered lander page: where it stands in a locale's folder and what it shows. */
export interface LanderPageDef {
  /** The locale folder (the visitor's language) it is prerendered in. */
  locale: string;
  /** Its address, such as /landers/alonetonight/milf-eng or /milf-eng. */
  path: string;
  /** The lander name: tinderswipe, one of LANDER_NAMES, or slug for the niche landing slugs. */
  lander: string;
  /** The landers' name parameter and slug (the slug of the niche and language shown). */
  name?: string;
  slug?: string;
  niche: Niche;
  /** The language of its text. */
  contentLocale: string;
  /** Its route name (the page's context). */
  route: string;
}

/**
 * Every lander page of a tenant (SPEC §2 "Landing slugs" and the landers): /landers/tinderswipe,
 * /landers/{name} and /landers/{name}/{slug}, and the niche slugs /{slug}, in every locale. The
 * pages' getStaticPaths, their variants and the runtime's manifest are all read from this list.
 */
export function landerPages(tenant: Tenant): LanderPageDef[] {
  const names = LANDER_NAMES.filter((n) => tenant.landers.includes(n));
  return tenant.locales.available.flatMap((locale) => [
    ...(tenant.landers.includes('tinderswipe') ? [{ locale, path: '/landers/tinderswipe', lander: 'tinderswipe', niche: tenant.niche, contentLocale: locale, route: 'landers-tinderswipe' }] : []),
    ...names.flatMap((name) => [
      { locale, path: `/landers/${name}`, lander: name, name, niche: tenant.niche, contentLocale: locale, route: `landers-${name}` },
      ...tenantSlugs(tenant).map((s) => ({ locale, path: `/landers/${name}/${s.slug}`, lander: name, name, slug: s.slug, niche: s.niche, contentLocale: s.locale, route: `landers-${name}` })),
    ]),
    ...tenantSlugs(tenant).map((s) => ({ locale, path: `/${s.slug}`, lander: 'slug', slug: s.slug, niche: s.niche, contentLocale: s.locale, route: 'landing-slug' })),
  ]);
}

/**
 * What the runtime needs of a locale's landers (written to l/{locale}/landers.json by the build):
 * for each address, the lander, niche and language counted for a visit, and the experiment's
 * variants with their weights (the control first).
 */
export function landerManifest(tenant: Tenant, locale: string): LanderManifest {
  const manifest: LanderManifest = {};
  for (const page of landerPages(tenant).filter((p) => p.locale === locale)) {
    const texts = landerTexts(tenant, page.lander, page.contentLocale, page.niche);
    manifest[page.path] = { lander: page.lander, niche: page.niche, locale: page.contentLocale, experiment: texts[0]!.file, variants: texts.map((v) => ({ name: v.variant, weight: v.weight })) };
  }
  return manifest;
}
