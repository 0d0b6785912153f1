import type { Kysely } from 'kysely';
import { sqlNowDefault, engineOf } from '../engine.ts';

/**
 * Saved cards for repeat orders (SPEC §1, §2 saved-card page): a card payment made with the
 * member's customer as a 'first' payment leaves a mandate at the provider, on which a repeat
 * order is charged without a checkout. The built-in test provider keeps its side here:
 * `test_checkouts` learns the customer and sequence of a payment, and `test_mandates` holds the
 * mandates (a real provider keeps them on its side).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const engine = engineOf(db);
  await db.schema.alterTable('test_checkouts').addColumn('customer_id', 'text').execute();
  await db.schema.alterTable('test_checkouts').addColumn('sequence_type', 'text').execute();
  await db.schema
    .createTable('test_mandates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('valid'))
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engine)))
    .execute();
  await db.schema.createIndex('test_mandates_customer_idx').on('test_mandates').column('customer_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('test_mandates').execute();
  await db.schema.alterTable('test_checkouts').dropColumn('sequence_type').execute();
  await db.schema.alterTable('test_checkouts').dropColumn('customer_id').execute();
}
