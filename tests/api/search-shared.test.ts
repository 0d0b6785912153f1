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
import { createSearchService, PER_PAGE } from '../../src/server/services/search.ts';
import { createOwnViews } from '../../src/server/services/own-views.ts';
import { cardGeneration, listingGeneration } from '../../src/server/services/listing-changes.ts';
import { createSwipeService } from '../../src/server/services/swipes.ts';
import { createMemoryBus } from '../../src/server/bus.ts';
import { suspendMember } from '../../src/server/services/suspension.ts';
import { createDb } from '../../src/server/db/index.ts';
import { Client } from '../support/accounts.ts';
import type { Kysely, KyselyPlugin } from 'kysely';
import type { Database } from '../../src/server/db/index.ts';
import { uploadPhoto } from '../support/moderation.ts';

type Member = Awaited<ReturnType<typeof activeMember>> & { profileId: number; userId: number };

/** Bi women of Flevoland: each looks for both genders there, so they share one list and find each other. */
async function member(rt: TestRuntime): Promise<Member> {
  const m = await activeMember(rt, 'spetter', { gender: 'female', sexuality: 'bi', country: 'NL', region: 'Flevoland' });
  const user = await m.client.user();
  return { ...m, profileId: user.profile.id, userId: user.id };
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

/** The database with a count of the statements run through it (`statements`, set back to 0 by the test). */
function counting(of: Kysely<Database>) {
  const counted = { statements: 0, db: of };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      counted.statements++;
      return args.result;
    },
  };
  counted.db = of.withPlugin(plugin);
  return counted;
}

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

describe.each(engines())('shared page cards on %s', (engine) => {
  const rt = useRuntime(engine);

  test("a member whose page is the shared one pays no page statement: only their own row with their blocks, and their hearts with what is still listed", async () => {
    const [anna, bea] = [await member(rt()), await member(rt())];
    const counted = counting(rt().db.db);
    const db = counted.db;
    const listings = createListingCache({ db, changes: { onWrite: rt().db.onWrite, epoch: () => 0 } });
    const tenants = loadAllTenants(TENANTS_DIR);
    const search = createSearchService({ db, listings, scopeOf: (t) => poolScope(t, tenants) });
    const spetter = rt().services.tenants().find((t) => t.id === 'spetter')!;
    const query = { page: 1, country: 'NL', region: 'Flevoland' };
    // Anna's search reads the list and its page's cards, Bea's finds them kept. On PostgreSQL the
    // bus may still bring the signups' own changes, which drop every list: then the two search again.
    let beas: Awaited<ReturnType<typeof search.members>>;
    for (let tries = 0; ; tries++) {
      const generation = `${listingGeneration()}:${cardGeneration()}`;
      const first = await search.members(spetter, anna.userId, query);
      expect(first.profiles.map((c) => c.id)).toContain(bea.profileId);
      counted.statements = 0;
      beas = await search.members(spetter, bea.userId, query);
      if (`${listingGeneration()}:${cardGeneration()}` === generation || tries === 5) break;
    }
    expect(counted.statements).toBe(2);
    expect(beas.profiles.map((c) => c.id)).toContain(anna.profileId);
    expect(beas.profiles.map((c) => c.id)).not.toContain(bea.profileId);
    // The same cards as a search that shares nothing (the runtime's own service, its own cache).
    expect(beas).toEqual(await rt().services.search.members(spetter, bea.userId, query));
  });

  test('a change between two searches shows in the second at once, for a visitor and a member: a name, a main photo, a suspension, invisible mode', async () => {
    const velvet = (name: string) => activeMember(rt(), 'velvet', { name, gender: 'female', sexuality: 'bi', country: 'GB', region: null });
    const [vera, wanda, xena] = [await velvet('Vera'), await velvet('Wanda'), await velvet('Xena')];
    const visitor = new Client(rt(), 'velvet');
    const cards = async (c: Client): Promise<{ id: number; name: string; main_image: unknown }[]> => {
      const res = await c.get('/api/members.php?gender=female&country=GB');
      expect(res.status).toBe(200);
      return res.json().profiles;
    };
    const [wandaId, xenaId] = [(await wanda.client.user()).profile.id as number, (await xena.client.user()).profile.id as number];
    const card = async (c: Client, id: number) => (await cards(c)).find((x) => x.id === id);
    expect((await card(visitor, wandaId))?.name).toBe('Wanda');
    expect((await card(vera.client, wandaId))?.name).toBe('Wanda');
    // Wanda's photo, screened and made her main image.
    expect((await uploadPhoto(wanda.client)).status).toBe(200);
    await rt().db.db.updateTable('photos').set({ status: 'active', is_main: 1 }).where('profile_id', '=', wandaId).execute();
    const withPhoto = await card(visitor, wandaId);
    expect(withPhoto?.main_image).not.toBeNull();
    expect((await card(vera.client, wandaId))?.main_image).toEqual(withPhoto?.main_image);

    await rt().db.db.updateTable('profiles').set({ name: 'Wendy' }).where('id', '=', wandaId).execute();
    await rt().db.db.deleteFrom('photos').where('profile_id', '=', withPhoto!.id).execute();
    for (const c of [visitor, vera.client]) {
      expect((await card(c, wandaId))?.name).toBe('Wendy');
      expect((await card(c, withPhoto!.id))?.main_image ?? null).toBeNull();
    }

    const wandaUser = (await wanda.client.user()).id as number;
    await rt().db.db.transaction().execute((trx) => suspendMember(trx, wandaUser));
    expect((await put(xena.client, { invisible: true })).status).toBe(200);
    for (const c of [visitor, vera.client]) {
      const ids = (await cards(c)).map((x) => x.id);
      expect(ids).not.toContain(wandaId);
      expect(ids).not.toContain(xenaId);
    }
  });

  test("the swipe deck takes its turns of the event loop from the searches' gate", async () => {
    const anna = await member(rt());
    const db = rt().db.db;
    const listings = createListingCache({ db });
    const passed: string[] = [];
    const gate = listings.gate;
    listings.gate = (task) => {
      passed.push('task');
      return gate(task);
    };
    const tenants = loadAllTenants(TENANTS_DIR);
    const scopeOf = (t: (typeof tenants)[number]) => poolScope(t, tenants);
    const spetter = tenants.find((t) => t.id === 'spetter')!;
    await createSwipeService({ db, bus: createMemoryBus(), scopeOf, listings }).deck(spetter, { userId: anna.userId, profileId: anna.profileId });
    expect(passed).toHaveLength(1);
    await createSearchService({ db, listings, scopeOf }).members(spetter, anna.userId, { page: 1 });
    expect(passed).toHaveLength(2);
  });

  test.skipIf(engine !== 'sqlite')('a change by another connection to the SQLite file (the CLI) shows in the next search', async () => {
    const vera = await activeMember(rt(), 'velvet', { name: 'Vera', gender: 'female', sexuality: 'bi', country: 'GB', region: null });
    const veraId = (await vera.client.user()).profile.id as number;
    const visitor = new Client(rt(), 'velvet');
    const name = async () => ((await visitor.get('/api/members.php?gender=female&country=GB')).json().profiles as { id: number; name: string }[]).find((c) => c.id === veraId)?.name;
    expect(await name()).toBe('Vera');
    const other = createDb({ file: rt().cliEnv.DATABASE_FILE });
    try {
      await other.db.updateTable('profiles').set({ name: 'Veerle' }).where('id', '=', veraId).execute();
    } finally {
      await other.close();
    }
    expect(await name()).toBe('Veerle');
  });
});

const put = (c: Client, body: object) => c.put('/api/user.php', body);

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

describe.each(engines())("each member's own view on %s", (engine) => {
  const rt = useRuntime(engine);

  test("a like, an unlike, a block of them, their own edit and own-brand-only choice, another's invisibility: each after a warm search shows in the very next; warm, a search runs no statement on SQLite", async () => {
    const at = (gender: 'male' | 'female', age: number, brand = 'spetter') =>
      activeMember(rt(), brand, { gender, sexuality: 'bi', date_of_birth: yearsAgo(age), country: 'NL', region: 'Drenthe' }).then(async (m) => ({ ...m, profileId: (await m.client.user()).profile.id as number }));
    // Anna, a woman of 45, fits rijpedates' audience (women of 35 and older): she draws Rob of rijpedates too.
    const [anna, bea, cor, dirk, rob] = [await at('female', 45), await at('female', 42), await at('female', 43), await at('male', 44), await at('male', 48, 'rijpedates')];
    const annaUser = (await anna.client.user()).id as number;
    const counted = counting(rt().db.db);
    const db = counted.db;
    const sqlite = rt().db.sqlite;
    // As the runtime hears its writes (app.ts): on SQLite which rows too, so the own views are kept.
    const changes = { onWrite: rt().db.onWrite, epoch: () => sqlite?.dataVersionThisTurn() ?? 0, onRowWrite: sqlite ? sqlite.onRowWrite.bind(sqlite) : undefined };
    const tenants = loadAllTenants(TENANTS_DIR);
    const scopeOf = (t: (typeof tenants)[number]) => poolScope(t, tenants);
    const search = createSearchService({ db, listings: createListingCache({ db, changes }), scopeOf, views: createOwnViews({ db, changes }) });
    const spetter = tenants.find((t) => t.id === 'spetter')!;
    const query = { page: 1, country: 'NL', region: 'Drenthe', min_age: 41, max_age: 49 };
    /** Anna's search, warmed first: the second of two runs no statement on SQLite (the list, its cards and her view kept); the same as a search that keeps nothing. */
    const warm = async () => {
      await search.members(spetter, annaUser, query);
      counted.statements = 0;
      const kept = await search.members(spetter, annaUser, query);
      expect(counted.statements).toBe(engine === 'sqlite' ? 0 : 2);
      return kept;
    };
    const next = async () => {
      const kept = await search.members(spetter, annaUser, query);
      expect(kept).toEqual(await createSearchService({ db: rt().db.db, listings: createListingCache({ db: rt().db.db }), scopeOf }).members(spetter, annaUser, query));
      return { ids: kept.profiles.map((c) => c.id), liked: (id: number) => kept.profiles.find((c) => c.id === id)?.liked };
    };

    const first = await warm();
    expect(first.total).toBeLessThanOrEqual(PER_PAGE);
    expect(first.profiles.map((c) => c.id)).toEqual(expect.arrayContaining([bea.profileId, cor.profileId, dirk.profileId, rob.profileId]));
    expect(first.profiles.find((c) => c.id === dirk.profileId)?.liked).toBe(false);

    expect((await anna.client.post('/api/like.php', { profile_id: dirk.profileId })).status).toBe(200);
    expect((await next()).liked(dirk.profileId)).toBe(true);
    await warm();
    expect((await anna.client.delete('/api/like.php', { profile_id: dirk.profileId })).status).toBe(200);
    expect((await next()).liked(dirk.profileId)).toBe(false);

    await warm();
    expect((await cor.client.post('/api/block.php', { profile_id: anna.profileId })).status).toBe(200);
    expect((await next()).ids).not.toContain(cor.profileId);

    // Her own edit: a hetero woman looks for men only.
    await warm();
    expect((await anna.client.put('/api/profile.php', { sexuality: 'hetero' })).status).toBe(200);
    const hetero = await next();
    expect(hetero.ids).not.toContain(bea.profileId);
    expect(hetero.ids).toEqual(expect.arrayContaining([dirk.profileId, rob.profileId]));
    expect((await anna.client.put('/api/profile.php', { sexuality: 'bi' })).status).toBe(200);

    await warm();
    expect((await anna.client.put('/api/user.php', { own_brand_only: true })).status).toBe(200);
    const own = await next();
    expect(own.ids).not.toContain(rob.profileId);
    expect(own.ids).toContain(bea.profileId);

    await warm();
    expect((await bea.client.put('/api/user.php', { invisible: true })).status).toBe(200);
    const last = await next();
    expect(last.ids).not.toContain(bea.profileId);
    expect(last.ids).toContain(dirk.profileId);

    // Another process's write (the CLI) is told by no trigger of this connection: SQLite's data_version is.
    if (engine !== 'sqlite') return;
    await warm();
    const other = createDb({ file: rt().cliEnv.DATABASE_FILE });
    try {
      await other.db.insertInto('blocks').values({ tenant_id: 'spetter', blocker_profile_id: anna.profileId, blocked_profile_id: dirk.profileId }).execute();
    } finally {
      await other.close();
    }
    expect((await next()).ids).not.toContain(dirk.profileId);
  });
});
