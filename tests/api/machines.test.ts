/**
 * Two machines (issue 25, "Past one machine"): two `sitegen serve` processes on data folders of
 * their own, as on two machines, sharing only one PostgreSQL database and one S3 bucket (the
 * s3rver stand-in). A photo uploaded through A is shown by B; a browser subscribed to push on A
 * gets the push B sends, signed with the key pair A announced (A's data/vapid.json of an older
 * install, moved into the database once). Each has a tenants folder of its own too: a brand added
 * on A (`sitegen new`, published to the database) is served by B (and A, neither restarted), an edit reaches B, and a brand
 * removed on A (`sitegen publish <id>` without its folder) leaves B. Runs when DATABASE_URL is set.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createECDH, createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
// @ts-expect-error http_ece ships no types
import ece from 'http_ece';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DIST_DIR, REPO, adminQuery, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { tenantsWith } from '../support/tenants.ts';
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
  /** Each machine's tenants folder: a copy of the release's. */
  const tenantsA = tenantsWith({});
  const tenantsB = tenantsWith({});
  const distA = mkdtempSync(join(tmpdir(), 'sitegen-machine-a-dist-'));
  const distB = mkdtempSync(join(tmpdir(), 'sitegen-machine-b-dist-'));
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
    // B has builds of its own (a copy of the release's dist/), and builds a brand that reaches it.
    cpSync(DIST_DIR, distB, { recursive: true });
    // A too (it renders the brand added on it into its own, not into the checkout's).
    cpSync(DIST_DIR, distA, { recursive: true });
    const env = { ...s3.env, NODE_EXTRA_CA_CERTS: ca, VAPID_SUBJECT: 'mailto:ops@example.nl' };
    a = await serveProcess(schema, dirA, { ...env, TENANTS_DIR: tenantsA.dir, DIST_DIR: distA });
    b = await serveProcess(schema, dirB, { ...env, TENANTS_DIR: tenantsB.dir, DIST_DIR: distB });
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
    tenantsA.remove();
    tenantsB.remove();
    for (const dist of [distA, distB]) rmSync(dist, { recursive: true, force: true });
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

  /** `sitegen …` run on machine A: its tenants folder and data, the shared database. */
  const onMachineA = (...args: string[]) =>
    promisify(execFile)(process.execPath, [join(REPO, 'cli', 'main.ts'), ...args], {
      cwd: REPO,
      env: { ...process.env, DATABASE_SCHEMA: schema, DATA_DIR: dirA, TENANTS_DIR: tenantsA.dir },
    });
  /** settings.php of a brand's domain on B, as a browser on that domain asks it. */
  const settingsOnB = async (domain: string): Promise<{ name: string; domain: string } | null> => {
    const res = await hostFetch(onB(), 'spetter', '/api/settings.php', { headers: { host: `${domain}:${b.port}` } });
    return res.status === 200 && String(res.headers['content-type']).startsWith('application/json') ? res.json().settings : null;
  };

  test('a brand added on A is served by B on its domain; an edit on A reaches B; removed on A, B serves it no more', async () => {
    expect((await settingsOnB('flirtx.nl'))?.domain).not.toBe('flirtx.nl');

    const made = await onMachineA('new', 'flirtx', '--domain', 'flirtx.nl', '--name', 'Flirtx', '--locales', 'nl', '--no-build');
    expect(made.stdout).toContain('published flirtx');
    const served = await until('B serves flirtx', async () => {
      const settings = await settingsOnB('flirtx.nl');
      return settings?.domain === 'flirtx.nl' && settings;
    }, 60_000);
    expect(served).toMatchObject({ name: 'Flirtx', domain: 'flirtx.nl' });
    // B wrote the folder into its own tenants folder, byte for byte.
    expect(readFileSync(join(tenantsB.dir, 'flirtx', 'tenant.json'), 'utf8')).toBe(readFileSync(join(tenantsA.dir, 'flirtx', 'tenant.json'), 'utf8'));

    // B builds it (a child `sitegen build flirtx`: minutes at this machine's load; the one program
    // of issue 25 makes it seconds) and serves its pages.
    const home = await until('B serves flirtx\'s home page', async () => {
      const res = await hostFetch(onB(), 'spetter', '/', { headers: { host: `flirtx.nl:${b.port}` } });
      return res.status === 200 && res.text.includes('Flirtx') && res;
    }, 900_000);
    expect(String(home.headers['content-type'])).toContain('text/html');
    expect(existsSync(join(distB, 'flirtx', 'server', 'entry.mjs')) || existsSync(join(distB, 'flirtx', '.sitegen-build.json'))).toBe(true);
    // A serves it too, without a restart (its page rendered on the first request, docs/ONE-BUILD.md step 4).
    await until('A serves flirtx\'s home page', async () => {
      const res = await hostFetch(onA(), 'spetter', '/', { headers: { host: `flirtx.nl:${a.port}` } });
      return res.status === 200 && res.text.includes('Flirtx') && res;
    }, 120_000);

    // Edited on A and published again: B serves the edit.
    const file = join(tenantsA.dir, 'flirtx', 'tenant.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), name: 'Flirt X' }, null, 2));
    expect((await onMachineA('publish', 'flirtx')).stdout).toContain('published flirtx');
    await until('B serves the edit', async () => (await settingsOnB('flirtx.nl'))?.name === 'Flirt X', 60_000);

    // Removed on A: B takes it out (and its folder); its other brands stay.
    rmSync(join(tenantsA.dir, 'flirtx'), { recursive: true, force: true });
    expect((await onMachineA('publish', 'flirtx')).stdout).toContain('withdrawn flirtx');
    await until('B no longer serves flirtx', async () => (await settingsOnB('flirtx.nl'))?.domain !== 'flirtx.nl', 60_000);
    expect(existsSync(join(tenantsB.dir, 'flirtx'))).toBe(false);
    expect((await hostFetch(onB(), 'spetter', '/api/settings.php')).json().settings.name).toBe('Spetter');
  }, 1_200_000);
});
