/**
 * The search's shared lists (docs/API.md "Members", "Shared work"; issue 24): members who search
 * alike share one list of the brand's matches for a few seconds, and nothing of one member's view
 * reaches another (own profile, blocks, likes); a profile hidden since the list was read (on any
 * runtime: here straight in the database, which no runtime hears of) shows on no page. In a pool,
 * viewers of the same fit to the pool's audiences share a list, those of another fit do not, and
 * each one's narrowed list is exactly what the one visibility rule gives them alone.
 */
import { describe, expect, test } from 'vitest';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { activeMember, useRuntime, yearsAgo } from '../support/accounts.ts';
import { TENANTS_DIR } from '../support/runtime.ts';
import { loadAllTenants } from '../../src/tenant/load.ts';
import { poolScope, fitKey } from '../../src/server/services/pool.ts';
import { createListingCache, narrowed, newestProfile, sourceOf, type ListFilters } from '../../src/server/services/listing-cache.ts';

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

describe.each(engines())("a pool's shared lists on %s", (engine) => {
  const rt = useRuntime(engine);

  test('viewers of the same fit to the audiences share a list, of another fit not; each keeps exactly their own view', async () => {
    const db = rt().db.db;
    const tenants = loadAllTenants(TENANTS_DIR);
    // spetter (everyone) shares the pool with rijpedates (women of 35 and older): a spetter member
    // who is such a woman fits rijpedates' audience and draws its men too; the others do not.
    const scope = poolScope(tenants.find((t) => t.id === 'spetter')!, tenants);
    expect(scope.others).toEqual(['rijpedates']);
    const at = (gender: 'male' | 'female', age: number, brand = 'spetter') =>
      activeMember(rt(), brand, { gender, sexuality: 'bi', date_of_birth: yearsAgo(age), country: 'NL', region: 'Utrecht' });
    const people = [await at('male', 45), await at('male', 30), await at('female', 40), await at('female', 50), await at('female', 25), await at('male', 50, 'rijpedates'), await at('female', 60, 'rijpedates')];
    const rows = await Promise.all(people.map(async (m) => db.selectFrom('profiles').selectAll().where('user_id', '=', (await m.client.user()).id).executeTakeFirstOrThrow()));
    const [man45, man30, woman40, woman50, woman25, rob] = rows;
    // A block between two viewers of one fit: each one's view loses the other, nobody else's does.
    expect((await people[2]!.client.post('/api/block.php', { profile_id: woman50!.id })).status).toBe(200);

    const listings = createListingCache({ db });
    const newest = Number((await db.selectNoFrom(newestProfile.as('newest')).executeTakeFirstOrThrow()).newest);
    const f: ListFilters = { home: { country: 'NL', region: 'Utrecht' } };
    const sources = rows.map((row) => sourceOf(scope, row));
    const lists = await Promise.all(sources.map((source) => listings.ids(source, f, newest, 1_000)));
    expect(fitKey(sources[0]!.fit!)).toBe(fitKey(sources[1]!.fit!));
    expect(lists[1]).toBe(lists[0]); // the two men
    expect(lists[3]).toBe(lists[2]); // the two women of 35 and older
    expect(lists[4]).toBe(lists[0]); // the young woman fits rijpedates no more than the men do
    expect(lists[2]).not.toBe(lists[0]);
    expect(lists[2]!.key).not.toBe(lists[0]!.key);
    expect(lists[2]!.ids).toContain(rob!.id);
    expect(lists[0]!.ids).not.toContain(rob!.id);

    for (const [i, row] of rows.entries()) {
      const viewer = { userId: row.user_id!, profileId: row.id };
      const exact = (await listings.matching(sources[i]!, f, viewer).select('profiles.id').execute()).map((r) => r.id);
      expect(lists[i]!.complete).toBe(true);
      expect(narrowed(lists[i]!, await listings.hiddenFrom(row.id)).sort((a, b) => a - b)).toEqual(exact.sort((a, b) => a - b));
    }
    const seenBy = async (row: (typeof rows)[number]) => narrowed(lists[rows.indexOf(row)]!, await listings.hiddenFrom(row.id));
    expect(await seenBy(woman40!)).not.toContain(woman50!.id);
    expect(await seenBy(woman50!)).not.toContain(woman40!.id);
    expect(await seenBy(man45!)).toEqual(expect.arrayContaining([woman40!.id, woman50!.id, man30!.id]));
    expect(await seenBy(woman25!)).toEqual(expect.arrayContaining([woman40!.id, woman50!.id]));
  }, 120_000);
});
