/**
 * Likes, matches, the swipe game, the match finder, blocking and complaints (docs/API.md "Likes",
 * SPEC §2, §4, §7, §9), on every engine: what two members see of each other through the API.
 */
import { describe, expect, test } from 'vitest';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { Client, activeMember, apiError, mailsTo, useRuntime, yearsAgo } from '../support/accounts.ts';
import { userTopic } from '../../src/server/services/events.ts';
import { SWIPE_LIKES_PER_DAY } from '../../src/contract/likes.ts';
import { brandDay } from '../../src/lib/brand-day.ts';
import { seedDemo } from '../../src/server/db/seed.ts';
import { loadAllTenants } from '../../src/tenant/load.ts';
import { TENANTS_DIR } from '../support/runtime.ts';

type Member = Awaited<ReturnType<typeof activeMember>> & { profileId: number; userId: number };

/** An active member with their profile id; a woman looking for men unless told otherwise. */
async function member(rt: TestRuntime, overrides: Parameters<typeof activeMember>[2] = {}, tenant = 'spetter'): Promise<Member> {
  const m = await activeMember(rt, tenant, { gender: 'female', sexuality: 'hetero', ...overrides });
  const user = await m.client.user();
  return { ...m, profileId: user.profile.id, userId: user.id };
}

/** A man looking for women and a woman looking for men, both in Utrecht. */
async function pair(rt: TestRuntime) {
  const anna = await member(rt, { gender: 'female', region: 'Utrecht', country: 'NL' });
  const bob = await member(rt, { gender: 'male', region: 'Utrecht', country: 'NL' });
  return { anna, bob };
}

/** Events the bus delivers to a member while `work` runs. */
async function eventsOf(rt: TestRuntime, userId: number, work: () => Promise<unknown>): Promise<object[]> {
  const seen: object[] = [];
  const stop = rt.services.bus.subscribe(userTopic(userId), (e) => seen.push(e));
  try {
    await work();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    stop();
  }
  return seen;
}

const ids = (items: { profile: { id: number } }[]) => items.map((i) => i.profile.id);

describe.each(engines())('likes API on %s', (engine) => {
  const rt = useRuntime(engine);

  test('a like is one per pair, a like back is a match, both lists and the new count follow, and opening the profile clears the new flag', async () => {
    const { anna, bob } = await pair(rt());
    const annaEvents = await eventsOf(rt(), anna.userId, async () => {
      const first = await bob.client.post('/api/like.php', { profile_id: anna.profileId });
      expect(first.status).toBe(200);
      expect(first.json()).toMatchObject({ like: { profile_id: anna.profileId }, match: false });
      // Liking again changes nothing: same like, no second event.
      const again = await bob.client.post('/api/like.php', { profile_id: anna.profileId });
      expect(again.json().like.id).toBe(first.json().like.id);
    });
    expect(annaEvents).toEqual([{ type: 'like', profile_id: bob.profileId }]);
    const rows = await rt().db.db.selectFrom('likes').selectAll().where('from_profile_id', '=', bob.profileId).execute();
    expect(rows).toHaveLength(1);

    const annaLikes = (await anna.client.get('/api/likes.php')).json();
    expect(annaLikes.total_new).toBe(1);
    expect(annaLikes.profiles).toEqual([]);
    expect(annaLikes.liked_by).toHaveLength(1);
    expect(annaLikes.liked_by[0]).toMatchObject({ like_new: true, match: false, profile: { id: bob.profileId, name: bob.body.name } });
    const bobLikes = (await bob.client.get('/api/likes.php?type=given')).json();
    expect(ids(bobLikes.profiles)).toEqual([anna.profileId]);
    expect(bobLikes.liked_by).toEqual([]);

    // The profile shows where they stand; opening it clears Anna's new-like flag.
    // Bob's search card of Anna shows his like.
    const cards = (await bob.client.get('/api/members.php?region=Utrecht&country=NL')).json().profiles;
    expect(cards.find((c: { id: number }) => c.id === anna.profileId).liked).toBe(true);
    expect(cards.filter((c: { liked: boolean }) => c.liked)).toHaveLength(1);
    const page = (await anna.client.get(`/api/member.php?id=${bob.profileId}`)).json();
    expect(page.relation).toEqual({ liked: false, liked_me: true, blocked: false });
    expect((await anna.client.get('/api/likes.php')).json().total_new).toBe(0);
    expect((await anna.client.get('/api/likes.php')).json().liked_by[0].like_new).toBe(false);

    // Liking back is a match, told to both.
    let bobEvents: object[] = [];
    const annaMatch = await eventsOf(rt(), anna.userId, async () => {
      bobEvents = await eventsOf(rt(), bob.userId, async () => {
        const back = await anna.client.post('/api/like.php', { profile_id: bob.profileId });
        expect(back.json().match).toBe(true);
      });
    });
    expect(annaMatch).toEqual([{ type: 'match', profile_id: bob.profileId }]);
    expect(bobEvents).toEqual([{ type: 'match', profile_id: anna.profileId }]);
    const matches = (await bob.client.get('/api/likes.php?type=matches')).json();
    expect(ids(matches.profiles)).toEqual([anna.profileId]);
    expect(ids(matches.liked_by)).toEqual([anna.profileId]);
    expect(matches.liked_by[0].match).toBe(true);

    // Unliking ends the match; unliking twice is fine.
    expect((await anna.client.delete('/api/like.php', { profile_id: bob.profileId })).status).toBe(200);
    expect((await anna.client.delete('/api/like.php', { profile_id: bob.profileId })).status).toBe(200);
    expect((await bob.client.get('/api/likes.php?type=matches')).json().profiles).toEqual([]);
    expect((await bob.client.get('/api/likes.php')).json().profiles[0].match).toBe(false);
  });

  test('received likes: new ones first, then newest; each tab narrows the lists', async () => {
    const anna = await member(rt(), { gender: 'female' });
    const men = [];
    for (let i = 0; i < 3; i++) men.push(await member(rt(), { gender: 'male' }));
    for (const m of men) expect((await m.client.post('/api/like.php', { profile_id: anna.profileId })).status).toBe(200);
    // Anna opens the first liker's profile: his like is no longer new and goes last.
    await anna.client.get(`/api/member.php?id=${men[0]!.profileId}`);
    const received = (await anna.client.get('/api/likes.php?type=received')).json();
    expect(ids(received.liked_by)).toEqual([men[2]!.profileId, men[1]!.profileId, men[0]!.profileId]);
    expect(received.liked_by.map((l: { like_new: boolean }) => l.like_new)).toEqual([true, true, false]);
    expect(received.total_new).toBe(2);
    expect(received.profiles).toEqual([]);
    // The given tab still tells the badge's count.
    expect((await anna.client.get('/api/likes.php?type=given')).json().total_new).toBe(2);
  });

  test('nobody likes a profile they may not see: their own, another brand, a disabled one, an unknown id', async () => {
    const { anna } = await pair(rt());
    const other = await member(rt(), { gender: 'male', country: 'GB', region: undefined }, 'velvet');
    for (const id of [anna.profileId, other.profileId, 2_000_000_000]) {
      const res = await anna.client.post('/api/like.php', { profile_id: id });
      expect(res.status, String(id)).toBe(404);
      expect(apiError(res).code).toBe('not_found');
    }
    expect(await rt().db.db.selectFrom('likes').selectAll().where('from_profile_id', '=', anna.profileId).execute()).toEqual([]);
  });

  test('bad input is a 400 with a message, a visitor is refused, and nothing is written', async () => {
    const { anna, bob } = await pair(rt());
    for (const body of [{}, { profile_id: 'abc' }, { profile_id: -1 }, { profile_id: 1.5 }]) {
      const res = await anna.client.post('/api/like.php', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(apiError(res).message.length).toBeGreaterThan(0);
    }
    expect((await anna.client.get('/api/likes.php?type=everything')).status).toBe(400);
    expect((await anna.client.post('/api/swipe.php', { profile_id: bob.profileId, action: 'love' })).status).toBe(400);
    const visitor = new Client(rt(), 'spetter');
    for (const [method, path] of [['GET', '/api/likes.php'], ['POST', '/api/like.php'], ['GET', '/api/swipe.php'], ['GET', '/api/match-finder.php'], ['POST', '/api/block.php'], ['POST', '/api/complaint.php'], ['GET', '/api/auto-like.php']] as const) {
      const res = await visitor.request(method, path, method === 'GET' ? undefined : { profile_id: bob.profileId });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.json().authentication_required).toBe(true);
    }
    // A like from another site (a forged Origin) is refused.
    const forged = await anna.client.post('/api/like.php', { profile_id: bob.profileId }, { origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect(await rt().db.db.selectFrom('likes').selectAll().where('to_profile_id', '=', bob.profileId).execute()).toEqual([]);
  });

  test('the swipe game: cards of the wanted gender never repeat, 4 likes a brand day, then 429 with the next day, and a mutual like is a match', async () => {
    const bob = await member(rt(), { gender: 'male', region: 'Utrecht' });
    const women = [];
    for (let i = 0; i < 6; i++) women.push(await member(rt(), { gender: 'female', region: 'Utrecht' }));
    // One of them liked Bob already: his like in the game makes a match.
    await women[0]!.client.post('/api/like.php', { profile_id: bob.profileId });

    const deck = (await bob.client.get('/api/swipe.php')).json();
    expect(deck.likes_left).toBe(SWIPE_LIKES_PER_DAY);
    expect(deck.next_at).toBeNull();
    const genders = await rt().db.db.selectFrom('profiles').select(['id', 'gender']).where('id', 'in', deck.profiles.map((p: { id: number }) => p.id)).execute();
    expect(genders.every((g) => g.gender === 'female')).toBe(true);
    expect(deck.profiles[0]).toHaveProperty('about');

    const first = await bob.client.post('/api/swipe.php', { profile_id: women[0]!.profileId, action: 'like' });
    expect(first.json()).toMatchObject({ match: true, likes_left: 3, next_at: null });
    await bob.client.post('/api/swipe.php', { profile_id: women[1]!.profileId, action: 'pass' });
    for (const w of women.slice(2, 5)) expect((await bob.client.post('/api/swipe.php', { profile_id: w.profileId, action: 'like' })).status).toBe(200);
    const state = (await bob.client.get('/api/swipe.php')).json();
    expect(state.likes_left).toBe(0);
    const day = brandDay(new Date(), 'Europe/Amsterdam');
    expect(state.next_at).toBe(day.end.toISOString());
    const shown = state.profiles.map((p: { id: number }) => p.id);
    for (const w of women.slice(0, 5)) expect(shown).not.toContain(w.profileId);

    const fifth = await bob.client.post('/api/swipe.php', { profile_id: women[5]!.profileId, action: 'like' });
    expect(fifth.status).toBe(429);
    expect(apiError(fifth).code).toBe('swipe_limit');
    expect(fifth.json().next_at).toBe(day.end.toISOString());
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(0);
    // Passing is still possible; the refused like wrote nothing.
    expect(await rt().db.db.selectFrom('likes').selectAll().where('from_profile_id', '=', bob.profileId).where('to_profile_id', '=', women[5]!.profileId).execute()).toEqual([]);
    // A pass turned into a like (an old tab) counts too.
    expect((await bob.client.post('/api/swipe.php', { profile_id: women[1]!.profileId, action: 'like' })).status).toBe(429);

    // The next brand day: the likes are back.
    await rt().db.db.updateTable('swipes').set({ created_at: new Date(day.start.getTime() - 60_000).toISOString() }).where('from_profile_id', '=', bob.profileId).execute();
    const next = await bob.client.post('/api/swipe.php', { profile_id: women[5]!.profileId, action: 'like' });
    expect(next.json()).toMatchObject({ likes_left: 3, match: false });
  });

  test('two tabs liking together never get a fifth like in', async () => {
    const bob = await member(rt(), { gender: 'male' });
    const women = [];
    for (let i = 0; i < 8; i++) women.push(await member(rt(), { gender: 'female' }));
    const answers = await Promise.all(women.map((w) => bob.client.post('/api/swipe.php', { profile_id: w.profileId, action: 'like' })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(SWIPE_LIKES_PER_DAY);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(8 - SWIPE_LIKES_PER_DAY);
    const swiped = await rt().db.db.selectFrom('swipes').selectAll().where('from_profile_id', '=', bob.profileId).where('action', '=', 'like').execute();
    expect(swiped).toHaveLength(SWIPE_LIKES_PER_DAY);
  });

  test('the match finder suggests the wanted gender near the member age, with reasons, never someone liked already', async () => {
    const born = yearsAgo(30);
    const eva = await member(rt(), { gender: 'female', sexuality: 'hetero', region: 'Gelderland', date_of_birth: born });
    await rt().db.db.updateTable('profiles').set({ interests: JSON.stringify(['hiking', 'wine', 'music']) }).where('id', '=', eva.profileId).execute();
    const near = await member(rt(), { gender: 'male', region: 'Gelderland', date_of_birth: yearsAgo(33) });
    await rt().db.db.updateTable('profiles').set({ interests: JSON.stringify(['hiking', 'wine', 'cooking']) }).where('id', '=', near.profileId).execute();
    const old = await member(rt(), { gender: 'male', region: 'Gelderland', date_of_birth: yearsAgo(60) });
    const liked = await member(rt(), { gender: 'male', region: 'Gelderland', date_of_birth: yearsAgo(31) });
    await eva.client.post('/api/like.php', { profile_id: liked.profileId });

    const { profiles } = (await eva.client.get('/api/match-finder.php')).json();
    const found = profiles.map((p: { id: number }) => p.id);
    expect(found).toContain(near.profileId);
    expect(found).not.toContain(old.profileId);
    expect(found).not.toContain(liked.profileId);
    const top = profiles.find((p: { id: number }) => p.id === near.profileId);
    expect(top.reasons).toEqual(expect.arrayContaining([{ type: 'interests', count: 2 }, { type: 'region' }]));
    expect(profiles[0].id).toBe(near.profileId);
    const rows = await rt().db.db.selectFrom('profiles').select('gender').where('id', 'in', found).execute();
    expect(rows.every((r) => r.gender === 'male')).toBe(true);
    // The like dialog without a profile gets a suggestion (nobody liked Eva).
    expect((await eva.client.get('/api/auto-like.php')).json().profile.id).toBe(near.profileId);
    // Once someone liked her, that profile comes first.
    await old.client.post('/api/like.php', { profile_id: eva.profileId });
    expect((await eva.client.get('/api/auto-like.php')).json().profile.id).toBe(old.profileId);
  });

  test('a block hides both from each other everywhere, deletes their likes, and only the blocker can lift it', async () => {
    const { anna, bob } = await pair(rt());
    await anna.client.post('/api/like.php', { profile_id: bob.profileId });
    await bob.client.post('/api/like.php', { profile_id: anna.profileId });
    expect((await anna.client.post('/api/block.php', { profile_id: bob.profileId })).json()).toEqual({ ok: true });
    // Blocking again is fine.
    expect((await anna.client.post('/api/block.php', { profile_id: bob.profileId })).status).toBe(200);
    expect(await rt().db.db.selectFrom('likes').selectAll().where('from_profile_id', 'in', [anna.profileId, bob.profileId]).execute()).toEqual([]);

    // Bob: Anna's profile is not found, he cannot like or report-block his way back in, and she is in no listing.
    expect((await bob.client.get(`/api/member.php?id=${anna.profileId}`)).status).toBe(404);
    expect((await bob.client.post('/api/like.php', { profile_id: anna.profileId })).status).toBe(404);
    expect((await bob.client.post('/api/swipe.php', { profile_id: anna.profileId, action: 'like' })).status).toBe(404);
    expect((await bob.client.post('/api/block.php', { profile_id: anna.profileId })).status).toBe(404);
    const search = (await bob.client.get('/api/members.php?region=Utrecht&country=NL')).json();
    expect(search.profiles.map((p: { id: number }) => p.id)).not.toContain(anna.profileId);
    expect((await bob.client.get('/api/swipe.php')).json().profiles.map((p: { id: number }) => p.id)).not.toContain(anna.profileId);
    expect((await bob.client.get('/api/match-finder.php')).json().profiles.map((p: { id: number }) => p.id)).not.toContain(anna.profileId);
    // Anna no longer sees Bob in listings either, but opens his profile to unblock him.
    const annaSearch = (await anna.client.get('/api/members.php?region=Utrecht&country=NL&gender=male')).json();
    expect(annaSearch.profiles.map((p: { id: number }) => p.id)).not.toContain(bob.profileId);
    const page = await anna.client.get(`/api/member.php?id=${bob.profileId}`);
    expect(page.status).toBe(200);
    expect(page.json().relation.blocked).toBe(true);
    expect((await anna.client.post('/api/like.php', { profile_id: bob.profileId })).status).toBe(404);
    expect((await anna.client.get('/api/block.php')).json().profiles.map((p: { id: number }) => p.id)).toEqual([bob.profileId]);
    // Bob lifting a block he does not hold changes nothing.
    await bob.client.delete('/api/block.php', { profile_id: anna.profileId });
    expect((await bob.client.get(`/api/member.php?id=${anna.profileId}`)).status).toBe(404);

    expect((await anna.client.delete('/api/block.php', { profile_id: bob.profileId })).status).toBe(200);
    expect((await bob.client.get(`/api/member.php?id=${anna.profileId}`)).status).toBe(200);
    expect((await bob.client.post('/api/like.php', { profile_id: anna.profileId })).status).toBe(200);
    expect((await anna.client.get('/api/block.php')).json().profiles).toEqual([]);
  });

  test('a complaint about a member or the service is stored with brand, reporter and member, and copied to support', async () => {
    const { anna, bob } = await pair(rt());
    const res = await anna.client.post('/api/complaint.php', { profile_id: bob.profileId, reason: 'harassment', subject: 'Vervelende berichten', message: 'Hij blijft me berichten sturen nadat ik nee zei.' });
    expect(res.status).toBe(200);
    const { id } = res.json();
    const row = await rt().db.db.selectFrom('complaints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: 'spetter', reporter_user_id: anna.userId, reported_profile_id: bob.profileId, reason: 'harassment', subject: 'Vervelende berichten', status: 'open' });
    const tenant = rt().services.tenants().find((t) => t.id === 'spetter')!;
    const copy = mailsTo(rt(), tenant.support_email, 'mail_complaint').at(-1)!;
    expect(copy).toBeDefined();
    expect(copy.text).toContain('Hij blijft me berichten sturen');
    expect(copy.text).toContain(anna.email);
    expect(copy.headers['reply-to']).toBe(anna.email);
    expect(copy.subject).toBe(`Klacht #${id}: Vervelende berichten`);

    // About the service: no member.
    const service = await anna.client.post('/api/complaint.php', { reason: 'service', subject: 'Betaling', message: 'Mijn credits zijn niet bijgeschreven.' });
    expect(service.status).toBe(200);
    // A blocked member can still be reported; an unknown one cannot.
    await anna.client.post('/api/block.php', { profile_id: bob.profileId });
    expect((await anna.client.post('/api/complaint.php', { profile_id: bob.profileId, reason: 'scam', subject: 'Geld', message: 'Vroeg om geld via een andere app.' })).status).toBe(200);
    expect((await anna.client.post('/api/complaint.php', { profile_id: 2_000_000_000, reason: 'scam', subject: 'Geld', message: 'Vroeg om geld via een andere app.' })).status).toBe(404);

    // Bad input: a field and its message in the member's language.
    const short = await anna.client.post('/api/complaint.php', { reason: 'other', subject: 'x', message: 'kort' });
    expect(short.status).toBe(400);
    expect(apiError(short)).toMatchObject({ code: 'complaint_message', field: 'message', message: 'Beschrijf wat er gebeurd is, in minstens 10 tekens.' });
    expect(apiError(await anna.client.post('/api/complaint.php', { reason: 'other', subject: '  ', message: 'Een lang genoeg bericht.' }))).toMatchObject({ code: 'complaint_subject' });
    expect(apiError(await anna.client.post('/api/complaint.php', { reason: 'boos', subject: 'Iets', message: 'Een lang genoeg bericht.' }))).toMatchObject({ code: 'complaint_reason' });
  });
});

describe.each(engines())('the swipe game at a brand\'s size on %s', (engine) => {
  const rt = useRuntime(engine);

  test('the swipe game past the first cards everyone near shares: every woman the search finds comes once, then none', async () => {
    // A brand's size: more women than the head of the shared list the deck reads first (120).
    await seedDemo(rt().db.db, loadAllTenants(TENANTS_DIR), { perTenant: 300 });
    const bob = await member(rt(), { gender: 'male', region: 'Utrecht', country: 'NL' });
    const search = (await bob.client.get('/api/members.php')).json();
    expect(search.total_capped).toBe(false);
    expect(search.total).toBeGreaterThan(120);
    const seen = new Set<number>();
    for (;;) {
      const deck = (await bob.client.get('/api/swipe.php')).json();
      if (deck.profiles.length === 0) break;
      for (const card of deck.profiles as { id: number }[]) {
        expect(seen.has(card.id), `card ${card.id} shown again`).toBe(false);
        seen.add(card.id);
        expect((await bob.client.post('/api/swipe.php', { profile_id: card.id, action: 'pass' })).status).toBe(200);
      }
    }
    expect(seen.size).toBe(search.total);
  }, 120_000);
});
