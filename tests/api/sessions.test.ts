/**
 * The session of every request (DESIGN §8): on SQLite it is kept in memory after the first
 * look-up (services/sessions.ts). Whatever changes the member, through the API, the runtime's own
 * database handle or another process's connection, the next request shows it; an ended session
 * ends at once, for every copy of its cookie.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { createDb } from '../../src/server/db/index.ts';
import { grant } from '../../src/server/ledger.ts';
import { engines, startTestRuntime, type TestRuntime } from '../support/runtime.ts';
import { activeMember } from '../support/accounts.ts';

describe.each(engines())('the session on %s', (engine) => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime(engine, { seed: false });
  });
  afterAll(() => rt.close());

  test('what the member changes through the API shows in the next request', async () => {
    const { client } = await activeMember(rt, 'velvet', { country: 'GB', region: null, city: null });
    expect((await client.user()).language).not.toBe('de');
    expect((await client.put('/api/user.php', { language: 'de' })).status).toBe(200);
    expect((await client.user()).language).toBe('de');
    expect((await client.put('/api/profile.php', { name: 'Zonnestraal' })).status).toBe(200);
    expect((await client.user()).profile.name).toBe('Zonnestraal');
  });

  test('a change written through the runtime database handle shows at once, and one by another process as soon as it is told', async () => {
    const { client } = await activeMember(rt);
    const before = await client.user();
    await grant(rt.db.db, { userId: before.id, credits: 7, reason: 'bonus', ref: `cache-${before.id}` });
    expect((await client.user()).credits).toBe(before.credits + 7);
    // Another process: its own connection to the same database (as `sitegen credits grant` has).
    // SQLite: the next request sees it (data_version). PostgreSQL: the commit's notification
    // reaches the runtime about a millisecond later; the cached row is then dropped.
    const other = engine === 'sqlite' ? createDb({ file: rt.app.config.databaseFile }) : createDb({ url: process.env.DATABASE_URL!, schema: rt.schema });
    const soon = <T>(read: () => Promise<T>) => (engine === 'sqlite' ? expect(read()).resolves : expect.poll(read, { timeout: 2_000, interval: 5 }));
    try {
      await client.user(); // cached again
      await other.db.updateTable('users').set({ credits: 123 }).where('id', '=', before.id).execute();
      await soon(async () => (await client.user()).credits).toBe(123);
      await sql`update profiles set name = ${'Andere Naam'} where user_id = ${before.id}`.execute(other.db);
      await soon(async () => (await client.user()).profile.name).toBe('Andere Naam');
      // A session ended elsewhere is ended here too.
      await other.db.deleteFrom('sessions').where('user_id', '=', before.id).execute();
      await soon(async () => (await client.get('/api/user.php')).json().user).toBeNull();
    } finally {
      await other.close();
    }
  });

  test('a session kept in memory asks the database nothing', async () => {
    const { client } = await activeMember(rt);
    await client.user();
    let statements = 0;
    const count = <T extends object, K extends keyof T>(target: T, method: K) => {
      const original = target[method] as (...args: unknown[]) => unknown;
      target[method] = function (this: unknown, ...args: unknown[]) {
        statements += 1;
        return original.apply(this, args);
      } as T[K];
      return () => void (target[method] = original as T[K]);
    };
    // Every statement of this runtime goes through one of these: SQLite prepares it, PostgreSQL lends a connection.
    const restore = rt.db.sqlite ? count(rt.db.sqlite, 'prepare') : count(rt.db.pool!, 'connect');
    try {
      // (On PostgreSQL a test beside this one may cut every runtime's listening connection: while
      // it listens again nothing is kept, so the five are asked again until they come from memory.)
      await expect
        .poll(async () => {
          statements = 0;
          for (let i = 0; i < 5; i++) expect((await client.get('/api/user.php')).json().user).not.toBeNull();
          return statements;
        }, { timeout: 5_000, interval: 100 })
        .toBe(0);
    } finally {
      restore();
    }
  });

  test('logging out ends the session for every copy of its cookie at once', async () => {
    const { client } = await activeMember(rt);
    const copy = client.clone();
    expect((await copy.user()).id).toBe((await client.user()).id);
    expect((await client.post('/api/logout.php')).status).toBeLessThan(400);
    expect((await copy.get('/api/user.php')).json().user).toBeNull();
  });

  test('an account whose deletion was requested is logged out at the next request', async () => {
    const { client } = await activeMember(rt);
    const me = await client.user();
    await rt.db.db.updateTable('users').set({ status: 'deletion_requested' }).where('id', '=', me.id).execute();
    expect((await client.get('/api/user.php')).json().user).toBeNull();
  });
});
