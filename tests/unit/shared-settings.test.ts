/**
 * What every machine of a deployment shares (issue 25, "Past one machine"): the S3_* settings of
 * the photo bucket and the VAPID keys of the environment, each mistake stopping the start with a
 * message naming the variable; the VAPID key pair kept in the database, made once however many
 * processes start at the same time, with a data/vapid.json of an older install moved in.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, s3FromEnv, vapidFromEnv } from '../../src/server/config.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { ensureVapidKeys, storedVapidKeys } from '../../src/server/services/push-keys.ts';
import { engines } from '../support/runtime.ts';
import { openPostgres, openSqlite, type Opened } from '../support/databases.ts';
import { createDb } from '../../src/server/db/index.ts';
import { sitegen } from '../support/cli.ts';

describe('S3_* settings', () => {
  it('keeps photos on disk when S3_BUCKET is unset, and reads a whole bucket configuration', () => {
    expect(s3FromEnv({})).toBeNull();
    expect(configFromEnv({}).s3).toBeNull();
    expect(
      s3FromEnv({ S3_BUCKET: 'photos', S3_ENDPOINT: 'https://s3.example.com/', S3_REGION: 'auto', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret', S3_FORCE_PATH_STYLE: 'true' }),
    ).toEqual({ bucket: 'photos', endpoint: 'https://s3.example.com', region: 'auto', accessKeyId: 'id', secretAccessKey: 'secret', forcePathStyle: true });
    // AWS itself: its own endpoint, us-east-1, the SDK's credentials chain (an instance role).
    expect(s3FromEnv({ S3_BUCKET: 'photos' })).toEqual({ bucket: 'photos', endpoint: undefined, region: 'us-east-1', accessKeyId: undefined, secretAccessKey: undefined, forcePathStyle: false });
  });

  it('stops the start with a message naming the variable for each mistake', () => {
    expect(() => s3FromEnv({ S3_ENDPOINT: 'https://s3.example.com' })).toThrow('S3_ENDPOINT is set but S3_BUCKET is not: name the bucket, or unset S3_* to keep photos on disk');
    expect(() => s3FromEnv({ S3_BUCKET: 'Photos_2026' })).toThrow('S3_BUCKET: "Photos_2026" is not a bucket name (3-63 of a-z, 0-9, dot and hyphen)');
    expect(() => s3FromEnv({ S3_BUCKET: 'photos', S3_ENDPOINT: 's3.example.com' })).toThrow('S3_ENDPOINT: "s3.example.com" is not an address such as https://s3.example.com');
    expect(() => s3FromEnv({ S3_BUCKET: 'photos', S3_ENDPOINT: 'ftp://s3.example.com' })).toThrow('S3_ENDPOINT: "ftp://s3.example.com" is not an http(s) address');
    expect(() => s3FromEnv({ S3_BUCKET: 'photos', S3_ACCESS_KEY_ID: 'id' })).toThrow('S3_SECRET_ACCESS_KEY is missing: set both S3 keys or neither');
    expect(() => s3FromEnv({ S3_BUCKET: 'photos', S3_FORCE_PATH_STYLE: 'yes' })).toThrow('S3_FORCE_PATH_STYLE: "yes" is not true or false');
  });

  it('a runtime started with a mistake in S3_* says what is wrong and exits', async () => {
    const run = await sitegen(['db', 'migrate'], { S3_BUCKET: 'photos', S3_ACCESS_KEY_ID: 'id' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe('sitegen: S3_SECRET_ACCESS_KEY is missing: set both S3 keys or neither');
  }, 60_000); // a CLI process
});

describe('VAPID keys of the environment', () => {
  const pair = webpush.generateVAPIDKeys();
  it('takes both keys, with VAPID_SUBJECT as the contact; neither: the database decides', () => {
    expect(vapidFromEnv({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: 'mailto:ops@example.nl' })).toEqual({ ...pair, subject: 'mailto:ops@example.nl' });
    expect(configFromEnv({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey }).vapid).toEqual({ ...pair, subject: 'mailto:webmaster@localhost' });
    expect(vapidFromEnv({})).toBeNull();
  });
  it('refuses one key without the other and keys that are not P-256 keys', () => {
    expect(() => vapidFromEnv({ VAPID_PUBLIC_KEY: pair.publicKey })).toThrow('VAPID_PRIVATE_KEY is missing: set both VAPID keys or neither (npx sitegen keys prints a pair)');
    expect(() => vapidFromEnv({ VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: pair.privateKey })).toThrow('VAPID_PUBLIC_KEY: not a base64url P-256 public key (87 characters)');
    expect(() => vapidFromEnv({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.publicKey })).toThrow('VAPID_PRIVATE_KEY: not a base64url P-256 private key (43 characters)');
  });
});

describe.each(engines())('the VAPID key pair in the database on %s', (engine) => {
  let opened: Opened;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitegen-keys-'));
    opened = engine === 'postgres' ? await openPostgres() : await openSqlite(join(dir, 'app.db'));
    await migrateToLatest(opened.handle.db);
  });
  afterAll(async () => {
    await opened?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is made once when processes start at the same time: each offers a pair, all sign with the one that was stored first', async () => {
    // Other connections to the same database, as other processes have: PostgreSQL's pool runs the
    // calls on connections of their own; SQLite gets handles of its own on the same file.
    const others = engine === 'sqlite' ? Array.from({ length: 3 }, () => createDb({ file: join(dir, 'app.db') })) : [];
    try {
      const handles = [opened.handle, ...others];
      const results = await Promise.all(handles.flatMap((h) => Array.from({ length: engine === 'sqlite' ? 2 : 8 }, () => ensureVapidKeys(h.db))));
      expect(new Set(results.map((r) => r.keys.publicKey)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(await storedVapidKeys(opened.handle.db)).toEqual(results[0]!.keys);
    } finally {
      await Promise.all(others.map((o) => o.close()));
    }
  });
});

describe('a data/vapid.json of an older install', () => {
  it('moves into the database once, so browsers subscribed with it keep receiving pushes; the file is not read again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitegen-keys-'));
    const opened = await openSqlite(join(dir, 'app.db'));
    try {
      await migrateToLatest(opened.handle.db);
      const old = webpush.generateVAPIDKeys();
      const file = join(dir, 'vapid.json');
      writeFileSync(file, JSON.stringify(old));
      expect(await ensureVapidKeys(opened.handle.db, file)).toEqual({ keys: old, created: true });
      writeFileSync(file, JSON.stringify(webpush.generateVAPIDKeys()));
      expect(await ensureVapidKeys(opened.handle.db, file)).toEqual({ keys: old, created: false });
    } finally {
      await opened.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`sitegen keys` stores a pair in the database once, prints its public key, and with --env both keys for an environment file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitegen-keys-'));
    const env = { DATA_DIR: dir, DATABASE_FILE: join(dir, 'app.db'), DATABASE_URL: '' };
    try {
      const first = await sitegen(['keys'], env);
      expect(first.code).toBe(0);
      const made = /^sitegen: sqlite: stored a new key pair in the database; public key ([A-Za-z0-9_-]{87})$/m.exec(first.stdout);
      expect(made).not.toBeNull();
      const second = await sitegen(['keys', '--env'], env);
      expect(second.stdout).toContain(`sitegen: sqlite: kept the key pair in the database; public key ${made![1]}`);
      expect(second.stdout).toMatch(new RegExp(`^VAPID_PUBLIC_KEY=${made![1]}\\nVAPID_PRIVATE_KEY=[A-Za-z0-9_-]{43}$`, 'm'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // two CLI processes, each migrating a fresh database
});
