import { sql, type Kysely } from 'kysely';
import { autoIdColumn, engineOf, sqlNowDefault } from '../engine.ts';

/**
 * Members and what every later feature starts from: accounts, profiles (members' and
 * fictional ones), photos, sessions, one-time tokens and the credit ledger.
 *
 * Enumerated text columns (status, gender, kind ...) carry no check constraint on purpose:
 * SQLite cannot change a constraint without rebuilding the table, so allowed values are
 * enforced by the types in schema.ts and the services' zod schemas. The constraints that
 * guard money and identity (credits >= 0, one account per e-mail per tenant) are here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const engine = engineOf(db);
  const id = autoIdColumn(engine);
  const now = sqlNowDefault(engine);

  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', id)
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('not_confirmed'))
    .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_user', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('notifications_disabled', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('invisible', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('signup_date', 'text', (c) => c.notNull().defaultTo(now))
    .addColumn('deletion_requested_at', 'text')
    .addColumn('tracking', 'text')
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(now))
    // A balance never goes negative (DESIGN §3): a spend that would overdraw fails in the database too.
    .addCheckConstraint('users_credits_not_negative', sql`credits >= 0`)
    // The same e-mail may sign up on another brand as a separate account (DESIGN §3).
    .addUniqueConstraint('users_tenant_email_unique', ['tenant_id', 'email'])
    .execute();

  await db.schema
    .createTable('profiles')
    .addColumn('id', 'integer', id)
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.unique().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('gender', 'text', (c) => c.notNull())
    .addColumn('sexuality', 'text', (c) => c.notNull())
    .addColumn('birth_date', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('region', 'text')
    .addColumn('city', 'text')
    .addColumn('hair_color', 'text')
    .addColumn('eye_color', 'text')
    .addColumn('body_type', 'text')
    .addColumn('relationship_status', 'text')
    .addColumn('tattoos', 'text')
    .addColumn('reason', 'text')
    .addColumn('about', 'text')
    .addColumn('interests', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('fictional', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seen_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'text', (c) => c.notNull().defaultTo(now))
    .execute();
  // Search filters by gender, country and age range (SPEC §3 search state), within a tenant
  // or across the tenants whose members a brand may show.
  await db.schema
    .createIndex('profiles_tenant_search_idx')
    .on('profiles')
    .columns(['tenant_id', 'gender', 'country', 'birth_date'])
    .execute();
  await db.schema.createIndex('profiles_search_idx').on('profiles').columns(['gender', 'country', 'birth_date']).execute();

  await db.schema
    .createTable('photos')
    .addColumn('id', 'integer', id)
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('thumb_filename', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('is_main', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('photos_profile_idx').on('photos').columns(['profile_id', 'position']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull().defaultTo(now))
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  // Log out everywhere, and the purge of expired sessions.
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(now))
    .execute();
  // A new reset or activation link voids the member's earlier ones of that kind.
  await db.schema.createIndex('tokens_user_kind_idx').on('tokens').columns(['user_id', 'kind']).execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'integer', id)
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    // No cascade: the ledger is the accounting record and outlives nothing it refers to.
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('ref', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('credit_ledger_user_idx').on('credit_ledger').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Children first: the foreign keys point from them to users and profiles.
  for (const table of ['credit_ledger', 'tokens', 'sessions', 'photos', 'profiles', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
