import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { User } from '../db/schema.ts';
import type { NotificationDisabled } from '../db/schema.ts';
import type { SiteUser } from '../../contract/user.ts';
import { mainImage } from './main-image.ts';
import { mediaUrl } from '../media-address.ts';

export { mainImage };

export type SiteProfile = NonNullable<SiteUser['profile']>;

/**
 * The columns a SiteUser is made of, from `users` left-joined with `profiles` and the main
 * `photos` row: one query gives the whole user (the session look-up joins them to the session).
 */
export const SITE_USER_COLUMNS = [
  'users.id as user_id',
  'users.email',
  'users.status',
  'users.credits',
  'users.paid_user',
  'users.language',
  'users.notifications_disabled',
  'users.signup_date',
  'users.invisible',
  'users.own_brand_only',
  'profiles.id as profile_id',
  'profiles.name as profile_name',
  'profiles.country as profile_country',
  'profiles.status as profile_status',
  'photos.filename as photo_filename',
  'photos.thumb_filename as photo_thumb_filename',
  'photos.status as photo_status',
] as const;

export interface SiteUserRow {
  user_id: number;
  email: string;
  status: string;
  credits: number;
  paid_user: number;
  language: string;
  notifications_disabled: string;
  signup_date: string;
  invisible: number;
  own_brand_only: number;
  profile_id: number | null;
  profile_name: string | null;
  profile_country: string | null;
  profile_status: string | null;
  photo_filename: string | null;
  photo_thumb_filename: string | null;
  photo_status: string | null;
}

/** The user of SPEC §3 from a row of SITE_USER_COLUMNS; never the password hash. */
export function siteUserOf(row: SiteUserRow): SiteUser {
  const thumb = row.photo_thumb_filename ? mediaUrl(row.photo_thumb_filename, row.photo_status ?? undefined) : null;
  return {
    id: row.user_id,
    email: row.email,
    status: row.status,
    credits: row.credits,
    paid_user: row.paid_user === 1,
    language: row.language,
    notifications_disabled: JSON.parse(row.notifications_disabled) as NotificationDisabled[],
    signup_date: row.signup_date,
    invisible: row.invisible === 1,
    own_brand_only: row.own_brand_only === 1,
    profile:
      row.profile_id === null
        ? null
        : {
            id: row.profile_id,
            name: row.profile_name ?? '',
            country: row.profile_country ?? '',
            status: row.profile_status ?? '',
            main_image: row.photo_filename && thumb ? { filename: mediaUrl(row.photo_filename, row.photo_status ?? undefined), thumb_filename: thumb, status: row.photo_status ?? '', match: thumb } : null,
          },
  };
}

/** The user of SPEC §3 as the API and pages see it (GET /api/user.php); never the password hash. */
export function createUserViews(db: Kysely<Database>) {
  async function toSite(user: User): Promise<SiteUser> {
    const row = await db
      .selectFrom('users')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .leftJoin('photos', (join) => join.onRef('photos.profile_id', '=', 'profiles.id').on('photos.is_main', '=', 1))
      .select(SITE_USER_COLUMNS)
      .where('users.id', '=', user.id)
      .orderBy('photos.id')
      .limit(1)
      .executeTakeFirstOrThrow();
    return siteUserOf(row);
  }
  return {
    toSite,
    async userById(id: number): Promise<{ row: User; site: SiteUser } | undefined> {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? { row, site: await toSite(row) } : undefined;
    },
  };
}

export type UserViews = ReturnType<typeof createUserViews>;
