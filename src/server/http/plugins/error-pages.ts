import { readFileSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tenant } from '../../../tenant/schema.ts';
import type { Locale } from '../../../lib/locales.ts';
import { message } from '../../i18n.ts';
import type { TenantRegistry } from '../../registry.ts';
import { sendAppError } from '../api.ts';
import { asAppError } from '../failures.ts';
import { AppError, notFound as notFoundError } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The brand's 404 or error page in the visitor's language (`Error` for 500 and 503). */
    sendErrorPage(request: FastifyRequest, reply: FastifyReply, status: 404 | 500 | 503): FastifyReply;
    /** What names nothing: the brand's 404 page, or for a program calling the API, its JSON. */
    notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply;
  }
}

/** Whether the caller is a browser opening a page (rather than a program calling the API). */
export const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

/** A file under a root, or undefined; refuses paths that climb out of the root. */
export function fileUnder(root: string, relative: string): string | undefined {
  const path = normalize(join(root, relative));
  if (path !== root && !path.startsWith(root + sep)) return undefined;
  try {
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

function asServerError(): AppError {
  return new AppError('server_error', 500, { key: 'error_generic' });
}

/**
 * Error pages (the brand's prerendered 404 and error pages in the visitor's language), what
 * matched no route, and failures: the API answers its JSON refusal, a page the brand's page.
 */
export const errorPagesPlugin = fp<{ registry: TenantRegistry }>(
  async (app, { registry }) => {
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
      const visitor = app.visitorOf(request);
      const page = errorPageHtml(visitor.tenant, visitor.locale, status);
      if (page) return { type: 'text/html; charset=utf-8', body: page };
      // Without its built page the error cannot be shown as a page: SPEC §8 has words for that.
      return { type: 'text/plain; charset=utf-8', body: status === 404 ? 'This page could not be found' : message('error_in_error_page', visitor.locale, {}, visitor.tenant.locales.fallback) };
    }

    function sendErrorPage(request: FastifyRequest, reply: FastifyReply, status: 404 | 500 | 503): FastifyReply {
      const { type, body } = errorPageBody(request, status === 404 ? 404 : 500);
      return reply.code(status).header('cache-control', 'no-store').type(type).send(body);
    }

    /** What names nothing: the brand's 404 page, or for a program calling the API, its JSON. */
    function notFound(request: FastifyRequest, reply: FastifyReply) {
      if (!request.url.startsWith('/api/') || wantsHtml(request)) return sendErrorPage(request, reply, 404);
      return sendAppError(request, reply, notFoundError(), app.visitorOf(request));
    }

    app.decorate('sendErrorPage', sendErrorPage);
    app.decorate('notFound', notFound);

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
          return await sendAppError(request, reply, refusal ?? asServerError(), app.visitorOf(request));
        }
        // A page gets the brand's error page ('Error', status 500 or 503) or its 404 page.
        if (refusal?.status === 404) return sendErrorPage(request, reply, 404);
        return sendErrorPage(request, reply, refusal?.status === 503 ? 503 : 500);
      } catch (inner) {
        request.log.error({ err: inner }, 'error page failed');
        return reply.code(500).type('text/plain; charset=utf-8').send('Error');
      }
    });
  },
  { name: 'error-pages', fastify: '5.x', dependencies: ['visitor'] },
);
