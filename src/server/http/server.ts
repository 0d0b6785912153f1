import { readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, normalize, posix, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyFormbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import compression from 'compression';
import type { LoggerOptions } from 'pino';
import { resolveTenant } from '../../tenant/resolve.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { chooseLocale, visibleLocales, LOCALE_COOKIE, type Locale } from '../../lib/locales.ts';
import { readCookie, serializeCookie } from '../../lib/cookies.ts';
import { TRACKING_KEYS } from '../../contract/enums.ts';
import { countryFromHeaders, countryOfIp, normaliseIp } from '../data/geoip.ts';
import { fromTrustedProxy, proxyTrust, type TrustProxy } from './proxy.ts';
import { ICON_CACHE, ICON_PATH, iconEtag, tablerSvg } from '../icons.ts';
import { stickerSvg } from '../data/gifs.ts';
import { brandIconSvg } from '../../lib/theme.ts';

/** The push service worker, read once. */
const SERVICE_WORKER = readFileSync(join(import.meta.dirname, '..', 'static', 'sw.js'));

/** A sticker of the offline GIF library. */
const GIF_PATH = /^\/gifs\/([a-z0-9-]{1,40})\.svg$/;
import { MEDIA_PATH } from '../media.ts';
import { message } from '../i18n.ts';
import type { TenantRegistry } from '../registry.ts';
import type { Services, Session } from '../services/index.ts';
import { OTHER_BODY, registerApi, sendAppError } from './api.ts';
import { asAppError } from './failures.ts';
import { AppError, notFound as notFoundError } from '../errors.ts';
import type { AnyRoute, Visitor } from './routes.ts';
import { createPageCache } from './page-cache.ts';
import { SHELL_FOLDER, shellFile, shellOf } from './member-shells.ts';

/** Largest JSON body the API reads (uploads are multipart and have their own limit). */
export const JSON_BODY_LIMIT = 64 * 1024;
/** Hashed build assets never change under their name: a year, immutable. */
const ASSET_MAX_AGE_MS = 365 * 86_400_000;
/** Brand files (logo, lander images) may change with the next build. */
const BRAND_MAX_AGE_MS = 3_600_000;

/**
 * Header-only CSP directives; Astro writes script-src and style-src with hashes into each page.
 * frame-ancestors only works as a header.
 */
const CSP_HEADER = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'";

/** The pino levels at which the request line (info) is written. */
const INFO_OR_BELOW = new Set(['trace', 'debug', 'info']);

export interface HttpOptions {
  registry: TenantRegistry;
  services: Services;
  routes: AnyRoute[];
  /** The tenant serving hosts that match none (the first tenant when not set). */
  defaultTenant?: string;
  /** The proxies in front whose X-Forwarded-For/-Proto/-Host and country headers are believed (TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** Production: Secure cookies and HSTS. */
  production: boolean;
  /** pino options for the request log; false for none (tests). */
  logger: LoggerOptions | false;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The brand of the Host header (set for every request). */
    tenant: Tenant;
    /** The visitor and the session, once `visit()` worked them out (API routes and pages). */
    visitorState: Visitor | null;
    sessionState: Session | null;
    /** Whether the session was looked up (at most once a request). */
    sessionChecked: boolean;
  }
}

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

/** The path of a prerendered page in a locale, relative to the client folder, or undefined. */
function prerenderedPage(registry: TenantRegistry, id: string, locale: string, pathname: string): string | undefined {
  // One slash between segments: /%2Fshells/… must not reach the shells below by the back door.
  const clean = pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  // The member shells are answered at the routes' own addresses, to members only (member-shells.ts).
  if (clean.split('/').some((segment) => segment.startsWith('.')) || clean.startsWith('/l/') || clean.split('/')[1] === SHELL_FOLDER) return undefined;
  const relative = posix.join('l', locale, clean, 'index.html');
  return registry.hasPage(id, relative) ? relative : undefined;
}

/**
 * The HTTP runtime (DESIGN §8): Fastify in front of every brand. Static files first (no
 * session), then the brand and visitor, the session, and the declared API routes or the brand's
 * Astro pages.
 */
export async function createHttp(options: HttpOptions) {
  const { registry, services, production } = options;
  const trust = proxyTrust(options.trustProxy);
  const app: FastifyInstance = Fastify({
    // request.ip is the nearest address that is not a trusted proxy; request.protocol and
    // request.host take X-Forwarded-Proto/-Host only from a trusted socket peer (proxy.ts).
    trustProxy: trust,
    logger: options.logger === false ? false : { ...options.logger, redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'] },
    // One line a request from the onResponse hook below instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: JSON_BODY_LIMIT,
    routerOptions: { ignoreDuplicateSlashes: false, maxParamLength: 500 },
    return503OnClosing: true,
    forceCloseConnections: true,
    // A path the router cannot even decode (/members/%) names no page: the brand's 404 page.
    frameworkErrors: (error, req, res) => {
      const [request, reply] = [req as FastifyRequest, res as FastifyReply];
      if (error.code !== 'FST_ERR_BAD_URL') return void reply.code(400).send();
      const tenant = resolveTenant(registry.tenants(), request.headers.host, options.defaultTenant);
      if (!tenant) return void reply.code(404).send();
      request.tenant = tenant;
      securityHeaders(reply.raw, production);
      void sendErrorPage(request, reply, 404);
    },
  });
  const compressPage = compression({ threshold: 1024 });
  const pages = createPageCache();

  app.decorateRequest('tenant', null as unknown as Tenant);
  app.decorateRequest('visitorState', null);
  app.decorateRequest('sessionState', null);
  app.decorateRequest('sessionChecked', false);

  // ---- Body parsers: JSON for the API, forms for outside callers, multipart left to the upload route.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const parseJson = (text: string) => (text.length === 0 ? undefined : (JSON.parse(text) as unknown));
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    try {
      done(null, parseJson(text as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // A body without a Content-Type is read as JSON (programs that send JSON bare); a body of another
  // type is left unread: a route that declares a body refuses it (415), the others ignore it.
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, text, done) => {
    if (req.headers['content-type'] !== undefined) {
      done(null, (text as string).length > 0 ? OTHER_BODY : undefined);
      return;
    }
    try {
      done(null, parseJson(text as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null, undefined));
  // Loaded before any route is declared: compression hooks onto the routes declared after it.
  await app.register(fastifyFormbody, { bodyLimit: JSON_BODY_LIMIT });
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
  // Builds carry brotli and gzip copies of their text files (cli/precompress.ts), sent as they are.
  await app.register(fastifyStatic, { root: registry.distDir, serve: false, etag: true, lastModified: true, cacheControl: false, dotfiles: 'deny', preCompressed: true });

  // ---- Every request: security headers and the brand of its Host.
  app.addHook('onRequest', async (request, reply) => {
    securityHeaders(reply.raw, production);
    const tenant = resolveTenant(registry.tenants(), request.headers.host, options.defaultTenant);
    if (!tenant) {
      return reply.code(503).type('text/plain; charset=utf-8').send('No tenant is configured: run `npx sitegen new <id> --domain <domain>`.\n');
    }
    request.tenant = tenant;
  });
  app.addHook('onResponse', async (request, reply) => {
    // One line a request: its brand, route and outcome; never the query (mail-link tokens) or cookies.
    // (Built only when info is logged: production logs warnings.)
    if (!INFO_OR_BELOW.has(request.log.level)) return;
    request.log.info({ brand: request.tenant?.id, method: request.method, path: request.url.split('?')[0], route: request.routeOptions.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  // ---- The visitor: address, country, language; then the session, which may bring a saved language.
  function localeOf(request: FastifyRequest, tenant: Tenant, country: string | null, userLanguage: string | null): Locale {
    return chooseLocale({
      cookie: readCookie(request.headers.cookie, LOCALE_COOKIE),
      userLanguage,
      domainLanguage: tenant.domain_language,
      tenantLocales: tenant.locales.available,
      defaultLocale: tenant.locales.default,
      country,
    });
  }

  function visitorOf(request: FastifyRequest): Visitor {
    if (request.visitorState) return request.visitorState;
    const tenant = request.tenant;
    const ip = normaliseIp(request.ip) ?? '';
    const country = countryFromHeaders(request.headers, fromTrustedProxy(trust, request.raw.socket.remoteAddress)) ?? countryOfIp(ip || undefined);
    request.visitorState = { tenant, locale: localeOf(request, tenant, country, null), locales: visibleLocales(tenant.locales.available, country), country, ip };
    return request.visitorState;
  }

  /** The visitor with the session (one look-up a request); the member's saved language counts (SPEC §1). */
  async function visit(request: FastifyRequest, reply: FastifyReply, withSession = true): Promise<Visitor> {
    const visitor = visitorOf(request);
    if (withSession && !request.sessionChecked) {
      const session = await services.sessions.fromRequest(request.raw, visitor.tenant);
      request.sessionState = session;
      request.sessionChecked = true;
      if (session?.user.language) request.visitorState = { ...visitor, locale: localeOf(request, visitor.tenant, visitor.country, session.user.language) };
    }
    // The visitor's country, readable by the scripts of prerendered pages (entry warning rules).
    if (visitor.country && readCookie(request.headers.cookie, 'country') !== visitor.country) {
      reply.header('set-cookie', serializeCookie('country', visitor.country, { maxAgeSeconds: 86400, secure: production }));
    }
    return request.visitorState!;
  }

  // ---- Error pages: the brand's prerendered 404 and error pages in the visitor's language.
  const errorPages = new Map<string, { stamp: number; html: Buffer }>();
  function errorPageHtml(tenant: Tenant, locale: Locale, status: 404 | 500): Buffer | undefined {
    const path = fileUnder(registry.clientDir(tenant.id), join('l', locale, status === 404 ? '404' : 'error', 'index.html'));
    if (!path) return undefined;
    const stamp = statSync(path).mtimeMs;
    const known = errorPages.get(path);
    if (known?.stamp === stamp) return known.html;
    const html = readFileSync(path);
    errorPages.set(path, { stamp, html });
    return html;
  }

  function errorPageBody(request: FastifyRequest, status: 404 | 500): { type: string; body: Buffer | string } {
    const visitor = visitorOf(request);
    const page = errorPageHtml(visitor.tenant, visitor.locale, status);
    if (page) return { type: 'text/html; charset=utf-8', body: page };
    // Without its built page the error cannot be shown as a page: SPEC §8 has words for that.
    return { type: 'text/plain; charset=utf-8', body: status === 404 ? 'This page could not be found' : message('error_in_error_page', visitor.locale, {}, visitor.tenant.locales.fallback) };
  }

  function sendErrorPage(request: FastifyRequest, reply: FastifyReply, status: 404 | 500 | 503): FastifyReply {
    const { type, body } = errorPageBody(request, status === 404 ? 404 : 500);
    return reply.code(status).header('cache-control', 'no-store').type(type).send(body);
  }

  /** The same page written on a response the Astro handler had taken over. */
  function writeErrorPage(request: FastifyRequest, res: ServerResponse, status: 404 | 500): void {
    if (res.headersSent) return void res.end();
    const { type, body } = errorPageBody(request, status);
    res.statusCode = status;
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', 'no-store');
    res.end(body);
  }

  const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

  // ---- Static files, before any session look-up (DESIGN §8).
  app.get('/icons/tabler/*', async (request, reply) => {
    const match = ICON_PATH.exec(request.url.split('?')[0]!);
    const svg = match ? tablerSvg(match[1]!) : undefined;
    if (!svg) return sendErrorPage(request, reply, 404);
    const etag = iconEtag();
    reply.header('cache-control', ICON_CACHE).header('etag', etag).type('image/svg+xml');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(svg);
  });
  app.get('/sw.js', (_request, reply) =>
    // The push service worker (src/server/static/sw.js), for the whole site; browsers check it for updates.
    reply.header('cache-control', 'no-cache').header('service-worker-allowed', '/').type('text/javascript; charset=utf-8').send(SERVICE_WORKER),
  );
  app.get('/favicon.ico', (request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(brandIconSvg(request.tenant.theme.primary)),
  );
  await app.register(import('./brand-files.ts'), { registry }); // manifest, app icons, robots.txt, sitemap.xml
  app.get('/gifs/*', async (request, reply) => {
    // The offline GIF library (src/server/data/gifs.ts): drawn once per process, never changed.
    const match = GIF_PATH.exec(request.url.split('?')[0]!);
    const svg = match ? stickerSvg(match[1]!) : undefined;
    if (!svg) return sendErrorPage(request, reply, 404);
    return reply.header('cache-control', ICON_CACHE).type('image/svg+xml').send(svg);
  });
  app.get('/_assets/*', (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    return reply.sendFile(`${request.tenant.id}/client/_assets/${rest}`, { maxAge: ASSET_MAX_AGE_MS, immutable: true, cacheControl: true });
  });
  app.get('/brand/*', (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    return reply.sendFile(`${request.tenant.id}/client/brand/${rest}`, { maxAge: BRAND_MAX_AGE_MS, cacheControl: true });
  });
  app.get('/media/*', async (request, reply) => {
    // Photo names are random and never reused: browsers and CDNs may keep them for a year.
    const match = MEDIA_PATH.exec(request.url.split('?')[0]!);
    if (!match) return sendErrorPage(request, reply, 404);
    const name = `${match[1]}/${match[2]}`;
    // A photo that is not active (waiting for screening, or rejected) is its owner's alone: served
    // with the owner's session only, never stored by a shared cache (issue 22).
    const access = await services.photos.mediaAccess(name);
    if (access && access.status !== 'active') {
      const session = await services.sessions.fromRequest(request.raw, request.tenant);
      if (!session || access.userId === null || session.user.id !== access.userId) return sendErrorPage(request, reply, 404);
      return reply.header('cache-control', 'private, no-store').sendFile(name, services.mediaDir, { cacheControl: false });
    }
    return reply.sendFile(name, services.mediaDir, { maxAge: ASSET_MAX_AGE_MS, immutable: true, cacheControl: true });
  });

  // ---- The API (declared routes) and the pages.
  registerApi(app, options.routes, { services, production, visit, sendErrorPage, wantsHtml });

  /** What names nothing: the brand's 404 page, or for a program calling the API, its JSON. */
  function notFound(request: FastifyRequest, reply: FastifyReply) {
    if (!request.url.startsWith('/api/') || wantsHtml(request)) return sendErrorPage(request, reply, 404);
    return sendAppError(request, reply, notFoundError(), visitorOf(request));
  }

  /**
   * Whether a member's saved language could choose the page's language: only on a brand of several
   * languages and without a language cookie (which wins, SPEC §1). Otherwise a prerendered page is
   * the same for members and visitors, and no session is looked up for it.
   */
  function languageNeedsSession(request: FastifyRequest): boolean {
    return request.tenant.locales.available.length > 1 && !readCookie(request.headers.cookie, LOCALE_COOKIE);
  }

  /** The counts a member's page shows at once: unread messages and new likes. */
  async function memberCounts(tenant: Tenant, member: { userId: number; profileId: number }) {
    const [unread, newLikes] = await Promise.all([services.chat.unreadCount(member), services.likes.newCount(tenant, member)]);
    return { unread, newLikes };
  }

  async function page(request: FastifyRequest, reply: FastifyReply) {
    if (request.url.startsWith('/api/')) return notFound(request, reply);
    const visitor = await visit(request, reply, request.method === 'POST' || languageNeedsSession(request));
    const { tenant } = visitor;
    const url = new URL(request.url, 'http://localhost');
    if (!registry.isBuilt(tenant.id)) {
      return reply.code(503).type('text/plain; charset=utf-8').send(`The brand "${tenant.id}" is not built yet: run \`npx sitegen build ${tenant.id}\`.\n`);
    }
    if (request.method !== 'POST') {
      let pathname: string;
      try {
        pathname = decodeURIComponent(url.pathname);
      } catch {
        return sendErrorPage(request, reply, 404); // malformed %-encoding names no page
      }
      // The error pages are answers with their own status, not pages to open at /404 or /error
      // (however the path is written: /404//, //error/).
      if (/^\/(404|error)$/.test(pathname.replace(/\/+/g, '/').replace(/(.)\/$/, '$1'))) return sendErrorPage(request, reply, 404);
      const prerendered = prerenderedPage(registry, tenant.id, visitor.locale, pathname);
      if (prerendered) return pages.send(request, reply, pages.get(join(registry.clientDir(tenant.id), prerendered), registry.buildStamp(tenant.id)!));
      // A page a member opens most: the brand's member shell in the member's language (member-shells.ts).
      const shell = shellOf(pathname);
      if (shell) {
        const member = await visit(request, reply);
        const user = request.sessionState?.user;
        const file = shellFile(member.locale, shell.route);
        if (user && registry.hasPage(tenant.id, file)) {
          if (shell.profileId !== undefined) {
            const viewer = { userId: user.id, profileId: user.profile?.id ?? null };
            if (shell.profileId === null || !(await services.profiles.canOpen(tenant, shell.profileId, viewer))) return sendErrorPage(request, reply, 404);
          }
          return pages.send(request, reply, pages.get(join(registry.clientDir(tenant.id), file), registry.buildStamp(tenant.id)!), { private: true });
        }
      }
    }
    const handler = await registry.handler(tenant.id);
    if (!handler) return sendErrorPage(request, reply, 404);
    // A server-rendered page needs the member (whose saved language may choose another locale).
    const member = await visit(request, reply);
    const session = request.sessionState;
    const locals: App.Locals = {
      tenant,
      locale: member.locale,
      locales: member.locales,
      country: member.country,
      user: session?.user ?? null,
      trafficSource: TRACKING_KEYS.some((p) => url.searchParams.has(p)),
      saveLanguage: session ? async (locale: Locale) => void (await services.accounts.saveSettings(session.user.id, { language: locale })) : undefined,
      services,
      // The title prefix, the messages badge and the likes badge (SPEC §2).
      counts: session?.user.profile ? await memberCounts(tenant, { userId: session.user.id, profileId: session.user.profile.id }) : undefined,
    };
    // The Astro handler writes the answer itself: the headers so far go onto the Node response.
    const res = reply.raw;
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value as string | string[]);
    res.setHeader('Cache-Control', 'private, no-cache');
    reply.hijack();
    try {
      await new Promise<void>((resolve, reject) => {
        compressPage(request.raw as never, res as never, () => {
          handler(request.raw, res, () => writeErrorPage(request, res, 404), locals).then(resolve, reject);
        });
      });
    } catch (error) {
      request.log.error({ err: error, path: url.pathname }, 'page failed');
      writeErrorPage(request, res, 500);
    }
  }
  app.route({ method: ['GET', 'HEAD', 'POST'], url: '/', handler: page });
  app.route({ method: ['GET', 'HEAD', 'POST'], url: '/*', handler: page });

  // ---- What matched no route, and failures.
  app.setNotFoundHandler(async (request, reply) => {
    if (!request.url.startsWith('/api/') && !['GET', 'HEAD', 'POST'].includes(request.method)) {
      return reply.code(405).header('allow', 'GET, HEAD, POST').send();
    }
    // A browser that opens an unknown address (API included) sees the brand's 404 page.
    return notFound(request, reply);
  });

  app.setErrorHandler(async (error, request, reply) => {
    if (reply.raw.headersSent) {
      reply.raw.destroy();
      return;
    }
    if (!request.tenant) return reply.code(500).type('text/plain; charset=utf-8').send('Error');
    const refusal = asAppError(error);
    if (!refusal || refusal.status >= 500) request.log.error({ err: error, path: request.url.split('?')[0] }, refusal ? 'unavailable' : 'request failed');
    const isApi = request.url.startsWith('/api/');
    try {
      if (isApi && !(refusal?.status === 404 && wantsHtml(request))) {
        return await sendAppError(request, reply, refusal ?? asServerError(), visitorOf(request));
      }
      // A page gets the brand's error page ('Error', status 500 or 503) or its 404 page.
      if (refusal?.status === 404) return sendErrorPage(request, reply, 404);
      return sendErrorPage(request, reply, refusal?.status === 503 ? 503 : 500);
    } catch (inner) {
      request.log.error({ err: inner }, 'error page failed');
      return reply.code(500).type('text/plain; charset=utf-8').send('Error');
    }
  });

  return {
    app,
    async listen(port: number, host = '0.0.0.0'): Promise<string> {
      await app.listen({ port, host });
      const { port: bound } = app.server.address() as AddressInfo;
      return `http://localhost:${bound}`;
    },
    close: () => app.close(),
  };
}

function asServerError(): AppError {
  return new AppError('server_error', 500, { key: 'error_generic' });
}
