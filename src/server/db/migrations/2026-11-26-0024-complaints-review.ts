import { sql, type Kysely } from 'kysely';
import { autoIdColumn, engineOf, sqlNowDefault } from '../engine.ts';

/**
 * Complaints handled in the console (issue 22, "Complaints"), and a suspension that takes effect
 * at once.
 *
 * - `complaints.status` gains `in_review` (a text column: the rows already `open` or `handled`
 *   stay valid as they are). A decision stores what was decided (`decision`: dismissed, warned,
 *   photo_removed, suspended; src/lib/complaints.ts), on which ground (`decision_reason`, one of
 *   COMPLAINT_DECISION_REASONS), by whom and when; `reviewed_by`/`reviewed_at` say who took it in
 *   hand. Staff ids without a foreign key, as photos.reviewed_by: a removed staff member's
 *   decisions stay.
 * - `statements`: the statement of a decision each member concerned gets in the product (DSA
 *   art. 17: what was decided, on which ground, how to object), beside the mail: the reporter and
 *   the member reported, each once per complaint. Erased with the member.
 * - PostgreSQL: the trigger that tells every runtime to drop a member's cached sessions
 *   (2026-11-25-0019) fires on `users.suspended_at` too, so a suspension shows on every runtime at once.
 */
const USERS_EVENTS = 'update of email, status, credits, paid_user, language, notifications_disabled, signup_date, invisible or delete';

export async function up(db: Kysely<any>): Promise<void> {
  const engine = engineOf(db);
  for (const column of ['decision', 'decision_reason', 'decided_at', 'reviewed_at']) await db.schema.alterTable('complaints').addColumn(column, 'text').execute();
  for (const column of ['decided_by', 'reviewed_by']) await db.schema.alterTable('complaints').addColumn(column, 'integer').execute();
  // The queue of every brand in scope, oldest first per status.
  await db.schema.createIndex('complaints_queue_idx').on('complaints').columns(['status', 'id']).execute();

  await db.schema
    .createTable('statements')
    .addColumn('id', 'integer', autoIdColumn(engine))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('complaint_id', 'integer', (c) => c.notNull().references('complaints.id').onDelete('cascade'))
    // `reporter` or `reported`: which side of the complaint the member was on.
    .addColumn('party', 'text', (c) => c.notNull())
    .addColumn('decision', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engine)))
    .execute();
  await db.schema.createIndex('statements_user_idx').on('statements').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('statements_once_key').on('statements').columns(['complaint_id', 'user_id']).unique().execute();

  if (engine === 'postgres') {
    await sql.raw('drop trigger if exists session_rows_users on users').execute(db);
    await sql.raw(`create trigger session_rows_users after ${USERS_EVENTS.replace(' or delete', ', suspended_at or delete')} on users for each row execute function session_rows_users()`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === 'postgres') {
    await sql.raw('drop trigger if exists session_rows_users on users').execute(db);
    await sql.raw(`create trigger session_rows_users after ${USERS_EVENTS} on users for each row execute function session_rows_users()`).execute(db);
  }
  await db.schema.dropTable('statements').execute();
  await db.schema.dropIndex('complaints_queue_idx').execute();
  for (const column of ['reviewed_by', 'decided_by', 'reviewed_at', 'decided_at', 'decision_reason', 'decision']) await db.schema.alterTable('complaints').dropColumn(column).execute();
}
