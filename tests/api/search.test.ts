/**
 * The member search (docs/API.md "Members", SPEC §2 members, §3 "Search state", §6): default
 * genders from the member's own profile, the filters, visibility, ordering, paging, similar
 * results when nothing matches, who may search, and the refusal of bad input.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { Client, PASSWORD, activeMember, apiError, signUp, takeMail, useRuntime, yearsAgo } from '../support/accounts.ts';
import { ageOn } from '../../src/lib/account-rules.ts';
import { findRegion } from '../../src/server/data/regions.ts';
import { mainImage } from '../../src/server/services/main-image.ts';
import { PER_PAGE } from '../../src/server/services/search.ts';
import { SEARCH_COUNT_LIMIT } from '../../src/contract/enums.ts';
import { tenantsWith } from '../support/tenants.ts';

interface Card {
  id: number;
  name: string;
  age: number;
  gender: 'male' | 'female';
  country: string;
  region: string | null;
  city: string | null;
  fictional: boolean;
  main_image: unknown;
}

interface Expected {
  genders?: string[];
  country?: string;
  region?: { country: string; name: string };
  min_age?: number;
  max_age?: number;
  /** The searcher's own profile id. */
  exclude?: number;
}

/**
 * The ids a search must find, straight from the database: the brand's active profiles that are
 * not invisible, the filters in SQL except the age, which is checked with ageOn() in JS so that
 * the service's date arithmetic is compared with an independent computation.
 */
async function expectedIds(rt: TestRuntime, tenant: string, f: Expected): Promise<number[]> {
  let q = rt.db.db
    .selectFrom('profiles')
    .leftJoin('users', 'users.id', 'profiles.user_id')
    .select(['profiles.id', 'profiles.birth_date'])
    .where('profiles.tenant_id', '=', tenant)
    .where('profiles.status', '=', 'active')
    .where((eb) => eb.or([eb('users.invisible', 'is', null), eb('users.invisible', '!=', 1)]));
  if (f.exclude !== undefined) q = q.where('profiles.id', '!=', f.exclude);
  if (f.genders) q = q.where('profiles.gender', 'in', f.genders as ('male' | 'female')[]);
  if (f.country) q = q.where('profiles.country', '=', f.country);
  if (f.region) q = q.where('profiles.country', '=', f.region.country).where('profiles.region', '=', f.region.name);
  const today = new Date();
  return (await q.execute())
    .filter((p) => (f.min_age === undefined || ageOn(p.birth_date, today) >= f.min_age) && (f.max_age === undefined || ageOn(p.birth_date, today) <= f.max_age))
    .map((p) => p.id);
}

/** Every page of a search, concatenated. */
async function allPages(client: Client, query: string): Promise<{ cards: Card[]; total: number; pages: number }> {
  const first = (await client.get(`/api/members.php?${query}`)).json();
  const cards: Card[] = [...first.profiles];
  for (let page = 2; page <= first.pages; page++) {
    const res = await client.get(`/api/members.php?${query}&page=${page}`);
    expect(res.status).toBe(200);
    cards.push(...res.json().profiles);
  }
  return { cards, total: first.total, pages: first.pages };
}

const ownProfileId = async (client: Client): Promise<number> => (await client.get('/api/profile.php')).json().profile.id;

let named = 0;
/** Fictional profiles inserted straight into the database (the seed has 12 per brand). */
async function insertProfiles(rt: TestRuntime, tenant: string, count: number, fields: { gender?: 'male' | 'female'; country?: string; region?: string | null; birth_date?: string; last_seen_at?: string } = {}) {
  const rows = Array.from({ length: count }, (_, i) => ({
    tenant_id: tenant,
    user_id: null,
    name: `Zoek${++named}`,
    gender: fields.gender ?? 'female',
    sexuality: 'hetero' as const,
    birth_date: fields.birth_date ?? `19${70 + (i % 30)}-0${1 + (i % 9)}-1${i % 10}`,
    country: fields.country ?? 'NL',
    region: fields.region === undefined ? 'Utrecht' : fields.region,
    city: null,
    status: 'active' as const,
    fictional: 1 as const,
    listed: 1 as const,
    last_seen_at: fields.last_seen_at ?? new Date(Date.now() - (i + 1) * 3_600_000).toISOString(),
  }));
  return rt.db.db.insertInto('profiles').values(rows).returning('id').execute();
}

// The search of a brand alone: spetter out of its pool (tests/api/network.test.ts searches across one).
const alone = tenantsWith({ spetter: { network: undefined } });
afterAll(() => alone.remove());

describe.each(engines())('member search API on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ tenantsDir: alone.dir }));

  describe('defaults and ordering', () => {
    test('a hetero man sees women by default, his own country first, then his region, then the most recently seen', async () => {
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero', country: 'NL', region: 'Noord-Holland' });
      // Someone in his region, and one seen long ago, so both orderings have something to show.
      await insertProfiles(rt(), 'spetter', 1, { region: 'Noord-Holland', last_seen_at: new Date(Date.now() - 30 * 86_400_000).toISOString() });
      await insertProfiles(rt(), 'spetter', 1, { region: 'Zuid-Holland', last_seen_at: new Date(Date.now() - 400 * 86_400_000).toISOString() });
      await insertProfiles(rt(), 'spetter', 1, { country: 'BE', region: 'Antwerpen' });

      const res = await bob.client.get('/api/members.php');
      expect(res.status).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ page: 1, per_page: PER_PAGE });
      expect(body.similar).toBeUndefined();
      const { cards, total } = await allPages(bob.client, '');
      expect(cards.length).toBeGreaterThan(0);
      expect(cards.every((c) => c.gender === 'female')).toBe(true);
      const expected = await expectedIds(rt(), 'spetter', { genders: ['female'], exclude: await ownProfileId(bob.client) });
      expect(total).toBe(expected.length);
      expect(cards.map((c) => c.id).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
      expect(body.pages).toBe(Math.ceil(total / PER_PAGE));

      // Order: NL before BE; within NL, Noord-Holland first; then last seen, then id.
      const rows = await rt().db.db.selectFrom('profiles').select(['id', 'last_seen_at']).where('id', 'in', cards.map((c) => c.id)).execute();
      const seen = new Map(rows.map((r) => [r.id, r.last_seen_at]));
      const key = (c: Card) => [c.country === 'NL' ? 0 : 1, c.country === 'NL' && c.region === 'Noord-Holland' ? 0 : 1, 0] as const;
      for (let i = 1; i < cards.length; i++) {
        const [a, b] = [cards[i - 1]!, cards[i]!];
        const [ka, kb] = [key(a), key(b)];
        const cmp = ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2];
        expect(cmp, `${a.id} before ${b.id}`).toBeLessThanOrEqual(0);
        if (cmp === 0) {
          expect(String(seen.get(a.id)) >= String(seen.get(b.id)), `${a.id} seen no earlier than ${b.id}`).toBe(true);
          if (seen.get(a.id) === seen.get(b.id)) expect(a.id).toBeGreaterThan(b.id);
        }
      }
      expect(cards[0]!.country).toBe('NL');
      expect(cards[0]!.region).toBe('Noord-Holland');
      expect(cards.at(-1)!.country).toBe('BE');
    });

    test('a hetero woman sees men, a gay man men, a lesbian woman women, a bi member both', async () => {
      const cases = [
        [{ gender: 'female', sexuality: 'hetero' }, ['male']],
        [{ gender: 'male', sexuality: 'gay' }, ['male']],
        [{ gender: 'female', sexuality: 'lesbian' }, ['female']],
        [{ gender: 'male', sexuality: 'bi' }, ['female', 'male']],
      ] as const;
      await insertProfiles(rt(), 'spetter', 2, { gender: 'male' });
      for (const [who, genders] of cases) {
        const m = await activeMember(rt(), 'spetter', who);
        const { cards, total } = await allPages(m.client, '');
        expect([...new Set(cards.map((c) => c.gender))].sort(), JSON.stringify(who)).toEqual([...genders]);
        expect(total).toBe((await expectedIds(rt(), 'spetter', { genders: [...genders], exclude: await ownProfileId(m.client) })).length);
        // An explicit gender wins over the default.
        const other = (await m.client.get(`/api/members.php?gender=${genders[0] === 'male' ? 'female' : 'male'}`)).json();
        expect(other.profiles.every((c: Card) => c.gender !== genders[0])).toBe(true);
      }
    });

    test('"everyone" (gender=all) finds both genders for a hetero woman, not what "man" finds', async () => {
      await insertProfiles(rt(), 'spetter', 2, { gender: 'male' });
      await insertProfiles(rt(), 'spetter', 2, { gender: 'female' });
      const anna = await activeMember(rt(), 'spetter', { gender: 'female', sexuality: 'hetero' });
      const exclude = await ownProfileId(anna.client);
      const everyone = await allPages(anna.client, 'gender=all');
      const men = await allPages(anna.client, 'gender=male');
      expect([...new Set(everyone.cards.map((c) => c.gender))].sort()).toEqual(['female', 'male']);
      expect(everyone.total).toBe((await expectedIds(rt(), 'spetter', { genders: ['female', 'male'], exclude })).length);
      expect(everyone.cards.map((c) => c.id).sort((a, b) => a - b)).toEqual((await expectedIds(rt(), 'spetter', { exclude })).sort((a, b) => a - b));
      expect(everyone.total).toBeGreaterThan(men.total);
      // No choice at all is still the genders her profile looks for.
      expect((await allPages(anna.client, '')).total).toBe(men.total);
      // Another word is refused as before.
      const refused = await anna.client.get('/api/members.php?gender=both');
      expect(refused.status).toBe(400);
      expect(apiError(refused).message).toBeTruthy();
    });

    test('cards carry the documented fields and the main image as mainImage() answers it, for every card', async () => {
      const [a, b] = await insertProfiles(rt(), 'spetter', 2, { last_seen_at: new Date(Date.now() + 60_000).toISOString() });
      // Two main photos on one profile: the first wins, as in mainImage().
      await rt()
        .db.db.insertInto('photos')
        .values([
          { profile_id: a!.id, filename: 'spetter/aaa.webp', thumb_filename: 'spetter/aaa-t.webp', status: 'active', is_main: 1 },
          { profile_id: a!.id, filename: 'spetter/aab.webp', thumb_filename: 'spetter/aab-t.webp', status: 'active', is_main: 1 },
          { profile_id: b!.id, filename: 'spetter/bbb.webp', thumb_filename: 'spetter/bbb-t.webp', status: 'active', is_main: 0 },
        ])
        .execute();
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero' });
      const { cards } = await allPages(bob.client, '');
      for (const card of cards) {
        // A member's cards also say whether they liked the profile (the heart on the card).
        expect(Object.keys(card).sort()).toEqual(['age', 'city', 'country', 'fictional', 'gender', 'id', 'liked', 'main_image', 'name', 'region'].sort());
        expect(card.main_image).toEqual(await mainImage(rt().db.db, card.id));
      }
      const cardA = cards.find((c) => c.id === a!.id)!;
      expect(cardA).toMatchObject({ fictional: true, main_image: { filename: '/media/spetter/aaa.webp', thumb_filename: '/media/spetter/aaa-t.webp', match: '/media/spetter/aaa-t.webp', status: 'active' } });
      expect(cards.find((c) => c.id === b!.id)!.main_image).toBeNull();
    });
  });

  describe('filters', () => {
    test('gender, country, region (by name or code) and age each narrow the results, and total counts them all', async () => {
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero' });
      const me = await ownProfileId(bob.client);
      await insertProfiles(rt(), 'spetter', 3, { country: 'BE', region: 'Antwerpen', birth_date: '1980-06-15' });
      await insertProfiles(rt(), 'spetter', 2, { gender: 'male', country: 'BE', region: 'Limburg' });
      await insertProfiles(rt(), 'spetter', 2, { region: 'Limburg', birth_date: '1999-01-01' });
      const cases: [string, Expected, (c: Card) => boolean][] = [
        ['gender=male', { genders: ['male'] }, (c) => c.gender === 'male'],
        ['gender=female&country=BE', { genders: ['female'], country: 'BE' }, (c) => c.gender === 'female' && c.country === 'BE'],
        ['country=be', { genders: ['female'], country: 'BE' }, (c) => c.country === 'BE'],
        ['country=BE&region=VAN', { genders: ['female'], region: { country: 'BE', name: 'Antwerpen' } }, (c) => c.region === 'Antwerpen'],
        ['country=BE&region=antwerp', { genders: ['female'], region: { country: 'BE', name: 'Antwerpen' } }, (c) => c.region === 'Antwerpen'],
        ['country=NL&region=Utrecht&gender=female', { genders: ['female'], region: { country: 'NL', name: 'Utrecht' } }, (c) => c.country === 'NL' && c.region === 'Utrecht'],
        ['min_age=30&max_age=50', { genders: ['female'], min_age: 30, max_age: 50 }, (c) => c.age >= 30 && c.age <= 50],
        ['min_age=40', { genders: ['female'], min_age: 40 }, (c) => c.age >= 40],
        ['max_age=35&gender=male', { genders: ['male'], max_age: 35 }, (c) => c.age <= 35 && c.gender === 'male'],
        ['min_age=18&max_age=99', { genders: ['female'] }, () => true],
        ['gender=female&country=NL&min_age=20&max_age=45', { genders: ['female'], country: 'NL', min_age: 20, max_age: 45 }, (c) => c.country === 'NL' && c.age >= 20 && c.age <= 45],
      ];
      for (const [query, expected, matches] of cases) {
        const { cards, total, pages } = await allPages(bob.client, query);
        const ids = await expectedIds(rt(), 'spetter', { ...expected, exclude: me });
        expect(total, query).toBe(ids.length);
        expect(pages, query).toBe(Math.ceil(ids.length / PER_PAGE));
        expect(cards.every(matches), query).toBe(true);
        expect(cards.map((c) => c.id).sort((a, b) => a - b), query).toEqual(ids.sort((a, b) => a - b));
      }
    });

    test('the age bounds are exact on birthdays: 40 today is in min_age=40, 41 today is out of max_age=40', async () => {
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero' });
      const born = [yearsAgo(40), yearsAgo(40, 1), yearsAgo(41), yearsAgo(41, 1), yearsAgo(18), yearsAgo(18, 1), yearsAgo(100), yearsAgo(100, 1)];
      const ids: number[] = [];
      for (const birth_date of born) ids.push((await insertProfiles(rt(), 'spetter', 1, { country: 'BE', region: 'Namur', birth_date }))[0]!.id);
      const found = async (query: string) => (await allPages(bob.client, `country=BE&region=Namur&${query}`)).cards.map((c) => c.id).sort((a, b) => a - b);
      const expected = async (e: Expected) => (await expectedIds(rt(), 'spetter', { genders: ['female'], region: { country: 'BE', name: 'Namur' }, ...e })).sort((a, b) => a - b);
      // 40 today and 40 until tomorrow; 39 until tomorrow and 41 today are out.
      expect(await found('min_age=40&max_age=40')).toEqual([ids[0], ids[3]]);
      expect(await expected({ min_age: 40, max_age: 40 })).toEqual([ids[0], ids[3]]);
      expect(await found('min_age=18&max_age=18')).toEqual([ids[4]]);
      expect(await found('min_age=99')).toEqual(await expected({ min_age: 99 }));
      expect(await found('min_age=99')).toEqual([ids[6], ids[7]]);
      expect(await found('max_age=39')).toEqual(await expected({ max_age: 39 }));
    });

    test('a region without a country matches that region in any of the brand\'s countries', async () => {
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'bi' });
      const nl = await insertProfiles(rt(), 'spetter', 1, { region: 'Limburg' });
      const be = await insertProfiles(rt(), 'spetter', 1, { country: 'BE', region: 'Limburg' });
      const { cards, total } = await allPages(bob.client, 'region=Limburg');
      expect(cards.every((c) => c.region === 'Limburg')).toBe(true);
      expect(cards.map((c) => c.id)).toEqual(expect.arrayContaining([nl[0]!.id, be[0]!.id]));
      const expected = [
        ...(await expectedIds(rt(), 'spetter', { genders: ['female', 'male'], region: { country: 'NL', name: 'Limburg' }, exclude: await ownProfileId(bob.client) })),
        ...(await expectedIds(rt(), 'spetter', { genders: ['female', 'male'], region: { country: 'BE', name: 'Limburg' } })),
      ];
      expect(total).toBe(expected.length);
      const onlyBe = (await bob.client.get('/api/members.php?region=Limburg&country=BE')).json();
      expect(onlyBe.profiles.every((c: Card) => c.country === 'BE' && c.region === 'Limburg')).toBe(true);
      expect(findRegion('BE', 'Limburg')).not.toBeNull();
    });

    test('invisible members never appear, and a member never sees the own profile', async () => {
      const eva = await activeMember(rt(), 'spetter', { gender: 'female', sexuality: 'hetero', region: 'Zeeland' });
      const evaId = await ownProfileId(eva.client);
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero', region: 'Zeeland' });
      const bobId = await ownProfileId(bob.client);
      const ids = async (client: Client, query: string) => (await allPages(client, query)).cards.map((c) => c.id);

      expect(await ids(bob.client, 'country=NL&region=Zeeland')).toContain(evaId);
      // Eva looking for women, Bob for men: neither finds the own profile, whatever the filter.
      expect(await ids(eva.client, 'gender=female&country=NL&region=Zeeland')).not.toContain(evaId);
      expect(await ids(bob.client, 'gender=male')).not.toContain(bobId);
      expect(await ids(bob.client, 'gender=male&country=NL&region=Zeeland')).not.toContain(bobId);

      expect((await eva.client.put('/api/user.php', { invisible: true })).status).toBe(200);
      const hidden = await allPages(bob.client, 'country=NL&region=Zeeland');
      expect(hidden.cards.map((c) => c.id)).not.toContain(evaId);
      expect(hidden.total).toBe((await expectedIds(rt(), 'spetter', { genders: ['female'], region: { country: 'NL', name: 'Zeeland' }, exclude: bobId })).length);
      // Not in the "similar" profiles either, nor for a visitor of a brand that lets visitors search.
      const none = (await bob.client.get('/api/members.php?country=NL&region=Zeeland&min_age=90')).json();
      expect(none.total).toBe(0);
      expect(none.similar.map((c: Card) => c.id)).not.toContain(evaId);

      expect((await eva.client.put('/api/user.php', { invisible: false })).status).toBe(200);
      expect(await ids(bob.client, 'country=NL&region=Zeeland')).toContain(evaId);
    });

    test('disabled profiles (unconfirmed members) and other brands\' profiles are not found', async () => {
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'bi' });
      // A member who signed up and did not confirm: their profile is disabled, so not listed.
      const unconfirmed = await signUp(rt(), 'spetter', { gender: 'female', country: 'NL' });
      const [disabled] = [{ id: (await unconfirmed.client.get('/api/profile.php')).json().profile.id as number }];
      const [elsewhere] = await insertProfiles(rt(), 'velvet', 1, { country: 'BE', region: 'Antwerpen' });
      const { cards } = await allPages(bob.client, '');
      expect(cards.map((c) => c.id)).not.toContain(disabled!.id);
      expect(cards.map((c) => c.id)).not.toContain(elsewhere!.id);
      const velvetIds = await rt().db.db.selectFrom('profiles').select('id').where('tenant_id', '=', 'velvet').execute();
      expect(cards.some((c) => velvetIds.some((v) => v.id === c.id))).toBe(false);
    });
  });

  describe('paging and similar results', () => {
    test('pages of 24: page 2 continues page 1, pages is right, past the end is empty', async () => {
      await insertProfiles(rt(), 'spetter', 30);
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero' });
      const p1 = (await bob.client.get('/api/members.php?gender=female')).json();
      const p2 = (await bob.client.get('/api/members.php?gender=female&page=2')).json();
      const total = (await expectedIds(rt(), 'spetter', { genders: ['female'], exclude: await ownProfileId(bob.client) })).length;
      expect(total).toBeGreaterThan(PER_PAGE + 1);
      expect(p1).toMatchObject({ total, page: 1, per_page: 24, pages: Math.ceil(total / 24) });
      expect(p2).toMatchObject({ total, page: 2, per_page: 24, pages: Math.ceil(total / 24) });
      expect(p1.profiles).toHaveLength(24);
      expect(p2.profiles).toHaveLength(Math.min(24, total - 24));
      const one = p1.profiles.map((c: Card) => c.id);
      const two = p2.profiles.map((c: Card) => c.id);
      expect(two.some((id: number) => one.includes(id))).toBe(false);
      const { cards } = await allPages(bob.client, 'gender=female');
      expect(cards.map((c) => c.id)).toEqual([...new Set(cards.map((c) => c.id))]);
      expect(cards).toHaveLength(total);

      const past = (await bob.client.get(`/api/members.php?gender=female&page=${p1.pages + 1}`)).json();
      expect(past).toMatchObject({ profiles: [], total, page: p1.pages + 1 });
      expect(past.similar).toBeUndefined();
      expect((await bob.client.get('/api/members.php?page=1000')).status).toBe(200);
    });

    test('nothing matches: no profiles, total 0 and up to 12 similar profiles of the searched gender', async () => {
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero' });
      const res = await bob.client.get('/api/members.php?country=NL&region=Zeeland&min_age=90&max_age=99');
      expect(res.status).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ profiles: [], total: 0, page: 1, per_page: 24, pages: 0 });
      expect(body.similar.length).toBeGreaterThan(0);
      expect(body.similar.length).toBeLessThanOrEqual(12);
      expect(body.similar.every((c: Card) => c.gender === 'female')).toBe(true);
      expect(body.similar.map((c: Card) => c.id)).not.toContain(await ownProfileId(bob.client));
      expect(Object.keys(body.similar[0]).sort()).toEqual(['age', 'city', 'country', 'fictional', 'gender', 'id', 'liked', 'main_image', 'name', 'region'].sort());
      const men = (await bob.client.get('/api/members.php?gender=male&min_age=99')).json();
      expect(men.total).toBe(0);
      expect(men.similar.every((c: Card) => c.gender === 'male')).toBe(true);
    });
  });

  describe('who may search', () => {
    test('a visitor: 401 on spetter (logged_out_search off), 200 on velvet with both genders', async () => {
      const res = await new Client(rt(), 'spetter').get('/api/members.php');
      expect(res.status).toBe(401);
      expect(res.json()).toMatchObject({ error: { code: 'authentication_required' }, authentication_required: true });

      const visitor = new Client(rt(), 'velvet');
      await insertProfiles(rt(), 'velvet', 1, { gender: 'male', country: 'GB', region: null, birth_date: '1975-03-03' });
      const ok = await visitor.get('/api/members.php');
      expect(ok.status).toBe(200);
      const { cards, total } = await allPages(visitor, '');
      expect(total).toBe((await expectedIds(rt(), 'velvet', {})).length);
      expect(new Set(cards.map((c) => c.gender))).toEqual(new Set(['female', 'male']));
      const women = await allPages(visitor, 'gender=female&country=GB');
      expect(women.cards.every((c) => c.gender === 'female' && c.country === 'GB')).toBe(true);
      expect(women.total).toBe((await expectedIds(rt(), 'velvet', { genders: ['female'], country: 'GB' })).length);
      // Bad input is refused for visitors too.
      expect(apiError(await visitor.get('/api/members.php?country=NL')).field).toBe('country');
    });

    test('a visitor\'s own country (geo-IP) comes first when the brand serves it', async () => {
      const velvet = rt().services.tenants().find((t) => t.id === 'velvet')!;
      await insertProfiles(rt(), 'velvet', 2, { country: 'AT', region: null, last_seen_at: new Date(Date.now() - 400 * 86_400_000).toISOString() });
      const first = await rt().services.search.members(velvet, null, { page: 1 }, 'AT');
      const countries = first.profiles.map((c) => c.country);
      expect(countries[0]).toBe('AT');
      expect(countries.slice(countries.lastIndexOf('AT') + 1)).not.toContain('AT');
      expect(countries.slice(0, countries.lastIndexOf('AT') + 1).every((c) => c === 'AT')).toBe(true);
      // A country the brand does not serve changes nothing.
      const plain = await rt().services.search.members(velvet, null, { page: 1 }, null);
      expect((await rt().services.search.members(velvet, null, { page: 1 }, 'NL')).profiles).toEqual(plain.profiles);
    });

    test('a visitor with a traffic source: only when logged_out_search_trafficsource is on', async () => {
      const tenant = rt().services.tenants().find((t) => t.id === 'spetter')!;
      expect(tenant.logged_out_search).toBe(false);
      expect(tenant.logged_out_search_trafficsource).toBe(false);
      const visitor = new Client(rt(), 'spetter');
      expect((await visitor.get('/api/members.php?ref=x')).status).toBe(401);
      tenant.logged_out_search_trafficsource = true;
      try {
        for (const p of ['network', 'ref', 'sub1', 'sub2', 'sub3']) expect((await visitor.get(`/api/members.php?${p}=x`)).status, p).toBe(200);
        const body = (await visitor.get('/api/members.php?ref=x&gender=female')).json();
        expect(body.profiles.every((c: Card) => c.gender === 'female')).toBe(true);
        expect((await visitor.get('/api/members.php')).status).toBe(401);
      } finally {
        tenant.logged_out_search_trafficsource = false;
      }
      expect((await visitor.get('/api/members.php?ref=x')).status).toBe(401);
    });
  });

  describe('bad input', () => {
    test('each bad parameter is a 400 invalid_input naming it, never a 500', async () => {
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero' });
      const cases: [string, string][] = [
        ['gender=x', 'gender'],
        ['gender=MALE', 'gender'],
        ['min_age=10', 'min_age'],
        ['min_age=17', 'min_age'],
        ['max_age=100', 'max_age'],
        ['min_age=abc', 'min_age'],
        ['min_age=30.5', 'min_age'],
        ['min_age=-20', 'min_age'],
        ['min_age=50&max_age=40', 'max_age'],
        ['country=US', 'country'],
        ['country=NLD', 'country'],
        ['country=NL&region=Bavaria', 'region'],
        ['country=NL&region=Nowhere', 'region'],
        ['region=Nowhere', 'region'],
        ['page=0', 'page'],
        ['page=abc', 'page'],
        ['page=1001', 'page'],
        ['page=99999999999999999999', 'page'],
        ['page=-1', 'page'],
      ];
      for (const [query, field] of cases) {
        const res = await bob.client.get(`/api/members.php?${query}`);
        expect(res.status, query).toBe(400);
        expect(apiError(res), query).toEqual({ code: 'invalid_input', message: 'De gegevens zijn niet geldig.', field });
      }
      // Empty values count as absent (a form's "any").
      const empty = await bob.client.get('/api/members.php?gender=&country=&region=&min_age=&max_age=&page=');
      expect(empty.status).toBe(200);
      expect(empty.json().page).toBe(1);
      expect((await bob.client.get('/api/members.php?min_age=40&max_age=40')).status).toBe(200);
    });
  });

  describe('listings at scale', () => {
    /** Every profile's `listed` flag must equal the rule: active, and the member not invisible. */
    async function expectListedMatchesRule(): Promise<void> {
      const rows = await rt()
        .db.db.selectFrom('profiles')
        .leftJoin('users', 'users.id', 'profiles.user_id')
        .select(['profiles.id', 'profiles.status', 'profiles.listed', 'users.invisible'])
        .execute();
      const wrong = rows.filter((r) => r.listed !== (r.status === 'active' && r.invisible !== 1 ? 1 : 0));
      expect(wrong).toEqual([]);
    }

    test('a member is listed exactly while active and visible: signup, activation, invisible mode, deletion, reactivation', async () => {
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero', country: 'NL', region: 'Zeeland' });
      const eva = await signUp(rt(), 'spetter', { gender: 'female', country: 'NL', region: 'Zeeland' });
      const evaId = (await eva.client.get('/api/profile.php')).json().profile.id as number;
      const found = async () => (await allPages(bob.client, 'country=NL&region=Zeeland')).cards.some((c) => c.id === evaId);

      expect(await found()).toBe(false); // not confirmed: disabled
      await expectListedMatchesRule();
      const mail = takeMail(rt(), eva.email, 'mail_activate');
      expect((await eva.client.get(`/api/activate.php?token=${encodeURIComponent(mail.token!)}`)).status).toBe(303);
      expect(await found()).toBe(true);
      await expectListedMatchesRule();
      expect((await eva.client.put('/api/user.php', { invisible: true })).status).toBe(200);
      expect(await found()).toBe(false);
      await expectListedMatchesRule();
      expect((await eva.client.put('/api/user.php', { invisible: false })).status).toBe(200);
      expect(await found()).toBe(true);
      expect((await eva.client.delete('/api/account.php', { reason: 'found_someone', password: PASSWORD })).status).toBe(200);
      expect(await found()).toBe(false);
      await expectListedMatchesRule();
      const back = takeMail(rt(), eva.email, 'mail_reactivate');
      expect((await new Client(rt(), 'spetter').post('/api/account.php?reactivate=1', { token: back.token })).status).toBe(200);
      expect(await found()).toBe(true);
      await expectListedMatchesRule();
    });

    test('the count stops at 1000 ("1000+"): the pages up to it are there, in order, without repeats', async () => {
      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero', country: 'NL', region: 'Drenthe' });
      // More women than the count limit, spread over his region, his country and Belgium.
      await insertProfiles(rt(), 'spetter', 400, { region: 'Drenthe' });
      await insertProfiles(rt(), 'spetter', 400, { region: 'Utrecht' });
      await insertProfiles(rt(), 'spetter', 400, { country: 'BE', region: 'Antwerpen' });
      const first = (await bob.client.get('/api/members.php')).json();
      expect(first).toMatchObject({ total: SEARCH_COUNT_LIMIT, total_capped: true, pages: Math.ceil(SEARCH_COUNT_LIMIT / PER_PAGE) });
      const { cards } = await allPages(bob.client, '');
      expect(cards.length).toBeGreaterThanOrEqual(SEARCH_COUNT_LIMIT);
      expect(new Set(cards.map((c) => c.id)).size).toBe(cards.length);
      // His region first (all 400 and any seeded there), then the rest of his country, then Belgium.
      const band = (c: Card) => (c.country !== 'NL' ? 2 : c.region === 'Drenthe' ? 0 : 1);
      for (let i = 1; i < cards.length; i++) expect(band(cards[i - 1]!), `card ${i}`).toBeLessThanOrEqual(band(cards[i]!));
      expect(cards.filter((c) => band(c) === 0).length).toBeGreaterThanOrEqual(400);
      expect(cards.some((c) => band(c) === 2)).toBe(true);
      // A narrower search is counted exactly.
      const belgium = (await bob.client.get('/api/members.php?country=BE')).json();
      expect(belgium.total_capped).toBe(false);
      expect(belgium.total).toBe((await expectedIds(rt(), 'spetter', { genders: ['female'], country: 'BE' })).length);
    });
  });
});
