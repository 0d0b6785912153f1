/**
 * The credit ledger (DESIGN §3, §8) on both engines: the balance always equals the sum of the
 * entries and never goes below 0, whatever sequence of grants and spends, also when spends race.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { grant, spend } from '../../src/server/ledger.ts';
import { AppError } from '../../src/server/errors.ts';
import { openPostgres, openSqlite, type Opened } from '../support/databases.ts';

const ENGINES = [
  { name: 'sqlite', skip: false, open: () => openSqlite(':memory:') },
  { name: 'postgres (set DATABASE_URL to run)', skip: !process.env.DATABASE_URL, open: openPostgres },
];

let members = 0;
async function newMember(db: Kysely<Database>, credits = 0): Promise<number> {
  members += 1;
  const row = await db
    .insertInto('users')
    .values({ tenant_id: 'spetter', email: `ledger-${members}-${Date.now()}@example.com`, password_hash: '!', language: 'nl' })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (credits) await grant(db, { userId: row.id, credits, reason: 'signup' });
  return row.id;
}

async function state(db: Kysely<Database>, userId: number) {
  const { credits } = await db.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirstOrThrow();
  const entries = await db.selectFrom('credit_ledger').select(['delta', 'reason', 'ref', 'tenant_id']).where('user_id', '=', userId).orderBy('id').execute();
  return { credits, entries, sum: entries.reduce((total, e) => total + e.delta, 0) };
}

/** The code of a refusal, or 'ok'. */
async function outcome(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.code}`;
    throw error;
  }
}

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(`the ledger on ${engine.name}`, () => {
    let opened: Opened;
    let db: Kysely<Database>;
    beforeAll(async () => {
      opened = await engine.open();
      db = opened.handle.db;
      await migrateToLatest(db);
    });
    afterAll(async () => {
      await opened?.cleanup();
    });

    test('a grant adds credits with an entry of the brand; a spend takes them; too few is 402 and changes nothing', async () => {
      const id = await newMember(db);
      expect(await grant(db, { userId: id, credits: 10, reason: 'signup' })).toEqual({ balance: 10, duplicate: false });
      expect(await spend(db, { userId: id, credits: 3, reason: 'message', ref: 'm1' })).toEqual({ balance: 7 });
      expect(await outcome(spend(db, { userId: id, credits: 8, reason: 'photo', ref: 'm2' }))).toBe('402 not_enough_credits');
      expect(await spend(db, { userId: id, credits: 7, reason: 'gift', ref: 'm3' })).toEqual({ balance: 0 });
      expect(await state(db, id)).toEqual({
        credits: 0,
        sum: 0,
        entries: [
          { delta: 10, reason: 'signup', ref: null, tenant_id: 'spetter' },
          { delta: -3, reason: 'message', ref: 'm1', tenant_id: 'spetter' },
          { delta: -7, reason: 'gift', ref: 'm3', tenant_id: 'spetter' },
        ],
      });
    });

    test('a payment credits once however often it is reported', async () => {
      const id = await newMember(db);
      const first = await grant(db, { userId: id, credits: 50, reason: 'purchase', ref: 'tr_once' });
      const again = await grant(db, { userId: id, credits: 50, reason: 'purchase', ref: 'tr_once' });
      const racing = await Promise.all([1, 2, 3].map(() => grant(db, { userId: id, credits: 50, reason: 'purchase', ref: 'tr_race' })));
      expect(first).toEqual({ balance: 50, duplicate: false });
      expect(again).toEqual({ balance: 50, duplicate: true });
      expect(racing.filter((r) => !r.duplicate)).toHaveLength(1);
      expect(await state(db, id)).toMatchObject({ credits: 100, sum: 100 });
    });

    test('a charge commits with what it pays for, or not at all', async () => {
      const id = await newMember(db, 5);
      await expect(
        db.transaction().execute(async (trx) => {
          await spend(trx, { userId: id, credits: 2, reason: 'message', ref: 'lost' });
          throw new Error('the message could not be stored');
        }),
      ).rejects.toThrow('could not be stored');
      expect(await state(db, id)).toMatchObject({ credits: 5, sum: 5 });
      const refused = await outcome(
        db.transaction().execute(async (trx) => {
          await trx.updateTable('users').set({ language: 'de' }).where('id', '=', id).execute();
          await spend(trx, { userId: id, credits: 6, reason: 'message', ref: 'too-dear' });
        }),
      );
      expect(refused).toBe('402 not_enough_credits');
      expect(await db.selectFrom('users').select('language').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ language: 'nl' });
    });

    test('a message is charged once; moves of no credits, of fractions or without the reference they need are refused', async () => {
      const id = await newMember(db, 5);
      await spend(db, { userId: id, credits: 1, reason: 'message', ref: 'twice' });
      await expect(spend(db, { userId: id, credits: 1, reason: 'message', ref: 'twice' })).rejects.toThrow(/charged before/);
      await expect(spend(db, { userId: id, credits: 0, reason: 'message', ref: 'x' })).rejects.toThrow();
      await expect(spend(db, { userId: id, credits: 1.5, reason: 'message', ref: 'y' })).rejects.toThrow();
      await expect(grant(db, { userId: id, credits: -5, reason: 'signup' })).rejects.toThrow();
      await expect(grant(db, { userId: id, credits: 5, reason: 'purchase' })).rejects.toThrow(/reference/);
      expect(await state(db, id)).toMatchObject({ credits: 4, sum: 4 });
    });

    test('any sequence of grants and spends: the balance equals the ledger and never drops below 0', async () => {
      const move = fc.oneof(
        fc.record({ kind: fc.constant('grant' as const), credits: fc.integer({ min: 1, max: 40 }) }),
        fc.record({ kind: fc.constant('spend' as const), credits: fc.integer({ min: 1, max: 40 }) }),
      );
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(move, { maxLength: 25 }), async (moves) => {
          const id = await newMember(db);
          let expected = 0;
          for (const m of moves) {
            n += 1;
            if (m.kind === 'grant') {
              await grant(db, { userId: id, credits: m.credits, reason: 'bonus', ref: `b${n}` });
              expected += m.credits;
            } else {
              const result = await outcome(spend(db, { userId: id, credits: m.credits, reason: 'message', ref: `s${n}` }));
              expect(result).toBe(m.credits <= expected ? 'ok' : '402 not_enough_credits');
              if (result === 'ok') expected -= m.credits;
            }
          }
          const s = await state(db, id);
          expect(s.credits).toBe(expected);
          expect(s.sum).toBe(expected);
        }),
        { numRuns: 40 },
      );
    });

    test('spends racing from several tabs never take more than there is', async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 2, max: 12 }), async (balance, price, tabs) => {
          const id = await newMember(db, balance);
          const results = await Promise.all(
            Array.from({ length: tabs }, (_, i) => outcome(spend(db, { userId: id, credits: price, reason: 'message', ref: `race-${id}-${i}` }))),
          );
          const paid = results.filter((r) => r === 'ok').length;
          expect(paid).toBe(Math.min(tabs, Math.floor(balance / price)));
          expect(results.filter((r) => r !== 'ok').every((r) => r === '402 not_enough_credits')).toBe(true);
          const s = await state(db, id);
          expect(s.credits).toBe(balance - paid * price);
          expect(s.sum).toBe(s.credits);
        }),
        { numRuns: 25 },
      );
    });
  });
}
