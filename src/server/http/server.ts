import type { AddressInfo } from 'node:net';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCompress from '@fastify/compress';
import type { LoggerOptions } from 'pino';
import type { TenantRegistry } from '../registry.ts';
import type { BrandOutputs } from '../brand-output.ts';
import type { Services } from '../services/index.ts';
import type { AnyRoute } from './routes.ts';
import { securityHeaders, visitorPlugin } from './plugins/visitor.ts';
import { errorPagesPlugin } from './plugins/error-pages.ts';
import { bodiesPlugin, JSON_BODY_LIMIT } from './plugins/bodies.ts';
import { staticPlugin } from './plugins/static.ts';
import { apiPlugin } from './plugins/api.ts';
import { pagesPlugin } from './plugins/pages.ts';
import { proxyTrust, type TrustProxy } from './proxy.ts';
import { registerConsole } from './console.ts';

export { JSON_BODY_LIMIT };

export interface HttpOptions {
  registry: TenantRegistry;
  /** Renders a brand's output on the first request for it (none: a brand without a build answers 503). */
  outputs?: BrandOutputs;
  services: Services;
  routes: AnyRoute[];
  /** The tenant serving hosts that match none (the first tenant when not set). */
  defaultTenant?: string;
  /** The proxies in front whose X-Forwarded-For/-Proto/-Host and country headers are believed (TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** Production: Secure cookies and HSTS. */
  production: boolean;
  /** The operator console's host name (CONSOLE_HOST): no brand answers on it (http/console.ts). */
  consoleHost?: string;
  /** Check JSON answers against the routes' answer schemas (tests). */
  checkAnswers?: boolean;
  /** pino options for the request log; false for none (tests). */
  logger: LoggerOptions | false;
}

/**
 * The HTTP runtime (DESIGN §8): Fastify in front of every brand, composed of plugins by concern.
 * Static files first (no session), then the brand and visitor, the session, and the declared API
 * routes or the brand's Astro pages. One compressor (@fastify/compress) for every answer but the
 * event streams and what the build compressed already.
 */
export async function createHttp(options: HttpOptions) {
  const { registry, services, production } = options;
  const trust = proxyTrust(options.trustProxy);
  const app: FastifyInstance = Fastify({
    // request.ip is the nearest address that is not a trusted proxy; request.protocol and
    // request.host take X-Forwarded-Proto/-Host only from a trusted socket peer (proxy.ts).
    trustProxy: trust,
    logger: options.logger === false ? false : { ...options.logger, redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'] },
    // One line a request from the visitor plugin's onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: JSON_BODY_LIMIT,
    routerOptions: { ignoreDuplicateSlashes: false, maxParamLength: 500 },
    return503OnClosing: true,
    forceCloseConnections: true,
    // A path the router cannot even decode (/members/%) names no page: the brand's 404 page.
    frameworkErrors: (error, req, res) => {
      const [request, reply] = [req as FastifyRequest, res as FastifyReply];
      if (error.code !== 'FST_ERR_BAD_URL') return void reply.code(400).send();
      const tenant = registry.tenantFor(request.headers.host, options.defaultTenant);
      if (!tenant) return void reply.code(404).send();
      request.tenant = tenant;
      securityHeaders(reply.raw, production);
      void app.sendErrorPage(request, reply, 404);
    },
  });

  // Every request: security headers, the brand of its Host, the visitor and session on demand.
  await app.register(visitorPlugin, { registry, services, defaultTenant: options.defaultTenant, trust, production, consoleHost: options.consoleHost });
  // The operator console on its own host, before any brand's route (http/console.ts).
  if (options.consoleHost) registerConsole(app, { services, host: options.consoleHost, production, distDir: registry.distDir });
  // The brand's error pages, what matched no route, and failures.
  await app.register(errorPagesPlugin, { registry });
  await app.register(bodiesPlugin);
  // Loaded before any route is declared: compression hooks onto the routes declared after it.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(staticPlugin, { registry, services });
  await app.register(import('./brand-files.ts'), { registry }); // manifest, app icons, robots.txt, sitemap.xml
  await app.register(apiPlugin, { routes: options.routes, services, production, checkAnswers: options.checkAnswers });
  await app.register(pagesPlugin, { registry, outputs: options.outputs, services });

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
