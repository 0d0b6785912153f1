/**
 * Every page of a brand's static output (docs/ONE-BUILD.md, step 2): home, niche slugs, landers and
 * their variants per locale, static pages, member shells, error pages and `landers.json`, as one
 * pure list over a tenant, its lander files and the static pages' texts. src/server/static-output.ts renders each through
 * the program's pages under src/pages/l/[locale]/, which read their entry from `locals`.
 */
import { join } from 'node:path';
import { experimentOf, pickLander, type LanderVariant } from '../tenant/landers.ts';
import type { Tenant } from '../tenant/schema.ts';
import { LANDER_NAMES, landingSlug, NICHES, type Niche } from '../lib/slugs.ts';
import { STATIC_PAGES } from '../lib/routes.ts';
import { CONTROL_VARIANT, type LanderManifest } from '../lib/attribution.ts';
import { pageTextFor, type PageTexts, type SharedText } from './content.ts';

/** A tenant's lander files and the shared defaults (src/tenant/landers.ts `readLanders`). */
export interface LanderFiles {
  own: LanderVariant[];
  shared: LanderVariant[];
  errors: string[];
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
 * pages' paths, their variants and the runtime's manifest are all read from this list.
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
 * The texts of a lander, control first, then the variants of its experiment; falls back to the
 * tenant's fallback locale, then Dutch.
 */
export function landerExperiment(tenant: Tenant, files: LanderFiles, lander: string, locale: string, niche: Niche = tenant.niche): LanderVariant[] {
  if (files.errors.length) throw new Error(`lander files are invalid:\n${files.errors.join('\n')}`);
  for (const l of [locale, tenant.locales.fallback, 'nl']) {
    const control = pickLander(files.own, files.shared, lander, l, niche);
    if (control) return experimentOf(files.own, files.shared, control);
  }
  throw new Error(`no lander variant for ${lander} ${locale} in ${join('tenants', tenant.id, 'landers')} or tenants/_defaults/landers`);
}

/**
 * What the runtime needs of a locale's landers (written to l/{locale}/landers.json): for each
 * address, the lander, niche and language counted for a visit, and the experiment's variants with
 * their weights (the control first).
 */
export function landerManifest(tenant: Tenant, files: LanderFiles, locale: string): LanderManifest {
  const manifest: LanderManifest = {};
  for (const page of landerPages(tenant).filter((p) => p.locale === locale)) {
    const texts = landerExperiment(tenant, files, page.lander, page.contentLocale, page.niche);
    manifest[page.path] = { lander: page.lander, niche: page.niche, locale: page.contentLocale, experiment: texts[0]!.file, variants: texts.map((v) => ({ name: v.variant, weight: v.weight })) };
  }
  return manifest;
}

/** The member shells of the profile screen (src/server/http/member-shells.ts), beside the members shell. */
export const PROFILE_SHELLS = ['members-id', 'likes-m-id'] as const;

/**
 * The page under src/pages/l/[locale]/ that renders a static path: index, 404, error, [slug],
 * landers/[name]/[...slug], landers/tinderswipe, lander-variants/[variant]/[...path],
 * pages/[page], shells/[route], shells/members; landers.json is written from `landerManifest`.
 */
export type StaticRoute = 'index' | '404' | 'error' | 'landers.json' | 'slug' | 'lander' | 'tinderswipe' | 'lander-variant' | 'page' | 'shell' | 'members-shell';

/** One page of a brand's static output. */
export interface StaticPath {
  route: StaticRoute;
  /** The page's parameters (those of its address under l/). */
  params: { locale: string } & Record<string, string | undefined>;
  /** What the page shows besides its parameters: a lander's niche, language and text (a variant's with its lander); a static page's text. */
  props: { niche?: Niche; contentLocale?: string; page?: LanderPageDef; text?: LanderVariant; pageText?: SharedText };
  /** Its file under the build's client/ folder, such as l/nl/milf-nl/index.html or l/nl/landers.json. */
  file: string;
}

/** The file a page's address is written to under client/ (Astro's `build.format: 'directory'`). */
const pageFile = (locale: string, path: string) => `l/${locale}${path === '/' ? '' : path}/index.html`;

/** Every page of a tenant's static output, in every locale of the tenant. */
export function staticPaths(tenant: Tenant, files: LanderFiles, texts: PageTexts): StaticPath[] {
  const paths: StaticPath[] = [];
  const add = (route: StaticRoute, params: StaticPath['params'], file: string, props: StaticPath['props'] = {}) => paths.push({ route, params, props, file });
  for (const locale of tenant.locales.available) {
    add('index', { locale }, pageFile(locale, '/'));
    add('404', { locale }, pageFile(locale, '/404'));
    add('error', { locale }, pageFile(locale, '/error'));
    add('landers.json', { locale }, `l/${locale}/landers.json`);
    for (const page of STATIC_PAGES) add('page', { locale, page }, pageFile(locale, `/pages/${page}`), { pageText: pageTextFor(texts, page, locale, tenant) });
    add('members-shell', { locale }, pageFile(locale, '/shells/members'));
    for (const route of PROFILE_SHELLS) add('shell', { locale, route }, pageFile(locale, `/shells/${route}`));
  }
  for (const page of landerPages(tenant)) {
    const { locale, niche, contentLocale } = page;
    const texts = landerExperiment(tenant, files, page.lander, contentLocale, niche);
    // The control's text at the lander's address; each variant's in a folder of its own.
    const text = texts.find((v) => v.variant === CONTROL_VARIANT) ?? texts[0]!;
    if (page.lander === 'tinderswipe') add('tinderswipe', { locale }, pageFile(locale, page.path), { text });
    else if (page.lander === 'slug') add('slug', { locale, slug: page.slug }, pageFile(locale, page.path), { niche, contentLocale, text });
    else add('lander', { locale, name: page.name, slug: page.slug }, pageFile(locale, page.path), { niche, contentLocale, text });
    for (const text of texts) {
      if (text.variant === CONTROL_VARIANT) continue;
      add('lander-variant', { locale, variant: text.variant, path: page.path.slice(1) }, pageFile(locale, `/lander-variants/${text.variant}${page.path}`), { page, text });
    }
  }
  return paths;
}
