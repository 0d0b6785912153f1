import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError, authRequired, notFound } from '../errors.ts';
import { hasMessage, message } from '../i18n.ts';
import { hostName } from '../../tenant/resolve.ts';
import { normaliseIp } from '../data/geoip.ts';
import { sameOrigin } from './origin.ts';
import { asAppError } from './failures.ts';
import { may } from '../../contract/console.ts';
import { forbiddenTextPath } from '../../contract/text.ts';
import type { Services } from '../services/index.ts';
import { brandsToQuery } from '../services/brand-scope.ts';
import { CONSOLE_ROUTES, type AnyConsoleRoute, type ConsoleResult } from '../console/routes.ts';
import { consoleLocale, consolePagesPlugin } from './console-pages.ts';
import type { Result } from './routes.ts';
import { openStream, sendFile } from './api.ts';
import { uploadsPlugin } from './plugins/uploads.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route of the console: the only routes the console host answers (registerConsole's hook). */
    console?: boolean;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

export interface ConsoleOptions {
  services: Services;
  /** CONSOLE_HOST: the host name the console answers on (no port). */
  host: string;
  production: boolean;
  /** The builds folder: the console's one build is its _console folder (console-pages.ts). */
  distDir: string;
  /** The console's routes (default CONSOLE_ROUTES; tests may add one to see the matrix test fail). */
  routes?: AnyConsoleRoute[];
}

/** Whether a request is for the console (its Host is CONSOLE_HOST, any port). */
export const isConsoleHost = (request: FastifyRequest, host: string) => hostName(request.headers.host) === host;

function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const key = hasMessage(error.messageKey) ? error.messageKey : error.status < 500 ? 'error_bad_request' : 'error_generic';
  const { retry_after, ...extra } = error.extra;
  if (retry_after) reply.header('retry-after', String(retry_after));
  return reply
    .code(error.status)
    .header('cache-control', 'no-store')
    .send({ error: { code: error.code, message: message(key, consoleLocale(request), error.params, 'en'), ...(error.field ? { field: error.field } : {}) }, ...extra });
}

function refusal(error: z.ZodError): AppError {
  const issue = error.issues[0];
  const field = issue?.path.length ? String(issue.path[0]) : undefined;
  return new AppError('invalid_input', 400, { key: 'error_bad_request', field });
}

async function answer(request: FastifyRequest, reply: FastifyReply, result: ConsoleResult, options: ConsoleOptions): Promise<FastifyReply | void> {
  reply.header('cache-control', 'no-store');
  switch (result.kind) {
    case 'media': {
      // Staff-only photos, from the media store: never kept by a shared cache.
      const body = await options.services.media.get(result.name);
      if (!body) throw notFound();
      return reply.code(200).header('cache-control', 'private, no-store').type(result.type).send(body);
    }
    case 'json':
      for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
      return reply.code(result.status).send(result.body);
    case 'empty':
      return reply.code(result.status).send();
    case 'html':
      return reply.code(result.status).type('text/html; charset=utf-8').send(result.html);
    case 'redirect':
      return reply.redirect(result.location, result.status);
    case 'file':
      return sendFile(reply, result);
    case 'stream':
      return openStream(request, reply, result.open);
  }
}

/**
 * The operator console (issue 22, DESIGN §11) on its own host: its JSON API under /api/console/
 * (CONSOLE_ROUTES, each enforcing its permission and brand scope) and its pages (console-pages.ts). A brand's host
 * answers 404 for all of it; the console host answers nothing of the brands.
 */
export function registerConsole(app: FastifyInstance, options: ConsoleOptions): void {
  const { services } = options;
  const consoleService = services.console;
  const routes = options.routes ?? CONSOLE_ROUTES;

  // The console host serves the console and nothing else (no brand, no member session).
  app.addHook('onRequest', async (request, reply) => {
    const console = request.routeOptions.config?.console === true;
    if (isConsoleHost(request, options.host)) {
      if (console) return;
      if (request.url === '/' || request.url.startsWith('/?')) return reply.redirect('/console/', 302);
      return reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found');
    }
  });

  const define = (scope: FastifyInstance, route: AnyConsoleRoute) =>
    scope.route({
      method: route.method,
      url: `/api/console/${route.path}`,
      config: { console: true },
      errorHandler: (error, request, reply) => {
        const known = asAppError(error);
        if (known) return sendError(request, reply, known);
        request.log.error({ err: error, path: request.url.split('?')[0] }, 'console request failed');
        return sendError(request, reply, new AppError('server_error', 500, { key: 'error_generic' }));
      },
      handler: async (request, reply) => {
        // A brand's host has no console: its own JSON 404 from the not-found handler.
        if (!isConsoleHost(request, options.host)) return reply.callNotFound();
        const ip = normaliseIp(request.ip) ?? '';
        if (STATE_CHANGING.has(route.method) && !sameOrigin(request)) throw new AppError('forbidden_origin', 403, { key: 'error_origin' });
        // Only a staff cookie opens the console; a member's session cookie is not even read.
        const session = await consoleService.fromCookie(request.headers.cookie);
        if (route.roles !== 'public') {
          if (!session) throw authRequired();
          if (!may(session.staff.role, route.roles)) {
            await consoleService.refused(session.staff, `${route.method} /api/console/${route.path}`, ip);
            throw new AppError('forbidden', 403, { key: 'error_forbidden' });
          }
        }
        const parse = (schema: z.ZodType | undefined, value: unknown) => {
          if (!schema) return undefined;
          const parsed = schema.safeParse(value);
          if (!parsed.success) throw refusal(parsed.error);
          return parsed.data;
        };
        const searchParams = new URL(request.url, 'http://localhost').searchParams;
        // Text a person cannot type, in any field of the body or the query: refused before any schema,
        // as on the member API (src/contract/text.ts, issue 20).
        const hostile = forbiddenTextPath(request.body) ?? forbiddenTextPath(Object.fromEntries(searchParams)) ?? forbiddenTextPath(request.params);
        if (hostile) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: hostile.length ? String(hostile[0]) : undefined });
        const params = parse(route.params, request.params);
        const query = parse(route.query, Object.fromEntries(searchParams));
        if (route.body && request.body !== undefined && (typeof request.body !== 'object' || request.body === null)) throw new AppError('unsupported_media_type', 415, { key: 'error_bad_request' });
        const body = parse(route.body, request.body ?? {});
        // A brand outside the staff member's scope does not exist for them (404), not even as `?brand=`.
        const brand = (query as { brand?: string } | undefined)?.brand;
        if (route.scoped && session) brandsToQuery(session.staff, brand);
        const result = await route.handler({
          console: consoleService,
          services,
          session: session as never,
          body,
          query,
          params,
          ip,
          setCookie: (value: string) => void reply.header('set-cookie', value),
          req: request.raw,
          res: reply.raw,
        } as never);
        return await answer(request, reply, result, options);
      },
    });
  for (const route of routes.filter((r) => !r.upload)) define(app, route);
  // Uploads read their multipart body through @fastify/multipart (DESIGN §8), as the member API's do;
  // its parser lives in a scope of their own, so every other console route reads bodies as before.
  const uploads = routes.filter((r) => r.upload);
  if (uploads.length) {
    void app.register(async (scope) => {
      await scope.register(uploadsPlugin);
      for (const route of uploads) define(scope, route);
    });
  }

  // The pages: the console's one Astro build, prerendered per language (console/, console-pages.ts).
  void app.register(consolePagesPlugin, { distDir: options.distDir, console: consoleService, isConsoleHost: (request) => isConsoleHost(request, options.host) });
}
