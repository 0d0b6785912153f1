import type { Kysely } from 'kysely';
import { autoIdColumn, engineOf, sqlNowDefault } from '../engine.ts';

/**
 * The chat (SPEC §3 conversation and chat item, §4 chat):
 *
 * - `conversations`: one per pair of profiles; `started_by` counts a free member's conversations
 *   (SPEC §9: 2), also after the member removed one from the list.
 * - `conversation_members`: each side of a conversation: its unread count (SPEC §3
 *   num_unread_messages), the last message it read (the other side's read state), and what it
 *   removed from its list (`hidden`, and `cleared_id`: messages up to it are gone for this side;
 *   a new message brings the conversation back). One row per profile and other profile, so the
 *   pair is found from either side with one index.
 * - `messages`: text, photo, gift or GIF, with the credits it cost. `client_id` is the sender's
 *   key of one send: a repeated send is stored and charged once. `notified_at` marks a message
 *   whose push and mail were handled (a job sends those a crash left behind).
 * - E-mail notifications are batched (SPEC §3 types): `mailed_id` is the message a side was last
 *   mailed about (no second new-message mail until it has read that one); `users.like_mailed_at`
 *   and `users.reminded_at` space the like mails and the unread-message reminders.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const engine = engineOf(db);
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'integer', autoIdColumn(engine))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('started_by', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('last_message_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engine)))
    .execute();
  // A free member's conversations (SPEC §9).
  await db.schema.createIndex('conversations_started_idx').on('conversations').column('started_by').execute();

  await db.schema
    .createTable('conversation_members')
    .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('other_profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('unread', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_read_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cleared_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mailed_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_message_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('conversation_members_pkey', ['conversation_id', 'profile_id'])
    .addUniqueConstraint('conversation_members_pair_key', ['profile_id', 'other_profile_id'])
    .execute();
  // The chats list: a member's conversations, newest first.
  await db.schema.createIndex('conversation_members_list_idx').on('conversation_members').columns(['profile_id', 'hidden', 'last_message_at']).execute();
  await db.schema.createIndex('conversation_members_other_idx').on('conversation_members').column('other_profile_id').execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'integer', autoIdColumn(engine))
    .addColumn('conversation_id', 'integer', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('sender_profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('media', 'text')
    .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('notified_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engine)))
    .addUniqueConstraint('messages_client_key', ['sender_profile_id', 'client_id'])
    .execute();
  await db.schema.createIndex('messages_conversation_idx').on('messages').columns(['conversation_id', 'id']).execute();
  // Messages whose push and mail are still to be handled.
  await db.schema.createIndex('messages_notify_idx').on('messages').columns(['notified_at', 'id']).execute();
  await db.schema.alterTable('users').addColumn('like_mailed_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('reminded_at', 'text').execute();
  // Members with unread messages (the reminders' job).
  await db.schema.createIndex('conversation_members_unread_idx').on('conversation_members').columns(['unread', 'profile_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('reminded_at').execute();
  await db.schema.alterTable('users').dropColumn('like_mailed_at').execute();
  for (const table of ['messages', 'conversation_members', 'conversations']) await db.schema.dropTable(table).execute();
}
