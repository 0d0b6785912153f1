import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDb, type Db } from '../../src/server/db/index.ts';
import { openPostgres, openSqlite, type Opened } from '../support/databases.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { AppError } from '../../src/server/errors.ts';
import {
  createPhotoService,
  FREE_PHOTOS,
  PREMIUM_PHOTOS,
  type PhotoService,
  type PhotoUploader,
} from '../../src/server/services/photos.ts';
import { photoRoutes } from '../../src/server/api/photos.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerApi } from '../../src/server/http/api.ts';
import { uploadsPlugin } from '../../src/server/http/plugins/uploads.ts';
import { asAppError } from '../../src/server/http/failures.ts';
import type { Services, Session } from '../../src/server/services/index.ts';
import type { Tenant } from '../../src/tenant/schema.ts';
import { hostFetch, startTestRuntime, type TestRuntime } from '../support/runtime.ts';

/**
 * The photo service on both engines (DESIGN §3): SQLite always, PostgreSQL when DATABASE_URL is
 * set, in a fresh schema dropped afterwards. Test images are made with sharp.
 */

const TENANT = 'spetter';
const MiB = 1024 * 1024;

// --- test images -------------------------------------------------------------------------

/** Exif GPS IFD pointer tag (0x8825), little-endian as sharp writes it. */
const GPS_POINTER = Buffer.from([0x25, 0x88]);

interface Images {
  /** 800×600, left half red and right half blue, EXIF orientation 6 (shown rotated 90° clockwise), camera and GPS tags. */
  gpsJpeg: Buffer;
  big: Buffer;
  plain: Buffer;
  small: Buffer;
  text: Buffer;
  huge: Buffer;
  truncated: Buffer;
  png: Buffer;
  webp: Buffer;
  gif: Buffer;
  avif: Buffer;
  /** A PNG header claiming 8000×8000 (64 megapixels) with no pixel data behind it. */
  bomb: Buffer;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

function pngBomb(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.alloc(0)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function solid(width: number, height: number, r = 90, g = 60, b = 160) {
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } });
}

async function makeImages(): Promise<Images> {
  const w = 800;
  const h = 600;
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      if (x < w / 2) raw[i] = 255;
      else raw[i + 2] = 255;
    }
  }
  const gpsJpeg = await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'SecretCam', Model: 'Spy 3000', Copyright: 'Private Person' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 0/1' },
    })
    .toBuffer();
  const plain = await solid(300, 300).jpeg().toBuffer();
  const huge = Buffer.alloc(12 * MiB);
  plain.copy(huge);
  return {
    gpsJpeg,
    big: await solid(2400, 1600).png().toBuffer(),
    plain,
    small: await solid(100, 100).png().toBuffer(),
    text: Buffer.from('This is a text file that was renamed to holiday.jpg\n'.repeat(40)),
    huge,
    truncated: (await solid(900, 900).jpeg().toBuffer()).subarray(0, 400),
    png: await solid(250, 250).png().toBuffer(),
    webp: await solid(250, 250).webp().toBuffer(),
    gif: await solid(250, 250).gif().toBuffer(),
    avif: await solid(250, 250).avif().toBuffer(),
    bomb: pngBomb(8000, 8000),
  };
}

let images: Images;
beforeAll(async () => {
  images = await makeImages();
});

// --- helpers ------------------------------------------------------------------------------

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected a refusal').toBeInstanceOf(AppError);
  return err as AppError;
}

/** Every file under a folder, relative names. */
function filesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(dir.length + 1))
    .sort();
}

let emailSeq = 0;
async function makeMember(db: Kysely<Database>, paid: boolean, tenant = TENANT): Promise<{ user: PhotoUploader; profileId: number }> {
  const { id } = await db
    .insertInto('users')
    .values({
      tenant_id: tenant,
      email: `member${++emailSeq}-${Date.now()}@example.com`,
      password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
      language: 'nl',
      status: 'active',
      paid_user: paid ? 1 : 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const profile = await db
    .insertInto('profiles')
    .values({ tenant_id: tenant, user_id: id, name: `Member ${id}`, gender: 'female', sexuality: 'hetero', birth_date: '1990-01-01', country: 'NL', last_seen_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { user: { id, paid_user: paid, tenant_id: tenant }, profileId: profile.id };
}

const fileOf = (mediaDir: string, url: string) => join(mediaDir, url.replace(/^\/media\//, ''));

// --- the service on both engines -----------------------------------------------------------

const ENGINES = [
  { name: 'sqlite', skip: false, open: (dir: string) => openSqlite(join(dir, 'photos.db')) },
  { name: 'postgres (set DATABASE_URL to run)', skip: !process.env.DATABASE_URL, open: (_dir: string) => openPostgres() },
];

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(`photo service on ${engine.name}`, () => {
    let dir: string;
    let mediaDir: string;
    let opened: Opened;
    let db: Kysely<Database>;
    let photos: PhotoService;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'photos-test-'));
      mediaDir = join(dir, 'media');
      opened = await engine.open(dir);
      db = opened.handle.db;
      await migrateToLatest(db);
      photos = createPhotoService({ db, mediaDir });
    });
    afterAll(async () => {
      await opened?.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    test('re-encodes to WebP: orientation applied, EXIF and GPS gone, first photo is main', async () => {
      const input = await sharp(images.gpsJpeg).metadata();
      expect(input.orientation).toBe(6);
      expect(input.exif?.includes(GPS_POINTER)).toBe(true);
      expect(input.exif?.includes('SecretCam')).toBe(true);

      const { user, profileId } = await makeMember(db, false);
      const list = await photos.upload(user, profileId, { bytes: images.gpsJpeg, declaredType: 'image/jpeg' });
      expect(list).toHaveLength(1);
      const [first] = list;
      expect(first).toMatchObject({ main: true, status: 'active' });
      expect(first!.url).toMatch(/^\/media\/spetter\/[a-f0-9]{32}\.webp$/);
      expect(first!.thumb_url).toBe(first!.url.replace('.webp', '-t.webp'));

      for (const url of [first!.url, first!.thumb_url]) {
        const file = fileOf(mediaDir, url);
        const meta = await sharp(file).metadata();
        expect(meta.format).toBe('webp');
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(meta.orientation).toBeUndefined();
        const bytes = await sharp(file).toBuffer();
        expect(bytes.includes('SecretCam')).toBe(false);
      }
      const photoBytes = readFileSync(fileOf(mediaDir, first!.url));
      expect(photoBytes.includes('EXIF')).toBe(false);
      expect(photoBytes.includes('SecretCam')).toBe(false);

      // Stored 800×600 with orientation 6: shown 600×800 with the red (left) half on top.
      const { data, info } = await sharp(fileOf(mediaDir, first!.url)).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([600, 800]);
      const pixel = (x: number, y: number) => {
        const i = (y * info.width + x) * info.channels;
        return [data[i]!, data[i + 1]!, data[i + 2]!];
      };
      const [r1, , b1] = pixel(300, 100);
      const [r2, , b2] = pixel(300, 700);
      expect(r1).toBeGreaterThan(200);
      expect(b1).toBeLessThan(60);
      expect(b2).toBeGreaterThan(200);
      expect(r2).toBeLessThan(60);

      const thumb = await sharp(fileOf(mediaDir, first!.thumb_url)).metadata();
      expect([thumb.width, thumb.height]).toEqual([400, 400]);
    });

    test('fits the long side to 1200 px without enlarging, thumbnail always 400×400', async () => {
      const { user, profileId } = await makeMember(db, true);
      const [big] = await photos.upload(user, profileId, { bytes: images.big });
      const bigMeta = await sharp(fileOf(mediaDir, big!.url)).metadata();
      expect([bigMeta.width, bigMeta.height]).toEqual([1200, 800]);
      const bigThumb = await sharp(fileOf(mediaDir, big!.thumb_url)).metadata();
      expect([bigThumb.width, bigThumb.height]).toEqual([400, 400]);

      const list = await photos.upload(user, profileId, { bytes: images.plain });
      const plain = list.find((p) => p.id !== big!.id)!;
      expect(plain.main).toBe(false);
      const plainMeta = await sharp(fileOf(mediaDir, plain.url)).metadata();
      expect([plainMeta.width, plainMeta.height]).toEqual([300, 300]);
      const plainThumb = await sharp(fileOf(mediaDir, plain.thumb_url)).metadata();
      expect([plainThumb.width, plainThumb.height]).toEqual([400, 400]);
    });

    test('accepts PNG, WebP, GIF and AVIF by their bytes, whatever type was declared', async () => {
      const { user, profileId } = await makeMember(db, true);
      for (const bytes of [images.png, images.webp, images.gif, images.avif]) {
        await photos.upload(user, profileId, { bytes, declaredType: 'text/plain' });
      }
      const list = await photos.list(profileId);
      expect(list).toHaveLength(4);
      for (const p of list) expect((await sharp(fileOf(mediaDir, p.url)).metadata()).format).toBe('webp');
    });

    test('refuses other types, corrupt and too small images, and files over 10 MiB; nothing is stored', async () => {
      const { user, profileId } = await makeMember(db, false);
      const before = filesIn(mediaDir);

      const text = await refusal(photos.upload(user, profileId, { bytes: images.text, declaredType: 'image/jpeg' }));
      expect([text.code, text.status, text.messageKey]).toEqual(['photo_type', 400, 'photo_type']);

      const corrupt = await refusal(photos.upload(user, profileId, { bytes: images.truncated, declaredType: 'image/jpeg' }));
      expect([corrupt.code, corrupt.status]).toEqual(['photo_type', 400]);

      const small = await refusal(photos.upload(user, profileId, { bytes: images.small }));
      expect([small.code, small.status, small.messageKey]).toEqual(['photo_dimensions', 400, 'photo_dimensions']);

      const huge = await refusal(photos.upload(user, profileId, { bytes: images.huge }));
      expect([huge.code, huge.status, huge.messageKey]).toEqual(['photo_too_large', 413, 'photo_too_large']);

      // More than 40 megapixels is refused from the header, before anything is decoded.
      expect((await sharp(images.bomb).metadata()).width).toBe(8000);
      const bomb = await refusal(photos.upload(user, profileId, { bytes: images.bomb }));
      expect([bomb.code, bomb.status]).toEqual(['photo_too_large', 413]);

      expect(await photos.list(profileId)).toEqual([]);
      expect(filesIn(mediaDir)).toEqual(before);
    });

    test(`a free member may have ${FREE_PHOTOS} photos; the next is premium_only and stores nothing`, async () => {
      const { user, profileId } = await makeMember(db, false);
      for (let i = 0; i < FREE_PHOTOS; i++) await photos.upload(user, profileId, { bytes: images.plain });
      const before = filesIn(mediaDir);

      const err = await refusal(photos.upload(user, profileId, { bytes: images.plain }));
      expect([err.code, err.status, err.messageKey]).toEqual(['premium_only', 403, 'premium_only']);
      expect(await photos.list(profileId)).toHaveLength(FREE_PHOTOS);
      expect(filesIn(mediaDir)).toEqual(before);
    });

    test(`a premium member may have ${PREMIUM_PHOTOS} photos; the next is photo_limit`, async () => {
      const { user, profileId } = await makeMember(db, true);
      for (let i = 0; i < PREMIUM_PHOTOS; i++) await photos.upload(user, profileId, { bytes: images.plain });
      const before = filesIn(mediaDir);

      const err = await refusal(photos.upload(user, profileId, { bytes: images.plain }));
      expect([err.code, err.status, err.messageKey, err.params]).toEqual(['photo_limit', 400, 'photo_limit', { max: PREMIUM_PHOTOS }]);
      expect(await photos.list(profileId)).toHaveLength(PREMIUM_PHOTOS);
      expect(filesIn(mediaDir)).toEqual(before);
    });

    test('parallel uploads of a free member with 2 photos: exactly one succeeds', async () => {
      const { user, profileId } = await makeMember(db, false);
      await photos.upload(user, profileId, { bytes: images.plain });
      await photos.upload(user, profileId, { bytes: images.plain });
      const tenantFiles = () => filesIn(join(mediaDir, TENANT)).length;
      const filesBefore = tenantFiles();

      const results = await Promise.allSettled(Array.from({ length: 4 }, () => photos.upload(user, profileId, { bytes: images.plain })));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((x) => x.status === 'rejected')) {
        expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'premium_only', status: 403 });
      }
      const list = await photos.list(profileId);
      expect(list).toHaveLength(3);
      expect(list.filter((p) => p.main)).toHaveLength(1);
      expect(tenantFiles()).toBe(filesBefore + 2);
    });

    test('uploading to a profile that is not the member\'s is not_found', async () => {
      const a = await makeMember(db, true);
      const b = await makeMember(db, true);
      const err = await refusal(photos.upload(a.user, b.profileId, { bytes: images.plain }));
      expect([err.code, err.status, err.messageKey]).toEqual(['not_found', 404, 'error_not_found_api']);
      expect(await photos.list(b.profileId)).toEqual([]);
    });

    test('setMain and remove keep exactly one main photo; mainImage follows it', async () => {
      const { user, profileId } = await makeMember(db, true);
      const other = await makeMember(db, true);
      expect(await photos.mainImage(profileId)).toBeNull();
      await photos.upload(user, profileId, { bytes: images.plain });
      await photos.upload(user, profileId, { bytes: images.png });
      const uploaded = await photos.upload(user, profileId, { bytes: images.webp });
      const [first, second, third] = uploaded;
      expect(uploaded.map((p) => p.main)).toEqual([true, false, false]);

      const main = await photos.mainImage(profileId);
      expect(main).toEqual({ filename: first!.url, thumb_filename: first!.thumb_url, status: 'active', match: first!.thumb_url });

      const afterSet = await photos.setMain(profileId, third!.id);
      expect(afterSet.map((p) => p.id)).toEqual([third!.id, first!.id, second!.id]);
      expect(afterSet.filter((p) => p.main).map((p) => p.id)).toEqual([third!.id]);
      expect((await photos.mainImage(profileId))?.filename).toBe(third!.url);

      // Another profile's photo, or one that does not exist, is not found and changes nothing.
      const [foreign] = await photos.upload(other.user, other.profileId, { bytes: images.plain });
      expect((await refusal(photos.setMain(profileId, foreign!.id))).status).toBe(404);
      expect((await refusal(photos.remove(profileId, foreign!.id))).status).toBe(404);
      expect((await refusal(photos.setMain(profileId, 987_654))).code).toBe('not_found');
      expect(await photos.list(other.profileId)).toHaveLength(1);
      expect(existsSync(fileOf(mediaDir, foreign!.url))).toBe(true);

      // Removing the main photo makes the first remaining one (by position) main.
      const afterRemove = await photos.remove(profileId, third!.id);
      expect(afterRemove.map((p) => [p.id, p.main])).toEqual([
        [first!.id, true],
        [second!.id, false],
      ]);
      expect(existsSync(fileOf(mediaDir, third!.url))).toBe(false);
      expect(existsSync(fileOf(mediaDir, third!.thumb_url))).toBe(false);

      // Removing a photo that is not main leaves the main one alone.
      const afterRemove2 = await photos.remove(profileId, second!.id);
      expect(afterRemove2.map((p) => [p.id, p.main])).toEqual([[first!.id, true]]);
      await photos.remove(profileId, first!.id);
      expect(await photos.list(profileId)).toEqual([]);
      expect(await photos.mainImage(profileId)).toBeNull();
    });

    test('eraseAll removes every row and file of the profile and nothing else', async () => {
      const { user, profileId } = await makeMember(db, true);
      const other = await makeMember(db, true);
      const [kept] = await photos.upload(other.user, other.profileId, { bytes: images.plain });
      await photos.upload(user, profileId, { bytes: images.plain });
      const list = await photos.upload(user, profileId, { bytes: images.png });
      const files = list.flatMap((p) => [fileOf(mediaDir, p.url), fileOf(mediaDir, p.thumb_url)]);
      expect(files.every((f) => existsSync(f))).toBe(true);

      await photos.eraseAll(profileId);
      expect(await photos.list(profileId)).toEqual([]);
      expect(files.some((f) => existsSync(f))).toBe(false);
      expect(existsSync(fileOf(mediaDir, kept!.url))).toBe(true);
      expect(await photos.list(other.profileId)).toHaveLength(1);
    });
  });
}

// --- the HTTP route -----------------------------------------------------------------------

describe('/api/photos.php', () => {
  let dir: string;
  let handle: Db;
  let photos: PhotoService;
  let server: FastifyInstance;
  let base: string;
  let free: { user: PhotoUploader; profileId: number };
  let loggedIn = true;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'photos-route-'));
    handle = createDb({ file: join(dir, 'route.db') });
    await migrateToLatest(handle.db);
    photos = createPhotoService({ db: handle.db, mediaDir: join(dir, 'media') });
    free = await makeMember(handle.db, false);

    // The router with only the photo routes, a stand-in visitor and session, errors as `{error: {code}}`.
    server = Fastify();
    // Multipart bodies as the runtime reads them (@fastify/multipart, left to the upload route).
    await server.register(uploadsPlugin);
    registerApi(server, photoRoutes, {
      services: { photos } as unknown as Services,
      production: false,
      visit: async (request) => {
        request.sessionState = loggedIn
          ? ({ id: 's', user: { id: free.user.id, paid_user: false, profile: { id: free.profileId, name: 'x', country: 'NL', status: 'active', main_image: null } } } as unknown as Session)
          : null;
        return { tenant: { id: TENANT, locales: { fallback: 'nl' } } as Tenant, locale: 'nl', locales: ['nl'], country: null, ip: '127.0.0.1' };
      },
      sendErrorPage: (_request, reply) => reply.code(404).send(),
      wantsHtml: () => false,
    });
    server.setErrorHandler((error, _request, reply) => {
      const refusal = asAppError(error);
      void reply.code(refusal?.status ?? 500).send({ error: { code: refusal?.code ?? String(error) } });
    });
    base = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api/photos.php`;
  });
  afterAll(async () => {
    await server?.close();
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const form = (name: string, bytes: Buffer, filename = 'holiday.jpg') => {
    const fd = new FormData();
    fd.append('caption', 'hi');
    fd.append(name, new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), filename);
    return fd;
  };
  const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });

  test('uploads a multipart photo, lists, sets main and deletes it', async () => {
    const up = await json(await fetch(base, { method: 'POST', body: form('photo', images.plain) }));
    expect(up.status).toBe(200);
    const uploaded = up.body.photos as { id: number; main: boolean }[];
    expect(uploaded).toHaveLength(1);

    await fetch(base, { method: 'POST', body: form('photo', images.png) });
    const listed = await json(await fetch(base));
    const list = listed.body.photos as { id: number; main: boolean; url: string; thumb_url: string; status: string }[];
    expect(list).toHaveLength(2);
    expect(Object.keys(list[0]!).sort()).toEqual(['id', 'main', 'status', 'thumb_url', 'url']);

    const put = await json(
      await fetch(base, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: list[1]!.id, main: true }) }),
    );
    expect((put.body.photos as { id: number; main: boolean }[])[0]).toMatchObject({ id: list[1]!.id, main: true });

    const bad = await json(await fetch(base, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: 'x' }) }));
    expect([bad.status, (bad.body.error as { code: string }).code]).toEqual([400, 'invalid_input']);

    const del = await json(
      await fetch(base, { method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: list[1]!.id }) }),
    );
    expect(del.body.photos).toEqual([{ ...list[0], main: true }]);
    await fetch(base, { method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: list[0]!.id }) });
  });

  test('refuses a missing photo, a non-multipart body and a file over 10 MiB', async () => {
    const missing = await json(await fetch(base, { method: 'POST', body: form('picture', images.plain) }));
    expect([missing.status, (missing.body.error as { code: string }).code]).toEqual([400, 'photo_missing']);

    const empty = await json(await fetch(base, { method: 'POST', body: form('photo', Buffer.alloc(0)) }));
    expect([empty.status, (empty.body.error as { code: string }).code]).toEqual([400, 'photo_missing']);

    const notMultipart = await json(await fetch(base, { method: 'POST', headers: { 'Content-Type': 'image/jpeg' }, body: new Uint8Array(images.plain) }));
    expect([notMultipart.status, (notMultipart.body.error as { code: string }).code]).toEqual([415, 'unsupported_media_type']);

    // Streamed (chunked, no Content-Length), so it is the multipart file limit that stops it.
    const streamed = new Response(form('photo', images.huge));
    const tooLarge = await fetch(base, {
      method: 'POST',
      headers: { 'Content-Type': streamed.headers.get('content-type')! },
      body: streamed.body,
      duplex: 'half',
    } as RequestInit);
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { error: { code: string } }).error.code).toBe('photo_too_large');

    // With a Content-Length over the limit it is refused before the body is read.
    const declared = await fetch(base, { method: 'POST', body: form('photo', images.huge) });
    expect(declared.status).toBe(413);
    expect(await photos.list(free.profileId)).toEqual([]);
  });

  test('answers 401 when logged out', async () => {
    loggedIn = false;
    try {
      const res = await json(await fetch(base));
      expect([res.status, (res.body.error as { code: string }).code]).toEqual([401, 'authentication_required']);
    } finally {
      loggedIn = true;
    }
  });
});

// --- serving the files ----------------------------------------------------------------------

describe('/media/ on the runtime', () => {
  let rt: TestRuntime;
  let base: string;
  const get = (path: string, method = 'GET') => hostFetch(rt, TENANT, path, { method });

  beforeAll(async () => {
    rt = await startTestRuntime('sqlite', { seed: false });
    const dir = join(rt.services.mediaDir, '..');
    mkdirSync(join(dir, 'media', TENANT), { recursive: true });
    writeFileSync(join(dir, 'media', TENANT, 'abc123.webp'), 'photo-bytes');
    writeFileSync(join(dir, 'media', TENANT, 'abc123-t.webp'), 'thumb');
    writeFileSync(join(dir, 'media', TENANT, 'notes.txt'), 'no');
    writeFileSync(join(dir, 'secret.webp'), 'outside');
    base = '';
  });
  afterAll(async () => {
    await rt?.close();
  });

  test('serves a stored photo and its thumbnail as immutable WebP', async () => {
    const res = await get(`${base}/media/${TENANT}/abc123.webp`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.text).toBe('photo-bytes');
    const thumb = await get(`${base}/media/${TENANT}/abc123-t.webp`);
    expect(thumb.text).toBe('thumb');
    const head = await get(`${base}/media/${TENANT}/abc123.webp`, 'HEAD');
    expect([head.status, head.headers['content-length']]).toEqual([200, '11']);
  });

  test('anything else is not served', async () => {
    for (const path of [
      `/media/${TENANT}/missing0.webp`,
      `/media/${TENANT}/notes.txt`,
      `/media/${TENANT}/ABC123.webp`,
      '/media/secret.webp',
      `/media/${TENANT}/../secret.webp`,
      `/media/${TENANT}/..%2f..%2fsecret.webp`,
      `/media/..%2f${TENANT}/abc123.webp`,
      `/media/${TENANT}/abc123.webp/`,
      `/media/${TENANT}/abc123.webp%00.txt`,
    ]) {
      const res = await get(`${base}${path}`);
      expect(res.status, path).toBe(404);
    }
    const post = await get(`${base}/media/${TENANT}/abc123.webp`, 'POST');
    expect(post.status).toBe(404);
  });
});
