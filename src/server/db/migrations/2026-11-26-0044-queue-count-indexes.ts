import { sql, type Kysely } from 'kysely';

/**
 * The photo queue's counts per brand (services/moderation.ts `queueCounts`, issue 22 bench):
 * every waiting photo is counted through its profile's brand. These indexes hold every column
 * those counts read, so each waiting item costs two index entries and no table row: the queue's
 * photos with their profile, chat photos with their sender (only photo messages are in it), and
 * a profile's brand by its id.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('photos_queue_count_idx').on('photos').columns(['status', 'reviewed_at', 'profile_id']).execute();
  await sql`create index messages_photo_count_idx on messages (photo_status, photo_reviewed_at, kind, sender_profile_id) where photo_status is not null`.execute(db);
  await db.schema.createIndex('profiles_brand_idx').on('profiles').columns(['id', 'tenant_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('profiles_brand_idx').execute();
  await db.schema.dropIndex('messages_photo_count_idx').execute();
  await db.schema.dropIndex('photos_queue_count_idx').execute();
}
