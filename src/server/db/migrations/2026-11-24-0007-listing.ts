import { sql, type Kysely } from 'kysely';

/**
 * Listings at scale (a brand of 50,000 members and more): every listing reads the brand's
 * listed profiles of one country (or all) in last-seen order from an index, and stops after the
 * page it needs, instead of filtering every profile through a join and sorting them all.
 *
 * - `profiles.listed` is the visibility rule of listings kept on the row (src/server/services/
 *   visibility.ts `relist` maintains it): active, and the member not invisible.
 * - `last_seen_at` is never empty any more (a new profile is seen at signup), so the last-seen
 *   order reads the same on both engines without NULLS LAST.
 * - One index per order a listing uses: home region, home country, everyone. Gender, age and
 *   region follow the order's columns so filters are checked in the index before a row is read.
 *   `id` follows `last_seen_at`: the order is (last_seen_at desc, id desc) on both engines.
 * - Counting an age range reads the range of birth dates (profiles_listing_age_idx).
 * - A member's profile is found by user id from an index of members only (profiles_member_idx).
 * - The main photo of a profile is found by (profile_id, is_main) in id order without a sort.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('listed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.updateTable('profiles').set({ last_seen_at: sql`created_at` }).where('last_seen_at', 'is', null).execute();
  await db
    .updateTable('profiles')
    .set({
      listed: sql`case when status = 'active' and (user_id is null or not exists (select 1 from users where users.id = profiles.user_id and users.invisible = 1)) then 1 else 0 end`,
    })
    .execute();
  await db.schema.dropIndex('profiles_tenant_search_idx').execute();
  await db.schema.dropIndex('profiles_search_idx').execute();
  await db.schema
    .createIndex('profiles_listing_region_idx')
    .on('profiles')
    .columns(['tenant_id', 'listed', 'country', 'region', 'last_seen_at', 'id', 'gender', 'birth_date'])
    .execute();
  await db.schema
    .createIndex('profiles_listing_country_idx')
    .on('profiles')
    .columns(['tenant_id', 'listed', 'country', 'last_seen_at', 'id', 'gender', 'birth_date', 'region'])
    .execute();
  await db.schema
    .createIndex('profiles_listing_idx')
    .on('profiles')
    .columns(['tenant_id', 'listed', 'last_seen_at', 'id', 'gender', 'birth_date', 'country', 'region'])
    .execute();
  // Counting an age range (a search with min_age or max_age) reads the range, not the brand.
  await db.schema
    .createIndex('profiles_listing_age_idx')
    .on('profiles')
    .columns(['tenant_id', 'listed', 'birth_date', 'gender', 'country', 'region'])
    .execute();
  // A member's profile by user id. The unique constraint's own index holds every fictional
  // profile under user_id NULL, so SQLite's statistics (analyze) take it for 100,000 rows a
  // value and the session look-up scanned all profiles; this one holds members only.
  await db.schema.createIndex('profiles_member_idx').on('profiles').column('user_id').unique().where(sql.ref('user_id'), 'is not', null).execute();
  await db.schema.createIndex('photos_main_idx').on('photos').columns(['profile_id', 'is_main', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('photos_main_idx').execute();
  await db.schema.dropIndex('profiles_member_idx').execute();
  await db.schema.dropIndex('profiles_listing_age_idx').execute();
  await db.schema.dropIndex('profiles_listing_idx').execute();
  await db.schema.dropIndex('profiles_listing_country_idx').execute();
  await db.schema.dropIndex('profiles_listing_region_idx').execute();
  await db.schema.createIndex('profiles_tenant_search_idx').on('profiles').columns(['tenant_id', 'gender', 'country', 'birth_date']).execute();
  await db.schema.createIndex('profiles_search_idx').on('profiles').columns(['gender', 'country', 'birth_date']).execute();
  await db.schema.alterTable('profiles').dropColumn('listed').execute();
}
