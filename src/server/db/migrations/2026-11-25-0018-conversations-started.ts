import { sql, type Kysely } from 'kysely';

/**
 * The free limit of started conversations (SPEC §5, §9: 2) counts what a member started, not
 * what still exists: a block deletes the conversations between two members, and before this
 * counter a block and unblock gave a free member new conversations. Backfilled from the
 * conversations that exist.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('conversations_started', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update profiles set conversations_started = (select count(*) from conversations where conversations.started_by = profiles.id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('conversations_started').execute();
}
