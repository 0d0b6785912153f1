import { randomBytes } from 'node:crypto';
import type { PhotoView } from '../../contract/profile.ts';
import type { Kysely, Transaction } from 'kysely';
import sharp from 'sharp';
import { fileTypeFromBuffer } from 'file-type';
import { mainImage as readMainImage, passMainOn, type MainImage } from './main-image.ts';
import { mediaUrl } from '../media-address.ts';
import { lockProfiles, lockingRows } from '../db/engine.ts';
import type { Database, Photo, PhotoStatus } from '../db/schema.ts';
import { AppError, notFound } from '../errors.ts';
import { diskMedia, type MediaStore } from '../media-store.ts';
import { FREE_PHOTOS, PREMIUM_PHOTOS } from '../../lib/membership.ts';
import { initialPhotoStatus, type PhotoModeration } from '../../lib/photo-screening.ts';

export { FREE_PHOTOS, PREMIUM_PHOTOS };
/** Largest upload (API.md "Conventions"). */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/** Largest decoded image; guards against decompression bombs (API.md). */
export const MAX_PHOTO_PIXELS = 40_000_000;
/** Smallest width and height accepted (API.md). */
export const MIN_PHOTO_SIDE = 200;
/** Long side of the stored photo, never enlarged (API.md). */
export const PHOTO_LONG_SIDE = 1200;
/** Side of the square thumbnail (API.md). */
export const THUMB_SIDE = 400;

const PHOTO_QUALITY = 82;
/** Types recognised by their magic bytes; anything else is refused whatever it claims to be. */
const ALLOWED_MIME = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);
/** What `photos.filename` holds: `<tenant>/<32 hex>.webp` or `...-t.webp`; also what /media/ serves. */
const STORED_NAME = /^[a-z0-9-]+\/[a-f0-9]+(?:-t)?\.webp$/;
const TENANT_ID = /^[a-z0-9-]+$/;

/** One photo as the member's own photo list shows it (GET /api/photos.php). */
export type { PhotoView };

/** SPEC §3 `profile.main_image`: urls of the photo and its thumbnail; `match` is the thumbnail. */

/** Who uploads: the member's id, membership and brand. */
export interface PhotoUploader {
  id: number;
  paid_user: boolean;
  tenant_id: string;
}

export interface PhotoUpload {
  bytes: Buffer;
  /** The Content-Type the client claimed; informative only, the magic bytes decide. */
  declaredType?: string;
}

export interface PhotoService {
  /** The profile's photos, main first, then by position. */
  list(profileId: number): Promise<PhotoView[]>;
  /**
   * Checks, re-encodes and stores a photo for the member's own profile, then answers the new list.
   * Refusals (AppError): 403 premium_only, 400 photo_limit, 400 photo_type, 413 photo_too_large,
   * 400 photo_dimensions, 404 not_found when the profile is not the member's.
   */
  upload(user: PhotoUploader, profileId: number, file: PhotoUpload): Promise<PhotoView[]>;
  /** Staff upload a photo of a fictional profile of the brand (issue 22): screened as a member's; 404 for any other profile. */
  uploadFictional(tenantId: string, profileId: number, file: PhotoUpload): Promise<PhotoView[]>;
  /** Makes a photo of the profile its main photo; 404 when it is not the profile's. */
  setMain(profileId: number, photoId: number): Promise<PhotoView[]>;
  /** Deletes a photo of the profile and its files; the next photo becomes main if needed. 404 when not the profile's. */
  remove(profileId: number, photoId: number): Promise<PhotoView[]>;
  /** The main photo as SPEC §3 main_image, or null when the profile has none. */
  mainImage(profileId: number): Promise<MainImage | null>;
  /** Deletes every photo of the profile and its files (final account removal). */
  eraseAll(profileId: number): Promise<void>;
  /**
   * Who may fetch a stored file (`<tenant>/<hex>.webp` or its `-t` thumbnail) under /media/: a
   * profile or chat photo's status and its owner's (sender's) user id, or null for an unknown file.
   * Only an active photo is served to anyone; a pending or rejected one only to its owner (issue 22).
   */
  mediaAccess(storedName: string): Promise<{ status: PhotoStatus; userId: number | null } | null>;
  /**
   * Puts the public copies of the photos in step with their status, after the commit that changed
   * it (media-store.ts `publish`): an approved photo has one at the bucket's `media/<name>`, a
   * pending or rejected one none. Nothing to do on disk. Called by the photo, moderation and
   * complaint services; a failure is logged (the runtime's /media/ still answers as the status says).
   */
  syncPublic(photoIds: readonly number[]): Promise<void>;
}

export interface PhotoServiceOptions {
  db: Kysely<Database>;
  /** Where the files are stored (media-store.ts: MEDIA_DIR or the S3 bucket)… */
  media?: MediaStore;
  /** …or the folder they are written to, one sub-folder per tenant (a service built alone, as in unit tests). */
  mediaDir?: string;
  /**
   * The brand's `photo_moderation` by tenant id (issue 22): `before` makes a new photo pending,
   * `after` active at once (and queued for review). The runtime passes the tenants' setting.
   */
  moderationOf?: (tenantId: string) => PhotoModeration;
  /** Status of a new photo when no moderationOf is given (a service built alone, as in unit tests). */
  initialStatus?: PhotoStatus;
}


/** The refusals of an upload, each with its catalogue key. */
export const photoError = {
  premiumOnly: () => new AppError('premium_only', 403, { key: 'premium_only' }),
  limit: (max: number) => new AppError('photo_limit', 400, { key: 'photo_limit', params: { max }, field: 'photo' }),
  type: () => new AppError('photo_type', 400, { key: 'photo_type', field: 'photo' }),
  tooLarge: () => new AppError('photo_too_large', 413, { key: 'photo_too_large', field: 'photo' }),
  dimensions: () => new AppError('photo_dimensions', 400, { key: 'photo_dimensions', field: 'photo' }),
};

export function createPhotoService(opts: PhotoServiceOptions): PhotoService {
  const { db } = opts;
  const media = opts.media ?? diskMedia(opts.mediaDir ?? '');
  const statusFor = (tenantId: string): PhotoStatus =>
    opts.moderationOf ? initialPhotoStatus(opts.moderationOf(tenantId)) : (opts.initialStatus ?? 'active');

  const view = (p: Photo): PhotoView => ({
    id: p.id,
    url: mediaUrl(p.filename, p.status),
    thumb_url: mediaUrl(p.thumb_filename, p.status),
    main: p.is_main === 1,
    status: p.status,
    ...(p.status === 'rejected' ? { reason: p.reject_reason ?? 'other' } : {}),
  });

  async function list(profileId: number): Promise<PhotoView[]> {
    const rows = await db
      .selectFrom('photos')
      .selectAll()
      .where('profile_id', '=', profileId)
      .orderBy('is_main', 'desc')
      .orderBy('position', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map(view);
  }

  const limitOf = (paid: boolean) => (paid ? PREMIUM_PHOTOS : FREE_PHOTOS);
  const refuseOverLimit = (paid: boolean, count: number) => {
    if (count < limitOf(paid)) return;
    throw paid ? photoError.limit(PREMIUM_PHOTOS) : photoError.premiumOnly();
  };

  /** The photos that count toward the limit: active and pending, not rejected (countsTowardLimit, issue 22). */
  async function countPhotos(q: Kysely<Database>, profileId: number): Promise<number> {
    const { n } = await q
      .selectFrom('photos')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('profile_id', '=', profileId)
      .where('status', 'in', ['active', 'pending'])
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async function upload(user: PhotoUploader, profileId: number, file: PhotoUpload): Promise<PhotoView[]> {

    // Cheap refusals first, before any decoding: the limit (checked again under the lock), size, type.
    const owner = await db
      .selectFrom('profiles')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .select(['users.paid_user'])
      .where('profiles.id', '=', profileId)
      .where('profiles.user_id', '=', user.id)
      .where('profiles.tenant_id', '=', user.tenant_id)
      .executeTakeFirst();
    if (!owner) throw notFound();
    refuseOverLimit(user.paid_user || owner.paid_user === 1, await countPhotos(db, profileId));

    return addPhoto(user.tenant_id, profileId, file, async (trx) => {
      // The user row is the lock that serializes a member's uploads on PostgreSQL; SQLite
      // transactions already run one at a time (begin immediate on one connection).
      const locked = await trx
        .selectFrom('users')
        .select(['id', 'paid_user'])
        .where('id', '=', user.id)
        .$call(lockingRows(trx))
        .executeTakeFirst();
      if (!locked) throw notFound();
      // Premium when the caller says so or the locked row does (a purchase may have just landed).
      return user.paid_user || locked.paid_user === 1;
    });
  }

  /**
   * Stores a checked photo and adds it to the profile, under the lock `lock` takes (it answers
   * whether the premium limit applies), screened as the brand's photo_moderation says.
   */
  async function addPhoto(tenantId: string, profileId: number, file: PhotoUpload, lock: (trx: Transaction<Database>) => Promise<boolean>): Promise<PhotoView[]> {
    const { filename, thumbFilename } = await storeImage(media, tenantId, file);
    try {
      await db.transaction().execute(async (trx) => {
        const premium = await lock(trx);
        const stats = await trx
          .selectFrom('photos')
          .select((eb) => [eb.fn.max<number | null>('position').as('last'), eb.fn.sum<number | null>('is_main').as('mains')])
          .where('profile_id', '=', profileId)
          .where('status', '!=', 'rejected')
          .executeTakeFirstOrThrow();
        refuseOverLimit(premium, await countPhotos(trx, profileId));
        await trx
          .insertInto('photos')
          .values({
            profile_id: profileId,
            filename,
            thumb_filename: thumbFilename,
            status: statusFor(tenantId),
            // The first photo that is not rejected becomes main (a rejected main lost the flag).
            is_main: Number(stats.mains ?? 0) === 0 ? 1 : 0,
            position: stats.last === null ? 0 : Number(stats.last) + 1,
          })
          .execute();
      });
    } catch (err) {
      await deleteFiles(media, [filename, thumbFilename]);
      throw err;
    }
    // Shown at once (photo_moderation: after): public at once.
    if (statusFor(tenantId) === 'active') await publishLogged(media.publish([filename, thumbFilename]), filename);
    return list(profileId);
  }

  /**
   * A photo of a fictional profile uploaded by staff (issue 22): the premium limit, and the same
   * screening as a member's (the brand's photo_moderation). 404 unless it is a fictional profile of the brand.
   */
  async function uploadFictional(tenantId: string, profileId: number, file: PhotoUpload): Promise<PhotoView[]> {
    const profile = await db.selectFrom('profiles').select('id').where('id', '=', profileId).where('tenant_id', '=', tenantId).where('fictional', '=', 1).where('user_id', 'is', null).executeTakeFirst();
    if (!profile) throw notFound();
    refuseOverLimit(true, await countPhotos(db, profileId));
    return addPhoto(tenantId, profileId, file, async (trx) => {
      await lockProfiles(trx, [profileId]);
      return true;
    });
  }

  async function setMain(profileId: number, photoId: number): Promise<PhotoView[]> {
    await db.transaction().execute(async (trx) => {
      const photo = await trx
        .selectFrom('photos')
        .select('id')
        .where('id', '=', photoId)
        .where('profile_id', '=', profileId)
        .where('status', '!=', 'rejected') // a rejected photo is never a main image
        .executeTakeFirst();
      if (!photo) throw notFound();
      await trx.updateTable('photos').set({ is_main: 0 }).where('profile_id', '=', profileId).where('id', '!=', photoId).execute();
      await trx.updateTable('photos').set({ is_main: 1 }).where('id', '=', photoId).execute();
    });
    return list(profileId);
  }

  async function remove(profileId: number, photoId: number): Promise<PhotoView[]> {
    const removed = await db.transaction().execute(async (trx) => {
      const photo = await trx
        .selectFrom('photos')
        .selectAll()
        .where('id', '=', photoId)
        .where('profile_id', '=', profileId)
        .executeTakeFirst();
      if (!photo) throw notFound();
      await trx.deleteFrom('photos').where('id', '=', photoId).execute();
      if (photo.is_main === 1) await passMainOn(trx, profileId);
      return photo;
    });
    // Files go after the commit: a failed delete must not leave a row without its files.
    await deleteFiles(media, [removed.filename, removed.thumb_filename]);
    return list(profileId);
  }

  async function mainImage(profileId: number): Promise<MainImage | null> {
    return readMainImage(db, profileId);
  }

  async function eraseAll(profileId: number): Promise<void> {
    const rows = await db.transaction().execute(async (trx) => {
      const photos = await trx.selectFrom('photos').select(['filename', 'thumb_filename']).where('profile_id', '=', profileId).execute();
      await trx.deleteFrom('photos').where('profile_id', '=', profileId).execute();
      return photos;
    });
    await deleteFiles(media, rows.flatMap((r) => [r.filename, r.thumb_filename]));
  }

  async function mediaAccess(storedName: string): Promise<{ status: PhotoStatus; userId: number | null } | null> {
    const name = storedName.replace(/-t\.webp$/, '.webp');
    const row = await db
      .selectFrom('photos')
      .innerJoin('profiles', 'profiles.id', 'photos.profile_id')
      .select(['photos.status', 'profiles.user_id'])
      .where('photos.filename', '=', name)
      .executeTakeFirst();
    if (row) return { status: row.status, userId: row.user_id };
    // A photo sent in a chat: its sender's until approved.
    const sent = await db
      .selectFrom('messages')
      .innerJoin('profiles', 'profiles.id', 'messages.sender_profile_id')
      .select(['messages.photo_status', 'profiles.user_id'])
      .where('messages.media', '=', name)
      .where('messages.kind', '=', 'photo')
      .executeTakeFirst();
    return sent ? { status: sent.photo_status ?? 'active', userId: sent.user_id } : null;
  }

  async function syncPublic(photoIds: readonly number[]): Promise<void> {
    if (media.kind === 'disk' || photoIds.length === 0) return;
    const rows = await db.selectFrom('photos').select(['filename', 'thumb_filename', 'status']).where('id', 'in', [...photoIds]).execute();
    const names = (active: boolean) => rows.filter((r) => (r.status === 'active') === active).flatMap((r) => [r.filename, r.thumb_filename]);
    const shown = names(true);
    const hidden = names(false);
    if (hidden.length) await publishLogged(media.unpublish(hidden), hidden.join(', '));
    if (shown.length) await publishLogged(media.publish(shown), shown.join(', '));
  }

  return { list, upload, uploadFictional, setMain, remove, mainImage, eraseAll, mediaAccess, syncPublic };
}

/** A public copy that could not be made or taken away is logged, never the member's error: the row is the record. */
async function publishLogged(done: Promise<void>, what: string): Promise<void> {
  await done.catch((err: Error) => console.error(`photos: could not change the public copy of ${what}:`, err));
}

/** Removes stored files; a file already gone is fine, a name that is not ours is never touched. */
export async function deleteFiles(media: MediaStore, names: string[]): Promise<void> {
  const ours = names.filter((n) => STORED_NAME.test(n));
  // The row is gone already: a file left behind is logged, never the member's error.
  await media.delete(ours).catch((err: Error) => console.error(`photos: could not delete ${ours.join(', ')}:`, err));
}

/**
 * Checks an uploaded image (size, type by its magic bytes, dimensions), re-encodes it and writes
 * the photo and its thumbnail under the brand's folder; answers their stored names. Shared by
 * profile photos and photos sent in a chat. Refusals: photo_too_large, photo_type, photo_dimensions.
 */
export async function storeImage(media: MediaStore, tenantId: string, file: PhotoUpload): Promise<{ filename: string; thumbFilename: string }> {
  if (!TENANT_ID.test(tenantId)) throw new Error(`photos: unusable tenant id ${JSON.stringify(tenantId)}`);
  if (file.bytes.length > MAX_PHOTO_BYTES) throw photoError.tooLarge();
  const type = await fileTypeFromBuffer(file.bytes);
  if (!type || !ALLOWED_MIME.has(type.mime)) throw photoError.type();

  const { photo, thumb } = await reencode(file.bytes);

  const base = randomBytes(16).toString('hex');
  const filename = `${tenantId}/${base}.webp`;
  const thumbFilename = `${tenantId}/${base}-t.webp`;
  // Files first, row second: a row never points at a missing file. A name is never overwritten.
  try {
    await media.put(filename, photo);
    await media.put(thumbFilename, thumb);
  } catch (err) {
    await deleteFiles(media, [filename, thumbFilename]);
    throw err;
  }
  return { filename, thumbFilename };
}

/**
 * Decodes the upload and writes it anew as WebP: EXIF orientation applied, the long side at most
 * 1200 px, and a 400×400 thumbnail. sharp writes no metadata unless asked, so EXIF (GPS, camera)
 * and XMP of the upload are gone (DESIGN §7). Undecodable input is refused as photo_type.
 */
async function reencode(bytes: Buffer): Promise<{ photo: Buffer; thumb: Buffer }> {
  const input = () => sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'error' });
  let width: number | undefined;
  let height: number | undefined;
  try {
    // Only the header is read here; without the pixel limit so an oversized image is told apart
    // from a broken one. Decoding below runs with the limit.
    ({ width, height } = await sharp(bytes, { limitInputPixels: false, failOn: 'error' }).metadata());
  } catch {
    throw photoError.type();
  }
  if (!width || !height) throw photoError.type();
  if (width * height > MAX_PHOTO_PIXELS) throw photoError.tooLarge();
  if (width < MIN_PHOTO_SIDE || height < MIN_PHOTO_SIDE) throw photoError.dimensions();
  try {
    const [photo, thumb] = await Promise.all([
      input()
        .rotate()
        .resize({ width: PHOTO_LONG_SIDE, height: PHOTO_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: PHOTO_QUALITY })
        .toBuffer(),
      input()
        .rotate()
        .resize({ width: THUMB_SIDE, height: THUMB_SIDE, fit: 'cover' })
        .webp({ quality: PHOTO_QUALITY })
        .toBuffer(),
    ]);
    return { photo, thumb };
  } catch {
    throw photoError.type();
  }
}


export { mediaUrl, type MainImage };
