import { sql, type Kysely } from 'kysely';
import { autoIdColumn, engineOf, sqlNowDefault } from '../engine.ts';

/**
 * The operator console's foundations (issue 22, DESIGN §11): staff (not members), their recovery
 * codes and sessions, the append-only audit log, and a member's suspension.
 *
 * - `staff.email` is stored lower-cased and unique: one account per address across all brands.
 * - `staff.brands`: JSON array of brand ids, or null for every brand.
 * - `staff.totp_secret` is stored as is (base32): a copy of the database then holds the second
 *   factor too, but no password or session (both hashed); encrypting it needs a key the runtime
 *   would keep beside the database anyway.
 * - `audit_log` refuses UPDATE and DELETE by triggers on both engines.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const engine = engineOf(db);
  const id = autoIdColumn(engine);
  const now = sqlNowDefault(engine);

  await db.schema
    .createTable('staff')
    .addColumn('id', 'integer', id)
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('brands', 'text')
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('totp_last_step', 'integer')
    .addColumn('enrol_token_hash', 'text')
    .addColumn('enrol_expires_at', 'text')
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('session_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(now))
    .addColumn('removed_at', 'text')
    .execute();

  await db.schema
    .createTable('staff_recovery_codes')
    .addColumn('id', 'integer', id)
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('staff_recovery_codes_staff_idx').on('staff_recovery_codes').column('staff_id').execute();

  await db.schema
    .createTable('staff_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_sessions_staff_idx').on('staff_sessions').column('staff_id').execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', id)
    .addColumn('at', 'text', (c) => c.notNull().defaultTo(now))
    .addColumn('staff_id', 'integer')
    .addColumn('role', 'text')
    .addColumn('brand', 'text')
    .addColumn('object_type', 'text')
    .addColumn('object_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('details', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('audit_log_brand_idx').on('audit_log').columns(['brand', 'id']).execute();
  await db.schema.createIndex('audit_log_staff_idx').on('audit_log').columns(['staff_id', 'id']).execute();

  if (engine === 'postgres') {
    await sql`create or replace function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only'; end $$`.execute(db);
    await sql`create trigger audit_log_no_update before update or delete on audit_log for each row execute function audit_log_append_only()`.execute(db);
    await sql`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'append-only'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'append-only'); end`.execute(db);
  }

  // A suspended member (set by staff): logged out, hidden from everyone, refused at login.
  await db.schema.alterTable('users').addColumn('suspended_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('suspended_at').execute();
  if (engineOf(db) === 'postgres') {
    await sql`drop table audit_log`.execute(db);
    await sql`drop function if exists audit_log_append_only()`.execute(db);
  } else {
    await db.schema.dropTable('audit_log').execute();
  }
  await db.schema.dropTable('staff_sessions').execute();
  await db.schema.dropTable('staff_recovery_codes').execute();
  await db.schema.dropTable('staff').execute();
}
