/**
 * The search's shared lists (docs/API.md "Members", "Shared work"; issue 24): members who search
 * alike share one list of the brand's matches for a few seconds, and nothing of one member's view
 * reaches another (own profile, blocks, likes); a profile hidden since the list was read (on any
 * runtime: here straight in the database, which no runtime hears of) shows on no page.
 */
import { describe, expect, test } from 'vitest';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { activeMember, useRuntime } from '../support/accounts.ts';

type Member = Awaited<ReturnType<typeof activeMember>> & { profileId: number };

/** Bi women of Flevoland: each looks for both genders there, so they share one list and find each other. */
async function member(rt: TestRuntime): Promise<Member> {
  const m = await activeMember(rt, 'spetter', { gender: 'female', sexuality: 'bi', country: 'NL', region: 'Flevoland' });
  return { ...m, profileId: (await m.client.user()).profile.id };
}

interface Card {
  id: number;
  liked?: boolean;
}

const search = async (m: Member, query = 'country=NL&region=Flevoland'): Promise<{ profiles: Card[]; total: number }> => {
  const res = await m.client.get(`/api/members.php?${query}`);
  expect(res.status).toBe(200);
  return res.json();
};
const ids = async (m: Member, query?: string) => (await search(m, query)).profiles.map((c) => c.id);

describe.each(engines())('shared search lists on %s', (engine) => {
  const rt = useRuntime(engine);

  test('members who search alike each see their own view: not the own profile, their own blocks and hearts', async () => {
    const [anna, bea, cor, dirk] = [await member(rt()), await member(rt()), await member(rt()), await member(rt())];
    // The list is read for the first search and kept; the others search alike within seconds.
    expect(await ids(anna)).toEqual(expect.arrayContaining([bea.profileId, cor.profileId, dirk.profileId]));
    expect(await ids(anna)).not.toContain(anna.profileId);
    expect(await ids(bea)).toEqual(expect.arrayContaining([anna.profileId, cor.profileId]));
    expect(await ids(bea)).not.toContain(bea.profileId);

    // Anna blocks Cor and likes Dirk: Bea still finds Cor, and her Dirk has no heart.
    expect((await anna.client.post('/api/block.php', { profile_id: cor.profileId })).status).toBe(200);
    expect((await anna.client.post('/api/like.php', { profile_id: dirk.profileId })).status).toBe(200);
    const annas = await search(anna);
    const beas = await search(bea);
    expect(annas.profiles.map((c) => c.id)).not.toContain(cor.profileId);
    expect(annas.profiles.find((c) => c.id === dirk.profileId)?.liked).toBe(true);
    expect(beas.profiles.map((c) => c.id)).toContain(cor.profileId);
    expect(beas.profiles.find((c) => c.id === dirk.profileId)?.liked).toBe(false);
    expect(annas.total).toBe(beas.total - 1); // Bea counts Anna and Cor; Anna counts Bea, not Cor
    // The block works both ways: Cor no longer finds Anna, while Dirk does.
    expect(await ids(cor)).not.toContain(anna.profileId);
    expect(await ids(dirk)).toContain(anna.profileId);
  });

  test('a profile hidden on another runtime since the list was read or moved out of the filters shows on no page at once', async () => {
    const [eva, fien] = [await member(rt()), await member(rt())];
    const before = await ids(eva);
    expect(before).toContain(fien.profileId);
    // Straight in the database, as a suspension on another runtime leaves it for this one's kept list.
    await rt().db.db.updateTable('profiles').set({ listed: 0 }).where('id', '=', fien.profileId).execute();
    expect(await ids(eva)).not.toContain(fien.profileId);
    await rt().db.db.updateTable('profiles').set({ listed: 1, region: 'Zeeland' }).where('id', '=', fien.profileId).execute();
    // Listed again but in another region: a search of Flevoland does not show her.
    expect(await ids(eva)).not.toContain(fien.profileId);
    expect(await ids(eva, 'country=NL&region=Zeeland')).toContain(fien.profileId);
  });
});
