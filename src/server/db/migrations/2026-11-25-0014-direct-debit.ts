import type { Kysely } from 'kysely';
import { autoIdColumn, engineOf, sqlNowDefault } from '../engine.ts';

/**
 * Direct debit (SPEC §5 direct debit fields, §8): a member buys a bundle by SEPA direct debit,
 * authorised with a code sent by SMS.
 *
 * - `directdebit_orders`: one per order: the bundle and its discount code, the account holder,
 *   IBAN, address and mobile number as entered, when the member consented, the SMS code (its
 *   hash, expiry and the tries left), and the payment it became once confirmed.
 * - `payment_customers`: the member's customer at a payment provider (mandates for direct
 *   debit and saved cards hang off it).
 * - `users.directdebit_blocked`: the direct-debit block ("Je account is geblokkeerd voor
 *   automatische incasso.").
 */
export async function up(db: Kysely<any>): Promise<void> {
  const engine = engineOf(db);
  await db.schema
    .createTable('directdebit_orders')
    .addColumn('id', 'integer', autoIdColumn(engine))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('package_id', 'text', (c) => c.notNull())
    .addColumn('discount_code', 'text')
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('list_amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('iban', 'text', (c) => c.notNull())
    .addColumn('street', 'text', (c) => c.notNull())
    .addColumn('house_number', 'text', (c) => c.notNull())
    .addColumn('postcode', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('mobile', 'text', (c) => c.notNull())
    .addColumn('consent_at', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('code_expires_at', 'text', (c) => c.notNull())
    .addColumn('tries_left', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('awaiting_code'))
    .addColumn('payment_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engine)))
    .execute();
  await db.schema.createIndex('directdebit_orders_user_idx').on('directdebit_orders').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('payment_customers')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engine)))
    .addPrimaryKeyConstraint('payment_customers_pkey', ['user_id', 'provider'])
    .execute();

  await db.schema.alterTable('users').addColumn('directdebit_blocked', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('directdebit_blocked').execute();
  await db.schema.dropTable('payment_customers').execute();
  await db.schema.dropTable('directdebit_orders').execute();
}
