/**
 * Two machines (issue 25, "Past one machine"): two `sitegen serve` processes on data folders of
 * their own, as on two machines, sharing only one PostgreSQL database and one S3 bucket (the
 * s3rver stand-in). A photo uploaded through A is shown by B; a browser subscribed to push on A
 * gets the push B sends, signed with the key pair A announced (A's data/vapid.json of an older
 * install, moved into the database once). Runs when DATABASE_URL is set. ("A brand added on A is
 * served by B" waits for the one build of issue 25.)
 */
import { createECDH, createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
// @ts-expect-error http_ece ships no types
import ece from 'http_ece';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminQuery, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { processView, serveProcess } from '../support/serve-process.ts';
import { screeningMember, uploadPhoto } from '../support/moderation.ts';
import { startS3StandIn, type S3StandIn } from '../support/s3-stand-in.ts';
import { pushService } from '../support/push-stand-in.ts';
import { until } from '../support/sse.ts';
import { createDb, type Db } from '../../src/server/db/index.ts';
import { createMemoryBus } from '../../src/server/bus.ts';
import { createModerationService } from '../../src/server/services/moderation.ts';
import { grant } from '../../src/server/ledger.ts';

const url = process.env.DATABASE_URL;

/** Whether the VAPID JWT (ES256) of a push's Authorization header is signed by the private key of `publicKey` (base64url P-256 point). */
function signedBy(jwt: string, publicKey: string): boolean {
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') }, format: 'jwk' });
  const [header, payload, signature] = jwt.split('.');
  return verify('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'));
}

type Serving = Awaited<ReturnType<typeof serveProcess>>;

describe.skipIf(!url)('two machines: data folders of their own, one PostgreSQL database, one bucket', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const dirA = mkdtempSync(join(tmpdir(), 'sitegen-machine-a-'));
  const dirB = mkdtempSync(join(tmpdir(), 'sitegen-machine-b-'));
  /** The key pair machine A made before issue 25 (`sitegen keys` wrote data/vapid.json). */
  const oldKeys = webpush.generateVAPIDKeys();
  let s3: S3StandIn;
  const push = pushService();
  let pushBase = '';
  let a: Serving;
  let b: Serving;
  let db: Db;
  const onA = () => processView(a, dirA);
  const onB = () => processView(b, dirB);
  /** A member's browser moved to the other machine: the same cookies. */
  const moved = <T extends { client: { clone(): unknown } }>(m: T, rt: TestRuntime) => {
    const client = m.client.clone() as { rt: TestRuntime };
    client.rt = rt;
    return client as unknown as T['client'];
  };

  beforeAll(async () => {
    await adminQuery(`create schema ${schema}`);
    s3 = await startS3StandIn();
    pushBase = await push.start();
    const ca = join(dirA, '..', `${schema}-push-ca.pem`);
    writeFileSync(ca, push.cert);
    writeFileSync(join(dirA, 'vapid.json'), JSON.stringify(oldKeys));
    const env = { ...s3.env, NODE_EXTRA_CA_CERTS: ca, VAPID_SUBJECT: 'mailto:ops@example.nl' };
    a = await serveProcess(schema, dirA, env);
    b = await serveProcess(schema, dirB, env);
    db = createDb({ url: url!, schema });
  }, 120_000);
  afterAll(async () => {
    for (const p of [a, b]) p?.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await db?.close();
    await s3?.close();
    push.close();
    await adminQuery(`drop schema if exists ${schema} cascade; drop schema if exists ${schema}_jobs cascade`);
    for (const dir of [dirA, dirB]) rmSync(dir, { recursive: true, force: true });
    rmSync(join(dirA, '..', `${schema}-push-ca.pem`), { force: true });
  });

  test('a photo uploaded through A is shown by B: to its owner while it waits for screening, to everyone once approved; neither machine keeps a file', async () => {
    const anna = await screeningMember(onA(), 'female');
    const res = await uploadPhoto(anna.client);
    expect(res.status).toBe(200);
    const [photo] = res.json().photos;
    expect(photo.status).toBe('pending');

    const ownOnA = await hostFetch(onA(), 'spetter', photo.url, { headers: { cookie: anna.client.cookieHeader() } });
    const ownOnB = await hostFetch(onB(), 'spetter', photo.url, { headers: { cookie: moved(anna, onB()).cookieHeader() } });
    expect(ownOnA.status).toBe(200);
    expect(ownOnB.status).toBe(200);
    expect(ownOnB.headers['cache-control']).toBe('private, no-store');
    expect(ownOnB.body.equals(ownOnA.body)).toBe(true);
    expect((await hostFetch(onB(), 'spetter', photo.thumb_url)).status).toBe(404);

    // A moderator approves it (as the console does, through the moderation service).
    const moderation = createModerationService({ db: db.db, bus: createMemoryBus(), mailRejection: async () => undefined });
    await moderation.decidePhoto({ id: 0, role: 'moderator' }, photo.id, { status: 'active' }, 'all');
    const open = await hostFetch(onB(), 'spetter', photo.thumb_url);
    expect(open.status).toBe(200);
    expect(open.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(open.body.subarray(8, 12).toString()).toBe('WEBP');
    // Another member on B sees it as the profile's main image.
    const bob = await screeningMember(onB(), 'male');
    expect((await bob.client.get(`/api/member.php?id=${anna.profileId}`)).json().profile.main_image).toMatchObject({ thumb_filename: photo.thumb_url });

    for (const dir of [dirA, dirB]) expect(existsSync(join(dir, 'media')) ? readdirSync(join(dir, 'media'), { recursive: true }).filter((f) => String(f).endsWith('.webp')) : []).toEqual([]);
  });

  test('a browser subscribed to push on A gets the push B sends, signed with the key pair A announced (its data/vapid.json, moved into the database once)', async () => {
    const keyOnA = (await hostFetch(onA(), 'spetter', '/api/settings.php')).json().settings.push_public_key;
    const keyOnB = (await hostFetch(onB(), 'spetter', '/api/settings.php')).json().settings.push_public_key;
    expect(keyOnA).toBe(oldKeys.publicKey);
    expect(keyOnB).toBe(keyOnA);

    // Anna's browser subscribes on A with A's key (PushManager.subscribe({ applicationServerKey })).
    const anna = await screeningMember(onA(), 'female');
    const browser = createECDH('prime256v1');
    browser.generateKeys();
    const auth = randomBytes(16);
    const id = randomUUID();
    const subscribed = await anna.client.post('/api/user.php?push=1', { subscription: { endpoint: `https://push.example.com/push/${id}`, keys: { p256dh: browser.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } } });
    expect(subscribed.status).toBe(200);
    // The push service's host is this test's stand-in (the route accepts only public push services).
    await db.db.updateTable('push_subscriptions').set({ endpoint: `${pushBase}/push/${id}` }).where('endpoint', '=', `https://push.example.com/push/${id}`).execute();

    // Bob writes to her through B: B sends the push.
    const bob = await screeningMember(onB(), 'male');
    await grant(db.db, { userId: bob.userId, credits: 50, reason: 'bonus', ref: randomUUID() });
    const sent = await bob.client.post('/api/chat.php', { profile_id: anna.profileId, kind: 'text', text: 'Hoi vanaf B', client_id: randomUUID() });
    expect(sent.status).toBe(200);
    const arrived = await until('the push', () => push.received.find((r) => r.path === `/push/${id}`), 15_000);
    const [, jwt, k] = /^vapid t=([^,]+), k=(.+)$/.exec(String(arrived.headers.authorization))!;
    expect(k).toBe(keyOnA);
    expect(signedBy(jwt!, keyOnA)).toBe(true);
    const payload = JSON.parse(ece.decrypt(arrived.body, { version: 'aes128gcm', privateKey: browser, authSecret: auth }).toString());
    expect(payload).toMatchObject({ type: 'message', body: 'Hoi vanaf B' });
  });
});
