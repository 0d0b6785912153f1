/**
 * Members who chat, for the chat's API tests and those of what moderates it (held messages): an
 * active member with a known balance, a text send, and the member's balance beside their ledger.
 */
import { randomUUID } from 'node:crypto';
import { grant } from '../../src/server/ledger.ts';
import type { TestRuntime } from './runtime.ts';
import { activeMember } from './accounts.ts';

export type ChatMember = Awaited<ReturnType<typeof activeMember>> & { profileId: number; userId: number };

/** An active member with their profile id and exactly `credits` credits (one bonus entry in the ledger). */
export async function chatMember(rt: TestRuntime, gender: 'female' | 'male', credits = 100, opts: { tenant?: string } = {}): Promise<ChatMember> {
  const who = { gender, sexuality: 'hetero' as const, ...(opts.tenant === 'velvet' ? { country: 'DE', region: 'Berlin' } : {}) };
  const m = await activeMember(rt, opts.tenant ?? 'spetter', who);
  const user = await m.client.user();
  await rt.db.db.updateTable('users').set({ credits: 0 }).where('id', '=', user.id).execute();
  await rt.db.db.deleteFrom('credit_ledger').where('user_id', '=', user.id).execute();
  if (credits > 0) await grant(rt.db.db, { userId: user.id, credits, reason: 'bonus', ref: `test-${randomUUID()}` });
  return { ...m, profileId: user.profile.id, userId: user.id } as ChatMember;
}

/** POST /api/chat.php: a text message (or what `extra` makes of it) to a profile or in a conversation. */
export const sendText = (from: ChatMember, to: { profile_id?: number; conversation_id?: number }, extra: Record<string, unknown> = {}) =>
  from.client.post('/api/chat.php', { ...to, kind: 'text', text: 'Hoi!', client_id: randomUUID(), ...extra });

/** The member's balance, their ledger entries oldest first, and the entries' sum. */
export async function balanceAndLedger(rt: TestRuntime, userId: number) {
  const user = await rt.db.db.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirstOrThrow();
  const entries = await rt.db.db.selectFrom('credit_ledger').select(['delta', 'reason', 'ref']).where('user_id', '=', userId).orderBy('id').execute();
  return { credits: user.credits, entries, sum: entries.reduce((n, e) => n + e.delta, 0) };
}
