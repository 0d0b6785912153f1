import type { CreateTableBuilder, Kysely } from 'kysely';

/**
 * Traffic attribution and lander experiments (issue 23).
 *
 * - `users.lander`, `lander_variant`, `lander_niche`, `lander_locale`: the lander (and the
 *   variant of its text) the member first saw before signing up, from the attribution cookie;
 *   null for a signup that saw none. Their later events (activation, purchases, refunds) are
 *   counted for it. The traffic source is the member's `tracking` JSON, as before.
 * - `funnel_daily`: the counts per brand, brand day, lander, variant, niche, locale, network, ref
 *   and currency, kept exact by upserted increments: a visit (batched in memory for a second), a
 *   signup, an activation, a first and a further purchase, a refund and a chargeback (each in the
 *   transaction of the change it counts). Money columns are cents of `currency`; counts of events
 *   without money have currency ''. An absent dimension is '' (or niche 0), never null: a unique
 *   key treats nulls as different, and the upsert needs one row per combination.
 * - `lander_variant_ends`: variants staff ended (the console): the runtime stops assigning them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('lander', 'text').execute();
  await db.schema.alterTable('users').addColumn('lander_variant', 'text').execute();
  await db.schema.alterTable('users').addColumn('lander_niche', 'integer').execute();
  await db.schema.alterTable('users').addColumn('lander_locale', 'text').execute();

  let table: CreateTableBuilder<'funnel_daily', any> = db.schema.createTable('funnel_daily');
  for (const column of ['tenant_id', 'day', 'lander', 'variant']) table = table.addColumn(column, 'text', (c) => c.notNull());
  table = table.addColumn('niche', 'integer', (c) => c.notNull());
  for (const column of ['locale', 'network', 'ref', 'currency']) table = table.addColumn(column, 'text', (c) => c.notNull());
  for (const column of ['visits', 'signups', 'activations', 'first_purchases', 'repeat_purchases', 'refunds', 'chargebacks', 'revenue', 'refunded', 'charged_back']) {
    table = table.addColumn(column, 'integer', (c) => c.notNull().defaultTo(0));
  }
  await table.addPrimaryKeyConstraint('funnel_daily_pk', ['tenant_id', 'day', 'lander', 'variant', 'niche', 'locale', 'network', 'ref', 'currency']).execute();

  await db.schema
    .createTable('lander_variant_ends')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text', (c) => c.notNull())
    .addColumn('staff_id', 'integer')
    .addPrimaryKeyConstraint('lander_variant_ends_pk', ['tenant_id', 'variant'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('lander_variant_ends').execute();
  await db.schema.dropTable('funnel_daily').execute();
  for (const column of ['lander_locale', 'lander_niche', 'lander_variant', 'lander']) await db.schema.alterTable('users').dropColumn(column).execute();
}
