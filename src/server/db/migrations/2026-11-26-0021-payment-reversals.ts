import type { Kysely } from 'kysely';

/**
 * `payments.reversed_amount`: cents of a paid payment the provider has since given back to the
 * member (a refund) or had taken back by the bank (a chargeback, such as a SEPA direct debit
 * reversed within 8 weeks). Each rise takes the bundle's credits back in proportion, once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('reversed_amount', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('reversed_amount').execute();
}
