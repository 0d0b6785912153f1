import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import { AppError, badRequest, notFound } from '../errors.ts';
import { MAX_PHOTO_BYTES, photoError, type PhotoUpload } from '../services/photos.ts';
import { PhotoIdBody, PhotosAnswer, SetMainPhotoBody } from '../../contract/profile.ts';
import { json, route, type RouteContext } from '../http/routes.ts';

/** Room for the multipart boundaries and part headers around a photo of the largest size. */
const MULTIPART_OVERHEAD = 64 * 1024;

const missingPhoto = () => new AppError('photo_missing', 400, { key: 'photo_missing', field: 'photo' });

/** The logged-in member's profile; 404 when there is none. */
function profileOf(ctx: RouteContext<unknown, unknown, 'member'>): number {
  const id = ctx.session.user.profile?.id;
  if (!id) throw notFound();
  return id;
}

/**
 * Reads the `photo` part of a multipart upload into memory (at most 10 MiB, API.md). A larger
 * file is refused as soon as busboy truncates it, without reading the rest into memory.
 */
export function readPhoto(req: IncomingMessage, res: ServerResponse): Promise<PhotoUpload> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    return Promise.reject(new AppError('unsupported_media_type', 415, { key: 'error_bad_request' }));
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_PHOTO_BYTES + MULTIPART_OVERHEAD) {
    // The body is not read; closing the connection afterwards spares reading it at all.
    res.setHeader('Connection', 'close');
    return Promise.reject(photoError.tooLarge());
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 5 } });
  } catch {
    // multipart/form-data without a usable boundary.
    return Promise.reject(badRequest('photo'));
  }

  return new Promise<PhotoUpload>((resolve, reject) => {
    let settled = false;
    let started = false;
    let photo: PhotoUpload | null = null;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      res.setHeader('Connection', 'close');
      reject(error);
    };

    parser.on('file', (name, stream, info) => {
      if (name !== 'photo' || started || settled) {
        stream.resume();
        return;
      }
      started = true;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(photoError.tooLarge()));
      // A body cut off mid-file errors the stream: a refusal, never an uncaught error.
      stream.on('error', () => fail(badRequest('photo')));
      stream.on('end', () => {
        if (!stream.truncated) photo = { bytes: Buffer.concat(chunks), declaredType: info.mimeType };
      });
    });
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      // A form posted with an empty file input sends a part of zero bytes.
      if (!photo || photo.bytes.length === 0) reject(missingPhoto());
      else resolve(photo);
    });
    parser.on('error', () => fail(badRequest('photo')));
    req.on('error', (err) => fail(err));
    req.on('aborted', () => fail(badRequest('photo')));
    req.pipe(parser);
  });
}

/** The member's own photos (API.md "Profile, photos, settings"). */
export const photoRoutes = [
  route({ method: 'GET', path: 'photos.php', answer: PhotosAnswer, who: 'member', handler: async (ctx) => json({ photos: await ctx.services.photos.list(profileOf(ctx)) }) }),
  route({
    method: 'POST',
    path: 'photos.php',
    answer: PhotosAnswer,
    who: 'member',
    upload: true,
    handler: async (ctx) => {
      const profileId = profileOf(ctx);
      const file = await readPhoto(ctx.req, ctx.res);
      const { user } = ctx.session;
      return json({ photos: await ctx.services.photos.upload({ id: user.id, paid_user: user.paid_user, tenant_id: ctx.tenant.id }, profileId, file) });
    },
  }),
  route({
    method: 'PUT',
    path: 'photos.php',
    answer: PhotosAnswer,
    who: 'member',
    body: SetMainPhotoBody,
    handler: async (ctx) => json({ photos: await ctx.services.photos.setMain(profileOf(ctx), ctx.body.id) }),
  }),
  route({
    method: 'DELETE',
    path: 'photos.php',
    answer: PhotosAnswer,
    who: 'member',
    body: PhotoIdBody,
    handler: async (ctx) => json({ photos: await ctx.services.photos.remove(profileOf(ctx), ctx.body.id) }),
  }),
];
