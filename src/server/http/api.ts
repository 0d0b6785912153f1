import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, authRequired } from '../errors.ts';
import { hasMessage, message } from '../i18n.ts';
import { readCookie } from '../../lib/cookies.ts';
import { MIN_AGE } from '../../lib/account-rules.ts';
import { forbiddenTextPath } from '../../contract/text.ts';
import type { Services } from '../services/index.ts';
import { suspendedError } from '../services/suspension.ts';
import { brandOrigin, sameOrigin } from './origin.ts';
import { jsonTextOf } from '../json-text.ts';
import type { AnyRoute, EventSink, Method, Result, RouteContext, Visitor } from './routes.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
/** A comment line on an idle event stream now and then, so proxies keep it open. */
const HEARTBEAT_MS = 25_000;

interface ApiDeps {
  services: Services;
  /** Production: the brand's links that leave the site are https (RouteContext.origin). */
  production: boolean;
  visit(request: FastifyRequest, reply: FastifyReply, withSession?: boolean): Promise<Visitor>;
  sendErrorPage(request: FastifyRequest, reply: FastifyReply, status: 404): FastifyReply;
  wantsHtml(request: FastifyRequest): boolean;
  /** Tests: every 2xx JSON answer is parsed by its route's answer schema; a mismatch is a 500 (and a log line). */
  checkAnswers?: boolean;
}

/**
 * The answer check of tests (config `checkAnswers`): a JSON answer its route does not declare, or
 * one its answer schema refuses, throws, so the answer types of src/contract cannot drift from
 * what the services give.
 */
export function checkAnswer(route: AnyRoute, result: Result): void {
  if (result.kind !== 'json' || result.status >= 300) return;
  const name = `${route.method} /api/${route.path}`;
  if (!route.answer || typeof route.answer === 'string') throw new Error(`${name} answered JSON but declares no answer schema`);
  const parsed = route.answer.safeParse(result.body);
  if (!parsed.success) throw new Error(`${name}: the answer does not match its schema: ${z.prettifyError(parsed.error)}`);
  const text = jsonTextOf(result.body);
  if (text !== undefined && text !== JSON.stringify(result.body)) throw new Error(`${name}: the answer's kept JSON text differs from its serialization`);
}

/** A refusal as API.md "Errors" writes it, in the visitor's language, with Retry-After for 429 and 503. */
export function sendAppError(request: FastifyRequest, reply: FastifyReply, error: AppError, visitor: Visitor): FastifyReply {
  // A refusal whose key the catalogue lacks still answers with its status and a generic text.
  const key = hasMessage(error.messageKey) ? error.messageKey : error.status < 500 ? 'error_bad_request' : 'error_generic';
  const text = message(key, visitor.locale, error.params, visitor.tenant.locales.fallback);
  const { retry_after, ...extra } = error.extra;
  if (retry_after) reply.header('retry-after', String(retry_after));
  return reply
    .code(error.status)
    .header('cache-control', 'no-store')
    .send({ error: { code: error.code, message: text, ...(error.field ? { field: error.field } : {}) }, ...extra });
}

/** A body of a type the API does not read (neither JSON nor a form): refused where a body is declared. */
export const OTHER_BODY = Symbol('other body');

function isJsonRequest(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return request.body !== OTHER_BODY && (type === undefined || /^application\/json\b/i.test(type));
}

/** The first problem of a refused body or query, as a 400 naming its field with that field's message. */
function refusal(error: z.ZodError, messages: AnyRoute['messages']): AppError {
  const first = error.issues[0];
  // A union's own issue names no field; the first issue of its branches that names one does.
  const issue = first?.code === 'invalid_union' && first.path.length === 0 ? (first.errors.flat().find((i) => i.path.length > 0) ?? first) : first;
  return fieldRefusal(issue?.path.length ? String(issue.path[0]) : undefined, messages);
}

/** A 400 naming a (top-level) field, with the message the route declares for it or the generic one. */
function fieldRefusal(field: string | undefined, messages: AnyRoute['messages']): AppError {
  const code = field ? messages?.[field] : undefined;
  return new AppError(code ?? 'invalid_input', 400, { key: code ?? 'error_bad_request', field, params: { min_age: MIN_AGE } });
}

function matches(route: AnyRoute, params: URLSearchParams, body: unknown): boolean {
  const { variant } = route;
  if (!variant) return true;
  if (variant.query && !Object.entries(variant.query).every(([name, value]) => params.get(name) === value)) return false;
  if (variant.bodyHas && !(typeof body === 'object' && body !== null && variant.bodyHas in body)) return false;
  return true;
}

/**
 * Registers the declared routes (DESIGN §8) and enforces what each declares: who may call it,
 * the Origin check, the body or query schema; then answers with the handler's explicit result.
 */
export function registerApi(app: FastifyInstance, routes: AnyRoute[], deps: ApiDeps): void {
  const byPath = new Map<string, Map<Method, AnyRoute[]>>();
  for (const r of routes) {
    const methods = byPath.get(r.path) ?? new Map<Method, AnyRoute[]>();
    const list = methods.get(r.method) ?? [];
    list.push(r);
    // Routes with a variant are tried first; the one without answers the rest.
    list.sort((a, b) => Number(!a.variant) - Number(!b.variant));
    methods.set(r.method, list);
    byPath.set(r.path, methods);
  }

  for (const [path, methods] of byPath) {
    const allow = [...methods.keys(), ...(methods.has('GET') ? ['HEAD'] : [])].join(', ');
    for (const [method, candidates] of methods) {
      app.route({
        method,
        url: `/api/${path}`,
        handler: async (request, reply) => {
          const params = new URL(request.url, 'http://localhost').searchParams;
          const route = candidates.find((r) => matches(r, params, request.body));
          if (!route) throw new AppError('method_not_allowed', 405, { key: 'error_method' });
          const visitor = await deps.visit(request, reply, route.who !== 'outside');
          if (route.who !== 'outside' && (route.origin ?? STATE_CHANGING.has(method)) && !sameOrigin(request)) {
            throw new AppError('forbidden_origin', 403, { key: 'error_origin' });
          }
          // A suspended member's session opens nothing: every call answers with the ban page (issue 22).
          if (request.sessionSuspended && route.who !== 'outside') throw suspendedError(visitor.tenant);
          const session = request.sessionState;
          if (route.who === 'member' && !session) throw authRequired();
          // Text a person cannot type (NUL, other controls, lone surrogates) in any field of the body
          // or the query string, also one a handler reads itself: refused before any schema (issue 20).
          const queryInput = Object.fromEntries([...new Set(params.keys())].map((k) => [k, params.getAll(k).length > 1 ? params.getAll(k) : params.get(k)]));
          const hostile = (route.body ? forbiddenTextPath(request.body) : null) ?? forbiddenTextPath(queryInput);
          if (hostile) throw fieldRefusal(hostile.length ? String(hostile[0]) : undefined, route.messages);
          let body: unknown;
          if (route.body) {
            if (request.body === OTHER_BODY || (route.who !== 'outside' && !isJsonRequest(request))) throw new AppError('unsupported_media_type', 415, { key: 'error_bad_request' });
            const parsed = route.body.safeParse(request.body ?? {});
            if (!parsed.success) throw refusal(parsed.error, route.messages);
            body = parsed.data;
          }
          let query: unknown;
          if (route.query) {
            const parsed = route.query.safeParse(queryInput);
            if (!parsed.success) throw refusal(parsed.error, route.messages);
            query = parsed.data;
          }
          const ctx: RouteContext<unknown, unknown, 'visitor'> = {
            req: request.raw,
            res: reply.raw,
            method,
            tenant: visitor.tenant,
            locale: visitor.locale,
            country: visitor.country,
            ip: visitor.ip,
            get origin() {
              return brandOrigin(request, visitor.tenant, deps.production);
            },
            services: deps.services,
            session,
            body,
            query,
            params,
            setCookie: (value) => void reply.header('set-cookie', value),
            cookie: (name) => readCookie(request.headers.cookie, name),
            header: (name) => {
              const value = request.headers[name.toLowerCase()];
              return Array.isArray(value) ? value[0] : value;
            },
            t: (key, values = {}) => message(key, visitor.locale, values, visitor.tenant.locales.fallback),
          };
          const result = await route.handler(ctx as never);
          if (deps.checkAnswers) checkAnswer(route, result);
          return answer(request, reply, result);
        },
      });
    }
    // Another method on a known endpoint: 405 with the methods it has.
    app.route({
      method: ['PATCH', 'OPTIONS', ...(['GET', 'POST', 'PUT', 'DELETE'] as const).filter((m) => !methods.has(m))],
      url: `/api/${path}`,
      handler: async (_request, reply) => {
        reply.header('allow', allow);
        throw new AppError('method_not_allowed', 405, { key: 'error_method' });
      },
    });
  }
}

/** Sends a handler's result as it says: JSON, a redirect, an HTML page, nothing, or an event stream. */
function answer(request: FastifyRequest, reply: FastifyReply, result: Result): FastifyReply | void {
  switch (result.kind) {
    case 'json':
      for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      {
        // An answer made from kept JSON parts is sent as its text, with the type Fastify gives an object.
        const text = jsonTextOf(result.body);
        if (text !== undefined) return reply.code(result.status).header('content-type', 'application/json; charset=utf-8').send(text);
      }
      return reply.code(result.status).send(result.body);
    case 'redirect':
      return reply.header('cache-control', 'no-store').redirect(result.location, result.status);
    case 'html':
      return reply.code(result.status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(result.html);
    case 'empty':
      return reply.code(result.status).header('cache-control', 'no-store').send();
    case 'stream':
      return openStream(request, reply, result.open);
    case 'file':
      return sendFile(reply, result);
  }
}

/** A download: no caching, saved under its file name (RFC 6266; the name is ASCII by construction). */
export function sendFile(reply: FastifyReply, result: Extract<Result, { kind: 'file' }>): FastifyReply {
  return reply
    .code(result.status)
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="${result.filename.replace(/[^\w.-]/g, '_')}"`)
    .type(result.type)
    .send(result.body);
}

/** A server-sent-events stream (DESIGN §9): written straight to the socket, never compressed or buffered. */
export function openStream(request: FastifyRequest, reply: FastifyReply, open: (sink: EventSink) => void | Promise<void>): void {
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value as string | string[]);
  reply.hijack();
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
    Connection: 'keep-alive',
  });
  res.flushHeaders();
  const listeners: (() => void)[] = [];
  let closed = false;
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    for (const listener of listeners) listener();
    if (!res.writableEnded) res.end();
  };
  request.raw.on('close', close);
  res.on('close', close);
  const sink: EventSink = {
    send(event, data, id) {
      if (closed) return;
      res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
    close,
  };
  res.write(': open\n\n');
  Promise.resolve(open(sink)).catch((error: unknown) => {
    request.log.error({ err: error }, 'event stream failed');
    close();
  });
}
