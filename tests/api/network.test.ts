/**
 * The member network (issue 24, DESIGN §12) on every engine: spetter (niche 1, everyone) and
 * rijpedates (niche 6, women of 35 and older) share the pool `benelux`; velvet stays alone.
 * What each member, on their own brand, can see and do with each other member.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { Client, activeMember, apiError, mailsTo, useRuntime, yearsAgo } from '../support/accounts.ts';
import { balanceAndLedger, chatMember, sendText, type ChatMember } from '../support/chat.ts';
import { tenantsWith } from '../support/tenants.ts';
import { consoleClient, staffLogin } from '../support/console.ts';
import { uploadPhoto } from '../support/moderation.ts';
import { until } from '../support/sse.ts';
import { grant } from '../../src/server/ledger.ts';

type Member = Awaited<ReturnType<typeof activeMember>> & { profileId: number; userId: number; brand: string };

const VELVET = { country: 'DE', region: 'Berlin', city: 'Berlin' } as const;

async function member(rt: TestRuntime, brand: string, name: string, gender: 'male' | 'female', age: number): Promise<Member> {
  const m = await activeMember(rt, brand, { name, gender, sexuality: 'hetero', date_of_birth: yearsAgo(age), ...(brand === 'velvet' ? VELVET : { country: 'NL', region: 'Noord-Holland' }) });
  const user = await m.client.user();
  await grant(rt.db.db, { userId: user.id, credits: 100, reason: 'bonus', ref: `network-${user.id}` });
  return { ...m, profileId: user.profile.id, userId: user.id, brand };
}

/** The seven members of the matrix: three on spetter, two on rijpedates, two on velvet. */
async function cast(rt: TestRuntime) {
  const [sam, lies, jade, ria, rob, vera, victor] = [
    await member(rt, 'spetter', 'Sam', 'male', 45),
    await member(rt, 'spetter', 'Lies', 'female', 40),
    await member(rt, 'spetter', 'Jade', 'female', 25),
    await member(rt, 'rijpedates', 'Ria', 'female', 50),
    await member(rt, 'rijpedates', 'Rob', 'male', 50),
    await member(rt, 'velvet', 'Vera', 'female', 50),
    await member(rt, 'velvet', 'Victor', 'male', 50),
  ];
  return { sam: sam!, lies: lies!, jade: jade!, ria: ria!, rob: rob!, vera: vera!, victor: victor! };
}

/** The ids a member's search finds (every page, both genders). */
async function found(m: { client: Client }): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const body = (await m.client.get(`/api/members.php?gender=all&page=${page}`)).json();
    ids.push(...body.profiles.map((p: { id: number }) => p.id));
    if (page >= body.pages) return ids;
  }
}

describe.each(engines())('the member network on %s', (engine) => {
  // No demo members: the matrix is the seven below.
  const rt = useRuntime(engine, () => ({ seed: false }));

  test('the access matrix: who finds, opens, likes and writes to whom, across two brands of one pool and a brand alone', async () => {
    const all = await cast(rt());
    const members = Object.values(all);
    const { sam, lies, jade, ria, rob, vera, victor } = all;
    // Whom each member sees, on their own brand. spetter shows everyone of the pool where the pair
    // fits rijpedates' audience too (one of the two a woman of 35 or older: not Jade, 25, and Rob);
    // velvet sees only velvet.
    const sees: Record<string, Member[]> = {
      Sam: [lies, jade, ria],
      Lies: [sam, jade, ria, rob],
      Jade: [sam, lies, ria],
      Ria: [sam, lies, jade, rob],
      Rob: [lies, ria],
      Vera: [victor],
      Victor: [vera],
    };
    for (const viewer of members) {
      const name = viewer.body.name;
      const expected = sees[name]!.map((m) => m.profileId).sort((a, b) => a - b);
      expect((await found(viewer)).sort((a, b) => a - b), `${name}'s search`).toEqual(expected);
      for (const other of members) {
        if (other === viewer) continue;
        const visible = sees[name]!.includes(other);
        const page = await viewer.client.get(`/api/member.php?id=${other.profileId}`);
        expect(page.status, `${name} opens ${other.body.name}`).toBe(visible ? 200 : 404);
        if (!visible) {
          // Nothing can be done with a profile one cannot see: like, swipe, write, block, report.
          expect((await viewer.client.post('/api/like.php', { profile_id: other.profileId })).status, `${name} likes ${other.body.name}`).toBe(404);
          expect((await viewer.client.post('/api/swipe.php', { profile_id: other.profileId, action: 'like' })).status).toBe(404);
          expect((await sendText(viewer as ChatMember, { profile_id: other.profileId })).status).toBe(404);
          expect((await viewer.client.post('/api/block.php', { profile_id: other.profileId })).status).toBe(404);
          expect((await viewer.client.post('/api/complaint.php', { profile_id: other.profileId, reason: 'fake_profile', subject: 'Nep', message: 'Dit profiel lijkt nep.' })).status).toBe(404);
        }
      }
    }
    // The swipe deck and the match finder draw from the same people.
    const deck = (await rob.client.get('/api/swipe.php')).json().profiles.map((p: { id: number }) => p.id);
    expect(deck.sort()).toEqual([lies.profileId, ria.profileId].sort());
    const finder = (await sam.client.get('/api/match-finder.php')).json().profiles.map((p: { id: number }) => p.id);
    // (It suggests from whom Sam sees, by its own reasons: age and place.)
    expect(finder).toContain(ria.profileId);
    expect(finder.every((id: number) => [lies, jade, ria].some((m) => m.profileId === id))).toBe(true);
    // Nothing was written by the refusals.
    const likes = await rt().db.db.selectFrom('likes').select('id').execute();
    expect(likes).toEqual([]);
  });

  test('a member of one brand likes, matches and writes to a member of the other; each reads and pays on their own brand', async () => {
    const sam = await chatMember(rt(), 'male', 100, { tenant: 'spetter' });
    const ria = await chatMember(rt(), 'female', 100, { tenant: 'rijpedates' });
    await rt().db.db.updateTable('profiles').set({ birth_date: yearsAgo(48) }).where('id', '=', ria.profileId).execute();

    expect((await sam.client.post('/api/like.php', { profile_id: ria.profileId })).json()).toMatchObject({ match: false });
    const riaLikes = (await ria.client.get('/api/likes.php')).json();
    expect(riaLikes.liked_by.map((l: { profile: { id: number } }) => l.profile.id)).toEqual([sam.profileId]);
    expect((await ria.client.post('/api/like.php', { profile_id: sam.profileId })).json()).toMatchObject({ match: true });
    const row = await rt().db.db.selectFrom('likes').select(['tenant_id', 'from_profile_id']).where('to_profile_id', '=', sam.profileId).executeTakeFirstOrThrow();
    expect(row).toEqual({ tenant_id: 'rijpedates', from_profile_id: ria.profileId });

    // Sam writes on spetter (5 credits a message), Ria answers on rijpedates (6): one conversation.
    const first = await sendText(sam, { profile_id: ria.profileId }, { text: 'Hoi Ria!' });
    expect(first.status).toBe(200);
    const conversationId = first.json().conversation_id;
    expect(first.json().credits).toBe(95);
    const riaChats = (await ria.client.get('/api/chats.php')).json();
    expect(riaChats.chats.map((c: { conversation: { id: number } }) => c.conversation.id)).toEqual([conversationId]);
    expect(riaChats.total_unread).toBe(1);
    const answer = await sendText(ria, { conversation_id: conversationId }, { text: 'Hoi Sam!' });
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ conversation_id: conversationId, credits: 94 });
    const samView = (await sam.client.get(`/api/chat.php?id=${conversationId}`)).json();
    expect(samView.conversation.messages.map((m: { text: string; mine: boolean }) => [m.text, m.mine])).toEqual([
      ['Hoi Ria!', true],
      ['Hoi Sam!', false],
    ]);
    expect(samView.can_send).toBe(true);
    // Each ledger holds its own member's spend at their own brand's price.
    expect((await balanceAndLedger(rt(), sam.userId)).entries.at(-1)).toMatchObject({ delta: -5, reason: 'message' });
    expect((await balanceAndLedger(rt(), ria.userId)).entries.at(-1)).toMatchObject({ delta: -6, reason: 'message' });

    // Ria's mail about the new conversation comes from her own brand and links to it.
    await new Promise((r) => setTimeout(r, 300));
    const mail = mailsTo(rt(), ria.email, 'mail_new_conversation').at(-1);
    expect(mail?.headers.from).toContain('Rijpe Dates');
    expect(mail?.link).toContain('rijpedates');
  });

  test('a cross-brand block hides both everywhere; a complaint about a member of the other brand is stored on the reporter\'s brand', async () => {
    const lies = await member(rt(), 'spetter', 'Lies', 'female', 41);
    const rob = await member(rt(), 'rijpedates', 'Rob', 'male', 52);
    expect((await rob.client.get(`/api/member.php?id=${lies.profileId}`)).status).toBe(200);
    const complaint = await rob.client.post('/api/complaint.php', { profile_id: lies.profileId, reason: 'fake_profile', subject: 'Nep', message: 'Dit profiel lijkt nep.' });
    expect(complaint.status).toBe(200);
    const row = await rt().db.db.selectFrom('complaints').select(['tenant_id', 'reported_profile_id']).where('id', '=', complaint.json().id).executeTakeFirstOrThrow();
    expect(row).toEqual({ tenant_id: 'rijpedates', reported_profile_id: lies.profileId });

    expect((await lies.client.post('/api/block.php', { profile_id: rob.profileId })).status).toBe(200);
    expect((await rob.client.get(`/api/member.php?id=${lies.profileId}`)).status).toBe(404);
    expect(await found(rob)).not.toContain(lies.profileId);
    expect(await found(lies)).not.toContain(rob.profileId);
    expect((await lies.client.get('/api/block.php')).json().profiles.map((p: { id: number }) => p.id)).toEqual([rob.profileId]);
    expect((await lies.client.delete('/api/block.php', { profile_id: rob.profileId })).status).toBe(200);
    expect(await found(rob)).toContain(lies.profileId);
  });

  test("a member's photos show on the pool's other brand, from the viewer's own address; never on a brand outside the pool", async () => {
    const ria = await member(rt(), 'rijpedates', 'Ria', 'female', 47);
    const sam = await member(rt(), 'spetter', 'Sam', 'male', 46);
    const victor = await member(rt(), 'velvet', 'Victor', 'male', 46);
    expect((await uploadPhoto(ria.client)).status).toBe(200);
    // Screened and approved (rijpedates screens before showing).
    await rt().db.db.updateTable('photos').set({ status: 'active' }).where('profile_id', '=', ria.profileId).execute();
    const page = (await sam.client.get(`/api/member.php?id=${ria.profileId}`)).json();
    const photo = page.photos[0];
    expect(photo).toMatchObject({ main: true });
    expect(photo.url).toMatch(/^\/media\/rijpedates\//);
    const image = await hostFetch(rt(), 'spetter', photo.url);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect((await victor.client.get(`/api/member.php?id=${ria.profileId}`)).status).toBe(404);
  });

  test('"show me on my own brand only" and invisible mode: the pool\'s other brands no longer show the member', async () => {
    const lies = await member(rt(), 'spetter', 'Lies', 'female', 42);
    const sam = await member(rt(), 'spetter', 'Sam', 'male', 44);
    const rob = await member(rt(), 'rijpedates', 'Rob', 'male', 51);
    expect(await found(rob)).toContain(lies.profileId);

    const saved = await lies.client.put('/api/user.php', { own_brand_only: true });
    expect(saved.status).toBe(200);
    expect(saved.json().user.own_brand_only).toBe(true);
    expect(await found(rob)).not.toContain(lies.profileId);
    expect((await rob.client.get(`/api/member.php?id=${lies.profileId}`)).status).toBe(404);
    // Her own brand still shows her; she no longer sees the pool's other brands either (both ways).
    expect(await found(sam)).toContain(lies.profileId);
    expect(await found(lies)).not.toContain(rob.profileId);
    expect(await found(lies)).toContain(sam.profileId);
    expect(apiError(await lies.client.put('/api/user.php', { own_brand_only: 'ja' })).code).toBe('invalid_input');

    await lies.client.put('/api/user.php', { own_brand_only: false });
    expect(await found(rob)).toContain(lies.profileId);
    expect(await found(lies)).toContain(rob.profileId);
    await lies.client.put('/api/user.php', { invisible: true });
    expect(await found(rob)).not.toContain(lies.profileId);
    expect(await found(sam)).not.toContain(lies.profileId);
  });

  test('40 changes of "own brand only" at once and 40 readings of the console\'s API description: no error, the last value stands everywhere', async () => {
    const lies = await member(rt(), 'spetter', 'Lies', 'female', 42);
    const rob = await member(rt(), 'rijpedates', 'Rob', 'male', 51);
    const { client: staff } = await staffLogin(rt(), 'marketer', ['spetter']);
    const sent = Array.from({ length: 40 }, (_, i) => i % 3 === 0);
    const [saves, docs] = await Promise.all([
      Promise.all(sent.map((value) => lies.client.put('/api/user.php', { own_brand_only: value }))),
      Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? staff : consoleClient(rt())).get('/api/console/openapi.json'))),
    ]);
    // Every change is saved and answered with a stored value (its own or one saved after it).
    for (const res of saves) {
      expect(res.status, res.text).toBe(200);
      expect(typeof res.json().user.own_brand_only).toBe('boolean');
    }
    // Staff read one document, every time; without a staff session it is a 401 with the catalogue's message.
    const withStaff = docs.filter((_, i) => i % 2);
    const without = docs.filter((_, i) => !(i % 2));
    for (const res of withStaff) expect(res.status, res.text).toBe(200);
    expect(new Set(withStaff.map((res) => res.text)).size).toBe(1);
    for (const res of without) expect(res.status).toBe(401);
    expect(new Set(without.map((res) => JSON.stringify(apiError(res)))).size).toBe(1);

    // The last save stands in the account, in the profile's listing flag and in the pool's search.
    const stored = (await lies.client.user()).own_brand_only as boolean;
    expect(sent).toContain(stored);
    const row = await rt().db.db
      .selectFrom('users')
      .innerJoin('profiles', 'profiles.user_id', 'users.id')
      .select(['users.own_brand_only', 'profiles.pooled'])
      .where('users.id', '=', lies.userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ own_brand_only: stored ? 1 : 0, pooled: stored ? 0 : 1 });
    if (stored) expect(await found(rob)).not.toContain(lies.profileId);
    else expect(await found(rob)).toContain(lies.profileId);
  });
});

/**
 * A conversation across brands the two no longer reach each other in, as one of them sees it: still
 * in their list with its one message, readable, closed for being out of reach (both profiles are
 * still active, so not "retired"), and a send and typing refused.
 */
async function expectClosed(me: ChatMember, conversationId: number): Promise<void> {
  const chats = (await me.client.get('/api/chats.php')).json().chats.map((c: { conversation: { id: number } }) => c.conversation.id);
  expect(chats).toEqual([conversationId]);
  const view = (await me.client.get(`/api/chat.php?id=${conversationId}`)).json();
  expect(view.conversation.messages).toHaveLength(1);
  expect(view).toMatchObject({ can_send: false, reply_block: 'out_of_reach' });
  const refused = await sendText(me, { conversation_id: conversationId });
  expect([refused.status, apiError(refused).code]).toEqual([409, 'conversation_closed']);
  // Typing follows the send's rule: the other member's tabs hear nothing of a closed conversation.
  const typing = await me.client.post('/api/chat-typing.php', { conversation_id: conversationId });
  expect([typing.status, apiError(typing).code]).toEqual([409, 'conversation_closed']);
}

/**
 * Sam of spetter and Ria of rijpedates (48: in its audience) finding each other across the pool, in
 * the conversation Sam started; and rijpedates' tenant file, for the test to change.
 */
async function acrossThePool(rt: TestRuntime, tenantsDir: string) {
  const sam = await chatMember(rt, 'male', 100, { tenant: 'spetter' });
  const ria = await chatMember(rt, 'female', 100, { tenant: 'rijpedates' });
  await rt.db.db.updateTable('profiles').set({ birth_date: yearsAgo(48) }).where('id', '=', ria.profileId).execute();
  const conversationId: number = (await sendText(sam, { profile_id: ria.profileId })).json().conversation_id;
  expect(await found(sam)).toContain(ria.profileId);
  return { sam, ria, conversationId, file: join(tenantsDir, 'rijpedates', 'tenant.json') };
}

describe.each(engines())('a brand removed from its pool on %s', (engine) => {
  const tenants = tenantsWith({});
  afterAll(() => tenants.remove());
  const rt = useRuntime(engine, () => ({ seed: false, tenantsDir: tenants.dir }));

  test('takes its members out of the other brand at once; their conversations stay readable but closed', async () => {
    const { sam, ria, conversationId, file } = await acrossThePool(rt(), tenants.dir);
    const { network: _, ...alone } = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify(alone, null, 2));
    // The registry looks at the tenant files again at most once a second.
    await until('the brand to leave the search', async () => !(await found(sam)).includes(ria.profileId));

    expect((await sam.client.get(`/api/member.php?id=${ria.profileId}`)).status).toBe(404);
    for (const me of [sam, ria]) {
      await expectClosed(me, conversationId);
      expect((await balanceAndLedger(rt(), me.userId)).credits).toBe(me === sam ? 95 : 100);
    }
  });
});

/**
 * A brand suspended from its pool (`network.suspended`, issue 24) is out of it both ways while it
 * keeps the pool's name: the registry reloads the file within a second, so the test polls until the
 * other brand's search no longer shows its member, then checks the rest; setting it back opens all again.
 */
describe.each(engines())('a brand suspended from its pool on %s', (engine) => {
  const tenants = tenantsWith({});
  afterAll(() => tenants.remove());
  const rt = useRuntime(engine, () => ({ seed: false, tenantsDir: tenants.dir }));

  test('takes its members out of the others at once and the others out of it; conversations stay readable, closed, typing refused, and open again when set back', async () => {
    const { sam, ria, conversationId, file } = await acrossThePool(rt(), tenants.dir);
    expect(await found(ria)).toContain(sam.profileId);
    expect((await ria.client.post('/api/chat-typing.php', { conversation_id: conversationId })).status).toBe(200);
    // Ria liked Sam: in his likes while her brand is in the pool.
    expect((await ria.client.post('/api/like.php', { profile_id: sam.profileId })).status).toBe(200);
    const likedSam = async () => (await sam.client.get('/api/likes.php')).json().liked_by.map((l: { profile: { id: number } }) => l.profile.id) as number[];
    expect(await likedSam()).toEqual([ria.profileId]);

    const joined = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...joined, network: { ...joined.network, suspended: true } }, null, 2));
    await until('the suspended brand to leave the search', async () => !(await found(sam)).includes(ria.profileId));

    // Out both ways: her own members see their own brand only.
    expect(await found(ria)).not.toContain(sam.profileId);
    expect(await likedSam()).toEqual([]);
    for (const [me, other] of [[sam, ria], [ria, sam]] as const) {
      expect((await me.client.get(`/api/member.php?id=${other.profileId}`)).status).toBe(404);
      expect((await me.client.post('/api/like.php', { profile_id: other.profileId })).status).toBe(404);
      expect((await me.client.post('/api/swipe.php', { profile_id: other.profileId, action: 'like' })).status).toBe(404);
      await expectClosed(me, conversationId);
    }
    // Her own choice is kept for when the brand returns.
    expect((await ria.client.user()).own_brand_only).toBe(false);

    writeFileSync(file, JSON.stringify({ ...joined, network: { ...joined.network, suspended: false } }, null, 2));
    await until('the brand back in the search', async () => (await found(sam)).includes(ria.profileId));
    expect(await found(ria)).toContain(sam.profileId);
    expect(await likedSam()).toEqual([ria.profileId]);
    expect((await ria.client.get(`/api/chat.php?id=${conversationId}`)).json()).toMatchObject({ can_send: true, reply_block: null });
    expect((await ria.client.post('/api/chat-typing.php', { conversation_id: conversationId })).status).toBe(200);
    expect((await sendText(ria, { conversation_id: conversationId }, { text: 'Hoi Sam' })).status).toBe(200);
  });
});

describe.each(engines())("a brand's fictional profiles in its pool on %s", (engine) => {
  const tenants = tenantsWith({});
  afterAll(() => tenants.remove());
  // The demo seed: each brand has fictional profiles.
  const rt = useRuntime(engine, () => ({ tenantsDir: tenants.dir }));

  test('stay on their own brand unless it shares them (network.share_fictional), read again when the file changes', async () => {
    // A woman of 40 on spetter: every pair with her fits rijpedates' audience.
    const lies = await member(rt(), 'spetter', 'Lies', 'female', 40);
    const theirs = (await rt().db.db.selectFrom('profiles').select('id').where('tenant_id', '=', 'rijpedates').where('fictional', '=', 1).where('listed', '=', 1).execute()).map((r) => r.id);
    const members = (await rt().db.db.selectFrom('profiles').select('id').where('tenant_id', '=', 'rijpedates').where('fictional', '=', 0).where('listed', '=', 1).execute()).map((r) => r.id);
    expect(theirs.length).toBeGreaterThan(0);
    const before = await found(lies);
    expect(before.filter((id) => theirs.includes(id))).toEqual([]);
    expect(before.filter((id) => members.includes(id)).sort((a, b) => a - b)).toEqual(members.sort((a, b) => a - b));
    expect((await lies.client.get(`/api/member.php?id=${theirs[0]}`)).status).toBe(404);

    const file = join(tenants.dir, 'rijpedates', 'tenant.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), network: { pool: 'benelux', share_fictional: true } }, null, 2));
    await new Promise((r) => setTimeout(r, 1_100));
    const after = await found(lies);
    expect(after.filter((id) => theirs.includes(id)).sort((a, b) => a - b)).toEqual(theirs.sort((a, b) => a - b));
    const page = (await lies.client.get(`/api/member.php?id=${theirs[0]}`)).json();
    expect(page.profile.fictional).toBe(true);
  });
});

/**
 * "Own brand only" works both ways (review of issue 24): a member shown on her own brand only
 * reaches no member of the pool who cannot see her (404, as for any profile out of reach), so
 * services/pool.ts's rule holds: a like, a match or a conversation never reaches a member who
 * cannot see its sender. Before the fix she still liked and wrote to Bob (200, 200), her message
 * was in his chats from a profile he could not open, and he got a mail about a like he could not see.
 */
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
    for (const me of [ria, bob]) await expectClosed(me, conversationId);

    expect((await ria.client.put('/api/user.php', { own_brand_only: false })).status).toBe(200);
    expect(await found(ria)).toContain(bob.profileId);
    expect((await ria.client.get(`/api/chat.php?id=${conversationId}`)).json()).toMatchObject({ can_send: true, reply_block: null });
    expect((await sendText(ria, { conversation_id: conversationId }, { text: 'Hoi Bob' })).status).toBe(200);
  });
});
