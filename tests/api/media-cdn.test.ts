/**
 * Photos under a brand's cdn_prefix (issue 25, "Past one machine"), on every engine, against the
 * local S3 stand-in (s3rver): with photos in a bucket and spetter's cdn_prefix set to the bucket's
 * public address, an approved profile photo is addressed under the prefix in every answer that
 * gives its address, and fetched there without the runtime; a pending, rejected or deleted photo
 * has no object at that address (never public); a photo sent in a chat always stays behind the
 * runtime; velvet, without a prefix, is addressed through the runtime as before.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { engines, hostFetch, startTestRuntime, type TestRuntime } from '../support/runtime.ts';
import { screeningMember, sendChatPhoto, uploadPhoto } from '../support/moderation.ts';
import { staffLogin } from '../support/console.ts';
import { startS3StandIn, type S3StandIn } from '../support/s3-stand-in.ts';
import { tenantsWith } from '../support/tenants.ts';
import { sitegen } from '../support/cli.ts';
import { s3Media } from '../../src/server/media-s3.ts';
import { grant } from '../../src/server/ledger.ts';

describe.each(engines())('photos under cdn_prefix on %s', (engine) => {
  let s3: S3StandIn;
  let rt: TestRuntime;
  let tenants: ReturnType<typeof tenantsWith>;
  let bucket: ReturnType<typeof s3Media>;
  /** spetter's cdn_prefix: the bucket's public address (path style, as MinIO or a CDN in front of it). */
  let prefix = '';
  beforeAll(async () => {
    s3 = await startS3StandIn();
    bucket = s3Media(s3.settings);
    prefix = `${s3.settings.endpoint}/${s3.settings.bucket}`;
    // spetter screens before showing; rijpedates shows at once and reviews after, under the same prefix.
    tenants = tenantsWith({ spetter: { cdn_prefix: `${prefix}/` }, rijpedates: { cdn_prefix: prefix, photo_moderation: 'after' } });
    rt = await startTestRuntime(engine, { tenantsDir: tenants.dir, config: { s3: s3.settings } });
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
    await s3?.close();
    tenants?.remove();
  });

  /** The stored name of a /media/ address or an address under the prefix. */
  const nameOf = (url: string) => url.replace(/^.*\/media\//, '');
  /** What a browser gets at the public address of a stored name, without the runtime and without credentials. */
  const publicFetch = (name: string) => fetch(`${prefix}/media/${name}`);

  test('pending: addressed through the runtime, nothing at the public address; approved: under the prefix everywhere, served there as the runtime serves it', async () => {
    const anna = await screeningMember(rt, 'female');
    const bob = await screeningMember(rt, 'male');
    const [photo] = (await uploadPhoto(anna.client)).json().photos;
    expect(photo).toMatchObject({ status: 'pending', url: expect.stringMatching(/^\/media\/spetter\//), thumb_url: expect.stringMatching(/^\/media\/spetter\//) });
    expect((await anna.client.user()).profile.main_image).toMatchObject({ filename: photo.url, status: 'pending' });
    for (const url of [photo.url, photo.thumb_url]) expect((await publicFetch(nameOf(url))).status).toBe(404);

    const mod = await staffLogin(rt, 'moderator');
    expect((await mod.client.post(`/api/console/photos/${photo.id}`, { status: 'active' })).status).toBe(200);

    const name = nameOf(photo.url);
    const url = `${prefix}/media/${name}`;
    const thumb = `${prefix}/media/${nameOf(photo.thumb_url)}`;
    // Its owner's list, their own user, another member's view of the profile, a card in a listing.
    expect((await anna.client.get('/api/photos.php')).json().photos[0]).toMatchObject({ id: photo.id, status: 'active', url, thumb_url: thumb });
    expect((await anna.client.user()).profile.main_image).toMatchObject({ filename: url, thumb_filename: thumb, status: 'active' });
    const seen = (await bob.client.get(`/api/member.php?id=${anna.profileId}`)).json();
    expect(seen.profile.main_image).toMatchObject({ filename: url, thumb_filename: thumb, match: thumb });
    expect(seen.photos[0]).toMatchObject({ id: photo.id, main: true, url, thumb_url: thumb });

    // The public copy: the same bytes, cached as the runtime caches an approved photo.
    const open = await publicFetch(name);
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toBe('image/webp');
    expect(open.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await open.arrayBuffer()).equals((await bucket.get(name))!)).toBe(true);
    expect((await publicFetch(nameOf(photo.thumb_url))).status).toBe(200);
    // The runtime's address keeps answering (a page cached before the prefix was set).
    expect((await hostFetch(rt, 'spetter', photo.url)).status).toBe(200);

    // Deleted by its owner: neither the stored object nor the public copy is left.
    expect((await anna.client.delete('/api/photos.php', { id: photo.id })).status).toBe(200);
    for (const n of [name, nameOf(photo.thumb_url)]) {
      expect((await publicFetch(n)).status).toBe(404);
      expect(await bucket.get(`media/${n}`)).toBeNull();
      expect(await bucket.get(n)).toBeNull();
    }
  });

  test('shown at once (photo_moderation: after): public at once; rejected on review, its public copy goes and its address is through the runtime again', async () => {
    const eva = await screeningMember(rt, 'female', 'rijpedates');
    const [photo] = (await uploadPhoto(eva.client)).json().photos;
    const name = nameOf(photo.url);
    expect(photo).toMatchObject({ status: 'active', url: `${prefix}/media/${name}` });
    expect((await publicFetch(name)).status).toBe(200);

    const mod = await staffLogin(rt, 'moderator');
    expect((await mod.client.post(`/api/console/photos/${photo.id}`, { status: 'rejected', reason: 'contact_details' })).status).toBe(200);
    expect((await eva.client.get('/api/photos.php')).json().photos[0]).toMatchObject({ id: photo.id, status: 'rejected', url: `/media/${name}` });
    for (const n of [name, nameOf(photo.thumb_url)]) expect((await publicFetch(n)).status).toBe(404);
    // The stored file stays for its owner (the notice on /profile shows it), behind the runtime.
    expect((await hostFetch(rt, 'rijpedates', `/media/${name}`, { headers: { cookie: eva.client.cookieHeader() } })).status).toBe(200);
    expect((await hostFetch(rt, 'rijpedates', `/media/${name}`)).status).toBe(404);
  });

  test('an approved photo removed on a complaint loses its public copy at once', async () => {
    const anna = await screeningMember(rt, 'female');
    const bob = await screeningMember(rt, 'male');
    const [photo] = (await uploadPhoto(anna.client)).json().photos;
    const mod = await staffLogin(rt, 'moderator');
    expect((await mod.client.post(`/api/console/photos/${photo.id}`, { status: 'active' })).status).toBe(200);
    expect((await publicFetch(nameOf(photo.url))).status).toBe(200);

    const complaint = await rt.db.db
      .insertInto('complaints')
      .values({ tenant_id: 'spetter', reporter_user_id: bob.userId, reported_profile_id: anna.profileId, reason: 'scam', subject: 'Foto', message: 'Niet van haar.', created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const support = await staffLogin(rt, 'support', ['spetter']);
    expect((await support.client.post(`/api/console/complaints/${complaint.id}`, { action: 'remove_photo', reason: 'offensive', photo_id: photo.id })).json()).toMatchObject({ decision: 'photo_removed' });
    for (const url of [photo.url, photo.thumb_url]) expect((await publicFetch(nameOf(url))).status).toBe(404);
    expect((await bob.client.get(`/api/member.php?id=${anna.profileId}`)).json().profile.main_image).toBeNull();
    expect((await anna.client.get('/api/photos.php')).json().photos[0]).toMatchObject({ id: photo.id, status: 'rejected', url: photo.url });
  });

  test('a photo sent in a chat stays behind the runtime, approved or not: never an object at the public address', async () => {
    const anna = await screeningMember(rt, 'female');
    const bob = await screeningMember(rt, 'male');
    await grant(rt.db.db, { userId: bob.userId, credits: 100, reason: 'bonus', ref: `cdn-${randomUUID()}` });
    const sent = (await sendChatPhoto(bob.client, anna.profileId)).json();
    await rt.services.moderation.decideChatPhoto({ id: 1, role: 'moderator' }, sent.message.id, { status: 'active' }, 'all');
    const message = (await anna.client.get(`/api/chat.php?id=${sent.conversation_id}`)).json().conversation.messages.find((m: { id: number }) => m.id === sent.message.id);
    expect(message.photo.url).toMatch(/^\/media\/spetter\/[a-f0-9]+\.webp$/);
    expect((await publicFetch(nameOf(message.photo.url))).status).toBe(404);
    expect((await hostFetch(rt, 'spetter', message.photo.url, { headers: { cookie: anna.client.cookieHeader() } })).status).toBe(200);
  });

  test('`sitegen publish-photos` gives a photo approved without a public copy (before this release) its copy', async () => {
    const anna = await screeningMember(rt, 'female');
    const [photo] = (await uploadPhoto(anna.client)).json().photos;
    await rt.services.moderation.decidePhoto({ id: 1, role: 'moderator' }, photo.id, { status: 'active' }, 'all');
    const names = [nameOf(photo.url), nameOf(photo.thumb_url)];
    await bucket.unpublish(names);
    expect((await publicFetch(names[0]!)).status).toBe(404);
    const run = await sitegen(['publish-photos'], { ...rt.cliEnv, ...s3.env });
    expect(run.stdout).toMatch(/\d+ approved photos have their public copy/);
    for (const n of names) expect((await publicFetch(n)).status).toBe(200);
  }, 120_000);

  test('a brand without cdn_prefix: an approved photo is addressed through the runtime, as before', async () => {
    const lena = await screeningMember(rt, 'female', 'velvet');
    const [photo] = (await uploadPhoto(lena.client)).json().photos;
    const mod = await staffLogin(rt, 'moderator');
    expect((await mod.client.post(`/api/console/photos/${photo.id}`, { status: 'active' })).status).toBe(200);
    expect((await lena.client.get('/api/photos.php')).json().photos[0]).toMatchObject({ status: 'active', url: photo.url });
    expect(photo.url).toMatch(/^\/media\/velvet\//);
  });
});
