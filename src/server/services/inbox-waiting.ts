import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/index.ts';

/**
 * A member's message that reaches a fictional profile makes the conversation wait (issue 22): the
 * oldest unanswered message's time is kept until staff answer. Called by the chat (reachRecipient)
 * in the transaction of the message, when it is sent or when a held one is released.
 */
export async function markWaiting(trx: Kysely<Database> | Transaction<Database>, message: { conversationId: number; recipientProfileId: number; at: string }): Promise<void> {
  await trx
    .updateTable('conversations')
    .set((eb) => ({ waiting_since: eb.fn.coalesce('waiting_since', eb.val(message.at)) }))
    .where('id', '=', message.conversationId)
    .where((eb) => eb.exists(eb.selectFrom('profiles').select('id').where('id', '=', message.recipientProfileId).where('fictional', '=', 1).where('user_id', 'is', null)))
    .execute();
}
