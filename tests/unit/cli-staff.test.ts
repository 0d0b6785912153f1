/**
 * `sitegen staff` (issue 22): add with --password-stdin (TOTP on, the otpauth:// URI printed) or
 * without (a one-time enrolment link on the console host), list, role (sessions end) and remove.
 */
import { afterAll, expect, test } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../../src/server/db/index.ts';
import { sitegen } from '../support/cli.ts';
import { STAFF_ROLES } from '../../src/contract/console.ts';

const dir = mkdtempSync(join(tmpdir(), 'sitegen-staff-'));
const env = { DATABASE_FILE: join(dir, 'app.db'), DATABASE_URL: '', CONSOLE_HOST: 'beheer.localhost', PORT: '4999' };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('sitegen staff add, list, role and remove', async () => {
  const owner = await sitegen(['staff', 'add', '--email', 'Baas@Example.com', '--role', 'owner', '--password-stdin'], env, 'een-lang-wachtwoord\n');
  expect(owner.code).toBe(0);
  const [said, uri] = owner.stdout.trim().split('\n');
  expect(said).toBe('sitegen: added baas@example.com as owner (all brands); add this to an authenticator app:');
  expect(uri).toMatch(/^otpauth:\/\/totp\/sitegen%20console:baas%40example\.com\?.*secret=[A-Z2-7]+/);

  const support = await sitegen(['staff', 'add', '--email', 'hulp@example.com', '--role', 'support', '--brands', 'spetter'], env);
  expect(support.code).toBe(0);
  expect(support.stdout).toContain('sitegen: added hulp@example.com as support (spetter); one-time enrolment link (72 hours):');
  expect(support.stdout).toMatch(/http:\/\/beheer\.localhost:4999\/console\/enrol\?token=[a-z2-7]+\.[a-z2-7]+/);

  expect((await sitegen(['staff', 'add', '--email', 'baas@example.com', '--role', 'admin'], env)).stderr.trim()).toBe('sitegen: baas@example.com is staff already');
  expect((await sitegen(['staff', 'add', '--email', 'x@example.com', '--role', 'king'], env)).stderr.trim()).toBe(`sitegen: role must be one of ${STAFF_ROLES.join(', ')}`);
  expect((await sitegen(['staff', 'add', '--email', 'x@example.com', '--role', 'admin', '--brands', 'nergens'], env)).stderr.trim()).toBe('sitegen: unknown brand nergens');
  expect((await sitegen(['staff', 'add', '--email', 'x@example.com', '--role', 'admin', '--password-stdin'], env, 'kort\n')).code).toBe(1);

  const list = await sitegen(['staff', 'list'], env);
  expect(list.stdout.trim().split('\n')).toEqual(['baas@example.com\towner\t*\ttotp', 'hulp@example.com\tsupport\tspetter\tenrolling']);

  const { db, close } = createDb({ file: env.DATABASE_FILE });
  try {
    const staffId = (await db.selectFrom('staff').select('id').where('email', '=', 'hulp@example.com').executeTakeFirstOrThrow()).id;
    await db.insertInto('staff_sessions').values({ id: 'abcdefghij', staff_id: staffId, secret_hash: 'x', generation: 0, expires_at: '2999-01-01T00:00:00.000Z' }).execute();
    const changed = await sitegen(['staff', 'role', 'hulp@example.com', 'moderator', '--brands', 'spetter,velvet'], env);
    expect([changed.code, changed.stdout.trim()]).toEqual([0, 'sitegen: hulp@example.com is now moderator (spetter, velvet)']);
    expect(await db.selectFrom('staff_sessions').select('id').where('staff_id', '=', staffId).execute()).toEqual([]);
    expect(await db.selectFrom('staff').select(['role', 'brands', 'session_generation']).where('id', '=', staffId).executeTakeFirstOrThrow()).toEqual({ role: 'moderator', brands: '["spetter","velvet"]', session_generation: 1 });
    expect((await sitegen(['staff', 'remove', 'hulp@example.com'], env)).stdout.trim()).toBe('sitegen: removed hulp@example.com');
    expect((await sitegen(['staff', 'remove', 'hulp@example.com'], env)).stderr.trim()).toBe('sitegen: no staff member hulp@example.com');
    expect((await sitegen(['staff', 'list'], env)).stdout.trim()).toBe('baas@example.com\towner\t*\ttotp');
    const actions = await db.selectFrom('audit_log').select('action').orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual(['staff_add', 'staff_add', 'staff_role', 'staff_remove']);
  } finally {
    await close();
  }
}, 180_000);
