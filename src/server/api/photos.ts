import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MultipartFile } from '@fastify/multipart';
import { AppError, badRequest, notFound } from '../errors.ts';
import { MAX_PHOTO_BYTES, photoError, type PhotoUpload } from '../services/photos.ts';
import { PhotoIdBody, PhotosAnswer, SetMainPhotoBody } from '../../contract/profile.ts';
import { hasForbiddenControl } from '../../contract/text.ts';
import { json, route, type RouteContext } from '../http/routes.ts';
import { multipartOf } from '../http/plugins/uploads.ts';

/** Room for the multipart boundaries and part headers around a photo of the largest size. */
const MULTIPART_OVERHEAD = 64 * 1024;
/** What a photo upload may carry besides the photo: one file, a few fields (the rest is ignored). */
const UPLOAD_LIMITS = { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 5 };

const missingPhoto = () => new AppError('photo_missing', 400, { key: 'photo_missing', field: 'photo' });

/** The logged-in member's profile; 404 when there is none. */
function profileOf(ctx: RouteContext<unknown, unknown, 'member'>): number {
  const id = ctx.session.user.profile?.id;
  if (!id) throw notFound();
  return id;
}

/**
 * Reads the `photo` part of a multipart upload into memory (at most 10 MiB, API.md) through
 * @fastify/multipart (src/server/http/plugins/uploads.ts). A larger file is refused as soon as it
 * passes the limit, without reading the rest into memory; a body cut off or malformed is a 400.
 */
export async function readPhoto(req: IncomingMessage, res: ServerResponse): Promise<PhotoUpload> {
  const type = req.headers['content-type'] ?? '';
  const request = multipartOf(req);
  if (!/^multipart\/form-data\b/i.test(type) || !request) {
    throw new AppError('unsupported_media_type', 415, { key: 'error_bad_request' });
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_PHOTO_BYTES + MULTIPART_OVERHEAD) {
    // The body is not read; closing the connection afterwards spares reading it at all.
    res.setHeader('Connection', 'close');
    throw photoError.tooLarge();
  }
  const { FilesLimitError, FieldsLimitError, PartsLimitError, RequestFileTooLargeError } = request.server.multipartErrors;
  let photo: PhotoUpload | null = null;
  let hostileField: string | null = null;
  try {
    // Only the first file counts, and only when it is the `photo` part.
    for await (const part of request.parts({ limits: UPLOAD_LIMITS })) {
      if (part.type !== 'file') {
        // The text parts of the form are text from outside like any body's fields (issue 20).
        if (hostileField === null && (hasForbiddenControl(part.fieldname) || (typeof part.value === 'string' && hasForbiddenControl(part.value)))) hostileField = part.fieldname;
        continue;
      }
      if (part.fieldname !== 'photo') {
        part.file.resume();
        continue;
      }
      photo = { bytes: await (part as MultipartFile).toBuffer(), declaredType: part.mimetype };
    }
  } catch (error) {
    // What is not read of the body is not read at all.
    res.setHeader('Connection', 'close');
    if (error instanceof RequestFileTooLargeError) throw photoError.tooLarge();
    // More files or fields than an upload carries: the rest is ignored.
    if (!(error instanceof FilesLimitError || error instanceof FieldsLimitError || error instanceof PartsLimitError)) throw badRequest('photo');
  }
  if (hostileField !== null) throw badRequest(hostileField);
  // A form posted with an empty file input sends a part of zero bytes.
  if (!photo || photo.bytes.length === 0) throw missingPhoto();
  return photo;
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
