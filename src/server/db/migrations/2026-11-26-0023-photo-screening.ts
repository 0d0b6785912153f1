import { sql, type Kysely } from 'kysely';

/**
 * Photo screening (issue 22): a staff decision on a photo.
 *
 * - `photos.reviewed_at`: when staff approved or rejected the photo; null while it waits. The
 *   review queue is read from this column, no separate queue table: a pending photo waits for a
 *   decision before it is shown (`photo_moderation: before`), an active photo with no
 *   `reviewed_at` was shown at once (`after`) and waits for its review.
 * - `photos.reviewed_by`: the staff member's id (the console's staff table; no foreign key, the
 *   staff table belongs to the console and a removed staff member's decisions stay).
 * - `photos.reject_reason`: one of PHOTO_REJECT_REASONS (src/lib/photo-screening.ts) on a rejected photo.
 *
 * - `messages.photo_status` (+ `photo_reviewed_at`, `photo_reviewed_by`, `photo_reject_reason`):
 *   the same for a photo sent in a chat; null on other messages and on photo messages sent before
 *   screening existed (shown as active).
 *
 * Photos already stored (seeded demo photos, uploads from before screening) count as reviewed.
 * Indexes: the queue in upload order per status, and /media/ finding a file's photo by its name.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('photos').addColumn('reviewed_at', 'text').execute();
  await db.schema.alterTable('photos').addColumn('reviewed_by', 'integer').execute();
  await db.schema.alterTable('photos').addColumn('reject_reason', 'text').execute();
  await db.updateTable('photos').set({ reviewed_at: sql`created_at` }).execute();
  await db.schema.createIndex('photos_queue_idx').on('photos').columns(['status', 'reviewed_at', 'id']).execute();
  await db.schema.createIndex('photos_filename_idx').on('photos').column('filename').execute();
  await db.schema.alterTable('messages').addColumn('photo_status', 'text').execute();
  await db.schema.alterTable('messages').addColumn('photo_reviewed_at', 'text').execute();
  await db.schema.alterTable('messages').addColumn('photo_reviewed_by', 'integer').execute();
  await db.schema.alterTable('messages').addColumn('photo_reject_reason', 'text').execute();
  await db.schema.createIndex('messages_photo_queue_idx').on('messages').columns(['photo_status', 'photo_reviewed_at', 'id']).execute();
  await db.schema.createIndex('messages_media_idx').on('messages').column('media').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('messages_media_idx').execute();
  await db.schema.dropIndex('messages_photo_queue_idx').execute();
  for (const column of ['photo_reject_reason', 'photo_reviewed_by', 'photo_reviewed_at', 'photo_status']) await db.schema.alterTable('messages').dropColumn(column).execute();
  await db.schema.dropIndex('photos_filename_idx').execute();
  await db.schema.dropIndex('photos_queue_idx').execute();
  await db.schema.alterTable('photos').dropColumn('reject_reason').execute();
  await db.schema.alterTable('photos').dropColumn('reviewed_by').execute();
  await db.schema.alterTable('photos').dropColumn('reviewed_at').execute();
}
