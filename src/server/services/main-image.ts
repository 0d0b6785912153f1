import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { MainImage } from '../../contract/cards.ts';

/** The public url of a stored photo file name (`<tenant>/<name>.webp`), served by src/server/media.ts. */
export function mediaUrl(filename: string): string {
  return `/media/${filename}`;
}

/** SPEC §3 `profile.main_image`: declared once, in the contract. */
export type { MainImage };

/** The main image of a profile as SPEC §3 names its fields (urls here), or null when it has none. */
export async function mainImage(db: Kysely<Database>, profileId: number): Promise<MainImage | null> {
  const photo = await db
    .selectFrom('photos')
    .select(['filename', 'thumb_filename', 'status'])
    .where('profile_id', '=', profileId)
    .where('is_main', '=', 1)
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  if (!photo) return null;
  const thumb = mediaUrl(photo.thumb_filename);
  return { filename: mediaUrl(photo.filename), thumb_filename: thumb, status: photo.status, match: thumb };
}

/** The main images of many profiles in one query, as mainImage() answers them one by one. */
export async function mainImages(db: Kysely<Database>, profileIds: readonly number[]): Promise<Map<number, MainImage>> {
  const images = new Map<number, MainImage>();
  if (profileIds.length === 0) return images;
  const photos = await db
    .selectFrom('photos')
    .select(['profile_id', 'filename', 'thumb_filename', 'status'])
    .where('profile_id', 'in', profileIds)
    .where('is_main', '=', 1)
    .orderBy('id', 'asc')
    .execute();
  for (const photo of photos) {
    if (images.has(photo.profile_id)) continue; // the first, as mainImage() takes it
    const thumb = mediaUrl(photo.thumb_filename);
    images.set(photo.profile_id, { filename: mediaUrl(photo.filename), thumb_filename: thumb, status: photo.status, match: thumb });
  }
  return images;
}
