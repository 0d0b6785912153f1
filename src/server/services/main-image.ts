import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';

/** The public url of a stored photo file name (`<tenant>/<name>.webp`), served by src/server/media.ts. */
export function mediaUrl(filename: string): string {
  return `/media/${filename}`;
}

export interface MainImage {
  filename: string;
  thumb_filename: string;
  status: string;
  match: string;
}

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
