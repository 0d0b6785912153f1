import type { Kysely } from 'kysely';

/**
 * A pool's listings at scale (issue 24: 20 brands, 1,000,000 members): a pool brand's listing
 * draws from every brand of the pool, so the brand indexes of migration 0007 (tenant_id first)
 * gave one read per brand and a sort of every match. These lead with the listing's order within
 * the home bands instead (own region, own country, everyone), the brand and the filters' columns
 * after it: a pool's list walks one of them in last-seen order and stops at its size. Brands
 * alone still read their own indexes (tenant_id = ?).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('profiles_pool_region_idx').on('profiles').columns(['listed', 'country', 'region', 'last_seen_at', 'id', 'tenant_id', 'gender', 'birth_date']).execute();
  await db.schema.createIndex('profiles_pool_country_idx').on('profiles').columns(['listed', 'country', 'last_seen_at', 'id', 'tenant_id', 'gender', 'birth_date', 'region']).execute();
  await db.schema.createIndex('profiles_pool_listing_idx').on('profiles').columns(['listed', 'last_seen_at', 'id', 'tenant_id', 'gender', 'birth_date', 'country', 'region']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('profiles_pool_listing_idx').execute();
  await db.schema.dropIndex('profiles_pool_country_idx').execute();
  await db.schema.dropIndex('profiles_pool_region_idx').execute();
}
