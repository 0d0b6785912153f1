import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import { z } from 'zod';
import type { ApiContext, ApiRoute } from './context.ts';
import { AppError, authRequired, badRequest, notFound } from '../errors.ts';
import { MAX_PHOTO_BYTES, photoError, type PhotoService, type PhotoUpload } from '../services/photos.ts';

/** Room for the multipart boundaries and part headers around a photo of the largest size. */
const MULTIPART_OVERHEAD = 64 * 1024;

const PhotoId = z.coerce.number().int().positive().max(2_147_483_647);
const SetMainBody = z.object({ id: PhotoId, main: z.literal(true) });
const RemoveBody = z.object({ id: PhotoId });

// Services is owned elsewhere; until it declares `photos: PhotoService` the service is reached through this cast.
const photosOf = (ctx: ApiContext): PhotoService => ctx.services.photos;

/** The logged-in member and their profile; 401 when logged out, 404 when there is no profile. */
function member(ctx: ApiContext) {
  if (!ctx.session) throw authRequired();
  const { user } = ctx.session;
  if (!user.profile) throw notFound();
  return { user, profileId: user.profile.id };
}

async function parseBody<T>(ctx: ApiContext, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(await ctx.body());
  if (!parsed.success) throw badRequest(String(parsed.error.issues[0]?.path[0] ?? 'id'));
  return parsed.data;
}

const missingPhoto = () => new AppError('photo_missing', 400, { key: 'photo_missing', field: 'photo' });

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
export const photoRoutes: Record<string, ApiRoute> = {
  'photos.php': {
    GET: async (ctx) => {
      const { profileId } = member(ctx);
      return { photos: await photosOf(ctx).list(profileId) };
    },
    POST: async (ctx) => {
      const { user, profileId } = member(ctx);
      const file = await readPhoto(ctx.req, ctx.res);
      const photos = await photosOf(ctx).upload({ id: user.id, paid_user: user.paid_user, tenant_id: ctx.tenant.id }, profileId, file);
      return { photos };
    },
    PUT: async (ctx) => {
      const { profileId } = member(ctx);
      const { id } = await parseBody(ctx, SetMainBody);
      return { photos: await photosOf(ctx).setMain(profileId, id) };
    },
    DELETE: async (ctx) => {
      const { profileId } = member(ctx);
      const { id } = await parseBody(ctx, RemoveBody);
      return { photos: await photosOf(ctx).remove(profileId, id) };
    },
  },
};
