import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDb, type Db } from '../../src/server/db/index.ts';
import { openPostgres, openSqlite, type Opened } from '../support/databases.ts';
import { constraintViolation, nowIso, startsWith } from '../../src/server/db/engine.ts';
import { migrateDown, migrateToLatest, migrationNames } from '../../src/server/db/migrate.ts';
import type { Database, NewUser } from '../../src/server/db/schema.ts';
import { demoProfiles, seedDemo, type SeedTenant } from '../../src/server/db/seed.ts';
import { ABOUT_TEXTS, CITIES } from '../../src/server/db/seed-data.ts';
import { isInterestKey } from '../../src/server/data/interests.ts';
import { regionsFor } from '../../src/server/data/regions.ts';

/**
 * One suite, two engines (DESIGN §3): SQLite always, PostgreSQL when DATABASE_URL is set, each
 * PostgreSQL run in a fresh schema of its own that is dropped afterwards.
 */

const TABLES = ['credit_ledger', 'photos', 'profiles', 'sessions', 'tokens', 'users'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const TENANTS: SeedTenant[] = [
  { id: 'spetter', countries: ['NL', 'BE'], locales: { default: 'nl' }, niche: 1 },
  { id: 'velvet', countries: ['GB', 'IE', 'DE', 'AT', 'CH', 'FR', 'BE', 'CA'], locales: { default: 'en' }, niche: 6 },
  { id: 'rainbow', countries: ['DE', 'PL'], locales: { default: 'de' }, niche: 7 },
];
const SEED_NOW = new Date('2026-11-23T12:00:00.000Z');

function user(tenant: string, email: string, extra: Partial<NewUser> = {}): NewUser {
  return { tenant_id: tenant, email, password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', language: 'nl', ...extra };
}

async function tableNames(db: Kysely<Database>, engine: Db['engine']): Promise<string[]> {
  const tables = await db.introspection.getTables();
  // PostgreSQL lists the tables of every schema; ours is the first one on the search_path.
  const current =
    engine === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  return tables
    .filter((t) => engine !== 'postgres' || t.schema === current)
    .map((t) => t.name)
    .filter((n) => TABLES.includes(n))
    .sort();
}

async function expectViolation(query: Promise<unknown>, kind: ReturnType<typeof constraintViolation>) {
  const err = await query.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected a ${kind} violation`).not.toBeNull();
  expect(constraintViolation(err)).toBe(kind);
}

const ENGINES = [
  { name: 'sqlite', skip: false, open: () => openSqlite(':memory:') },
  { name: 'postgres (set DATABASE_URL to run)', skip: !process.env.DATABASE_URL, open: openPostgres },
];

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(engine.name, () => {
    let opened: Opened;
    let db: Kysely<Database>;

    beforeAll(async () => {
      opened = await engine.open();
      db = opened.handle.db;
    });
    afterAll(async () => {
      await opened?.cleanup();
    });

    test('migrates an empty database up, down to nothing, and up again', async () => {
      expect(await tableNames(db, opened.handle.engine)).toEqual([]);
      expect(await migrateToLatest(db)).toEqual(migrationNames());
      expect(await tableNames(db, opened.handle.engine)).toEqual(TABLES);
      expect(await migrateToLatest(db)).toEqual([]);

      expect(await migrateDown(db, { to: 'zero' })).toEqual([...migrationNames()].reverse());
      expect(await tableNames(db, opened.handle.engine)).toEqual([]);

      expect(await migrateToLatest(db)).toEqual(migrationNames());
      expect(await tableNames(db, opened.handle.engine)).toEqual(TABLES);
    });

    test('an insert returns the new id and the defaults read back', async () => {
      const a = await db.insertInto('users').values(user('spetter', 'anna@example.com')).returning('id').executeTakeFirstOrThrow();
      const b = await db
        .insertInto('users')
        .values(user('spetter', 'bob@example.com'))
        .returning(['id', 'created_at'])
        .executeTakeFirstOrThrow();
      expect(typeof a.id).toBe('number');
      expect(b.id).toBeGreaterThan(a.id);
      expect(b.created_at).toMatch(ISO);

      const row = await db.selectFrom('users').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        id: a.id,
        tenant_id: 'spetter',
        email: 'anna@example.com',
        status: 'not_confirmed',
        credits: 0,
        paid_user: 0,
        invisible: 0,
        notifications_disabled: '[]',
        tracking: null,
        failed_logins: 0,
        deletion_requested_at: null,
      });
      expect(row.signup_date).toMatch(ISO);
      expect(row.created_at).toMatch(ISO);

      const { n } = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', 'spetter')
        .executeTakeFirstOrThrow();
      expect(n).toBe(2);
    });

    test('one e-mail has one account per tenant and may have another on a second tenant', async () => {
      await db.insertInto('users').values(user('spetter', 'twice@example.com')).execute();
      await expectViolation(db.insertInto('users').values(user('spetter', 'twice@example.com')).execute(), 'unique');
      const other = await db
        .insertInto('users')
        .values(user('velvet', 'twice@example.com', { language: 'en' }))
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(other.id).toBeGreaterThan(0);
    });

    test('a credit balance never goes negative', async () => {
      await expectViolation(db.insertInto('users').values(user('spetter', 'neg@example.com', { credits: -1 })).execute(), 'check');
      const { id } = await db
        .insertInto('users')
        .values(user('spetter', 'spender@example.com', { credits: 3 }))
        .returning('id')
        .executeTakeFirstOrThrow();
      await expectViolation(
        db
          .updateTable('users')
          .set((eb) => ({ credits: eb('credits', '-', 5) }))
          .where('id', '=', id)
          .execute(),
        'check',
      );
      const after = await db.selectFrom('users').select('credits').where('id', '=', id).executeTakeFirstOrThrow();
      expect(after.credits).toBe(3);
    });

    test('a failed transaction leaves nothing behind and a successful one commits', async () => {
      const { id } = await db
        .insertInto('users')
        .values(user('spetter', 'tx@example.com', { credits: 10 }))
        .returning('id')
        .executeTakeFirstOrThrow();
      const spend = (delta: number) =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto('credit_ledger').values({ tenant_id: 'spetter', user_id: id, delta, reason: 'message' }).execute();
          await trx
            .updateTable('users')
            .set((eb) => ({ credits: eb('credits', '+', delta) }))
            .where('id', '=', id)
            .execute();
        });

      await expect(spend(-25)).rejects.toThrow();
      const ledgerAfterFailure = await db.selectFrom('credit_ledger').selectAll().where('user_id', '=', id).execute();
      expect(ledgerAfterFailure).toEqual([]);

      await spend(-4);
      const balance = await db.selectFrom('users').select('credits').where('id', '=', id).executeTakeFirstOrThrow();
      expect(balance.credits).toBe(6);
      const { total } = await db
        .selectFrom('credit_ledger')
        .select((eb) => eb.fn.sum<number>('delta').as('total'))
        .where('user_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(total).toBe(-4);

      await expect(
        db.transaction().execute(async (trx) => {
          await trx.updateTable('users').set({ paid_user: 1 }).where('id', '=', id).execute();
          throw new Error('payment provider said no');
        }),
      ).rejects.toThrow('payment provider said no');
      const paid = await db.selectFrom('users').select('paid_user').where('id', '=', id).executeTakeFirstOrThrow();
      expect(paid.paid_user).toBe(0);
    });

    test('deleting a user removes their sessions, tokens and profile; references are enforced', async () => {
      const { id } = await db.insertInto('users').values(user('spetter', 'gone@example.com')).returning('id').executeTakeFirstOrThrow();
      const expires = new Date(Date.now() + 86_400_000).toISOString();
      await db.insertInto('sessions').values({ id: 's1', tenant_id: 'spetter', user_id: id, secret_hash: 'h', expires_at: expires }).execute();
      await db
        .insertInto('tokens')
        .values({ id: 't1', tenant_id: 'spetter', user_id: id, kind: 'activate', secret_hash: 'h', expires_at: expires })
        .execute();
      const profile = await db
        .insertInto('profiles')
        .values({ tenant_id: 'spetter', user_id: id, name: 'Gone', gender: 'female', sexuality: 'hetero', birth_date: '1990-01-01', country: 'NL', last_seen_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('photos').values({ profile_id: profile.id, filename: 'a.jpg', thumb_filename: 'a_t.jpg' }).execute();
      await expectViolation(
        db
          .insertInto('profiles')
          .values({ tenant_id: 'spetter', user_id: id, name: 'Again', gender: 'female', sexuality: 'hetero', birth_date: '1990-01-01', country: 'NL', last_seen_at: new Date().toISOString() })
          .execute(),
        'unique',
      );
      await expectViolation(
        db.insertInto('sessions').values({ id: 's2', tenant_id: 'spetter', user_id: 999_999, secret_hash: 'h', expires_at: expires }).execute(),
        'foreign_key',
      );

      await db.deleteFrom('users').where('id', '=', id).execute();
      expect(await db.selectFrom('sessions').select('id').where('user_id', '=', id).execute()).toEqual([]);
      expect(await db.selectFrom('tokens').select('id').where('user_id', '=', id).execute()).toEqual([]);
      expect(await db.selectFrom('profiles').select('id').where('id', '=', profile.id).execute()).toEqual([]);
      expect(await db.selectFrom('photos').select('id').where('profile_id', '=', profile.id).execute()).toEqual([]);
    });

    test('the demo seed fills each tenant once, the same way every time', async () => {
      const first = await seedDemo(db, TENANTS, { now: SEED_NOW, perTenant: 40 });
      expect(first.profiles).toBe(120);
      expect(await seedDemo(db, TENANTS, { now: SEED_NOW, perTenant: 40 })).toEqual({ profiles: 0 });

      for (const tenant of TENANTS) {
        const rows = await db
          .selectFrom('profiles')
          .selectAll()
          .where('tenant_id', '=', tenant.id)
          .orderBy('id')
          .execute();
        expect(rows).toHaveLength(40);
        const expected = demoProfiles(tenant, 40, SEED_NOW);
        expect(rows.map(({ id: _id, user_id: _user, conversations_started: _started, retired_at: _retired, pooled: _pooled, ...rest }) => rest)).toEqual(expected.map(({ user_id: _user, ...p }) => ({ ...p })));
        // One in ten is a fictional profile; the others are members who cannot log in.
        expect(rows.filter((r) => r.fictional === 1)).toHaveLength(4);
        expect(rows.filter((r) => r.fictional === 0).every((r) => r.user_id !== null)).toBe(true);
        if (tenant.niche === 1) expect(new Set(rows.map((r) => r.gender))).toEqual(new Set(['male', 'female']));
      }
      // Likes between them, never of oneself.
      const likes = await db.selectFrom('likes').selectAll().execute();
      expect(likes.length).toBeGreaterThan(20);
      expect(likes.every((l) => l.from_profile_id !== l.to_profile_id)).toBe(true);
      // Growing a brand adds to it, with names still unique.
      expect(await seedDemo(db, TENANTS.slice(0, 1), { now: SEED_NOW, perTenant: 100 })).toEqual({ profiles: 60 });
      const names = await db.selectFrom('profiles').select('name').where('tenant_id', '=', TENANTS[0]!.id).execute();
      expect(new Set(names.map((r) => r.name)).size).toBe(100);
      {
      }
    });

    test('a tenant added later is seeded without touching the others', async () => {
      const late: SeedTenant = { id: 'late', countries: ['FR'], locales: { default: 'fr' }, niche: 1 };
      expect(await seedDemo(db, [...TENANTS, late], { now: SEED_NOW, perTenant: 5 })).toEqual({ profiles: 5 });
    });

    test('startsWith: a literal prefix (no wildcards, any letters), read from the index made for it', async () => {
      const emails = ['pre_fix@example.com', 'pre-fix@example.com', 'prefix@example.com', 'pré@example.com', 'pre@example.org', 'zzz@example.com'];
      await db.insertInto('users').values(emails.map((e) => user('velvet', e))).execute();
      const found = async (prefix: string) =>
        (await db.selectFrom('users').select('email').where('tenant_id', '=', 'velvet').where(startsWith(db, sql`users.email`, prefix)).orderBy('email').execute()).map((r) => r.email);
      expect(await found('pre_')).toEqual(['pre_fix@example.com']);
      expect(await found('pre%')).toEqual([]);
      expect(await found('pré')).toEqual(['pré@example.com']);
      expect(await found('pre@example.org')).toEqual(['pre@example.org']);
      expect(await found('pre')).toEqual(['pre-fix@example.com', 'pre@example.org', 'pre_fix@example.com', 'prefix@example.com']);
      // The console's search asks for a prefix of any brand's addresses: the range is the index's.
      const query = db.selectFrom('users').select('id').where(startsWith(db, sql`users.email`, 'pre')).compile();
      const plan =
        opened.handle.engine === 'sqlite'
          ? (await db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` })).rows.map((r) => r.detail).join('\n')
          : (await db.connection().execute(async (c) => {
              await sql`set enable_seqscan = off`.execute(c);
              const rows = (await c.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` })).rows;
              await sql`set enable_seqscan = on`.execute(c);
              return rows.map((r) => r['QUERY PLAN']).join('\n');
            }));
      expect(plan).toContain('users_email_prefix_idx');
    });
  });
}

/** Two connections to one migrated SQLite file (a runtime's and another process's), closed and removed after `run`. */
async function twoConnections(run: (runtime: Db, other: Db) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'db-test-'));
  const file = join(dir, 'app.db');
  const runtime = createDb({ file });
  const other = createDb({ file });
  try {
    await migrateToLatest(runtime.db);
    await run(runtime, other);
  } finally {
    await other.close();
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('sqlite file database', () => {
  test('runs in WAL mode with foreign keys on, and refuses object parameters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'db-test-'));
    const handle = createDb({ file: join(dir, 'nested', 'app.db') });
    try {
      expect(handle.engine).toBe('sqlite');
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(handle.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(handle.db);
      expect(fk.rows[0]?.foreign_keys).toBe(1);
      await migrateToLatest(handle.db);
      await expect(
        handle.db
          .insertInto('users')
          .values(user('spetter', 'json@example.com', { tracking: { network: 'x' } as unknown as string }))
          .execute(),
      ).rejects.toThrow(/JSON\.stringify/);
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the database is the one named: a file means SQLite whatever the environment says', async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = 'postgres://nobody@127.0.0.1:1/none';
    try {
      const handle = createDb({ file: ':memory:' });
      expect(handle.engine).toBe('sqlite');
      await handle.close();
      expect(() => createDb({})).toThrow(/url or a SQLite file/);
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });

  test("another connection's commit shows in data_version from the next turn of the event loop, read once a turn", async () => {
    await twoConnections(async (runtime, other) => {
      const before = runtime.sqlite!.dataVersionThisTurn();
      await other.db.insertInto('users').values(user('spetter', 'turn@example.com')).execute();
      // The same turn: the version read at its start (every request parsed in it shares one read).
      expect(runtime.sqlite!.dataVersionThisTurn()).toBe(before);
      expect(runtime.sqlite!.dataVersion()).not.toBe(before);
      await new Promise((resolve) => setImmediate(resolve));
      expect(runtime.sqlite!.dataVersionThisTurn()).toBe(runtime.sqlite!.dataVersion());
      expect(runtime.sqlite!.dataVersionThisTurn()).not.toBe(before);
    });
  });

  test("the rows a connection writes are told with the watched columns: an insert's new row, a delete's old, both of an update of a watched column; no other connection's, nothing once stopped", async () => {
    await twoConnections(async (runtime, other) => {
      const told: unknown[][] = [];
      const stop = runtime.sqlite!.onRowWrite('users', ['email', 'tenant_id'], ['email'], (values) => told.push(values));
      const { id } = await runtime.db.insertInto('users').values(user('spetter', 'row@example.com')).returning('id').executeTakeFirstOrThrow();
      expect(told).toEqual([['row@example.com', 'spetter']]);
      await runtime.db.updateTable('users').set({ credits: 5 }).where('id', '=', id).execute();
      expect(told).toHaveLength(1);
      await runtime.db.updateTable('users').set({ email: 'moved@example.com' }).where('id', '=', id).execute();
      expect(told.slice(1)).toEqual([['row@example.com', 'spetter'], ['moved@example.com', 'spetter']]);
      await other.db.insertInto('users').values(user('velvet', 'elsewhere@example.com')).execute();
      expect(told).toHaveLength(3);
      await runtime.db.deleteFrom('users').where('id', '=', id).execute();
      expect(told.slice(3)).toEqual([['moved@example.com', 'spetter']]);
      stop();
      await runtime.db.insertInto('users').values(user('spetter', 'after@example.com')).execute();
      expect(told).toHaveLength(4);
    });
  });
});

describe('migrations and demo data', () => {
  test('the migration list names every file of the migrations folder', () => {
    const files = readdirSync(new URL('../../src/server/db/migrations/', import.meta.url))
      .filter((f) => /^\d{4}-\d{2}-\d{2}-\d{4}-.+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(migrationNames()).toEqual(files);
  });

  test('demo cities lie in regions named as the region list names them', () => {
    for (const [country, cities] of Object.entries(CITIES)) {
      const regions = new Set(regionsFor(country).map((r) => r.name));
      for (const { city, region } of cities) expect(regions.has(region), `${city}, ${country}: ${region}`).toBe(true);
    }
  });

  test('demo profiles fit the niche and the languages of the tenant', () => {
    const now = SEED_NOW;
    const ageOf = (birth: string) => {
      const [y, m, d] = birth.split('-').map(Number) as [number, number, number];
      const before = now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d);
      return now.getUTCFullYear() - y - (before ? 1 : 0);
    };

    const spetter = demoProfiles(TENANTS[0] as SeedTenant, 200, now);
    // Both genders in about equal numbers, and every sexuality.
    const women = spetter.filter((p) => p.gender === 'female').length;
    expect(women).toBeGreaterThan(80);
    expect(women).toBeLessThan(140);
    expect(new Set(spetter.map((p) => p.sexuality))).toEqual(new Set(['hetero', 'gay', 'lesbian', 'bi']));
    expect(new Set(spetter.map((p) => p.name)).size).toBe(200);
    for (const p of spetter) {
      expect(['NL', 'BE']).toContain(p.country);
      expect(ageOf(p.birth_date)).toBeGreaterThanOrEqual(18);
      expect(ageOf(p.birth_date)).toBeLessThanOrEqual(70);
      if (p.about !== null) expect(ABOUT_TEXTS.nl).toContain(p.about);
      const interests = JSON.parse(p.interests as string) as string[];
      expect(interests.length).toBeGreaterThanOrEqual(3);
      expect(interests.every(isInterestKey)).toBe(true);
    }

    const velvet = demoProfiles(TENANTS[1] as SeedTenant, 200, now);
    // A brand of several languages: about-me texts in the language of the place, where offered.
    const multi = demoProfiles({ ...(TENANTS[1] as SeedTenant), locales: { default: 'en', available: ['en', 'de', 'fr'] } }, 200, now);
    const inGerman = multi.filter((p) => ['DE', 'AT'].includes(p.country) && p.about !== null);
    expect(inGerman.length).toBeGreaterThan(0);
    expect(inGerman.every((p) => ABOUT_TEXTS.de!.includes(p.about!))).toBe(true);
    expect(multi.filter((p) => p.country === 'GB' && p.about !== null).every((p) => ABOUT_TEXTS.en!.includes(p.about!))).toBe(true);
    for (const p of velvet) {
      expect(ageOf(p.birth_date)).toBeGreaterThanOrEqual(35);
      expect(ageOf(p.birth_date)).toBeLessThanOrEqual(60);
    }

    const gay = demoProfiles(TENANTS[2] as SeedTenant, 100, now);
    expect(gay.every((p) => p.gender === 'male' && p.sexuality === 'gay')).toBe(true);
    // PL has no city list: a real region, no city.
    const polish = gay.filter((p) => p.country === 'PL');
    expect(polish.length).toBeGreaterThan(0);
    const polishRegions = regionsFor('PL').map((r) => r.name);
    expect(polish.every((p) => p.region != null && polishRegions.includes(p.region) && p.city === null)).toBe(true);

    expect(demoProfiles(TENANTS[0] as SeedTenant, 40, now)).toEqual(spetter.slice(0, 40));
  });

  test('timestamps are ISO text', () => {
    expect(nowIso()).toMatch(ISO);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('postgres: schemas side by side', () => {
  test('a schema migrates from nothing while another schema of the database holds migrated tables', async () => {
    const first = await openPostgres();
    const second = await openPostgres();
    try {
      expect(await migrateToLatest(first.handle.db)).toEqual(migrationNames());
      // Kysely looks for its migration tables in every schema it can see unless told which one.
      expect(await migrateToLatest(second.handle.db)).toEqual(migrationNames());
      expect(await tableNames(second.handle.db, 'postgres')).toEqual(TABLES);
      expect(await migrateDown(second.handle.db, { to: 'zero' })).toEqual([...migrationNames()].reverse());
      expect(await tableNames(first.handle.db, 'postgres')).toEqual(TABLES);
    } finally {
      await first.cleanup();
      await second.cleanup();
    }
  });
});

describe('what a SQLite statement writes (the session cache empties on writes to what it holds)', () => {
  test('reads are no writes; inserts, updates and deletes name their table and the columns set', async () => {
    const { writeOf } = await import('../../src/server/db/sqlite-dialect.ts');
    expect(writeOf('select * from "users" where "id" = ?')).toBeNull();
    expect(writeOf('pragma data_version')).toBeNull();
    expect(writeOf('begin immediate')).toBeNull();
    expect(writeOf('insert into "sessions" ("id", "user_id") values (?, ?)')).toEqual({ kind: 'insert', table: 'sessions', columns: null });
    expect(writeOf('update "users" set "credits" = "credits" - ?, "paid_user" = ? where "id" = ? and "credits" >= ?')).toEqual({ kind: 'update', table: 'users', columns: ['credits', 'paid_user'] });
    expect(writeOf('update "profiles" set "last_seen_at" = ? where "id" = ?')).toEqual({ kind: 'update', table: 'profiles', columns: ['last_seen_at'] });
    expect(writeOf('delete from "sessions" where "id" = ?')).toEqual({ kind: 'delete', table: 'sessions', columns: null });
    // An upsert may change an existing row: it counts as an update of whole rows.
    expect(writeOf('insert into "users" ("id") values (?) on conflict ("id") do update set "credits" = excluded."credits"')).toEqual({ kind: 'update', table: 'users', columns: null });
    // SQL this cannot read is taken as a write of anything.
    expect(writeOf('with x as (select 1) update "users" set "status" = ?')).toMatchObject({ kind: 'update', table: 'users' });
    expect(writeOf('delete  from users where id = 1')).toEqual({ kind: 'delete', table: 'users', columns: null });
    expect(writeOf('-- a comment first\nupdate "users" set "credits" = 0')).toEqual({ kind: 'update', table: null, columns: null });
    expect(writeOf('with "x" as (select 1) select * from "x"')).toBeNull();
    expect(writeOf('update "users" set "credits" = (select 1 from "x" where "y" = ?), "status" = ? where "id" = ?')).toEqual({ kind: 'update', table: 'users', columns: null });
    expect(writeOf('create index "x" on "users" ("email")')).toEqual({ kind: 'update', table: null, columns: null });
  });

  test('only writes to what a cached session row holds empty the cache', async () => {
    const { writeOf } = await import('../../src/server/db/sqlite-dialect.ts');
    const { touchesSessionRows } = await import('../../src/server/services/sessions.ts');
    const touches = (sql: string) => touchesSessionRows(writeOf(sql)!);
    expect(touches('update "users" set "credits" = "credits" - ? where "id" = ?')).toBe(true);
    expect(touches('update "users" set "language" = ? where "id" = ?')).toBe(true);
    expect(touches('update "users" set "password_hash" = ? where "id" = ?')).toBe(false);
    expect(touches('update "profiles" set "name" = ? where "id" = ?')).toBe(true);
    expect(touches('update "profiles" set "last_seen_at" = ? where "id" = ?')).toBe(false);
    expect(touches('insert into "photos" ("profile_id") values (?)')).toBe(true);
    expect(touches('update "photos" set "position" = ? where "id" = ?')).toBe(true);
    expect(touches('insert into "profiles" ("user_id") values (?)')).toBe(true);
    expect(touches('insert into "sessions" ("id") values (?)')).toBe(false);
    expect(touches('insert into "users" ("email") values (?)')).toBe(false);
    expect(touches('delete from "sessions" where "user_id" = ?')).toBe(true);
    expect(touches('update "sessions" set "last_used_at" = ? where "id" = ?')).toBe(false);
    expect(touches('insert into "messages" ("text") values (?)')).toBe(false);
    expect(touches('update "conversation_members" set "unread" = 0 where "profile_id" = ?')).toBe(false);
  });
});
