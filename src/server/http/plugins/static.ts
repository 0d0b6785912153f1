import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ICON_CACHE, ICON_PATH, iconEtag, tablerSvg } from '../../icons.ts';
import { stickerSvg } from '../../data/gifs.ts';
import { brandIconSvg } from '../../../lib/theme.ts';
import { MEDIA_PATH } from '../../media.ts';
import type { MediaStore } from '../../media-store.ts';
import type { TenantRegistry } from '../../registry.ts';
import type { Services } from '../../services/index.ts';

/** The push service worker, read once. */
const SERVICE_WORKER = readFileSync(join(import.meta.dirname, '..', '..', 'static', 'sw.js'));

/** A sticker of the offline GIF library. */
const GIF_PATH = /^\/gifs\/([a-z0-9-]{1,40})\.svg$/;
/** Hashed build assets never change under their name: a year, immutable. */
const ASSET_MAX_AGE_MS = 365 * 86_400_000;
/** Brand files (logo, lander images) may change with the next build. */
const BRAND_MAX_AGE_MS = 3_600_000;
/** A public photo's Cache-Control: its name is random and never reused (a year, immutable). */
const PUBLIC_MEDIA_CACHE = `public, max-age=${ASSET_MAX_AGE_MS / 1000}, immutable`;

/**
 * Sends a stored photo from the media store: from disk through @fastify/static (ETag, Last-Modified,
 * ranges), from the bucket as a stream with the object's ETag and Last-Modified, answering 304 to a
 * matching If-None-Match. `cache` is the Cache-Control (public and immutable, or private).
 */
async function sendMedia(request: FastifyRequest, reply: FastifyReply, media: MediaStore, name: string, cache: 'public' | 'private', notFound: () => FastifyReply): Promise<FastifyReply> {
  const cacheControl = cache === 'public' ? PUBLIC_MEDIA_CACHE : 'private, no-store';
  if (media.root !== undefined) {
    if (cache === 'private') return reply.header('cache-control', cacheControl).sendFile(name, media.root, { cacheControl: false });
    return reply.sendFile(name, media.root, { maxAge: ASSET_MAX_AGE_MS, immutable: true, cacheControl: true });
  }
  const file = await media.stream(name);
  if (!file) return notFound();
  reply.header('cache-control', cacheControl).header('etag', file.etag).header('last-modified', file.lastModified.toUTCString());
  if (request.headers['if-none-match'] === file.etag) {
    file.body.destroy();
    return reply.code(304).send();
  }
  return reply.type('image/webp').header('content-length', String(file.size)).send(file.body);
}

/**
 * Static files, before any session look-up (DESIGN §8): icons, the service worker, the favicon,
 * the GIF library, a brand's hashed assets and brand files, and members' photos.
 */
export const staticPlugin: FastifyPluginAsync<{ registry: TenantRegistry; services: Services }> = async (app, { registry, services }) => {
  // Builds carry brotli and gzip copies of their text files (src/server/precompress.ts), sent as they are.
  await app.register(fastifyStatic, { root: registry.distDir, serve: false, etag: true, lastModified: true, cacheControl: false, dotfiles: 'deny', preCompressed: true });

  app.get('/icons/tabler/*', async (request, reply) => {
    const match = ICON_PATH.exec(request.url.split('?')[0]!);
    const svg = match ? tablerSvg(match[1]!) : undefined;
    if (!svg) return app.sendErrorPage(request, reply, 404);
    const etag = iconEtag();
    reply.header('cache-control', ICON_CACHE).header('etag', etag).type('image/svg+xml');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(svg);
  });
  app.get('/sw.js', (_request, reply) =>
    // The push service worker (src/server/static/sw.js), for the whole site; browsers check it for updates.
    reply.header('cache-control', 'no-cache').header('service-worker-allowed', '/').type('text/javascript; charset=utf-8').send(SERVICE_WORKER),
  );
  app.get('/favicon.ico', (request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(brandIconSvg(request.tenant.theme.primary)),
  );
  app.get('/gifs/*', async (request, reply) => {
    // The offline GIF library (src/server/data/gifs.ts): drawn once per process, never changed.
    const match = GIF_PATH.exec(request.url.split('?')[0]!);
    const svg = match ? stickerSvg(match[1]!) : undefined;
    if (!svg) return app.sendErrorPage(request, reply, 404);
    return reply.header('cache-control', ICON_CACHE).type('image/svg+xml').send(svg);
  });
  app.get('/_assets/*', (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    // The program's assets from the program's folder, shared by its brands; the brand's own (its static pages' stylesheet) from its folder.
    return reply.sendFile(`${registry.assetFolder(request.tenant.id, rest)}/${rest}`, { maxAge: ASSET_MAX_AGE_MS, immutable: true, cacheControl: true });
  });
  app.get('/brand/*', (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    return reply.sendFile(`${request.tenant.id}/client/brand/${rest}`, { maxAge: BRAND_MAX_AGE_MS, cacheControl: true });
  });
  app.get('/media/*', async (request, reply) => {
    // Photo names are random and never reused: browsers and CDNs may keep them for a year.
    const match = MEDIA_PATH.exec(request.url.split('?')[0]!);
    if (!match) return app.sendErrorPage(request, reply, 404);
    const name = `${match[1]}/${match[2]}`;
    const notFound = () => app.sendErrorPage(request, reply, 404);
    // A photo that is not active (waiting for screening, or rejected) is its owner's alone: served
    // with the owner's session only, never stored by a shared cache (issue 22).
    const access = await services.photos.mediaAccess(name);
    if (access && access.status !== 'active') {
      const session = await services.sessions.fromRequest(request.raw, request.tenant);
      if (!session || access.userId === null || session.user.id !== access.userId) return app.sendErrorPage(request, reply, 404);
      return sendMedia(request, reply, services.media, name, 'private', notFound);
    }
    return sendMedia(request, reply, services.media, name, 'public', notFound);
  });
};
