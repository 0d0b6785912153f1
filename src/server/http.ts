import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import compression from 'compression';
import { TenantRegistry } from './registry.ts';
import { resolveTenant } from '../tenant/resolve.ts';
import type { Tenant } from '../tenant/schema.ts';
import { chooseLocale, visibleLocales, LOCALE_COOKIE, type Locale } from '../lib/locales.ts';
import { readCookie, serializeCookie } from '../lib/cookies.ts';
import { handleApi } from './api/router.ts';
import type { Services } from './services/index.ts';
import { clientIp, countryFromHeaders, countryOfIp } from './data/geoip.ts';
import { serveMedia } from './media.ts';
import { ICON_CACHE, ICON_PATH, iconEtag, tablerSvg } from './icons.ts';
import { message } from './i18n.ts';

export interface RuntimeOptions {
  port: number;
  host?: string;
  tenantsDir: string;
  distDir: string;
  services: Services;
  /** The tenant serving hosts that match none (the first tenant when not set). */
  defaultTenant?: string;
  /** Trust X-Forwarded-For and a country header from a proxy in front. */
  trustProxy?: boolean;
  /** Production: Secure cookies and HSTS. */
  production?: boolean;
  log?: (line: string) => void;
}

/** The visitor as the runtime sees one request. */
export interface Visitor {
  tenant: Tenant;
  locale: Locale;
  locales: Locale[];
  country: string | null;
  ip: string;
}

const TEXT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const BINARY_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.mp4': 'video/mp4',
};
const CONTENT_TYPES = { ...TEXT_TYPES, ...BINARY_TYPES };

/** Hashed build assets never change under their name: a year, immutable. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Pages and brand files may change with the next build. */
const PAGE_CACHE = 'no-cache';

/**
 * Header-only CSP directives; Astro writes script-src and style-src with hashes into each page.
 * frame-ancestors only works as a header.
 */
const CSP_HEADER = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'";

function securityHeaders(res: ServerResponse, production: boolean): void {
  res.setHeader('Content-Security-Policy', CSP_HEADER);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('Permissions-Policy', 'geolocation=(self), camera=(), microphone=(), payment=()');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  if (production) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}

/** A file under a root, or undefined; refuses paths that climb out of the root. */
function fileUnder(root: string, relative: string): string | undefined {
  const path = normalize(join(root, relative));
  if (path !== root && !path.startsWith(root + sep)) return undefined;
  try {
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The answer shared by files and generated bodies: type, caching and ETag headers, a 304 when
 * the browser holds this version already, no body for HEAD, else `write` sends the content.
 */
function sendCacheable(req: IncomingMessage, res: ServerResponse, status: number, type: string, cache: string, etag: string, write: () => void): void {
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', cache);
  res.setHeader('ETag', etag);
  if (status === 200 && req.headers['if-none-match'] === etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = status;
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  write();
}

function sendFile(req: IncomingMessage, res: ServerResponse, path: string, status: number, cache: string): void {
  const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  const stat = statSync(path);
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  sendCacheable(req, res, status, type, cache, etag, () => createReadStream(path).pipe(res));
}

/** The prerendered page of a path in a locale: dist/<id>/client/l/<locale>/<path>/index.html. */
function prerenderedPage(clientDir: string, locale: string, pathname: string): string | undefined {
  const clean = pathname.replace(/\/+$/, '');
  if (clean.split('/').some((segment) => segment.startsWith('.') || segment === 'l' && clean.startsWith('/l/'))) return undefined;
  return fileUnder(clientDir, join('l', locale, clean, 'index.html'));
}

export function createRuntime(options: RuntimeOptions) {
  const log = options.log ?? ((line: string) => console.log(line));
  const registry = new TenantRegistry({ tenantsDir: options.tenantsDir, distDir: options.distDir, onError: log });
  const compress = compression({ threshold: 1024 });
  const production = options.production ?? false;

  /** The visitor before the session is known: address, country and the language without a user record. */
  function visitorOf(req: IncomingMessage, tenant: Tenant): Visitor {
    const ip = clientIp(req.socket.remoteAddress, req.headers, options.trustProxy ?? false) ?? '';
    const country = countryFromHeaders(req.headers, options.trustProxy ?? false) ?? countryOfIp(ip || undefined);
    const locales = visibleLocales(tenant.locales.available, country);
    return { tenant, locale: localeOf(req, tenant, country, null), locales, country, ip };
  }

  function localeOf(req: IncomingMessage, tenant: Tenant, country: string | null, userLanguage: string | null): Locale {
    return chooseLocale({
      cookie: readCookie(req.headers.cookie, LOCALE_COOKIE),
      userLanguage,
      domainLanguage: tenant.domain_language,
      tenantLocales: tenant.locales.available,
      defaultLocale: tenant.locales.default,
      country,
    });
  }

  async function serveErrorPage(req: IncomingMessage, res: ServerResponse, visitor: Visitor, status: 404 | 500): Promise<void> {
    const clientDir = registry.clientDir(visitor.tenant.id);
    const page = fileUnder(clientDir, join('l', visitor.locale, status === 404 ? '404' : 'error', 'index.html'));
    if (!res.headersSent) {
      if (page) return sendFile(req, res, page, status, PAGE_CACHE);
      res.statusCode = status;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    }
    // Without its built page the error cannot be shown as a page: SPEC §8 has words for that.
    res.end(status === 404 ? 'This page could not be found' : message('error_in_error_page', visitor.locale, {}, visitor.tenant.locales.fallback));
  }

  /** What a failed request still knows of its visitor, for the error page. */
  type Failure = { visitor?: Visitor };

  async function handle(req: IncomingMessage, res: ServerResponse, failure: Failure): Promise<void> {
    securityHeaders(res, production);
    const tenants = registry.tenants();
    const tenant = resolveTenant(tenants, req.headers.host, options.defaultTenant);
    if (!tenant) {
      res.statusCode = 503;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('No tenant is configured: run `npx sitegen new <id> --domain <domain>`.\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    // Icons are the same for every brand and visitor: served before any session lookup. An
    // unknown name goes on to the brand's 404 page.
    const icon = ICON_PATH.exec(url.pathname);
    const svg = icon && (req.method === 'GET' || req.method === 'HEAD') ? tablerSvg(icon[1]!) : undefined;
    if (svg) return sendCacheable(req, res, 200, 'image/svg+xml', ICON_CACHE, iconEtag(), () => res.end(svg));
    let visitor = visitorOf(req, tenant);
    failure.visitor = visitor;
    const session = await options.services.sessions.fromRequest(req, tenant);
    // A member's saved language counts once the session is known (SPEC §1).
    if (session?.user.language) {
      visitor = { ...visitor, locale: localeOf(req, tenant, visitor.country, session.user.language) };
      failure.visitor = visitor;
    }
    // The visitor's country, readable by the scripts of prerendered pages (entry warning rules).
    if (visitor.country && readCookie(req.headers.cookie, 'country') !== visitor.country) {
      res.appendHeader('Set-Cookie', serializeCookie('country', visitor.country, { maxAgeSeconds: 86400, secure: production }));
    }

    if (url.pathname.startsWith('/api/')) {
      await handleApi({ req, res, url, visitor, services: options.services, session, production });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
      res.statusCode = 405;
      res.setHeader('Allow', 'GET, HEAD, POST');
      res.end();
      return;
    }

    const clientDir = registry.clientDir(tenant.id);
    if (!registry.isBuilt(tenant.id)) {
      res.statusCode = 503;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end(`The brand "${tenant.id}" is not built yet: run \`npx sitegen build ${tenant.id}\`.\n`);
      return;
    }
    if (req.method !== 'POST') {
      if (url.pathname.startsWith('/media/') && serveMedia(req, res, options.services.mediaDir, url.pathname)) return;
      if (url.pathname.startsWith('/_assets/')) {
        const asset = fileUnder(clientDir, url.pathname);
        if (asset) return sendFile(req, res, asset, 200, ASSET_CACHE);
        return serveErrorPage(req, res, visitor, 404);
      }
      if (url.pathname.startsWith('/brand/')) {
        const file = fileUnder(clientDir, url.pathname);
        if (file) return sendFile(req, res, file, 200, 'public, max-age=3600');
      }
      let pathname: string;
      try {
        pathname = decodeURIComponent(url.pathname);
      } catch {
        return serveErrorPage(req, res, visitor, 404); // malformed %-encoding names no page
      }
      // The error pages are answers with their own status, not pages to open at /404 or /error
      // (however the path is written: /404//, //error/).
      if (/^\/(404|error)$/.test(pathname.replace(/\/+/g, '/').replace(/(.)\/$/, '$1'))) return serveErrorPage(req, res, visitor, 404);
      const page = prerenderedPage(clientDir, visitor.locale, pathname);
      if (page) return sendFile(req, res, page, 200, PAGE_CACHE);
    }

    const handler = await registry.handler(tenant.id);
    if (!handler) return serveErrorPage(req, res, visitor, 404);
    const locals = {
      tenant,
      locale: visitor.locale,
      locales: visitor.locales,
      country: visitor.country,
      user: session?.user ?? null,
      trafficSource: ['network', 'ref', 'sub1', 'sub2', 'sub3'].some((p) => url.searchParams.has(p)),
      nonce: randomBytes(12).toString('base64'),
      saveLanguage: session ? async (locale: Locale) => void (await options.services.accounts.saveSettings(session.user.id, { language: locale })) : undefined,
      services: options.services,
    };
    res.setHeader('Cache-Control', 'private, no-cache');
    await handler(req, res, () => void serveErrorPage(req, res, visitor, 404), locals);
  }

  const server: Server = createServer((req, res) => {
    compress(req as never, res as never, () => {
      const failure: Failure = {};
      handle(req, res, failure).catch(async (error: unknown) => {
        const describe = (e: unknown) => (e instanceof Error ? (e.stack ?? e.message) : String(e));
        log(`runtime: ${req.method} ${req.url}: ${describe(error)}`);
        if (res.headersSent) return void res.destroy();
        const { visitor } = failure;
        try {
          // An API call gets JSON; a page gets the brand's error page ('Error', status 500) in the
          // visitor's language; plain words when the visitor is unknown or the error page fails.
          if (visitor && req.url?.startsWith('/api/')) {
            res.statusCode = 500;
            res.setHeader('Content-Type', 'application/json; charset=utf-8');
            return void res.end(JSON.stringify({ error: { code: 'server_error', message: message('error_generic', visitor.locale, {}, visitor.tenant.locales.fallback) } }));
          }
          if (visitor) return await serveErrorPage(req, res, visitor, 500);
        } catch (inner) {
          log(`runtime: error page for ${req.url}: ${describe(inner)}`);
          if (res.headersSent) return void res.destroy();
        }
        res.statusCode = 500;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end('Error');
      });
    });
  });

  return {
    server,
    registry,
    listen(): Promise<string> {
      return new Promise((resolve) => {
        server.listen(options.port, options.host ?? '0.0.0.0', () => {
          const { port } = server.address() as AddressInfo;
          resolve(`http://localhost:${port}`);
        });
      });
    },
    close(): Promise<void> {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
