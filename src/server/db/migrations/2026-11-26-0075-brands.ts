import type { Kysely } from 'kysely';
import { engineOf, sqlNowDefault } from '../engine.ts';

/**
 * Brands published to the database (issue 25, "Past one machine"): a brand's folder
 * (tenant.json, landers/, assets/) as `sitegen publish` or `sitegen new` read it, so every
 * runtime on every machine that shares the database writes it into its own tenants folder
 * (src/server/brand-sync.ts). `files`: JSON `{path: base64}`; `hash`: SHA-256 of the folder.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('brands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('files', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engineOf(db))))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('brands').execute();
}
