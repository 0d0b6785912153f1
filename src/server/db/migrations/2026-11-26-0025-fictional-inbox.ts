import { sql, type Kysely } from 'kysely';

/**
 * Fictional profiles and the fictional inbox of the console (issue 22, DESIGN §10, §11).
 *
 * - `profiles.retired_at`: a fictional profile staff retired. It is no longer listed (relist
 *   keeps `listed` 0) nor searchable; its conversations stay readable, closed to new messages.
 * - `conversations.waiting_since`: when the oldest member message a fictional profile has not
 *   answered arrived; null when nothing waits. Set by the chat's store when a member writes to a
 *   fictional profile, cleared by a staff reply, in the transaction of the message: the inbox is
 *   read from this column in waiting order (index below), never by scanning messages.
 * - `conversations.first_answer_at`: the first staff reply of the conversation (the time to
 *   first answer is first_answer_at - created_at; the member always writes first).
 * - `conversations.claimed_by` / `claimed_until`: the one claim of the conversation (a staff id,
 *   no foreign key: a removed staff member's claim simply runs out). Taken and refreshed by one
 *   conditional UPDATE, so two staff members on two runtimes never both hold it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('retired_at', 'text').execute();
  await db.schema.alterTable('conversations').addColumn('waiting_since', 'text').execute();
  await db.schema.alterTable('conversations').addColumn('first_answer_at', 'text').execute();
  await db.schema.alterTable('conversations').addColumn('claimed_by', 'integer').execute();
  await db.schema.alterTable('conversations').addColumn('claimed_until', 'text').execute();
  // Conversations that wait already (members wrote to the seed's fictional profiles before this).
  await sql`
    update conversations set waiting_since = (
      select min(m.created_at) from messages m
      where m.conversation_id = conversations.id
        and m.sender_profile_id not in (select id from profiles where fictional = 1)
        and m.id > (select coalesce(max(r.id), 0) from messages r where r.conversation_id = conversations.id and r.sender_profile_id in (select id from profiles where fictional = 1))
    )
    where id in (select cm.conversation_id from conversation_members cm join profiles p on p.id = cm.profile_id where p.fictional = 1)
  `.execute(db);
  await db.schema.createIndex('conversations_waiting_idx').on('conversations').columns(['tenant_id', 'waiting_since', 'id']).execute();
  await db.schema.createIndex('conversations_answered_idx').on('conversations').columns(['tenant_id', 'first_answer_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('conversations_answered_idx').execute();
  await db.schema.dropIndex('conversations_waiting_idx').execute();
  for (const column of ['claimed_until', 'claimed_by', 'first_answer_at', 'waiting_since']) await db.schema.alterTable('conversations').dropColumn(column).execute();
  await db.schema.alterTable('profiles').dropColumn('retired_at').execute();
}
