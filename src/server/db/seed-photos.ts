import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { Database } from './schema.ts';
import { nowIso } from './engine.ts';
import { THUMB_SIDE } from '../services/photos.ts';
import { portrait, type EyeColor, type HairColor, type PortraitOptions } from '../../lib/portrait.ts';
import { PROFILE_FIELD_KEYS } from '../../lib/profile-fields.ts';
import { ageOn } from '../../lib/account-rules.ts';
import { DEMO_PASSWORD_HASH } from './seed.ts';
import { diskMedia, type MediaStore } from '../media-store.ts';

/**
 * Photos for every demo person (fictional profiles and demo members) that has none: illustrated
 * portraits drawn from the profile's id and as its profile states the person (gender, age, hair
 * and eye colour), one in four with a few more photos, so a fresh install's search and profiles
 * look like a site in use without shipping pictures of real people. Idempotent; returns how many it added.
 */
export async function seedDemoPhotos(db: Kysely<Database>, store: MediaStore | string): Promise<number> {
  // A folder: the disk store over it (the CLI's seed before the runtime is built, unit tests).
  const media = typeof store === 'string' ? diskMedia(store) : store;
  const bare = await db
    .selectFrom('profiles')
    .leftJoin('photos', 'photos.profile_id', 'profiles.id')
    .leftJoin('users', 'users.id', 'profiles.user_id')
    .select(['profiles.id', 'profiles.tenant_id', 'profiles.gender', 'profiles.birth_date', 'profiles.hair_color', 'profiles.eye_color'])
    .where((eb) => eb.or([eb('profiles.fictional', '=', 1), eb('users.password_hash', '=', DEMO_PASSWORD_HASH)]))
    .where('photos.id', 'is', null)
    .orderBy('profiles.id')
    .execute();
  // A few at a time: drawing is CPU work, and a first start should not wait on it one by one.
  for (let i = 0; i < bare.length; i += DRAW_AT_ONCE) {
    await Promise.all(bare.slice(i, i + DRAW_AT_ONCE).map((profile) => drawOne(db, media, profile)));
  }
  return bare.length;
}

/** Portraits drawn at the same time. */
const DRAW_AT_ONCE = 4;
/** Size of a demo photo: a portrait at 4:5, smaller than an upload's long side is allowed to be. */
const DEMO_WIDTH = 720;
const DEMO_HEIGHT = 900;

/** One demo person in this many has more than one photo (2 to 4: other settings, other clothes). */
const MORE_PHOTOS_ONE_IN = 4;

type DemoPerson = { id: number; tenant_id: string; gender: 'male' | 'female'; birth_date: string; hair_color: string | null; eye_color: string | null };

/** How a demo person's portraits draw them: as old as the profile says, with its hair and eye colour. */
export function portraitOptionsOf(profile: { birth_date: string; hair_color?: string | null; eye_color?: string | null }, now: Date): PortraitOptions {
  const stated = <T extends string>(keys: readonly T[], value: string | null | undefined): T | null => (keys.includes(value as T) ? (value as T) : null);
  return {
    age: ageOn(profile.birth_date, now),
    hair: stated<HairColor>(PROFILE_FIELD_KEYS.hair_color, profile.hair_color),
    eyes: stated<EyeColor>(PROFILE_FIELD_KEYS.eye_color, profile.eye_color),
  };
}

async function drawOne(db: Kysely<Database>, media: MediaStore, profile: DemoPerson): Promise<void> {
  const person = portraitOptionsOf(profile, new Date());
  const count = profile.id % MORE_PHOTOS_ONE_IN === 0 ? 2 + (profile.id % 3) : 1;
  for (let variant = 0; variant < count; variant++) await drawPhoto(db, media, profile, { ...person, variant });
}

async function drawPhoto(db: Kysely<Database>, media: MediaStore, profile: DemoPerson, options: PortraitOptions): Promise<void> {
  const variant = options.variant ?? 0;
  // Rasterise the drawing once; the photo and its thumbnail come from the same pixels.
  const raster = await sharp(Buffer.from(portrait(profile.id, profile.gender, options))).resize(DEMO_WIDTH, DEMO_HEIGHT).png().toBuffer();
  const name = randomBytes(16).toString('hex');
  const filename = `${profile.tenant_id}/${name}.webp`;
  const thumbFilename = `${profile.tenant_id}/${name}-t.webp`;
  const [photo, thumb] = await Promise.all([
    sharp(raster).webp({ quality: 80 }).toBuffer(),
    sharp(raster).resize(THUMB_SIDE, THUMB_SIDE, { fit: 'cover', position: 'top' }).webp({ quality: 80 }).toBuffer(),
  ]);
  await media.put(filename, photo);
  await media.put(thumbFilename, thumb);
  await media.publish([filename, thumbFilename]); // approved: a public copy where the bucket has them
  await db.insertInto('photos').values({ profile_id: profile.id, filename, thumb_filename: thumbFilename, status: 'active', reviewed_at: nowIso(), is_main: variant === 0 ? 1 : 0, position: variant }).execute();
}
