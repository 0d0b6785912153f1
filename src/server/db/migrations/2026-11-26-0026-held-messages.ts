import type { Kysely } from 'kysely';

/**
 * Held messages (issue 22, "Safety rules"): a member's message the brand's rules hold for review
 * is stored and charged, but reaches its recipient only when a moderator releases it.
 *
 * - `messages.hold_status`: null for a message delivered at once; `held`, `released` or `rejected`
 *   (src/lib/safety-rules.ts HOLD_STATUSES). The moderators' queue is read from this column.
 * - `messages.hold_reasons`: why it was held, a JSON array of HOLD_REASONS (`burst`, `contacts`,
 *   `words`) with what was found (`{"reasons": [...], "contacts": [...], "word": "..."}`).
 * - `messages.hold_decided_at`, `hold_decided_by` (the staff member's id; no foreign key, as
 *   photos.reviewed_by), `hold_note`: the moderator's decision and its reason, which a rejected
 *   message's sender is shown (DSA art. 17).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('hold_status', 'text').execute();
  await db.schema.alterTable('messages').addColumn('hold_reasons', 'text').execute();
  await db.schema.alterTable('messages').addColumn('hold_decided_at', 'text').execute();
  await db.schema.alterTable('messages').addColumn('hold_decided_by', 'integer').execute();
  await db.schema.alterTable('messages').addColumn('hold_note', 'text').execute();
  await db.schema.createIndex('messages_hold_queue_idx').on('messages').columns(['hold_status', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('messages_hold_queue_idx').execute();
  for (const column of ['hold_note', 'hold_decided_by', 'hold_decided_at', 'hold_reasons', 'hold_status']) await db.schema.alterTable('messages').dropColumn(column).execute();
}
