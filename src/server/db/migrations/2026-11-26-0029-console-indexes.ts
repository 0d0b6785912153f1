import { sql, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';

/**
 * The console's members search by e-mail and by name (issue 22, bench section `console`): a
 * prefix of an e-mail address or of a name is a range of these indexes (engine.ts `startsWith`),
 * in any brand or all of them, instead of reading every member of the brand. PostgreSQL compares
 * them in the C collation (code points), whatever the database's own. And a brand's members
 * newest first (the search without a term): read in id order from `(tenant_id, id)`, not every
 * member of the brand sorted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const c = engineOf(db) === 'postgres' ? sql` collate "C"` : sql``;
  await sql`create index users_email_prefix_idx on users ((email${c}))`.execute(db);
  await sql`create index profiles_name_prefix_idx on profiles ((lower(name)${c}))`.execute(db);
  await db.schema.createIndex('users_tenant_id_idx').on('users').columns(['tenant_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_tenant_id_idx').execute();
  await db.schema.dropIndex('profiles_name_prefix_idx').execute();
  await db.schema.dropIndex('users_email_prefix_idx').execute();
}
