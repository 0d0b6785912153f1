/**
 * Photos in an S3-compatible bucket (issue 25, "Past one machine"), on every engine, against a
 * local S3 stand-in (s3rver): profile and chat photos are stored as objects of the bucket and
 * nothing under the runtime's media folder; /media/ serves them with the same caching and the same
 * visibility as from disk (a pending photo is its owner's alone, a visitor gets 404); the
 * console's staff media reads the bucket; a deleted photo leaves no object behind.
 */
import { existsSync } from 'node:fs';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { engines, hostFetch, startTestRuntime, type TestRuntime } from '../support/runtime.ts';
import { screeningMember, sendChatPhoto, uploadPhoto } from '../support/moderation.ts';
import { staffLogin } from '../support/console.ts';
import { startS3StandIn, type S3StandIn } from '../support/s3-stand-in.ts';
import { s3Media } from '../../src/server/media-s3.ts';
import { grant } from '../../src/server/ledger.ts';

describe.each(engines())('photos in a bucket on %s', (engine) => {
  let s3: S3StandIn;
  let rt: TestRuntime;
  let bucket: ReturnType<typeof s3Media>;
  beforeAll(async () => {
    s3 = await startS3StandIn();
    bucket = s3Media(s3.settings);
    rt = await startTestRuntime(engine, { config: { s3: s3.settings } });
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
    await s3?.close();
  });

  /** The bucket's object under a /media/ URL's stored name, or null. */
  const objectOf = (url: string) => bucket.get(url.replace(/^\/media\//, ''));

  test('an uploaded photo is an object of the bucket, not a file of the machine; pending, only its owner gets it; approved, everyone, cached for a year with an ETag', async () => {
    const anna = await screeningMember(rt, 'female');
    const bob = await screeningMember(rt, 'male');
    const res = await uploadPhoto(anna.client);
    expect(res.status).toBe(200);
    const [photo] = res.json().photos;
    expect(photo).toMatchObject({ status: 'pending' });
    for (const url of [photo.url, photo.thumb_url]) {
      expect((await objectOf(url))?.subarray(8, 12).toString()).toBe('WEBP');
      expect(existsSync(`${rt.services.mediaDir}/${url.replace(/^\/media\//, '')}`)).toBe(false);
    }
    const head = await bucket.client.send(new HeadObjectCommand({ Bucket: s3.settings.bucket, Key: photo.url.replace(/^\/media\//, '') }));
    expect(head.ContentType).toBe('image/webp');

    // Pending: the owner's session gets it, privately; another member and a visitor get 404.
    const own = await hostFetch(rt, 'spetter', photo.url, { headers: { cookie: anna.client.cookieHeader() } });
    expect(own.status).toBe(200);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.headers['content-type']).toBe('image/webp');
    expect(own.body.equals((await objectOf(photo.url))!)).toBe(true);
    expect((await hostFetch(rt, 'spetter', photo.url, { headers: { cookie: bob.client.cookieHeader() } })).status).toBe(404);
    expect((await hostFetch(rt, 'spetter', photo.thumb_url)).status).toBe(404);

    // Staff of the brand see it in the queue, read from the bucket.
    const mod = await staffLogin(rt, 'moderator');
    const queued = (await mod.client.get('/api/console/photos?brand=spetter&limit=200')).json().photos.find((p: { id: number }) => p.id === photo.id);
    const staffView = await mod.client.get(queued.thumb_url);
    expect(staffView.status).toBe(200);
    expect(staffView.headers['cache-control']).toBe('private, no-store');
    expect(staffView.body.equals((await objectOf(photo.thumb_url))!)).toBe(true);

    // Approved: a visitor gets it, cached for a year; the ETag answers 304.
    expect((await mod.client.post(`/api/console/photos/${photo.id}`, { status: 'active' })).status).toBe(200);
    const open = await hostFetch(rt, 'spetter', photo.url);
    expect(open.status).toBe(200);
    expect(open.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(open.headers.etag).toMatch(/^"[^"]+"$/);
    expect(open.headers['last-modified']).toBeTruthy();
    expect(open.body.equals((await objectOf(photo.url))!)).toBe(true);
    const again = await hostFetch(rt, 'spetter', photo.url, { headers: { 'if-none-match': String(open.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    // A name that is no object of the bucket: the 404 page, as from disk.
    const missing = await hostFetch(rt, 'spetter', `/media/spetter/${'ab'.repeat(16)}.webp`);
    expect(missing.status).toBe(404);
  });

  test('a photo sent in a chat is stored in the bucket; a deleted profile photo leaves no object behind', async () => {
    const anna = await screeningMember(rt, 'female');
    const bob = await screeningMember(rt, 'male');
    await grant(rt.db.db, { userId: bob.userId, credits: 100, reason: 'bonus', ref: `s3-${bob.userId}` });
    const sent = await sendChatPhoto(bob.client, anna.profileId);
    expect(sent.status).toBe(200);
    const photo = sent.json().message.photo;
    expect((await objectOf(photo.url))?.subarray(8, 12).toString()).toBe('WEBP');
    expect((await objectOf(photo.thumb_url))?.subarray(8, 12).toString()).toBe('WEBP');
    // Its sender reads it through the runtime while it waits for screening.
    expect((await hostFetch(rt, 'spetter', photo.url, { headers: { cookie: bob.client.cookieHeader() } })).status).toBe(200);

    const [own] = (await uploadPhoto(anna.client)).json().photos;
    expect(await objectOf(own.url)).not.toBeNull();
    const removed = await anna.client.delete('/api/photos.php', { id: own.id });
    expect(removed.status).toBe(200);
    expect(await objectOf(own.url)).toBeNull();
    expect(await objectOf(own.thumb_url)).toBeNull();
    await expect(bucket.client.send(new GetObjectCommand({ Bucket: s3.settings.bucket, Key: own.url.replace(/^\/media\//, '') }))).rejects.toThrow();
  });

  test('the bucket out of reach: an upload is 503 with the catalogue message and stores nothing; a photo is 503, never a 500', async () => {
    const anna = await screeningMember(rt, 'female');
    const [photo] = (await uploadPhoto(anna.client)).json().photos;
    await s3.close();
    const refused = await uploadPhoto(anna.client);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json().error).toMatchObject({ code: 'service_unavailable', message: 'De dienst is even niet bereikbaar. Probeer het zo opnieuw.' });
    expect((await anna.client.get('/api/photos.php')).json().photos.map((p: { id: number }) => p.id)).toEqual([photo.id]);
    const file = await hostFetch(rt, 'spetter', photo.url, { headers: { cookie: anna.client.cookieHeader() } });
    expect(file.status).toBe(503);
  });
});
