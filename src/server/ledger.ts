import { sql, type Kysely, type Transaction } from 'kysely';
import { LEDGER_REASONS, type GrantReason, type LedgerReason, type SpendReason } from '../contract/credits.ts';
import type { Database } from './db/schema.ts';
import { AppError } from './errors.ts';

/**
 * The credit ledger (DESIGN §3, §8): every change of a member's balance is one append-only entry
 * written in the same transaction as the balance, so the balance always equals the sum of the
 * entries. Both helpers take the database handle they are given: pass a transaction to commit
 * a charge together with what it pays for (a stored message), or the database to get one of
 * their own.
 */
export type Executor = Kysely<Database> | Transaction<Database>;

export interface LedgerMove<R extends LedgerReason> {
  userId: number;
  /** A whole number of credits, more than 0. */
  credits: number;
  reason: R;
  /** What the entry refers to (a payment id, a message id); required where the reason is `once`. */
  ref?: string | null;
  /** Who moved the credits by hand and why (an operator's grant or refund). */
  note?: string | null;
}

/** Too few credits for a spend: 402 with the catalogue's "Je hebt onvoldoende credits". */
export const notEnoughCredits = () => new AppError('not_enough_credits', 402);

function check(move: LedgerMove<LedgerReason>): void {
  if (!Number.isSafeInteger(move.credits) || move.credits <= 0) throw new Error(`ledger: ${move.credits} is not a number of credits to move`);
  if (LEDGER_REASONS[move.reason].once && !move.ref) throw new Error(`ledger: a ${move.reason} entry needs a reference`);
}

/** Runs `work` in the caller's transaction, or in a new one when given the database. */
function inTransaction<T>(db: Executor, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}

/** Writes the entry, taking the brand from the member's row; false when the reference was already used. */
async function record(trx: Transaction<Database>, move: LedgerMove<LedgerReason>, delta: number): Promise<boolean> {
  const inserted = await trx
    .insertInto('credit_ledger')
    .columns(['tenant_id', 'user_id', 'delta', 'reason', 'ref', 'note'])
    .expression(
      trx
        .selectFrom('users')
        .select(['tenant_id', 'id', sql.lit(delta).as('delta'), sql.val(move.reason).as('reason'), sql.val(move.ref ?? null).as('ref'), sql.val(move.note ?? null).as('note')])
        .where('id', '=', move.userId),
    )
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

async function balanceOf(db: Executor, userId: number): Promise<number> {
  const row = await db.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirst();
  if (!row) throw new Error(`ledger: no member ${userId}`);
  return row.credits;
}

/**
 * Adds credits. A grant whose reference was already granted changes nothing and says so
 * (`duplicate`): a payment webhook may arrive twice, or race the member's return.
 */
export async function grant(db: Executor, move: LedgerMove<GrantReason>): Promise<{ balance: number; duplicate: boolean }> {
  check(move);
  return inTransaction(db, async (trx) => {
    if (!(await record(trx, move, move.credits))) return { balance: await balanceOf(trx, move.userId), duplicate: true };
    const row = await trx
      .updateTable('users')
      .set((eb) => ({ credits: eb('credits', '+', move.credits) }))
      .where('id', '=', move.userId)
      .returning('credits')
      .executeTakeFirstOrThrow();
    return { balance: row.credits, duplicate: false };
  });
}

/**
 * Takes credits if the balance stays at 0 or more, else refuses with `not_enough_credits` (402)
 * and changes nothing. The balance is lowered by one conditional update, so concurrent spends
 * (several tabs) can never together take more than there is. A reference charged before is a
 * programming error and fails.
 */
export async function spend(db: Executor, move: LedgerMove<SpendReason>): Promise<{ balance: number }> {
  check(move);
  return inTransaction(db, async (trx) => {
    const row = await trx
      .updateTable('users')
      .set((eb) => ({ credits: eb('credits', '-', move.credits) }))
      .where('id', '=', move.userId)
      .where('credits', '>=', move.credits)
      .returning('credits')
      .executeTakeFirst();
    if (!row) throw notEnoughCredits();
    if (!(await record(trx, move, -move.credits))) throw new Error(`ledger: ${move.reason} ${move.ref} was charged before`);
    return { balance: row.credits };
  });
}
