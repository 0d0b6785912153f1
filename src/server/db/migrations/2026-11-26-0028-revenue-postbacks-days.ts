import { sql, type Kysely } from 'kysely';

/**
 * Revenue figures of closed days, summed once (issue 23; bench/revenue.ts: computed from the
 * records at every request, a year of two brands took 3 to 4 s on SQLite). Every record the
 * figures come from is dated when it is written and never changes its day afterwards (a payment
 * paid, a refund or chargeback seen, a signup, an activation, a ledger entry), so a day that has
 * ended holds still: its sums are kept in `revenue_days` the first time they are needed (or by
 * the hourly job), and a late refund lands on the day it was seen. Today is always summed live.
 *
 * - `revenue_days`: per day and brand, one row per measure and key: `paid` per currency (n
 *   purchases, amount gross, net, firsts), `refund` and `chargeback` per currency (n, amount),
 *   `signups` and `activations` (n), `credits` per ledger reason (amount: the sum of deltas).
 * - `revenue_days_done`: the days summed (for every brand at once).
 * - `users_converted_idx`: the members who bought, by activation (first-purchase conversion of
 *   an activation cohort changes as members buy, so it is counted live).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('revenue_days')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('measure', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('net', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('firsts', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('revenue_days_pk', ['tenant_id', 'day', 'measure', 'key'])
    .execute();
  await db.schema.createTable('revenue_days_done').addColumn('day', 'text', (c) => c.primaryKey()).execute();
  await sql`create index users_converted_idx on users (tenant_id, activated_at) where paid_user = 1`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_converted_idx').execute();
  await db.schema.dropTable('revenue_days_done').execute();
  await db.schema.dropTable('revenue_days').execute();
}
