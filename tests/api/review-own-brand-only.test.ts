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
import { activeMember, useRuntime, yearsAgo } from '../support/accounts.ts';
import { sendText, type ChatMember } from '../support/chat.ts';
import { grant } from '../../src/server/ledger.ts';

async function member(rt: TestRuntime, brand: string, name: string, gender: 'male' | 'female', age: number): Promise<ChatMember> {
  const m = await activeMember(rt, brand, { name, gender, sexuality: 'hetero', date_of_birth: yearsAgo(age), country: 'NL', region: 'Noord-Holland' });
  const user = await m.client.user();
  await grant(rt.db.db, { userId: user.id, credits: 100, reason: 'bonus', ref: `review-own-${user.id}` });
  return { ...m, profileId: user.profile.id, userId: user.id } as ChatMember;
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
});
