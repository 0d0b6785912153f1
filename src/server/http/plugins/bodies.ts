import fp from 'fastify-plugin';
import fastifyFormbody from '@fastify/formbody';
import { OTHER_BODY } from '../api.ts';

/** Largest JSON body the API reads (uploads are multipart and have their own limit). */
export const JSON_BODY_LIMIT = 64 * 1024;

/** Bodies: JSON for the API, forms for outside callers, multipart left unread (the API's upload routes read it: uploads.ts). */
export const bodiesPlugin = fp(
  async (app) => {
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
    await app.register(fastifyFormbody, { bodyLimit: JSON_BODY_LIMIT });
  },
  { name: 'bodies', fastify: '5.x' },
);
