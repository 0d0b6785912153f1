import type { Kysely } from 'kysely';
import { engineOf } from '../engine.ts';

/**
 * The counters of the rate limits on PostgreSQL (rate-limiter-flexible's PostgreSQL store, its
 * own table layout), so every runtime process counts against the same limits (DESIGN §9). On
 * SQLite one process is assumed and the counters live in its memory: no table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await db.schema.dropTable('rate_limits').execute();
}
