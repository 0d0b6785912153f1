import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { User } from '../db/schema.ts';
import type { NotificationDisabled } from '../db/schema.ts';
import type { SiteUser } from '../../site/context.ts';
import { mainImage } from './main-image.ts';

export { mainImage };

export type SiteProfile = NonNullable<SiteUser['profile']>;

/** The user of SPEC §3 as the API and pages see it (GET /api/user.php); never the password hash. */
export function createUserViews(db: Kysely<Database>) {
  async function toSite(user: User): Promise<SiteUser> {
    const profile = await db
      .selectFrom('profiles')
      .select(['id', 'name', 'country', 'status'])
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    return {
      id: user.id,
      email: user.email,
      status: user.status,
      credits: user.credits,
      paid_user: user.paid_user === 1,
      language: user.language,
      notifications_disabled: JSON.parse(user.notifications_disabled) as NotificationDisabled[],
      signup_date: user.signup_date,
      invisible: user.invisible === 1,
      profile: profile ? { ...profile, main_image: await mainImage(db, profile.id) } : null,
    };
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
