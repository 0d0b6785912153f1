import { join, posix } from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Tenant } from '../../../tenant/schema.ts';
import { LOCALE_COOKIE, type Locale } from '../../../lib/locales.ts';
import { readCookie } from '../../../lib/cookies.ts';
import { TRACKING_KEYS } from '../../../contract/enums.ts';
import type { TenantRegistry } from '../../registry.ts';
import type { BrandOutputs } from '../../brand-output.ts';
import type { Services } from '../../services/index.ts';
import { createPageCache } from '../page-cache.ts';
import { SHELL_FOLDER, shellFile, shellOf } from '../member-shells.ts';
import { PageAnswer } from '../page-answer.ts';
import { BAN_PAGE } from '../../services/suspension.ts';
import { landerFile, VARIANT_FOLDER } from '../landers.ts';

/** The prerendered page at an address in a locale: its path relative to the client folder, and its clean address. */
function prerenderedPage(registry: TenantRegistry, id: string, locale: string, pathname: string): { file: string; path: string } | undefined {
  // One slash between segments: /%2Fshells/… must not reach the shells below by the back door.
  const clean = pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  // The member shells are answered at the routes' own addresses, to members only (member-shells.ts),
  // and a lander's variants at the lander's (landers.ts).
  if (clean.split('/').some((segment) => segment.startsWith('.')) || clean.startsWith('/l/') || [SHELL_FOLDER, VARIANT_FOLDER].includes(clean.split('/')[1]!)) return undefined;
  const relative = posix.join('l', locale, clean, 'index.html');
  return registry.hasPage(id, relative) ? { file: relative, path: clean || '/' } : undefined;
}

/**
 * Whether an address names the folder of the brand's static output (l/{locale}/…, however it is
 * written): its files are answered at other addresses (prerenderedPage, the shells, the landers'
 * variants), and the pages that render them are nobody's address.
 */
function inStaticOutput(pathname: string): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Malformed %-encoding: compared as written.
  }
  return /^\/l(\/|$)/.test(decoded.replace(/\/{2,}/g, '/'));
}

/**
 * The brand's pages (DESIGN §8): prerendered pages and member shells from memory with the
 * build's brotli and gzip copies, the rest from the brand's Astro handler, whose answer Fastify
 * sends (and compresses) like any other.
 */
export const pagesPlugin: FastifyPluginAsync<{ registry: TenantRegistry; outputs?: BrandOutputs; services: Services }> = async (app, { registry, outputs, services }) => {
  const pages = createPageCache();

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
    if (request.url.startsWith('/api/')) return app.notFound(request, reply);
    // A session cookie is looked up on every page: a suspended member's shows /pages/ban (issue 22).
    const withSession = request.method === 'POST' || readCookie(request.headers.cookie, services.sessions.cookieName) !== null || languageNeedsSession(request);
    const visitor = await app.visit(request, reply, withSession);
    const { tenant } = visitor;
    // A path that starts with // would be read as another host's (//l/nl/: host "l", path /nl/):
    // one leading slash keeps the whole path a path, as prerenderedPage reads doubled slashes.
    const url = new URL(request.url.replace(/^\/{2,}/, '/'), 'http://localhost');
    if (request.sessionSuspended && !url.pathname.startsWith('/pages/')) return reply.header('cache-control', 'no-store').redirect(BAN_PAGE, 303);
    // A brand with no output yet, or whose folder changed since, has it rendered now (a page of
    // one with no output is written before the rest when a visitor asks for it: outputs.page).
    await outputs?.ready(tenant);
    if (!registry.isBuilt(tenant.id)) {
      return reply.code(503).type('text/plain; charset=utf-8').send(`The brand "${tenant.id}" is not built yet: run \`npx sitegen build ${tenant.id}\`.\n`);
    }
    if (inStaticOutput(url.pathname)) return app.sendErrorPage(request, reply, 404);
    if (request.method !== 'POST') {
      let pathname: string;
      try {
        pathname = decodeURIComponent(url.pathname);
      } catch {
        return app.sendErrorPage(request, reply, 404); // malformed %-encoding names no page
      }
      // The error pages are answers with their own status, not pages to open at /404 or /error
      // (however the path is written: /404//, //error/).
      if (/^\/(404|error)$/.test(pathname.replace(/\/+/g, '/').replace(/(.)\/$/, '$1'))) return app.sendErrorPage(request, reply, 404);
      const prerendered = prerenderedPage(registry, tenant.id, visitor.locale, pathname);
      if (prerendered) {
        const { file, private: personal } = await landerFile({ registry, traffic: services.traffic }, request, reply, { tenant, locale: visitor.locale, ...prerendered });
        await outputs?.page(tenant.id, file);
        return pages.send(request, reply, await pages.get(join(registry.clientDir(tenant.id), file), registry.buildStamp(tenant.id)!), { private: personal });
      }
      // A page a member opens most: the brand's member shell in the member's language (member-shells.ts).
      const shell = shellOf(pathname);
      if (shell) {
        const member = await app.visit(request, reply);
        const user = request.sessionState?.user;
        const file = shellFile(member.locale, shell.route);
        if (user && registry.hasPage(tenant.id, file)) {
          if (shell.profileId !== undefined) {
            const viewer = { userId: user.id, profileId: user.profile?.id ?? null };
            if (shell.profileId === null || !(await services.profiles.canOpen(tenant, shell.profileId, viewer))) return app.sendErrorPage(request, reply, 404);
          }
          await outputs?.page(tenant.id, file);
          return pages.send(request, reply, await pages.get(join(registry.clientDir(tenant.id), file), registry.buildStamp(tenant.id)!), { private: true });
        }
      }
    }
    const handler = await registry.handler(tenant.id);
    if (!handler) return app.sendErrorPage(request, reply, 404);
    // A server-rendered page needs the member (whose saved language may choose another locale).
    const member = await app.visit(request, reply);
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
    // The Astro handler writes its answer into a stream that the reply sends: its status and
    // headers (which win over those set so far, as on a Node response) once known, then the body.
    const answer = new PageAnswer(request.raw);
    let unmatched = false;
    const rendered = handler(request.raw, answer as never, () => void ((unmatched = true), answer.end()), locals);
    try {
      await Promise.race([answer.head, rendered]);
    } catch (error) {
      request.log.error({ err: error, path: url.pathname }, 'page failed');
      return app.sendErrorPage(request, reply, 500);
    }
    rendered.catch((error: unknown) => {
      request.log.error({ err: error, path: url.pathname }, 'page failed');
      answer.destroy(error as Error);
    });
    if (unmatched) return app.sendErrorPage(request, reply, 404);
    // A handler that returned without a word: an empty answer rather than one that never ends.
    if (!answer.headersSent) answer.end();
    reply.code(answer.statusCode).header('cache-control', 'private, no-cache');
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) reply.header(name, value);
    return reply.send(answer.empty ? undefined : answer);
  }
  app.route({ method: ['GET', 'HEAD', 'POST'], url: '/', handler: page });
  app.route({ method: ['GET', 'HEAD', 'POST'], url: '/*', handler: page });
};
