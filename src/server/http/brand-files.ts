/**
 * The files that make a brand installable and findable, each drawn from its tenant file: the web
 * app manifest with its icons (installed-app mode, SPEC §2), /robots.txt and /sitemap.xml. Static
 * answers: no session is looked up for them (DESIGN §8).
 */
import type { FastifyPluginAsync } from 'fastify';
import sharp from 'sharp';
import type { Tenant } from '../../tenant/schema.ts';
import type { TenantRegistry } from '../registry.ts';
import { brandIconSvg, brandMaskableIconSvg, PAGE_BACKGROUND } from '../../lib/theme.ts';
import { LANDER_NAMES } from '../../lib/slugs.ts';
import { ROUTES, STATIC_PAGES } from '../../lib/routes.ts';
import { tenantSlugs } from '../../site/static-paths.ts';

/** The manifest's address, linked from every page's head (src/layouts/Base.astro). */
export const MANIFEST_PATH = '/manifest.webmanifest';

/** Where an installed app opens: the members search, the post-login home (SPEC §2). */
const START_URL = '/members';

/** The icons browsers ask for: 192 and 512 for launchers and splash screens, a maskable one, 180 for iOS. */
export const APP_ICONS = [
  { file: 'icon-192.png', size: 192, purpose: 'any' },
  { file: 'icon-512.png', size: 512, purpose: 'any' },
  { file: 'icon-maskable-512.png', size: 512, purpose: 'maskable' },
  { file: 'apple-touch-icon.png', size: 180, purpose: 'any' },
] as const;
type AppIcon = (typeof APP_ICONS)[number];
const ICON_PATH = /^\/app-icons\/([a-z0-9-]+\.png)$/;

/** Launchers show at most about 12 characters under an icon. */
const SHORT_NAME_LENGTH = 12;
/** The brand files may change with a tenant file: an hour. */
const BRAND_FILE_CACHE = 'public, max-age=3600';

/** The web app manifest of a brand (W3C Web Application Manifest). */
export function manifestOf(tenant: Tenant) {
  const lang = tenant.locales.default;
  return {
    id: '/',
    name: tenant.name,
    short_name: shortName(tenant.name),
    description: tenant.description[lang] ?? tenant.name,
    lang,
    dir: 'ltr',
    start_url: START_URL,
    scope: '/',
    display: 'standalone',
    theme_color: tenant.theme.primary,
    background_color: PAGE_BACKGROUND,
    categories: ['social', 'lifestyle'],
    icons: APP_ICONS.filter((icon) => icon.file !== 'apple-touch-icon.png').map((icon) => ({
      src: `/app-icons/${icon.file}`,
      sizes: `${icon.size}x${icon.size}`,
      type: 'image/png',
      purpose: icon.purpose,
    })),
  };
}

/** The name under a launcher icon: the brand name, or its first word when that is too long. */
function shortName(name: string): string {
  if (name.length <= SHORT_NAME_LENGTH) return name;
  const first = name.split(/\s+/)[0]!;
  return first.length <= SHORT_NAME_LENGTH ? first : first.slice(0, SHORT_NAME_LENGTH);
}

/** The brand's address on the web: its main domain, always https. */
const origin = (tenant: Tenant) => `https://${tenant.domain}`;

/**
 * robots.txt: the member area (every route that is not open to visitors), the API and the language
 * switch are not for crawlers; the sitemap is named on the brand's own domain.
 */
export function robotsTxt(tenant: Tenant): string {
  const closed = new Set(['/api/', '/lang-config']);
  for (const route of ROUTES) if (route.guard !== 'guest') closed.add(`/${route.path.split('/')[1]}`);
  return ['User-agent: *', ...[...closed].map((path) => `Disallow: ${path}`), '', `Sitemap: ${origin(tenant)}/sitemap.xml`, ''].join('\n');
}

interface SitemapEntry {
  path: string;
  /** The same page in each language (hreflang -> path), with x-default; empty for a page of one address. */
  alternates: [string, string][];
}

/**
 * Every public page of a brand, as its build prerenders them (src/pages/l/[locale]): the home,
 * the landers, the static pages, and the niche slugs with the landers under them. A slug names its
 * language (/milf-de), so a slug's page in each language is an alternate of the others; the home,
 * the landers and the static pages answer in the visitor's language at one address (x-default).
 * `built` tells whether the build has a page (the path as under client/l/<locale>/).
 */
export function sitemapEntries(tenant: Tenant, built: (path: string) => boolean = () => true): SitemapEntry[] {
  const several = tenant.locales.available.length > 1;
  const landers = LANDER_NAMES.filter((name) => tenant.landers.includes(name));
  const oneAddress = ['/', ...(tenant.landers.includes('tinderswipe') ? ['/landers/tinderswipe'] : []), ...landers.map((name) => `/landers/${name}`), ...STATIC_PAGES.map((page) => `/pages/${page}`)];
  const entries: SitemapEntry[] = oneAddress.filter(built).map((path) => ({ path, alternates: several ? [['x-default', path]] : [] }));
  // Each niche: its slug in every language, and each lander under that slug.
  const slugs = tenantSlugs(tenant);
  const byNiche = Map.groupBy(slugs, (s) => s.niche);
  for (const prefix of ['', ...landers.map((name) => `/landers/${name}`)]) {
    for (const group of byNiche.values()) {
      const pages = group.map((s) => ({ locale: s.locale, path: `${prefix}/${s.slug}` })).filter((p) => built(p.path));
      const fallback = pages.find((p) => p.locale === tenant.locales.default) ?? pages[0];
      const alternates: [string, string][] = several ? pages.map((p) => [p.locale, p.path]) : [];
      if (several && fallback) alternates.push(['x-default', fallback.path]);
      for (const page of pages) entries.push({ path: page.path, alternates });
    }
  }
  // Two locales of one language (en, en-US) share their slugs: each address once.
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.path) && Boolean(seen.add(e.path)));
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** sitemap.xml (sitemaps.org 0.9, with xhtml:link alternates for the languages). */
export function sitemapXml(tenant: Tenant, built?: (path: string) => boolean): string {
  const base = origin(tenant);
  const url = (path: string) => escapeXml(base + path);
  const rows = sitemapEntries(tenant, built).map(
    (e) =>
      `<url><loc>${url(e.path)}</loc>${e.alternates.map(([lang, path]) => `<xhtml:link rel="alternate" hreflang="${escapeXml(lang)}" href="${url(path)}"/>`).join('')}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${rows.join('\n')}\n</urlset>\n`;
}

/** An app icon of a brand as PNG, drawn once per brand colour and size for the life of the process. */
const iconCache = new Map<string, Promise<Buffer>>();
function appIcon(tenant: Tenant, icon: AppIcon): Promise<Buffer> {
  const primary = tenant.theme.primary;
  const key = `${tenant.id}:${primary}:${icon.file}`;
  let png = iconCache.get(key);
  if (!png) {
    const svg = icon.purpose === 'maskable' ? brandMaskableIconSvg(primary) : brandIconSvg(primary);
    // The SVG is 32 units wide: drawn at the size's density, not scaled up from 32 pixels.
    png = sharp(Buffer.from(svg), { density: (72 * icon.size) / 32 }).resize(icon.size, icon.size).png().toBuffer();
    png.catch(() => iconCache.delete(key));
    iconCache.set(key, png);
  }
  return png;
}

/** The path as under client/l/<locale>/ of the brand's build: /pages/terms -> l/nl/pages/terms/index.html. */
const builtPage = (registry: TenantRegistry, tenant: Tenant) => (path: string) =>
  !registry.isBuilt(tenant.id) || registry.hasPage(tenant.id, `l/${tenant.locales.default}${path === '/' ? '' : path}/index.html`);

/** The brand files as a Fastify plugin; server.ts registers it among the static files. */
const brandFiles: FastifyPluginAsync<{ registry: TenantRegistry }> = async (app, { registry }) => {
  app.get(MANIFEST_PATH, (request, reply) =>
    reply.header('cache-control', BRAND_FILE_CACHE).type('application/manifest+json; charset=utf-8').send(JSON.stringify(manifestOf(request.tenant))),
  );
  app.get('/app-icons/*', async (request, reply) => {
    const file = ICON_PATH.exec(request.url.split('?')[0]!)?.[1];
    const icon = APP_ICONS.find((i) => i.file === file);
    if (!icon) return reply.callNotFound();
    return reply.header('cache-control', BRAND_FILE_CACHE).type('image/png').send(await appIcon(request.tenant, icon));
  });
  app.get('/robots.txt', (request, reply) => reply.header('cache-control', BRAND_FILE_CACHE).type('text/plain; charset=utf-8').send(robotsTxt(request.tenant)));
  app.get('/sitemap.xml', (request, reply) =>
    reply.header('cache-control', BRAND_FILE_CACHE).type('application/xml; charset=utf-8').send(sitemapXml(request.tenant, builtPage(registry, request.tenant))),
  );
};

export default brandFiles;
