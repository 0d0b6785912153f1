/**
 * Review of issue 24 (a defect, failing until fixed): a member who chose to be shown on their own
 * brand only still sees the pool's other brands, and may like and start a conversation with their
 * members. Those members cannot open her profile (404), her like is not in their list of likes,
 * yet her message is in their chats, and they can answer it. services/pool.ts promises that "a
 * like, a match or a conversation never reaches a member who cannot see its sender"; the choice
 * "own brand only" breaks that, one way only.
 *
 * What the test asks: either she cannot reach a member of another brand who cannot see her (404,
 * as for any profile out of reach), or what she sends is seen with her profile. It takes the
 * first as the rule (the one the access matrix uses for every other pair).
 */
import { expect, test, describe } from 'vitest';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { activeMember, apiError, useRuntime, yearsAgo, type Client } from '../support/accounts.ts';
import { sendText, type ChatMember } from '../support/chat.ts';
import { grant } from '../../src/server/ledger.ts';

async function member(rt: TestRuntime, brand: string, name: string, gender: 'male' | 'female', age: number): Promise<ChatMember> {
  const m = await activeMember(rt, brand, { name, gender, sexuality: 'hetero', date_of_birth: yearsAgo(age), country: 'NL', region: 'Noord-Holland' });
  const user = await m.client.user();
  await grant(rt.db.db, { userId: user.id, credits: 100, reason: 'bonus', ref: `review-own-${user.id}` });
  return { ...m, profileId: user.profile.id, userId: user.id } as ChatMember;
}

/** Every profile id the member's search shows, page after page. */
async function found(m: { client: Client }): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const body = (await m.client.get(`/api/members.php?gender=all&page=${page}`)).json();
    ids.push(...body.profiles.map((p: { id: number }) => p.id));
    if (page >= body.pages) return ids;
  }
}

describe.each(engines())('"own brand only" works both ways on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ seed: false }));

  test('a member shown on her own brand only reaches no member of the pool who cannot see her', async () => {
    const ria = await member(rt(), 'rijpedates', 'Ria', 'female', 50);
    const bob = await member(rt(), 'spetter', 'Bob', 'male', 55);
    expect((await ria.client.put('/api/user.php', { own_brand_only: true })).status).toBe(200);
    // Bob cannot see her: the setting works on his side.
    expect((await bob.client.get(`/api/member.php?id=${ria.profileId}`)).status).toBe(404);

    const like = await ria.client.post('/api/like.php', { profile_id: bob.profileId });
    const sent = await sendText(ria, { profile_id: bob.profileId }, { text: 'Hoi Bob' });
    const bobsChats = (await bob.client.get('/api/chats.php')).json().chats as { profile: { id: number } }[];
    const bobsLikes = (await bob.client.get('/api/likes.php')).json().liked_by as { profile: { id: number } }[];
    // Today: 200, 200, her message in his chats from a profile he cannot open, her like nowhere.
    expect({ like: like.status, sent: sent.status, inHisChats: bobsChats.some((c) => c.profile.id === ria.profileId), inHisLikes: bobsLikes.some((l) => l.profile.id === ria.profileId) }).toEqual({
      like: 404,
      sent: 404,
      inHisChats: false,
      inHisLikes: false,
    });
  });

  test('her conversation with a member of another brand from before the choice stays readable, closed both ways, and opens again when she turns it off', async () => {
    const ria = await member(rt(), 'rijpedates', 'Ria', 'female', 50);
    const bob = await member(rt(), 'spetter', 'Bob', 'male', 55);
    expect(await found(ria)).toContain(bob.profileId);
    const conversationId = (await sendText(bob, { profile_id: ria.profileId }, { text: 'Hoi Ria' })).json().conversation_id;

    expect((await ria.client.put('/api/user.php', { own_brand_only: true })).status).toBe(200);
    // She sees his brand's members no more, as they see her no more.
    expect(await found(ria)).not.toContain(bob.profileId);
    expect((await ria.client.get(`/api/member.php?id=${bob.profileId}`)).status).toBe(404);
    for (const me of [ria, bob]) {
      const chats = (await me.client.get('/api/chats.php')).json().chats.map((c: { conversation: { id: number } }) => c.conversation.id);
      expect(chats).toEqual([conversationId]);
      const view = (await me.client.get(`/api/chat.php?id=${conversationId}`)).json();
      expect(view.conversation.messages).toHaveLength(1);
      // Closed for being out of each other's reach, not for a profile that is no longer active.
      expect(view).toMatchObject({ can_send: false, reply_block: 'out_of_reach' });
      const refused = await sendText(me, { conversation_id: conversationId });
      expect([refused.status, apiError(refused).code]).toEqual([409, 'conversation_closed']);
    }

    expect((await ria.client.put('/api/user.php', { own_brand_only: false })).status).toBe(200);
    expect(await found(ria)).toContain(bob.profileId);
    expect((await ria.client.get(`/api/chat.php?id=${conversationId}`)).json()).toMatchObject({ can_send: true, reply_block: null });
    expect((await sendText(ria, { conversation_id: conversationId }, { text: 'Hoi Bob' })).status).toBe(200);
  });
});
