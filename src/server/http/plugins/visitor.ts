import type { ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hostName } from '../../../tenant/resolve.ts';
import type { Tenant } from '../../../tenant/schema.ts';
import { chooseLocale, visibleLocales, LOCALE_COOKIE, type Locale } from '../../../lib/locales.ts';
import { readCookie, serializeCookie } from '../../../lib/cookies.ts';
import { countryFromHeaders, countryOfIp, normaliseIp } from '../../data/geoip.ts';
import { fromTrustedProxy, type ProxyTrust } from '../proxy.ts';
import type { TenantRegistry } from '../../registry.ts';
import type { Services, Session } from '../../services/index.ts';
import type { Visitor } from '../routes.ts';

/**
 * Header-only CSP directives; Astro writes script-src and style-src with hashes into each page.
 * frame-ancestors only works as a header.
 */
const CSP_HEADER = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'";

/** The pino levels at which the request line (info) is written. */
const INFO_OR_BELOW = new Set(['trace', 'debug', 'info']);

export interface VisitorOptions {
  registry: TenantRegistry;
  services: Services;
  /** The tenant serving hosts that match none (the first tenant when not set). */
  defaultTenant?: string;
  /** Which socket peers are trusted proxies (TRUST_PROXY): their country headers are believed. */
  trust: ProxyTrust | false;
  /** Production: Secure cookies and HSTS. */
  production: boolean;
  /** The operator console's host name: no brand answers on it (http/console.ts). */
  consoleHost?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The brand of the Host header (set for every request). */
    tenant: Tenant;
    /** The visitor and the session, once `visit()` worked them out (API routes and pages). */
    visitorState: Visitor | null;
    sessionState: Session | null;
    /** The session cookie is a suspended member's (sessions.ts SessionLookup): the answer is /pages/ban. */
    sessionSuspended: boolean;
    /** Whether the session was looked up (at most once a request). */
    sessionChecked: boolean;
  }
  interface FastifyInstance {
    /** The visitor of a request: brand, address, country, language (no session). */
    visitorOf(request: FastifyRequest): Visitor;
    /** The visitor with the session (one look-up a request); the member's saved language counts (SPEC §1). */
    visit(request: FastifyRequest, reply: FastifyReply, withSession?: boolean): Promise<Visitor>;
  }
}

export function securityHeaders(res: ServerResponse, production: boolean): void {
  res.setHeader('Content-Security-Policy', CSP_HEADER);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('Permissions-Policy', 'geolocation=(self), camera=(), microphone=(), payment=()');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  if (production) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}

/**
 * Every request (DESIGN §8): security headers, the brand of its Host, one log line; then, for the
 * API and pages that ask, the visitor (address, country, language) and the session.
 */
export const visitorPlugin = fp<VisitorOptions>(
  async (app, options) => {
    const { registry, services, production, trust } = options;

    app.decorateRequest('tenant', null as unknown as Tenant);
    app.decorateRequest('visitorState', null);
    app.decorateRequest('sessionState', null);
    app.decorateRequest('sessionChecked', false);
    app.decorateRequest('sessionSuspended', false);

    // ---- Every request: security headers and the brand of its Host.
    app.addHook('onRequest', async (request, reply) => {
      securityHeaders(reply.raw, production);
      if (options.consoleHost && hostName(request.headers.host) === options.consoleHost) return; // the console (http/console.ts)
      const tenant = registry.tenantFor(request.headers.host, options.defaultTenant);
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
        const { session, suspended } = await services.sessions.lookup(request.raw, visitor.tenant);
        request.sessionState = session;
        request.sessionSuspended = suspended;
        request.sessionChecked = true;
        if (session?.user.language) request.visitorState = { ...visitor, locale: localeOf(request, visitor.tenant, visitor.country, session.user.language) };
      }
      // The visitor's country, readable by the scripts of prerendered pages (entry warning rules).
      if (visitor.country && readCookie(request.headers.cookie, 'country') !== visitor.country) {
        reply.header('set-cookie', serializeCookie('country', visitor.country, { maxAgeSeconds: 86400, secure: production }));
      }
      return request.visitorState!;
    }

    app.decorate('visitorOf', visitorOf);
    app.decorate('visit', visit);
  },
  { name: 'visitor', fastify: '5.x' },
);
