import { sql, type Kysely } from 'kysely';
import { autoIdColumn, engineOf, sqlNowDefault } from '../engine.ts';

/**
 * How members reach each other (SPEC §3 like item, §4 likes list, swipe game and blocking):
 *
 * - `likes`: one row per pair and direction, so liking twice changes nothing; both directions make
 *   a match. `is_new` is the receiver's new-like flag (SPEC §3 like_new), cleared when the
 *   receiver opens the liker's profile.
 * - `swipes`: every card of the swipe game answered, like or pass, once per pair: the game never
 *   shows a profile again, and the likes of a day are counted from it (SPEC §9: 4 a day).
 * - `blocks`: one member's block of a profile; the visibility rule (services/visibility.ts)
 *   hides the two from each other both ways.
 * - `complaints`: what a member reported to the operator, about a member or about the service.
 *
 * Every row goes with its profiles (cascade); a complaint keeps its text when the reported
 * profile is gone (set null).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const engine = engineOf(db);
  const pair = (table: string, from: string, to: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', 'integer', autoIdColumn(engine))
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn(from, 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
      .addColumn(to, 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engine)))
      .addUniqueConstraint(`${table}_pair_key`, [from, to]);

  await pair('likes', 'from_profile_id', 'to_profile_id').addColumn('is_new', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  // Received likes, new ones first (the likes list and the new-likes badge).
  await db.schema.createIndex('likes_received_idx').on('likes').columns(['to_profile_id', 'is_new', 'created_at']).execute();
  // Given likes, newest first.
  await db.schema.createIndex('likes_given_idx').on('likes').columns(['from_profile_id', 'created_at']).execute();

  await pair('swipes', 'from_profile_id', 'to_profile_id').addColumn('action', 'text', (c) => c.notNull().check(sqlCheck(['like', 'pass']))).execute();
  // The day's swipe likes of a member (SPEC §9).
  await db.schema.createIndex('swipes_day_idx').on('swipes').columns(['from_profile_id', 'action', 'created_at']).execute();

  await pair('blocks', 'blocker_profile_id', 'blocked_profile_id').execute();
  // Who blocked me: the other direction of the visibility rule.
  await db.schema.createIndex('blocks_blocked_idx').on('blocks').columns(['blocked_profile_id', 'blocker_profile_id']).execute();

  await db.schema
    .createTable('complaints')
    .addColumn('id', 'integer', autoIdColumn(engine))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('reporter_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reported_profile_id', 'integer', (c) => c.references('profiles.id').onDelete('set null'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engine)))
    .execute();
  await db.schema.createIndex('complaints_tenant_idx').on('complaints').columns(['tenant_id', 'status', 'created_at']).execute();
  await db.schema.createIndex('complaints_reporter_idx').on('complaints').columns(['reporter_user_id', 'created_at']).execute();
}

function sqlCheck(values: string[]) {
  return sql.raw(`action in (${values.map((v) => `'${v}'`).join(', ')})`);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['complaints', 'blocks', 'swipes', 'likes']) await db.schema.dropTable(table).execute();
}
