/**
 * Photo screening on the member side and the console's moderation service (issue 22, "Photo
 * screening"), on every engine: what the owner and another member see of a photo before and
 * after a staff decision, the limit, the queue, and two decisions at once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { engines, hostFetch, startTestRuntime, type TestRuntime } from '../support/runtime.ts';
import { screeningMember, sendChatPhoto, uploadPhoto, type Member } from '../support/moderation.ts';
import { apiError, mailsTo, useRuntime } from '../support/accounts.ts';
import { openEvents, until } from '../support/sse.ts';
import { FREE_PHOTOS } from '../../src/lib/membership.ts';
import { grant } from '../../src/server/ledger.ts';
import type { PhotoModeration } from '../../src/lib/photo-screening.ts';

const moderator = { id: 7, role: 'moderator' };

const member = screeningMember;

const upload = (m: Member) => uploadPhoto(m.client);

/** What `viewer` sees of `owner`: the profile (main image, photos, count) and the owner's card in the viewer's likes. */
async function seenBy(viewer: Member, owner: Member) {
  const res = await viewer.client.get(`/api/member.php?id=${owner.profileId}`);
  expect(res.status).toBe(200);
  const body = res.json();
  return { main: body.profile.main_image, photos: body.photos as Array<{ id: number; url: string | null }>, count: body.profile.photo_count as number };
}

/** Sets a brand's photo_moderation for one test (the registry's tenant object is what the services read). */
function screening(rt: TestRuntime, tenant: string, mode: PhotoModeration) {
  const t = rt.services.tenants().find((x) => x.id === tenant)!;
  const was = t.photo_moderation;
  t.photo_moderation = mode;
  return () => (t.photo_moderation = was);
}

describe.each(engines())('photo screening on %s', (engine) => {
  const rt = useRuntime(engine);
  let restore: (() => void) | null = null;
  afterEach(() => {
    restore?.();
    restore = null;
  });

  test('before: a new photo is pending, its owner sees it marked, nobody else sees it, the limit counts it; approved, others see it live', async () => {
    expect(rt().services.tenants().find((t) => t.id === 'spetter')!.photo_moderation).toBe('before'); // the default
    const anna = await member(rt(), 'female');
    const bob = await member(rt(), 'male');

    const res = await upload(anna);
    expect(res.status).toBe(200);
    const [photo] = res.json().photos;
    expect(photo).toMatchObject({ status: 'pending', main: true });
    expect(photo.reason).toBeUndefined();

    // The owner: the photo is listed as pending, its file served to her session only.
    const own = await hostFetch(rt(), 'spetter', photo.thumb_url, { headers: { cookie: anna.client.cookieHeader() } });
    expect(own.status).toBe(200);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect((await anna.client.get('/api/profile.php')).json().profile.main_image).toMatchObject({ status: 'pending' });

    // Another member and a visitor: no photo anywhere, the file not found.
    expect(await seenBy(bob, anna)).toEqual({ main: null, photos: [], count: 0 });
    for (const url of [photo.url, photo.thumb_url]) {
      expect((await hostFetch(rt(), 'spetter', url, { headers: { cookie: bob.client.cookieHeader() } })).status).toBe(404);
      expect((await hostFetch(rt(), 'spetter', url)).status).toBe(404);
    }
    // A card (the likes list shows the same cards as the search): no main image.
    expect((await anna.client.post('/api/like.php', { profile_id: bob.profileId })).status).toBeLessThan(300);
    const likes = JSON.stringify((await bob.client.get('/api/likes.php')).json());
    expect(likes).toContain(`"id":${anna.profileId}`);
    expect(likes).not.toContain(photo.thumb_url);

    // The limit counts pending photos (SPEC §9: 3 for a free member).
    for (let i = 1; i < FREE_PHOTOS; i++) expect((await upload(anna)).status).toBe(200);
    const over = await upload(anna);
    expect(over.status).toBe(403);
    expect(apiError(over).code).toBe('premium_only');

    // In the queue; approved, Bob sees it, the file is public, and Anna's tabs hear it.
    const tab = await openEvents(anna.client);
    await until('the stream is ready', () => tab.events.some((e) => e.type === 'ready'));
    const queue = await rt().services.moderation.photoQueue({ brands: ['spetter'], status: 'pending', limit: 200 });
    expect(queue.photos.find((p) => p.id === photo.id)).toMatchObject({ member: { user_id: anna.userId, profile_id: anna.profileId, brand: 'spetter' }, url: expect.stringMatching(/^\/api\/console\/media\/spetter\//) });
    const decided = await rt().services.moderation.decidePhoto(moderator, photo.id, { status: 'active' }, ['spetter']);
    expect(decided.audit).toMatchObject({ staff_id: 7, action: 'photo_approve', brand: 'spetter', member_id: anna.userId, object: `photo:${photo.id}` });
    await until('the owner hears the decision', () => tab.events.some((e) => e.type === 'photos'));
    const seen = await seenBy(bob, anna);
    expect(seen.count).toBe(1);
    expect(seen.main).toMatchObject({ status: 'active', filename: photo.url });
    const open = await hostFetch(rt(), 'spetter', photo.url);
    expect(open.status).toBe(200);
    expect(open.headers['cache-control']).toContain('immutable');
  });

  test('a rejected photo is gone for others, the main image falls back to the next active photo, the owner is told why and may upload another', async () => {
    const anna = await member(rt(), 'female');
    const bob = await member(rt(), 'male');
    const first = (await upload(anna)).json().photos[0];
    const second = (await upload(anna)).json().photos.find((p: { id: number }) => p.id !== first.id);
    await rt().services.moderation.bulkApprove(moderator, [first.id, second.id], ['spetter']);
    expect((await seenBy(bob, anna)).main).toMatchObject({ filename: first.url });
    // A third photo fills the free limit.
    expect((await upload(anna)).status).toBe(200);
    expect((await upload(anna)).status).toBe(403);

    // An approved photo has been decided; a rejection needs a reason from the list.
    await expect(rt().services.moderation.decidePhoto(moderator, first.id, { status: 'rejected', reason: 'other' }, ['spetter'])).rejects.toMatchObject({ code: 'photo_already_decided', status: 409 });
    const third = (await anna.client.get('/api/photos.php')).json().photos.find((p: { status: string }) => p.status === 'pending');
    await expect(rt().services.moderation.decidePhoto(moderator, third.id, { status: 'rejected' }, ['spetter'])).rejects.toMatchObject({ code: 'photo_reject_reason', status: 400 });
    await expect(rt().services.moderation.decidePhoto(moderator, third.id, { status: 'rejected', reason: 'bad' as never }, ['spetter'])).rejects.toMatchObject({ status: 400 });
    expect((await anna.client.get('/api/photos.php')).json().photos.find((p: { id: number }) => p.id === third.id).status).toBe('pending');

    await rt().services.moderation.decidePhoto(moderator, third.id, { status: 'rejected', reason: 'contact_details' }, ['spetter']);
    const mine = (await anna.client.get('/api/photos.php')).json().photos;
    expect(mine.find((p: { id: number }) => p.id === third.id)).toMatchObject({ status: 'rejected', reason: 'contact_details', main: false });
    expect((await hostFetch(rt(), 'spetter', third.url, { headers: { cookie: bob.client.cookieHeader() } })).status).toBe(404);
    const mail = await until('the statement of reasons is mailed', () => mailsTo(rt(), anna.email, 'mail_photo_rejected')[0]);
    expect(mail.text).toContain('de foto bevat contactgegevens');
    expect(mail.link).toMatch(/\/profile#photos$/);
    // The rejected photo no longer counts: another may be uploaded.
    expect((await upload(anna)).status).toBe(200);

    // A rejected main image: the next active photo takes its place for others.
    const annaDb = rt().db.db;
    await annaDb.updateTable('photos').set({ reviewed_at: null }).where('id', '=', first.id).execute(); // as if shown under `after`
    await rt().services.moderation.decidePhoto(moderator, first.id, { status: 'rejected', reason: 'not_the_member' }, ['spetter']);
    const seen = await seenBy(bob, anna);
    expect(seen.main).toMatchObject({ filename: second.url, status: 'active' });
    expect(seen.photos.map((p) => p.id)).toEqual([second.id]);
    expect((await anna.client.get('/api/photos.php')).json().photos.find((p: { id: number }) => p.id === second.id).main).toBe(true);
  });

  test('two moderators deciding at once give one decision; the other gets 409 photo_already_decided', async () => {
    const anna = await member(rt(), 'female');
    const photo = (await upload(anna)).json().photos[0];
    const results = await Promise.allSettled([
      rt().services.moderation.decidePhoto(moderator, photo.id, { status: 'active' }, 'all'),
      rt().services.moderation.decidePhoto({ id: 8, role: 'admin' }, photo.id, { status: 'rejected', reason: 'other' }, 'all'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'photo_already_decided', status: 409 });
    const row = await rt().db.db.selectFrom('photos').select(['status', 'reviewed_by']).where('id', '=', photo.id).executeTakeFirstOrThrow();
    const winner = (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ status: string }>).value;
    expect(row.status).toBe(winner.status);
  });

  test('after: a photo is public at once and waits in the after-review queue', async () => {
    restore = screening(rt(), 'spetter', 'after');
    const anna = await member(rt(), 'female');
    const bob = await member(rt(), 'male');
    const photo = (await upload(anna)).json().photos[0];
    expect(photo.status).toBe('active');
    expect((await seenBy(bob, anna)).main).toMatchObject({ filename: photo.url });
    expect((await hostFetch(rt(), 'spetter', photo.url)).status).toBe(200);
    const pending = await rt().services.moderation.photoQueue({ brands: 'all', status: 'pending', limit: 200 });
    expect(pending.photos.some((p) => p.id === photo.id)).toBe(false);
    const review = await rt().services.moderation.photoQueue({ brands: 'all', status: 'after-review', limit: 200 });
    expect(review.photos.some((p) => p.id === photo.id)).toBe(true);
    await rt().services.moderation.decidePhoto(moderator, photo.id, { status: 'active' }, 'all');
    const again = await rt().services.moderation.photoQueue({ brands: 'all', status: 'after-review', limit: 200 });
    expect(again.photos.some((p) => p.id === photo.id)).toBe(false);
  });

  test('the queue: oldest first, keyset pages, only the brands in scope, staff roles only', async () => {
    const anna = await member(rt(), 'female');
    const vera = await member(rt(), 'female', 'velvet');
    const ids: number[] = [];
    for (const m of [anna, vera, anna]) {
      const list = (await upload(m)).json().photos as Array<{ id: number }>;
      ids.push(Math.max(...list.map((p) => p.id)));
    }
    const all: number[] = [];
    let before: number | undefined;
    for (let page = 0; page < 50; page++) {
      const res = await rt().services.moderation.photoQueue({ brands: 'all', status: 'pending', limit: 2, before });
      expect(res.photos.length).toBeLessThanOrEqual(2);
      all.push(...res.photos.map((p) => p.id));
      if (res.next === null) break;
      before = res.next;
    }
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(new Set(all).size).toBe(all.length);
    for (const id of ids) expect(all).toContain(id);

    const spetterOnly = await rt().services.moderation.photoQueue({ brands: ['spetter'], status: 'pending', limit: 200 });
    expect(spetterOnly.photos.every((p) => p.member.brand === 'spetter')).toBe(true);
    expect(spetterOnly.photos.some((p) => p.id === ids[1])).toBe(false);
    // Out of scope is not found, and changes nothing; a role that does not screen is refused.
    await expect(rt().services.moderation.decidePhoto(moderator, ids[1]!, { status: 'active' }, ['spetter'])).rejects.toMatchObject({ status: 404 });
    await expect(rt().services.moderation.decidePhoto({ id: 9, role: 'finance' }, ids[0]!, { status: 'active' }, 'all')).rejects.toMatchObject({ status: 403 });
    expect(await rt().services.moderation.staffMediaFile(spetterOnly.photos[0]!.url.replace('/api/console/media/', ''), ['velvet'])).toBeNull();
    expect(await rt().services.moderation.staffMediaFile(spetterOnly.photos[0]!.url.replace('/api/console/media/', ''), ['spetter'])).toMatch(/\.webp$/);
    // A bulk approval naming a photo out of scope is refused whole; one decided meanwhile is skipped.
    await expect(rt().services.moderation.bulkApprove(moderator, [ids[0]!, ids[1]!, ids[2]!], ['spetter'])).rejects.toMatchObject({ status: 404 });
    await rt().services.moderation.decidePhoto(moderator, ids[2]!, { status: 'active' }, ['spetter']);
    const bulk = await rt().services.moderation.bulkApprove(moderator, [ids[0]!, ids[2]!], ['spetter']);
    expect(bulk.approved).toEqual([ids[0]]);
    expect(bulk.skipped).toEqual([ids[2]]);
  });
});

describe.each(engines())('chat photo screening on %s', (engine) => {
  const rt = useRuntime(engine);

  async function sendPhoto(from: Member, to: Member) {
    const res = await sendChatPhoto(from.client, to.profileId);
    expect(res.status).toBe(200);
    return res.json();
  }
  const messageOf = async (m: Member, conversationId: number, id: number) =>
    ((await m.client.get(`/api/chat.php?id=${conversationId}`)).json().conversation.messages as Array<{ id: number; photo: unknown; photo_status: string }>).find((x) => x.id === id)!;

  test('before: the recipient sees a placeholder until the photo is approved, then the photo, live; a rejected one never', async () => {
    const anna = await member(rt(), 'female');
    const bob = await member(rt(), 'male');
    await grant(rt().db.db, { userId: bob.userId, credits: 100, reason: 'bonus', ref: `screening-${randomUUID()}` });
    const sent = await sendPhoto(bob, anna);
    expect(sent.message).toMatchObject({ kind: 'photo', photo_status: 'pending', photo: { url: expect.stringMatching(/^\/media\//) } });
    const url = sent.message.photo.url as string;
    expect(await messageOf(anna, sent.conversation_id, sent.message.id)).toMatchObject({ photo: null, photo_status: 'pending' });
    expect((await hostFetch(rt(), 'spetter', url, { headers: { cookie: anna.client.cookieHeader() } })).status).toBe(404);
    expect((await hostFetch(rt(), 'spetter', url, { headers: { cookie: bob.client.cookieHeader() } })).status).toBe(200);
    const queue = await rt().services.moderation.chatPhotoQueue({ brands: ['spetter'], status: 'pending', limit: 200 });
    expect(queue.photos.find((p) => p.id === sent.message.id)).toMatchObject({ conversation_id: sent.conversation_id, member: { user_id: bob.userId, brand: 'spetter' } });
    expect((await rt().services.moderation.chatPhotoQueue({ brands: ['velvet'], status: 'pending', limit: 200 })).photos.some((p) => p.id === sent.message.id)).toBe(false);

    const tab = await openEvents(anna.client);
    await until('the stream is ready', () => tab.events.some((e) => e.type === 'ready'));
    await rt().services.moderation.decideChatPhoto(moderator, sent.message.id, { status: 'active' }, ['spetter']);
    await until('the recipient hears the decision', () => tab.events.find((e) => e.type === 'chat_photo'));
    expect(await messageOf(anna, sent.conversation_id, sent.message.id)).toMatchObject({ photo: { url }, photo_status: 'active' });
    expect((await hostFetch(rt(), 'spetter', url, { headers: { cookie: anna.client.cookieHeader() } })).status).toBe(200);
    await expect(rt().services.moderation.decideChatPhoto(moderator, sent.message.id, { status: 'rejected', reason: 'other' }, ['spetter'])).rejects.toMatchObject({ code: 'photo_already_decided', status: 409 });

    const second = await sendPhoto(bob, anna);
    await rt().services.moderation.decideChatPhoto(moderator, second.message.id, { status: 'rejected', reason: 'contact_details' }, ['spetter']);
    expect(await messageOf(anna, second.conversation_id, second.message.id)).toMatchObject({ photo: null, photo_status: 'rejected' });
    expect(await messageOf(bob, second.conversation_id, second.message.id)).toMatchObject({ photo: { url: second.message.photo.url }, photo_status: 'rejected' });
    expect((await hostFetch(rt(), 'spetter', second.message.photo.url)).status).toBe(404);
  });
});

describe.skipIf(!engines().includes('postgres'))('photo screening over two runtimes on one PostgreSQL database', () => {
  const a = useRuntime('postgres');
  let b: TestRuntime;
  beforeAll(async () => {
    // A second runtime on the first one's schema and media folder: one database, two processes' worth of services and buses.
    b = await startTestRuntime('postgres', { seed: false, config: { databaseSchema: a().schema, mediaDir: a().services.mediaDir } });
  });
  afterAll(async () => {
    await b?.close();
  });

  test('a decision made on one runtime shows on the other at once: the owner\'s tab hears it, another member sees the photo, a second decision is refused', async () => {
    const anna = await member(a(), 'female');
    const bob = await member(a(), 'male');
    const photo = (await upload(anna)).json().photos[0];
    const onB = (m: Member) => {
      const c = m.client.clone();
      (c as { rt: TestRuntime }).rt = b;
      return { ...m, client: c } as Member;
    };
    const annaOnB = onB(anna);
    const bobOnB = onB(bob);
    expect((await seenBy(bobOnB, anna)).count).toBe(0);
    const tab = await openEvents(annaOnB.client);
    await until('the stream on B is ready', () => tab.events.some((e) => e.type === 'ready'));

    await a().services.moderation.decidePhoto(moderator, photo.id, { status: 'active' }, ['spetter']);
    const heard = await until('B hears the decision', () => tab.events.find((e) => e.type === 'photos'));
    expect(heard.data).toMatchObject({ photo_id: photo.id });
    expect((await seenBy(bobOnB, anna)).main).toMatchObject({ filename: photo.url });
    expect((await hostFetch(b, 'spetter', photo.url)).status).toBe(200);
    await expect(b.services.moderation.decidePhoto({ id: 8, role: 'moderator' }, photo.id, { status: 'rejected', reason: 'other' }, 'all')).rejects.toMatchObject({ code: 'photo_already_decided', status: 409 });
  });
});
