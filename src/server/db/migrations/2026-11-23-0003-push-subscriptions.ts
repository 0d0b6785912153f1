import type { Kysely } from 'kysely';
import { autoIdColumn, engineOf, sqlNowDefault } from '../engine.ts';

/**
 * The browsers' push subscriptions of a member (SPEC §7 POST /api/user.php?push=1): one row per
 * push endpoint, which belongs to one browser of one member. Erased with the member.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const engine = engineOf(db);
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'integer', autoIdColumn(engine))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engine)))
    .execute();
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_subscriptions').execute();
}
