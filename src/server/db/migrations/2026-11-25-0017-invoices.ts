import type { Kysely } from 'kysely';

/**
 * Invoices and operator notes (SPEC §2 transactions page):
 *
 * - `payments.invoice_number`: given when a payment becomes paid, in the same transaction, from
 *   `invoice_counters`: per company and year, without gaps (`2026-000001`).
 * - `credit_ledger.note`: who moved credits by hand and why (`sitegen credits grant|refund`),
 *   and an index to page a member's entries by id.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('invoice_number', 'text').execute();
  await db.schema
    .createTable('invoice_counters')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('last', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_counters_pkey', ['company_id', 'year'])
    .execute();
  await db.schema.alterTable('credit_ledger').addColumn('note', 'text').execute();
  // The transactions page pages a member's entries by id.
  await db.schema.createIndex('credit_ledger_user_id_idx').on('credit_ledger').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('credit_ledger_user_id_idx').execute();
  await db.schema.alterTable('credit_ledger').dropColumn('note').execute();
  await db.schema.dropTable('invoice_counters').execute();
  await db.schema.alterTable('payments').dropColumn('invoice_number').execute();
}
