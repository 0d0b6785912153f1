import { sql, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';

/**
 * PostgreSQL: every change of what a shared list or card of listings holds
 * (src/server/services/listing-cache.ts) is announced on the schema's event channel
 * (`sitegen_events_<schema>`, the bus's, topic `listings`) when its transaction commits, by
 * whoever writes it: a runtime process, the CLI, an operator's psql. Each runtime then reads its
 * lists again (listing-changes.ts; `{ cards: true }`: only its cards). NOTIFY in a trigger is sent
 * at commit, once per distinct payload of a transaction: a bulk change is one event. The columns
 * are listing-changes.ts's LISTING_COLUMNS and CARD_COLUMNS; a profile's insert shows in the
 * newest id instead. SQLite has one process and its data_version instead.
 */
const TRIGGERS = [
  {
    table: 'profiles',
    events: 'update of listed, pooled, status, retired_at, tenant_id, user_id, gender, sexuality, country, region, birth_date, body_type, interests, fictional or delete',
    event: '{}',
  },
  { table: 'profiles_cards', on: 'profiles', events: 'update of name, city', event: '{"cards":true}' },
  { table: 'photos', events: 'insert or update or delete', event: '{"cards":true}' },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  for (const trigger of TRIGGERS) {
    const name = `listing_changes_${trigger.table}`;
    const on = 'on' in trigger ? trigger.on : trigger.table;
    // The channel is the bus's for the schema the table lives in (TG_TABLE_SCHEMA), whatever the
    // writer's search_path; the envelope is the bus's (topic, event, publisher).
    await sql
      .raw(
        `create or replace function ${name}() returns trigger language plpgsql as $$
        begin
          perform pg_notify(left(lower('sitegen_events_' || tg_table_schema), 63), json_build_object('t', 'listings', 'e', '${trigger.event}'::json, 'p', 'database')::text);
          return null;
        end
        $$`,
      )
      .execute(db);
    await sql.raw(`create trigger ${name} after ${trigger.events} on ${on} for each statement execute function ${name}()`).execute(db);
    await sql.raw(`create trigger ${name}_truncate after truncate on ${on} for each statement execute function ${name}()`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  for (const trigger of TRIGGERS) {
    const name = `listing_changes_${trigger.table}`;
    const on = 'on' in trigger ? trigger.on : trigger.table;
    await sql.raw(`drop trigger if exists ${name}_truncate on ${on}`).execute(db);
    await sql.raw(`drop trigger if exists ${name} on ${on}`).execute(db);
    await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
}
