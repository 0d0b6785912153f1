import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';

/** The multipart requests in flight, by their Node request (what a route's handler is given). */
const multipartRequests = new WeakMap<IncomingMessage, FastifyRequest>();

/**
 * Multipart bodies (DESIGN §8: @fastify/multipart for uploads): the body is left unread until the
 * route that declares `upload: true` asks for its file (src/server/api/photos.ts `readPhoto`), so
 * nobody's upload is read before the route has checked who sends it. Registered where the API's
 * routes are, so its hooks stay off the static files and pages.
 */
export const uploadsPlugin = fp(
  async (app) => {
    // Outside the API a multipart body is left unread (bodies.ts); here @fastify/multipart reads it.
    if (app.hasContentTypeParser('multipart/form-data')) app.removeContentTypeParser('multipart/form-data');
    await app.register(fastifyMultipart);
    app.addHook('preHandler', async (request) => {
      if (request.isMultipart()) multipartRequests.set(request.raw, request);
    });
  },
  { name: 'uploads', fastify: '5.x' },
);

/** The Fastify request of a multipart upload, whose `parts()` read its body; undefined for any other body. */
export function multipartOf(req: IncomingMessage): FastifyRequest | undefined {
  return multipartRequests.get(req);
}
