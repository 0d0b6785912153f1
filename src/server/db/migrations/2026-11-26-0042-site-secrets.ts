import type { Kysely } from 'kysely';
import { engineOf, sqlNowDefault } from '../engine.ts';

/**
 * Secrets every runtime process shares, whatever machine it runs on (issue 25): the web-push
 * VAPID key pair today (`vapid`, JSON `{ publicKey, privateKey }`). Made once by whichever process
 * comes first (insert or ignore, then read), never a file that differs per machine.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('site_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engineOf(db))))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('site_secrets').execute();
}
