import type { Kysely } from 'kysely';

/**
 * `payments.invoice`: the invoice as issued (JSON of services/invoices.ts InvoiceView), written
 * with its number when the payment becomes paid. An issued invoice never changes: a member who
 * moves country or renames the profile, or a company that changes its address, leaves it as it
 * was. Payments paid before this column existed are drawn from the current data as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('invoice', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('invoice').execute();
}
