import type { Kysely } from 'kysely';

/**
 * A pool's listings read from their index alone (issue 24, bench/README.md "The pool's lists from
 * their index alone"): the pool's last-seen indexes of migration 0055 also hold every column the
 * pool's scope reads (services/pool.ts `inScope`: the choice to be pooled, fictional, and the
 * audiences' sexuality, body type and interests), so a list walks the index in order and tests the
 * scope and the filters there: no table row is read for a profile it passes over. At 1,000,000
 * members a list of an age range passes over ten profiles for each it keeps.
 */
const SCOPE = ['pooled', 'fictional', 'sexuality', 'body_type', 'interests'];
const INDEXES = {
  profiles_pool_region_idx: ['listed', 'country', 'region', 'last_seen_at', 'id', 'tenant_id', 'gender', 'birth_date'],
  profiles_pool_country_idx: ['listed', 'country', 'last_seen_at', 'id', 'tenant_id', 'gender', 'birth_date', 'region'],
  profiles_pool_listing_idx: ['listed', 'last_seen_at', 'id', 'tenant_id', 'gender', 'birth_date', 'country', 'region'],
};

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of Object.entries(INDEXES)) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('profiles').columns([...columns, ...SCOPE]).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of Object.entries(INDEXES)) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('profiles').columns(columns).execute();
  }
}
