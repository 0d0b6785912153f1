import { randomUUID } from 'node:crypto';
import { grant } from '../../src/server/ledger.ts';
import type { TestRuntime } from './runtime.ts';
import { activeMember } from './accounts.ts';

export type ChatMember = Awaited<ReturnType<typeof activeMember>> & { profileId: number; userId: number };

/** An active member of the chat with their profile id and exactly `credits` credits (one ledger entry). */
export async function chatMember(rt: TestRuntime, gender: 'female' | 'male', credits = 100, opts: { tenant?: string } = {}): Promise<ChatMember> {
  const who = { gender, sexuality: 'hetero' as const, ...(opts.tenant === 'velvet' ? { country: 'DE', region: 'Berlin' } : {}) };
  const m = await activeMember(rt, opts.tenant ?? 'spetter', who);
  const user = await m.client.user();
  await rt.db.db.updateTable('users').set({ credits: 0 }).where('id', '=', user.id).execute();
  await rt.db.db.deleteFrom('credit_ledger').where('user_id', '=', user.id).execute();
  if (credits > 0) await grant(rt.db.db, { userId: user.id, credits, reason: 'bonus', ref: `test-${randomUUID()}` });
  return { ...m, profileId: user.profile.id, userId: user.id } as ChatMember;
}

/** A text message through POST /api/chat.php, to a profile (a new conversation) or a conversation. */
export const sendText = (from: ChatMember, to: { profile_id?: number; conversation_id?: number }, extra: Record<string, unknown> = {}) =>
  from.client.post('/api/chat.php', { ...to, kind: 'text', text: 'Hoi!', client_id: randomUUID(), ...extra });
