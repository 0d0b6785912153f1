import { sql, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';

/**
 * PostgreSQL: every change to what a cached session row holds (src/server/services/sessions.ts:
 * the session, its user, profile and main photo) is announced on the schema's event channel
 * (`sitegen_events_<schema>`, the bus's, topic `session_rows`) when its transaction commits, by
 * whoever writes it: a runtime process, the CLI, an operator's psql. Each runtime then drops the
 * sessions of that user or profile from its cache. NOTIFY in a trigger is sent at commit, once
 * per distinct payload of a transaction. SQLite has one process and its data_version instead.
 */
const TRIGGERS = [
  // table, the events that matter (the columns a session row reads), what names the member
  { table: 'users', events: 'update of email, status, credits, paid_user, language, notifications_disabled, signup_date, invisible or delete', key: 'user_id', column: 'id' },
  { table: 'profiles', events: 'insert or update of user_id, name, country, status or delete', key: 'user_id', column: 'user_id' },
  { table: 'photos', events: 'insert or update or delete', key: 'profile_id', column: 'profile_id' },
  // expires_at too: an operator may end a session by moving it; a runtime extends one once a day.
  { table: 'sessions', events: 'update of tenant_id, user_id, secret_hash, expires_at or delete', key: 'user_id', column: 'user_id' },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql`
    create or replace function session_rows_truncate() returns trigger language plpgsql as $$
    begin
      perform pg_notify(left(lower('sitegen_events_' || tg_table_schema), 63), json_build_object('t', 'session_rows', 'e', json_build_object(), 'p', 'database')::text);
      return null;
    end
    $$`.execute(db);
  for (const { table, events, key, column } of TRIGGERS) {
    const fn = sql.id(`session_rows_${table}`);
    // The channel is the bus's for the schema the table lives in (TG_TABLE_SCHEMA), whatever the
    // writer's search_path; the envelope is the bus's (topic, event, publisher).
    await sql`
      create or replace function ${fn}() returns trigger language plpgsql as $$
      declare
        row_key integer;
      begin
        if tg_op = 'DELETE' then row_key := old.${sql.id(column)}; else row_key := new.${sql.id(column)}; end if;
        perform pg_notify(
          left(lower('sitegen_events_' || tg_table_schema), 63),
          json_build_object('t', 'session_rows', 'e', json_build_object(${sql.lit(key)}, row_key), 'p', 'database')::text
        );
        if tg_op = 'UPDATE' and old.${sql.id(column)} is distinct from new.${sql.id(column)} then
          perform pg_notify(
            left(lower('sitegen_events_' || tg_table_schema), 63),
            json_build_object('t', 'session_rows', 'e', json_build_object(${sql.lit(key)}, old.${sql.id(column)}), 'p', 'database')::text
          );
        end if;
        return null;
      end
      $$`.execute(db);
    await sql.raw(`create trigger session_rows_${table} after ${events} on ${table} for each row execute function session_rows_${table}()`).execute(db);
    // A truncate names no member: an event without one empties every runtime's cache.
    await sql.raw(`create trigger session_rows_${table}_truncate after truncate on ${table} for each statement execute function session_rows_truncate()`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  for (const { table } of TRIGGERS) {
    await sql.raw(`drop trigger if exists session_rows_${table}_truncate on ${table}`).execute(db);
    await sql.raw(`drop trigger if exists session_rows_${table} on ${table}`).execute(db);
    await sql.raw(`drop function if exists session_rows_${table}()`).execute(db);
  }
  await sql.raw('drop function if exists session_rows_truncate()').execute(db);
}
