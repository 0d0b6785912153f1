/**
 * Adversarial checks of the search's shared lists and cards on two runtime processes (PostgreSQL):
 * runtime A's list and cards are warmed by a member's and a visitor's search, then a change is made
 * through runtime B (blocks either way, own-brand-only, a birth date edited out of the age filter, a photo approved and then
 * deleted, a deletion asked by the member) or straight in the database as the CLI would (a profile
 * deleted): A's next searches honour it once the bus has delivered the trigger's event, polled
 * for less than the five seconds a list is otherwise kept (so a change heard only at expiry fails).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDb, type Db } from '../../src/server/db/index.ts';
import { Client, PASSWORD, activeMember, yearsAgo } from '../support/accounts.ts';
import { uploadPhoto } from '../support/moderation.ts';
import { useTwoProcesses } from '../support/serve-process.ts';
import { until } from '../support/sse.ts';
import type { TestRuntime } from '../support/runtime.ts';

const url = process.env.DATABASE_URL;

/** Less than LIST_TTL_MS (5 s): a change shown only when the list expires fails (chosen). */
const DELIVERED_WITHIN_MS = 2_500;

interface Card {
  id: number;
  name: string;
  main_image: { thumb_filename: string } | null;
  liked?: boolean;
}

describe.skipIf(!url)('search, adversarial: changes through runtime B in searches on runtime A', () => {
  const { view, a, b, schema } = useTwoProcesses('search-adv');
  let db: Db;
  beforeAll(() => {
    db = createDb({ url: url!, schema });
  });
  afterAll(async () => {
    await db?.close();
  });

  const member = async (rt: TestRuntime, brand: string, name: string, gender: 'male' | 'female', age: number, place: object) => {
    const m = await activeMember(rt, brand, { name, gender, sexuality: 'bi', date_of_birth: yearsAgo(age), ...place });
    const user = await m.client.user();
    return { ...m, profileId: user.profile.id as number, userId: user.id as number };
  };
  const onB = async (m: { email: string }, brand: string) => {
    const c = new Client(view(b), brand);
    expect((await c.login(m.email)).status).toBe(200);
    return c;
  };
  const cards = async (c: Client, query: string, headers: Record<string, string> = {}): Promise<Card[]> => {
    const res = await c.get(`/api/members.php?${query}`, headers);
    expect(res.status, res.text).toBe(200);
    return res.json().profiles;
  };

  test('blocks either way, a birth date edited out of the age filter, a photo approved then deleted, a deletion asked, a profile deleted by another process: each shows on A for a visitor and a member', async () => {
    const place = { country: 'DE', region: null, city: 'Berlin' };
    const query = 'gender=all&country=DE&max_age=55';
    const viewer = await member(view(a), 'velvet', 'Viewer', 'male', 48, place);
    const [t1, t2, t3, t4, t5, t6] = [
      await member(view(a), 'velvet', 'Blocked', 'female', 50, place),
      await member(view(a), 'velvet', 'Blocker', 'female', 50, place),
      await member(view(a), 'velvet', 'Older', 'female', 50, place),
      await member(view(a), 'velvet', 'Photo', 'female', 50, place),
      await member(view(a), 'velvet', 'Leaver', 'female', 50, place),
      await member(view(a), 'velvet', 'Erased', 'female', 50, place),
    ];
    // The visitor's home is the members' (geo-IP header, TRUST_PROXY): one list and its cards for all.
    const visitor = new Client(view(a), 'velvet');
    const seenByVisitor = () => cards(visitor, query, { 'x-country-code': 'DE' });
    const seenByViewer = () => cards(viewer.client, query);
    const everyone = [t1, t2, t3, t4, t5, t6].map((t) => t.profileId);
    for (const seen of [seenByVisitor, seenByViewer]) expect((await seen()).map((c) => c.id)).toEqual(expect.arrayContaining(everyone));

    const viewerOnB = await onB(viewer, 'velvet');
    expect((await viewerOnB.post('/api/block.php', { profile_id: t1.profileId })).status).toBe(200);
    expect((await (await onB(t2, 'velvet')).post('/api/block.php', { profile_id: viewer.profileId })).status).toBe(200);
    expect((await (await onB(t3, 'velvet')).put('/api/profile.php', { birth_date: yearsAgo(60) })).status).toBe(200);
    const t4OnB = await onB(t4, 'velvet');
    const uploaded = await uploadPhoto(t4OnB);
    expect(uploaded.status, uploaded.text).toBe(200);
    const photoId = (uploaded.json().photos as { id: number }[])[0]!.id;
    // Approved straight in the database (a moderator on a third process).
    await db.db.updateTable('photos').set({ status: 'active', reviewed_at: new Date().toISOString() }).where('id', '=', photoId).execute();

    // Blocks are read fresh by every search; the rest needs the bus.
    expect((await seenByViewer()).map((c) => c.id)).not.toContain(t1.profileId);
    expect((await seenByViewer()).map((c) => c.id)).not.toContain(t2.profileId);
    for (const [who, seen] of [['visitor', seenByVisitor], ['member', seenByViewer]] as const) {
      await until(
        `the birth date and the photo changed on B in a ${who}'s search on A`,
        async () => {
          const now = await seen();
          return !now.some((c) => c.id === t3.profileId) && now.find((c) => c.id === t4.profileId)?.main_image != null;
        },
        DELIVERED_WITHIN_MS,
      );
    }
    const visitorShown = await seenByVisitor();
    expect(visitorShown.map((c) => c.id)).toEqual(expect.arrayContaining([t1.profileId, t2.profileId]));
    for (const card of visitorShown) expect(card).not.toHaveProperty('liked');

    // The photo deleted by its owner on B; the member asks for deletion on B; a profile deleted by another process.
    expect((await t4OnB.delete('/api/photos.php', { id: photoId })).status).toBe(200);
    const leaving = await (await onB(t5, 'velvet')).delete('/api/account.php', { reason: 'other', password: PASSWORD });
    expect(leaving.status, leaving.text).toBe(200);
    await db.db.deleteFrom('profiles').where('id', '=', t6.profileId).execute();
    for (const [who, seen] of [['visitor', seenByVisitor], ['member', seenByViewer]] as const) {
      await until(
        `the deleted photo, the deletion and the deleted profile in a ${who}'s search on A`,
        async () => {
          const now = await seen();
          return (now.find((c) => c.id === t4.profileId)?.main_image ?? null) === null && !now.some((c) => c.id === t5.profileId || c.id === t6.profileId);
        },
        DELIVERED_WITHIN_MS,
      );
    }
  }, 120_000);

  test('"own brand only" chosen on B: a pool brand\'s member on A no longer finds her', async () => {
    const nl = { country: 'NL', region: 'Utrecht', city: 'Utrecht' };
    const sam = await member(view(a), 'spetter', 'Sam', 'male', 46, nl);
    const ria = await member(view(a), 'rijpedates', 'Ria', 'female', 48, nl);
    const lies = await member(view(a), 'spetter', 'Lies', 'female', 47, nl);
    const query = 'gender=all&country=NL&region=Utrecht';
    expect((await cards(sam.client, query)).map((c) => c.id)).toEqual(expect.arrayContaining([ria.profileId, lies.profileId]));
    expect((await (await onB(ria, 'rijpedates')).put('/api/user.php', { own_brand_only: true })).status).toBe(200);
    // The member's own read of what is pooled guards this one at once.
    const now = (await cards(sam.client, query)).map((c) => c.id);
    expect(now).not.toContain(ria.profileId);
    expect(now).toContain(lies.profileId);
  }, 60_000);
});
