import { sql, type Kysely } from 'kysely';
import { periodOf } from '../engine.ts';

/**
 * The members who paid, per brand and period (issue 23, bench section `revenue`): counting the
 * distinct payers of a year's periods from the payments took most of a year's revenue answer on
 * SQLite. A distinct count cannot be added up from days (a member who paid on two days of a week
 * is one payer of that week), so each member who paid is kept once per day, ISO week and month
 * they paid in, per currency and for all currencies (`currency` ''), in the transaction that
 * marks the payment paid (services/revenue.ts `keepPayer`). A payment stays paid when it is
 * refunded or charged back (those are counted on the day they are seen), so a fact never goes
 * stale. Paying members of a period are then a count over this primary key, no distinct.
 * Filled here from the payments already paid.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('revenue_payers')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('grain', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('revenue_payers_pk', ['tenant_id', 'grain', 'period', 'currency', 'user_id'])
    .execute();
  for (const grain of ['day', 'week', 'month'] as const) {
    for (const currency of [sql.ref('currency'), sql.lit('')]) {
      await sql`insert into revenue_payers (tenant_id, grain, period, currency, user_id)
        select distinct tenant_id, ${sql.lit(grain)}, ${periodOf(db, 'paid_at', grain)}, ${currency}, user_id from payments where status = 'paid' and paid_at is not null`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('revenue_payers').execute();
}
