import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Photo } from '../db/schema.ts';
import type { MainImage } from '../../contract/cards.ts';
import { compiledPerCount } from '../db/compiled.ts';
import { mediaUrl } from '../media-address.ts';

/** SPEC §3 `profile.main_image`: declared once, in the contract. */
export type { MainImage };

const imageOf = (photo: { filename: string; thumb_filename: string; status: string }): MainImage => {
  const thumb = mediaUrl(photo.thumb_filename, photo.status);
  return { filename: mediaUrl(photo.filename, photo.status), thumb_filename: thumb, status: photo.status, match: thumb };
};

/**
 * The main image of a profile as others see it, SPEC §3 fields (urls here), or null when it has
 * none. Only an active photo is shown or used as a main or share image (SPEC §3
 * main_image.status, issue 22): the photo its owner chose as main when it is active; while the
 * chosen one waits for screening (or was rejected), the first active photo in the profile's
 * order; none when the profile has no main photo. A pending or rejected photo never shows.
 */
export async function mainImage(db: Kysely<Database>, profileId: number): Promise<MainImage | null> {
  return (await mainImages(db, [profileId])).get(profileId) ?? null;
}

/** The main image of a profile as its owner sees it: the photo they chose as main whatever its status (the status says whether others see it). */
export async function ownMainImage(db: Kysely<Database>, profileId: number): Promise<MainImage | null> {
  const photo = await db
    .selectFrom('photos')
    .select(['filename', 'thumb_filename', 'status'])
    .where('profile_id', '=', profileId)
    .where('is_main', '=', 1)
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  return photo ? imageOf(photo) : null;
}

type PhotoRow = Pick<Photo, 'profile_id' | 'filename' | 'thumb_filename' | 'status' | 'is_main'>;
/** The photos statement of mainImages(), compiled per number of profiles once per database handle (db/compiled.ts): every listing's cards run it. */
const photoStatements = new WeakMap<Kysely<Database>, (ids: readonly number[]) => Promise<PhotoRow[]>>();
/** Numbers of profiles whose statement is kept (a listing's page or less; more are built each time). */
const KEPT_UP_TO = 64;

function photosOf(db: Kysely<Database>): (ids: readonly number[]) => Promise<PhotoRow[]> {
  let run = photoStatements.get(db);
  if (!run) {
    const build = (ids: readonly number[]) =>
      db
        .selectFrom('photos')
        .select(['profile_id', 'filename', 'thumb_filename', 'status', 'is_main'])
        .where('profile_id', 'in', ids)
        .where((eb) => eb.or([eb('is_main', '=', 1), eb('status', '=', 'active')]))
        .orderBy('is_main', 'desc')
        .orderBy('position', 'asc')
        .orderBy('id', 'asc');
    photoStatements.set(db, (run = compiledPerCount<PhotoRow>(db, build, { keptUpTo: KEPT_UP_TO })));
  }
  return run;
}

/** The main images of many profiles in one query, as mainImage() answers them one by one. */
export async function mainImages(db: Kysely<Database>, profileIds: readonly number[]): Promise<Map<number, MainImage>> {
  const images = new Map<number, MainImage>();
  if (profileIds.length === 0) return images;
  const photos = await photosOf(db)(profileIds);
  const chosen = new Map<number, boolean>(); // profile -> whether its chosen main photo is active
  for (const photo of photos) {
    if (photo.is_main === 1) {
      if (!chosen.has(photo.profile_id)) chosen.set(photo.profile_id, photo.status === 'active');
      if (photo.status === 'active' && !images.has(photo.profile_id)) images.set(photo.profile_id, imageOf(photo)); // the first, as before
      continue;
    }
    // No chosen main photo: none. A chosen one not active: the first active photo in order.
    if (chosen.get(photo.profile_id) === false && !images.has(photo.profile_id)) images.set(photo.profile_id, imageOf(photo));
  }
  return images;
}

/**
 * After the main photo is deleted or rejected: the main flag passes to the owner's first photo
 * that is not rejected (others then see it once it is active), or to none.
 */
export async function passMainOn(trx: Kysely<Database>, profileId: number): Promise<void> {
  const next = await trx
    .selectFrom('photos')
    .select('id')
    .where('profile_id', '=', profileId)
    .where('status', '!=', 'rejected')
    .orderBy('position', 'asc')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  if (next) await trx.updateTable('photos').set({ is_main: 1 }).where('id', '=', next.id).execute();
}
