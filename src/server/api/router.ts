import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../errors.ts';
import { hasMessage, message } from '../i18n.ts';
import { readCookie } from '../../lib/cookies.ts';
import { hostName } from '../../tenant/resolve.ts';
import type { ApiContext, ApiResult, ApiRoute } from './context.ts';
import type { Services, Session } from '../services/index.ts';
import type { Visitor } from '../http.ts';
import { publicRoutes } from './public.ts';
import { accountRoutes } from './accounts.ts';
import { photoRoutes } from './photos.ts';
import { searchRoutes } from './search.ts';

/** Largest JSON body the API reads (uploads are multipart and have their own limit). */
export const JSON_BODY_LIMIT = 64 * 1024;

/** Every endpoint, by its name under /api/ (API.md). */
const ROUTES: Record<string, ApiRoute> = { ...publicRoutes, ...accountRoutes, ...photoRoutes, ...searchRoutes };


const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/**
 * A state-changing call must come from the brand's own pages: a browser's Origin (or, without one,
 * Sec-Fetch-Site) must name the same host. Calls without either come from non-browser clients.
 */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin) {
    try {
      return hostName(new URL(origin).host) === hostName(req.headers.host);
    } catch {
      return false;
    }
  }
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) return reject(new AppError('payload_too_large', 413, { key: 'error_payload_too_large' }));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        reject(new AppError('payload_too_large', 413, { key: 'error_payload_too_large' }));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.statusCode = status;
  res.setHeader('Cache-Control', 'no-store');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (status === 204 || body === undefined) {
    res.end();
    return;
  }
  // A handler that sets its own Content-Type (an HTML page) sends its body as it is.
  if (typeof body === 'string' && res.hasHeader('Content-Type')) {
    res.end(body);
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

export interface ApiRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  visitor: Visitor;
  services: Services;
  session: Session | null | undefined;
  production: boolean;
}

/** Answers one /api/* request: route, Origin check, body parsing, errors in the member's language. */
export async function handleApi({ req, res, url, visitor, services, session }: ApiRequest): Promise<void> {
  const name = url.pathname.slice('/api/'.length);
  const route = Object.hasOwn(ROUTES, name) ? ROUTES[name] : undefined;
  const method = (req.method ?? 'GET').toUpperCase();
  const locale = visitor.locale;
  const fail = (error: AppError) => {
    // A refusal whose key the catalogue lacks still answers with its status and a generic text.
    const key = hasMessage(error.messageKey) ? error.messageKey : error.status < 500 ? 'error_bad_request' : 'error_generic';
    const text = message(key, locale, error.params, visitor.tenant.locales.fallback);
    const { retry_after, ...extra } = error.extra;
    send(res, error.status, {
      error: { code: error.code, message: text, ...(error.field ? { field: error.field } : {}) },
      ...extra,
    }, retry_after ? { 'Retry-After': String(retry_after) } : {});
  };
  if (!route) return fail(new AppError('not_found', 404, { key: 'error_not_found_api' }));
  const handler = route[(method === 'HEAD' ? 'GET' : method) as keyof ApiRoute];
  if (!handler) {
    res.setHeader('Allow', Object.keys(route).join(', '));
    return fail(new AppError('method_not_allowed', 405, { key: 'error_method' }));
  }
  if (STATE_CHANGING.has(method) && !sameOrigin(req)) return fail(new AppError('forbidden_origin', 403, { key: 'error_origin' }));

  let parsed: { done: boolean; value: unknown } = { done: false, value: undefined };
  const pendingCookies: string[] = [];
  const ctx: ApiContext = {
    req,
    res,
    method,
    url,
    query: url.searchParams,
    tenant: visitor.tenant,
    locale,
    country: visitor.country,
    ip: visitor.ip,
    services,
    session: session ?? null,
    async body() {
      if (parsed.done) return parsed.value;
      const raw = await readBody(req, JSON_BODY_LIMIT);
      let value: unknown;
      if (raw.length > 0) {
        const type = req.headers['content-type'] ?? '';
        if (type && !type.includes('json')) throw new AppError('unsupported_media_type', 415, { key: 'error_bad_request' });
        try {
          value = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new AppError('invalid_json', 400, { key: 'error_bad_request' });
        }
      }
      parsed = { done: true, value };
      return value;
    },
    setCookie(value) {
      pendingCookies.push(value);
    },
    cookie(cookieName) {
      return readCookie(req.headers.cookie, cookieName);
    },
  };
  try {
    const result = (await handler(ctx)) as ApiResult | unknown;
    for (const c of pendingCookies) res.appendHeader('Set-Cookie', c);
    if (res.writableEnded || res.headersSent) return;
    const isResult = typeof result === 'object' && result !== null && ('status' in result || 'body' in result);
    const r: ApiResult = isResult ? (result as ApiResult) : { body: result };
    send(res, r.status ?? 200, r.body, r.headers);
  } catch (error) {
    for (const c of pendingCookies) res.appendHeader('Set-Cookie', c);
    if (error instanceof AppError) return fail(error);
    console.error(`api ${method} ${url.pathname}:`, error);
    fail(new AppError('server_error', 500, { key: 'error_generic' }));
  }
}
