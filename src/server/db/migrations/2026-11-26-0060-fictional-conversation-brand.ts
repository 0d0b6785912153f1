import { sql, type Kysely } from 'kysely';

/**
 * The member network (issue 24): a conversation with a fictional profile is its brand's, whichever
 * brand of the pool the member wrote from, so it waits in the fictional inbox of the staff who
 * answer as that profile (services/chat.ts names the brand so from now on; this moves the
 * conversations started before).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update conversations set tenant_id = (
      select f.tenant_id from conversation_members cm join profiles f on f.id = cm.profile_id
      where cm.conversation_id = conversations.id and f.fictional = 1 and f.user_id is null
    )
    where exists (
      select 1 from conversation_members cm join profiles f on f.id = cm.profile_id
      where cm.conversation_id = conversations.id and f.fictional = 1 and f.user_id is null and f.tenant_id <> conversations.tenant_id
    )`.execute(db);
}

/** Nothing to undo: the starter's brand of such a conversation is `started_by`'s profile's brand. */
export async function down(): Promise<void> {}
