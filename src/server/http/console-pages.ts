import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../../lib/cookies.ts';
import { CONSOLE_LOCALE_COOKIE, consoleLocaleOf, type ConsoleLocale } from '../../lib/console-locale.ts';
import type { ConsoleService } from '../services/console.ts';

/** The console's one build under the builds folder (`sitegen build`): an id no tenant can have. */
export const CONSOLE_BUILD = '_console';
/** Hashed build assets never change under their name: a year, immutable (as the brands' assets). */
const ASSET_MAX_AGE_MS = 365 * 86_400_000;
/** Pages anyone may open: the login (with the enrolment of the second factor) and the set-password page of an enrolment link. */
const PUBLIC_PAGES = new Set(['login', 'enrol']);
/** Where a logged-in visit to /console/ lands. */
export const CONSOLE_HOME = '/console/members';
const SEGMENT = /^[a-z0-9-]{1,40}$/;

/** The console's language of a request: the switch's cookie, else the browser's first preference. */
export const consoleLocale = (request: FastifyRequest): ConsoleLocale =>
  consoleLocaleOf(readCookie(request.headers.cookie, CONSOLE_LOCALE_COOKIE) ?? undefined, request.headers['accept-language']);

/**
 * The prerendered file of a console path in a language, or null when the path names no page.
 * A numeric last segment (`members/42`) is served by the `id` page of its folder, which reads the id
 * from the address (console/src/pages/[locale]/members/id.astro).
 */
export function consolePageFile(pathname: string, locale: ConsoleLocale): { page: string; file: string } | null {
  const segments = pathname.replace(/^\/console\/?/, '').replace(/\/$/, '').split('/').filter(Boolean);
  if (!segments.length || !segments.every((s) => SEGMENT.test(s))) return null;
  const last = segments.length - 1;
  if (last > 0 && /^\d+$/.test(segments[last]!)) segments[last] = 'id';
  if (segments.includes('_assets')) return null;
  return { page: segments[0]!, file: `${locale}/${segments.join('/')}/index.html` };
}

/**
 * The console's pages and assets on CONSOLE_HOST (DESIGN §11), served like a brand's prerendered
 * pages and hashed assets (plugins/static.ts): the build's brotli and gzip copies, ETags, a year
 * and immutable for assets. A page is the prerendered shell of the visitor's console language; a
 * page other than the login without a staff session goes to the login, with the address to return to.
 */
export async function consolePagesPlugin(app: FastifyInstance, options: { distDir: string; console: ConsoleService; isConsoleHost: (request: FastifyRequest) => boolean }): Promise<void> {
  const root = join(options.distDir, CONSOLE_BUILD);
  await app.register(fastifyStatic, { root, serve: false, etag: true, lastModified: true, cacheControl: false, dotfiles: 'deny', preCompressed: true });

  const notFound = (reply: FastifyReply) => reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found');

  app.get('/console/_assets/*', { config: { console: true } }, (request, reply) => {
    if (!options.isConsoleHost(request)) return reply.callNotFound();
    const rest = (request.params as { '*': string })['*'];
    if (!/^[\w.-]+$/.test(rest) || !existsSync(join(root, '_assets', rest))) return notFound(reply);
    return reply.sendFile(`_assets/${rest}`, { maxAge: ASSET_MAX_AGE_MS, immutable: true, cacheControl: true });
  });

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!options.isConsoleHost(request)) return reply.callNotFound();
    const [pathname, query = ''] = request.url.split('?') as [string, string?];
    const session = await options.console.fromCookie(request.headers.cookie);
    reply.header('cache-control', 'private, no-cache').header('vary', 'Cookie, Accept-Language');
    if (/^\/console\/?$/.test(pathname)) return reply.redirect(session ? CONSOLE_HOME : '/console/login', 303);
    const locale = consoleLocale(request);
    const found = consolePageFile(pathname, locale);
    if (!found || !existsSync(join(root, found.file))) return notFound(reply);
    if (!session && !PUBLIC_PAGES.has(found.page)) return reply.redirect(`/console/login?next=${encodeURIComponent(pathname + (query ? `?${query}` : ''))}`, 303);
    reply.header('content-language', locale);
    return reply.sendFile(found.file, { cacheControl: false });
  };
  app.get('/console', { config: { console: true } }, page);
  app.get('/console/*', { config: { console: true } }, page);
}
