import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../db/index.ts';

/**
 * A member's message that reaches a fictional profile makes the conversation wait (issue 22): the
 * oldest unanswered message's time is kept until staff answer. The new `waiting_since` of the
 * conversation's row, set by the chat (reachRecipient) in the update that stores the message as
 * the conversation's last, in the transaction of the message, when it is sent or when a held one
 * is released. A retired fictional profile makes nothing wait (defensive: a message to a fictional
 * profile is never held, and a retired one takes no new messages), so the inbox's counts may read
 * the waiting index alone.
 */
export function waitingSince(eb: ExpressionBuilder<Database, 'conversations'>, message: { recipientProfileId: number; at: string }) {
  return eb
    .case()
    .when(eb.exists(eb.selectFrom('profiles').select('profiles.id').where('profiles.id', '=', message.recipientProfileId).where('profiles.fictional', '=', 1).where('profiles.user_id', 'is', null).where('profiles.retired_at', 'is', null)))
    .then(eb.fn.coalesce('conversations.waiting_since', eb.val(message.at)))
    .else(eb.ref('conversations.waiting_since'))
    .end();
}
