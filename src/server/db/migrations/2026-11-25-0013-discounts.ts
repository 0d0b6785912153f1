import type { Kysely } from 'kysely';
import { autoIdColumn, engineOf, sqlNowDefault } from '../engine.ts';

/**
 * Discount codes (SPEC §3 discount code, §5, §9 welcome discount and time bonus):
 *
 * - `discount_codes`: a code of a brand, either a percentage or a value in cents of a currency,
 *   with a minimum order value, an optional country, member (`user_id`: a personal code such as
 *   the welcome and the retention discount), expiry, status, and the payment methods it allows
 *   (a JSON list, null for all). `purpose` says where it came from. The code is stored in upper
 *   case and unique per brand.
 * - `discount_code_uses`: a member's use of a code, written when a payment with it is paid;
 *   unique per member and code, so a code is used once per member ("Code reeds gebruikt"). The
 *   time bonus TIMEBONUS25 is no row of `discount_codes` (it follows from the signup time) but
 *   its use is recorded here like any other.
 * - `payments` gains what the member was offered: the list price, the code and its discount.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const engine = engineOf(db);
  await db.schema
    .createTable('discount_codes')
    .addColumn('id', 'integer', autoIdColumn(engine))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('percentage', 'integer')
    .addColumn('value', 'integer')
    .addColumn('currency', 'text')
    .addColumn('minimum_order_value', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('country', 'text')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('paymentmethods', 'text')
    .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('campaign'))
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engine)))
    .addUniqueConstraint('discount_codes_code_key', ['tenant_id', 'code'])
    .execute();
  await db.schema.createIndex('discount_codes_user_idx').on('discount_codes').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('discount_code_uses')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(sqlNowDefault(engine)))
    .addPrimaryKeyConstraint('discount_code_uses_pkey', ['user_id', 'code'])
    .execute();

  await db.schema.alterTable('payments').addColumn('list_amount', 'integer').execute();
  await db.schema.alterTable('payments').addColumn('discount_code', 'text').execute();
  await db.schema.alterTable('payments').addColumn('discount_amount', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('discount_amount').execute();
  await db.schema.alterTable('payments').dropColumn('discount_code').execute();
  await db.schema.alterTable('payments').dropColumn('list_amount').execute();
  await db.schema.dropTable('discount_code_uses').execute();
  await db.schema.dropTable('discount_codes').execute();
}
