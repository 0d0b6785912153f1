/**
 * The operator's payment commands of the sitegen CLI, run as an operator runs them against a
 * database: campaign discount codes, and the direct-debit block.
 */
import { afterAll, expect, test } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../../src/server/db/index.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { sitegen } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'sitegen-operator-'));
const env = { DATABASE_FILE: join(dir, 'app.db'), DATABASE_URL: '' };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('sitegen discount create makes a campaign code and refuses bad options; directdebit block and unblock a member; credits grant and refund with who and why', async () => {
  const made = await sitegen(['discount', 'create', '--brand', 'spetter', '--code', 'herfst10', '--percentage', '10', '--methods', 'ideal,visa', '--expires', '2030-01-01'], env);
  expect([made.code, made.stdout.trim()]).toEqual([0, 'sitegen: HERFST10 created on spetter']);
  const again = await sitegen(['discount', 'create', '--brand', 'spetter', '--code', 'HERFST10', '--percentage', '10'], env);
  expect([again.code, again.stderr.trim()]).toEqual([1, 'sitegen: HERFST10 exists on spetter']);
  const bad = await sitegen(['discount', 'create', '--brand', 'spetter', '--code', 'X', '--value', '500', '--methods', 'bitcoin'], env);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('--code: 3 to 40 letters');
  expect(bad.stderr).toContain('--value needs --currency');
  expect(bad.stderr).toContain('--methods: unknown bitcoin');
  expect((await sitegen(['discount', 'create', '--brand', 'spetter', '--code', 'MIN20', '--percentage', '10', '--minimum', '2000'], env)).stderr).toContain('--minimum needs --currency');

  const { db, close } = createDb({ file: env.DATABASE_FILE });
  try {
    await migrateToLatest(db);
    const code = await db.selectFrom('discount_codes').selectAll().where('code', '=', 'HERFST10').executeTakeFirstOrThrow();
    expect(code).toMatchObject({ tenant_id: 'spetter', percentage: 10, value: null, paymentmethods: '["ideal","visa"]', expires_at: '2030-01-01T23:59:59.999Z', status: 'active' });
    const user = await db.insertInto('users').values({ tenant_id: 'spetter', email: 'ops@example.nl', password_hash: 'x', language: 'nl' }).returning('id').executeTakeFirstOrThrow();
    const blocked = await sitegen(['directdebit', 'block', '--brand', 'spetter', '--member', 'OPS@example.nl'], env);
    expect([blocked.code, blocked.stdout.trim()]).toEqual([0, 'sitegen: direct debit blocked for ops@example.nl on spetter']);
    expect((await db.selectFrom('users').select('directdebit_blocked').where('id', '=', user.id).executeTakeFirstOrThrow()).directdebit_blocked).toBe(1);
    expect((await sitegen(['directdebit', 'unblock', '--brand', 'spetter', '--member', String(user.id)], env)).code).toBe(0);
    expect((await db.selectFrom('users').select('directdebit_blocked').where('id', '=', user.id).executeTakeFirstOrThrow()).directdebit_blocked).toBe(0);
    const unknown = await sitegen(['directdebit', 'block', '--brand', 'velvet', '--member', 'ops@example.nl'], env);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'sitegen: no member ops@example.nl on velvet']);

    // Credits by hand: written to the ledger with who and why; never below 0.
    const granted = await sitegen(['credits', 'grant', '--brand', 'spetter', '--member', 'ops@example.nl', '--credits', '25', '--reason', 'Excuses voor de storing', '--by', 'Sanne'], env);
    expect([granted.code, granted.stdout.trim()]).toEqual([0, 'sitegen: granted 25 credits to ops@example.nl on spetter; balance 25']);
    const tooMuch = await sitegen(['credits', 'refund', '--brand', 'spetter', '--member', String(user.id), '--credits', '30', '--reason', 'Terugboeking'], env);
    expect([tooMuch.code, tooMuch.stderr.trim()]).toEqual([1, 'sitegen: ops@example.nl has 25 credits; a refund of 30 would take the balance below 0']);
    const refunded = await sitegen(['credits', 'refund', '--brand', 'spetter', '--member', String(user.id), '--credits', '10', '--reason', 'Terugboeking', '--by', 'Sanne'], env);
    expect([refunded.code, refunded.stdout.trim()]).toEqual([0, 'sitegen: refunded 10 credits from ops@example.nl on spetter; balance 15']);
    expect((await sitegen(['credits', 'grant', '--brand', 'spetter', '--member', 'ops@example.nl', '--credits', '1.5', '--reason', 'x'], env)).code).toBe(1);
    const entries = await db.selectFrom('credit_ledger').select(['delta', 'reason', 'note']).where('user_id', '=', user.id).orderBy('id').execute();
    expect(entries).toEqual([
      { delta: 25, reason: 'bonus', note: 'Excuses voor de storing (Sanne)' },
      { delta: -10, reason: 'refund', note: 'Terugboeking (Sanne)' },
    ]);
    expect((await db.selectFrom('users').select('credits').where('id', '=', user.id).executeTakeFirstOrThrow()).credits).toBe(15);
  } finally {
    await close();
  }
}, 180_000);
