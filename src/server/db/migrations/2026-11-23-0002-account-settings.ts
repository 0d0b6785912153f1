import type { Kysely } from 'kysely';

/**
 * Account settings of the accounts feature: the member's own choice per e-mail notification
 * type and for push (users.notifications_disabled stays the list of types switched off by a
 * spam report, bounce or list-unsubscribe, SPEC §3), and the reason given when deleting.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_preferences', 'text', (c) => c.notNull().defaultTo('{}')).execute();
  await db.schema.alterTable('users').addColumn('push_enabled', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('deletion_reason', 'text').execute();
  await db.schema.createIndex('users_deletion_requested_idx').on('users').column('deletion_requested_at').execute();
  await db.schema.createIndex('tokens_kind_created_idx').on('tokens').columns(['user_id', 'kind', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tokens_kind_created_idx').execute();
  await db.schema.dropIndex('users_deletion_requested_idx').execute();
  await db.schema.alterTable('users').dropColumn('deletion_reason').execute();
  await db.schema.alterTable('users').dropColumn('push_enabled').execute();
  await db.schema.alterTable('users').dropColumn('email_preferences').execute();
}
