/**
 * Adversarial checks of the search's shared lists and page cards (listing-cache.ts, search.ts):
 * members who search alike share a list and the page's cards, so every test warms the shared work
 * with a first search (a member's and a visitor's alike) and then checks that nothing of one
 * viewer's view reaches another, and that each change made between two searches through the real
 * routes (blocks either way, staff suspension and deletion, invisible mode, own-brand-only, a
 * photo rejected or the main photo changed, a name, birth date or region edited, a deletion asked
 * by the member) shows in the very next search on the same runtime. Also: a brand alone never gets
 * pool members, hostile query strings are a 4xx (never a 500), pages past the end are empty, and
 * the swipe deck answers 50 requests at once exactly as it answers them one by one.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { Client, PASSWORD, activeMember, useRuntime, yearsAgo } from '../support/accounts.ts';
import { staffLogin } from '../support/console.ts';
import { uploadPhoto } from '../support/moderation.ts';
import { tenantsWith } from '../support/tenants.ts';

type Member = Awaited<ReturnType<typeof activeMember>> & { profileId: number; userId: number };

interface Card {
  id: number;
  name: string;
  age: number;
  liked?: boolean;
  main_image: { thumb_filename: string } | null;
}

const BERLIN = { country: 'DE', region: 'Berlin', city: 'Berlin' } as const;
const QUERY = 'gender=all&country=DE&region=Berlin';

async function velvet(rt: TestRuntime, name: string, gender: 'male' | 'female' = 'female', age = 50, brand = 'velvet', place: object = BERLIN): Promise<Member> {
  const m = await activeMember(rt, brand, { name, gender, sexuality: 'bi', date_of_birth: yearsAgo(age), ...place });
  const user = await m.client.user();
  return { ...m, profileId: user.profile.id, userId: user.id };
}

async function page(c: Client, query = QUERY): Promise<{ profiles: Card[]; total: number; pages: number }> {
  const res = await c.get(`/api/members.php?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json();
}
const idsOf = async (c: Client, query?: string) => (await page(c, query)).profiles.map((p) => p.id);
const cardOf = async (c: Client, id: number, query?: string) => (await page(c, query)).profiles.find((p) => p.id === id);

describe.each(engines())('search, adversarial: each viewer sees only their own on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ seed: false }));

  test('two members and a visitor of one brand, same filters and home: own profile, blocks either way, hearts and swipe likes stay each one\'s own', async () => {
    // No region and a visitor from the same country (geo-IP header): all five share one list and its cards.
    const place = { country: 'DE', region: null, city: 'Berlin' };
    const query = 'gender=all&country=DE';
    const [anna, bea, cor, dirk] = [await velvet(rt(), 'Anna', 'female', 50, 'velvet', place), await velvet(rt(), 'Bea', 'female', 50, 'velvet', place), await velvet(rt(), 'Cor', 'female', 50, 'velvet', place), await velvet(rt(), 'Dirk', 'male', 50, 'velvet', place)];
    const visitor = new Client(rt(), 'velvet');
    const visitorPage = async () => {
      const res = await visitor.get(`/api/members.php?${query}`, { 'x-country-code': 'DE' });
      expect(res.status, res.text).toBe(200);
      return res.json() as { profiles: Card[]; total: number };
    };
    const all = [anna, bea, cor, dirk].map((m) => m.profileId);
    // Warm the shared list and cards: each viewer once.
    expect((await visitorPage()).profiles.length).toBeGreaterThan(0);
    for (const c of [anna.client, bea.client, cor.client]) expect((await idsOf(c, query)).length).toBeGreaterThan(0);

    // Anna hearts Dirk, likes Bea in the swipe game; Cor blocks Bea (Bea did nothing).
    expect((await anna.client.post('/api/like.php', { profile_id: dirk.profileId })).status).toBe(200);
    expect((await anna.client.post('/api/swipe.php', { profile_id: bea.profileId, action: 'like' })).status).toBe(200);
    expect((await cor.client.post('/api/block.php', { profile_id: bea.profileId })).status).toBe(200);

    // Interleaved, in two orders, so every viewer reads what another one's search kept.
    for (const order of [0, 1]) {
      const a = await page(anna.client, query);
      const v = order ? await visitorPage() : null;
      const b = await page(bea.client, query);
      const c = await page(cor.client, query);
      const d = await page(dirk.client, query);
      const v2 = v ?? (await visitorPage());
      expect(v2.profiles.map((p) => p.id).sort()).toEqual([...all].sort());
      for (const card of v2.profiles) expect(card).not.toHaveProperty('liked');
      expect(a.profiles.map((p) => p.id).sort()).toEqual(all.filter((id) => id !== anna.profileId).sort());
      expect(Object.fromEntries(a.profiles.map((p) => [p.id, p.liked]))).toEqual({ [bea.profileId]: true, [cor.profileId]: false, [dirk.profileId]: true });
      expect(b.profiles.map((p) => p.id).sort()).toEqual([anna.profileId, dirk.profileId].sort());
      for (const card of b.profiles) expect(card.liked).toBe(false);
      expect(c.profiles.map((p) => p.id).sort()).toEqual([anna.profileId, dirk.profileId].sort());
      expect(d.profiles.map((p) => p.id).sort()).toEqual([anna.profileId, bea.profileId, cor.profileId].sort());
      for (const card of d.profiles) expect(card.liked).toBe(false);
      expect([v2.total, a.total, b.total, c.total, d.total]).toEqual([4, 3, 2, 2, 3]);
    }
  });
});

describe.each(engines())('search, adversarial: a change between two searches shows in the second at once on %s', (engine) => {
  // velvet screens photos after showing them here, so a shown photo can be rejected.
  const tenants = tenantsWith({ velvet: { photo_moderation: 'after' } });
  afterAll(() => tenants.remove());
  const rt = useRuntime(engine, () => ({ seed: false, tenantsDir: tenants.dir }));

  /** A viewer member, a visitor, and the target; every search warms the shared list and cards first. */
  async function scene(name: string) {
    const viewer = await velvet(rt(), `${name}-viewer`, 'male', 48);
    const target = await velvet(rt(), name, 'female', 50);
    const visitor = new Client(rt(), 'velvet');
    for (const c of [visitor, viewer.client]) expect(await idsOf(c)).toContain(target.profileId);
    return { viewer, target, visitor };
  }
  const gone = async (clients: Client[], id: number, query?: string) => {
    for (const c of clients) expect(await idsOf(c, query)).not.toContain(id);
  };

  test('a block by the viewer, and a block of the viewer by the profile', async () => {
    const { viewer, target, visitor } = await scene('Blocked');
    expect((await viewer.client.post('/api/block.php', { profile_id: target.profileId })).status).toBe(200);
    await gone([viewer.client], target.profileId);
    expect(await idsOf(visitor)).toContain(target.profileId);
    const other = await scene('Blocker');
    expect((await other.target.client.post('/api/block.php', { profile_id: other.viewer.profileId })).status).toBe(200);
    await gone([other.viewer.client], other.target.profileId);
    expect(await idsOf(other.target.client)).not.toContain(other.viewer.profileId);
    expect(await idsOf(other.visitor)).toContain(other.target.profileId);
  });

  test('a suspension and a deletion by staff in the console', async () => {
    const moderator = await staffLogin(rt(), 'admin', ['velvet']);
    const s = await scene('Suspended');
    expect((await moderator.client.post(`/api/console/members/${s.target.userId}/suspend`, { reason: 'Vraagt om geld' })).status).toBe(200);
    await gone([s.visitor, s.viewer.client], s.target.profileId);
    const d = await scene('Deleted');
    const erased = await moderator.client.post(`/api/console/members/${d.target.userId}/delete`, { reason: 'Op verzoek' });
    expect(erased.status, erased.text).toBe(200);
    await gone([d.visitor, d.viewer.client], d.target.profileId);
  });

  test('invisible mode, and a deletion the member asks for', async () => {
    const i = await scene('Invisible');
    expect((await i.target.client.put('/api/user.php', { invisible: true })).status).toBe(200);
    await gone([i.visitor, i.viewer.client], i.target.profileId);
    const d = await scene('Leaving');
    const res = await d.target.client.request('DELETE', '/api/account.php', { reason: 'other', password: PASSWORD });
    expect(res.status, res.text).toBe(200);
    await gone([d.visitor, d.viewer.client], d.target.profileId);
  });

  test('a shown photo rejected by staff, then another photo made main: the card follows at once', async () => {
    const { viewer, target, visitor } = await scene('Photo');
    const first = await uploadPhoto(target.client);
    expect(first.status, first.text).toBe(200);
    const photos = first.json().photos as { id: number; status: string }[];
    expect(photos.map((p) => p.status)).toEqual(['active']);
    const shown = (await cardOf(visitor, target.profileId))?.main_image;
    expect(shown).not.toBeNull();
    expect((await cardOf(viewer.client, target.profileId))?.main_image).toEqual(shown);

    const second = (await uploadPhoto(target.client)).json().photos as { id: number }[];
    const secondId = second.find((p) => p.id !== photos[0]!.id)!.id;
    // Warm again (the upload changed the cards): the first photo is the main one.
    for (const c of [visitor, viewer.client]) expect((await cardOf(c, target.profileId))?.main_image).toEqual(shown);
    const mod = await staffLogin(rt(), 'moderator', ['velvet']);
    const rejected = await mod.client.post(`/api/console/photos/${photos[0]!.id}`, { status: 'rejected', reason: 'contact_details' });
    expect(rejected.status, rejected.text).toBe(200);
    for (const c of [visitor, viewer.client]) {
      const image = (await cardOf(c, target.profileId))?.main_image;
      expect(image?.thumb_filename ?? null).not.toBe(shown?.thumb_filename);
    }
    // A third photo made main by the member.
    const uploaded = await uploadPhoto(target.client);
    expect(uploaded.status, uploaded.text).toBe(200);
    const third = uploaded.json().photos as { id: number }[];
    const thirdId = third.map((p) => p.id).find((id) => id !== photos[0]!.id && id !== secondId)!;
    const before = (await cardOf(visitor, target.profileId))?.main_image;
    expect((await cardOf(viewer.client, target.profileId))?.main_image).toEqual(before);
    const made = await target.client.put('/api/photos.php', { id: thirdId, main: true });
    expect(made.status, made.text).toBe(200);
    for (const c of [visitor, viewer.client]) {
      const image = (await cardOf(c, target.profileId))?.main_image;
      expect(image).not.toBeNull();
      expect(image).not.toEqual(before);
    }
  });

  test('a name, a birth date and a region edited: the card shows the new name, the age and region filters drop the profile', async () => {
    const { viewer, target, visitor } = await scene('Renamed');
    expect((await target.client.put('/api/profile.php', { name: 'Hernoemd' })).status).toBe(200);
    for (const c of [visitor, viewer.client]) expect((await cardOf(c, target.profileId))?.name).toBe('Hernoemd');

    const ages = `${QUERY}&min_age=45&max_age=55`;
    for (const c of [visitor, viewer.client]) expect(await idsOf(c, ages)).toContain(target.profileId);
    expect((await target.client.put('/api/profile.php', { birth_date: yearsAgo(60) })).status).toBe(200);
    await gone([visitor, viewer.client], target.profileId, ages);
    for (const c of [visitor, viewer.client]) expect((await cardOf(c, target.profileId))?.age).toBe(60);

    expect((await target.client.put('/api/profile.php', { region: 'Bayern', city: 'München' })).status).toBe(200);
    await gone([visitor, viewer.client], target.profileId);
    for (const c of [visitor, viewer.client]) expect(await idsOf(c, 'gender=all&country=DE&region=Bayern')).toContain(target.profileId);
  });
});

describe.each(engines())('search, adversarial: pools, brands alone and hostile queries on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ seed: false }));
  const NL = { country: 'NL', region: 'Utrecht', city: 'Utrecht' };

  /** Every id a member's search finds, page by page. */
  async function everyId(c: Client, query: string): Promise<number[]> {
    const ids: number[] = [];
    for (let p = 1; ; p++) {
      const body = await page(c, `${query}&page=${p}`);
      ids.push(...body.profiles.map((x) => x.id));
      if (p >= body.pages) return ids;
    }
  }

  test('a brand alone never gets pool members, however alike its members search; own-brand-only drops a member from the pool\'s other brand at once', async () => {
    // The same people, the same filters on three brands: spetter and rijpedates share the pool.
    const sam = await velvet(rt(), 'Sam', 'male', 46, 'spetter', NL);
    const ria = await velvet(rt(), 'Ria', 'female', 48, 'rijpedates', NL);
    const lies = await velvet(rt(), 'Lies', 'female', 47, 'spetter', NL);
    const vic = await velvet(rt(), 'Vic', 'male', 46);
    const vera = await velvet(rt(), 'Vera', 'female', 48);
    const query = 'gender=all';
    for (let round = 0; round < 2; round++) {
      expect(await everyId(sam.client, query)).toEqual(expect.arrayContaining([ria.profileId, lies.profileId]));
      const alone = await everyId(vic.client, query);
      expect(alone).toEqual([vera.profileId]);
      const visitorAlone = await everyId(new Client(rt(), 'velvet'), query);
      expect(visitorAlone.sort()).toEqual([vera.profileId, vic.profileId].sort());
    }
    // Ria chooses her own brand only between two searches of Sam's.
    expect((await ria.client.put('/api/user.php', { own_brand_only: true })).status).toBe(200);
    expect(await everyId(sam.client, query)).not.toContain(ria.profileId);
    expect(await everyId(sam.client, query)).toContain(lies.profileId);
    // A pool brand's ids in a query change nothing for a brand alone.
    expect(await everyId(vic.client, `${query}&profile_id=${sam.profileId}&tenant=spetter&brand=spetter`)).toEqual([vera.profileId]);
  });

  test('hostile query strings are a 4xx or a plain page, never a 500; a page past the end is empty with the same count', async () => {
    const m = await velvet(rt(), 'Hostile', 'female', 50);
    await velvet(rt(), 'Other', 'male', 50);
    const visitor = new Client(rt(), 'velvet');
    const hostile = [
      'page=0', 'page=-1', 'page=1.5', 'page=abc', 'page=1e9', 'page=99999999999999999999', 'page=NaN', 'page=%00',
      'gender=robot', 'gender[]=male', 'gender=male&gender=female', 'country=ZZ', 'country=de', 'country=%27%3B--', 'region=Atlantis',
      'region=Berlin&country=NL', 'min_age=17', 'min_age=200', 'min_age=40&max_age=30', 'max_age=-5', 'min_age=1e3',
      '__proto__[page]=2', 'constructor=1', 'page[__proto__]=1', 'region=' + 'x'.repeat(5000), 'q=' + '%FF'.repeat(100), '%E0%A4%A=1',
    ];
    for (const c of [visitor, m.client]) {
      for (const q of hostile) {
        const res = await c.get(`/api/members.php?${q}`);
        expect(res.status, `${q}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
        expect([200, 400, 414, 431], q).toContain(res.status);
      }
      const first = await page(c, QUERY);
      expect(first.total).toBeGreaterThan(0);
      for (const p of [first.pages + 1, 1000]) {
        const res = await c.get(`/api/members.php?${QUERY}&page=${p}`);
        if (res.status !== 200) {
          expect(res.status).toBe(400);
          continue;
        }
        expect(res.json().profiles).toEqual([]);
        expect(res.json().total).toBe(first.total);
      }
    }
  });
});

describe.each(engines())('the swipe deck under 50 requests at once on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ seed: false }));

  test('every request is answered once, with its own member\'s deck, the same as one by one: never the own profile, never one answered', async () => {
    const members: Member[] = [];
    for (let i = 0; i < 10; i++) members.push(await velvet(rt(), `Deck${i}`, i % 2 ? 'male' : 'female', 45 + i));
    // Each member answers two others first (a like and a pass).
    for (const [i, m] of members.entries()) {
      for (const [j, action] of [[(i + 1) % 10, 'like'], [(i + 2) % 10, 'pass']] as const) {
        const res = await m.client.post('/api/swipe.php', { profile_id: members[j]!.profileId, action });
        expect(res.status, res.text).toBe(200);
      }
    }
    const deckOf = async (m: Member) => {
      const res = await m.client.get('/api/swipe.php');
      expect(res.status, res.text).toBe(200);
      return (res.json().profiles as { id: number }[]).map((p) => p.id);
    };
    const alone = await Promise.all(members.map(async (m) => deckOf(m)));
    const together = await Promise.all(Array.from({ length: 50 }, (_, k) => deckOf(members[k % 10]!)));
    expect(together).toHaveLength(50);
    for (const [k, deck] of together.entries()) {
      const i = k % 10;
      expect(deck, `request ${k}`).toEqual(alone[i]);
      expect(new Set(deck).size).toBe(deck.length);
      expect(deck).not.toContain(members[i]!.profileId);
      expect(deck).not.toContain(members[(i + 1) % 10]!.profileId);
      expect(deck).not.toContain(members[(i + 2) % 10]!.profileId);
      expect(deck.length).toBeGreaterThan(0);
    }

    // 50 decks, 20 searches and 20 answers (passes) at once: every request answered once, every
    // answer stored once, and the next deck of each member leaves out all they answered.
    const passes = members.flatMap((m, i) => [3, 4].map((d) => ({ m, to: members[(i + d) % 10]! })));
    const [decks, searches, answers] = await Promise.all([
      Promise.all(Array.from({ length: 50 }, (_, k) => members[k % 10]!.client.get('/api/swipe.php'))),
      Promise.all(Array.from({ length: 20 }, (_, k) => members[k % 10]!.client.get(`/api/members.php?${QUERY}`))),
      Promise.all(passes.map(({ m, to }) => m.client.post('/api/swipe.php', { profile_id: to.profileId, action: 'pass' }))),
    ]);
    for (const res of [...decks, ...searches, ...answers]) expect(res.status, res.text).toBe(200);
    for (const [k, res] of decks.entries()) {
      const deck = (res.json().profiles as { id: number }[]).map((p) => p.id);
      expect(new Set(deck).size).toBe(deck.length);
      expect(deck).not.toContain(members[k % 10]!.profileId);
    }
    for (const [k, res] of searches.entries()) expect((res.json().profiles as { id: number }[]).map((p) => p.id)).not.toContain(members[k % 10]!.profileId);
    for (const [i, m] of members.entries()) {
      const stored = await rt().db.db.selectFrom('swipes').select(['to_profile_id', 'action']).where('from_profile_id', '=', m.profileId).orderBy('to_profile_id').execute();
      const answered = [1, 2, 3, 4].map((d) => members[(i + d) % 10]!.profileId);
      expect(stored.map((r) => r.to_profile_id)).toEqual([...answered].sort((a, b) => a - b));
      const next = await deckOf(m);
      for (const id of answered) expect(next).not.toContain(id);
    }
  }, 120_000);
});
