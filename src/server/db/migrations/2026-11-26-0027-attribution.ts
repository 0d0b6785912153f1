import type { CreateTableBuilder, Kysely } from 'kysely';

/** The counters of both tables (src/server/db/schema.ts FUNNEL_COUNTERS as of this migration). */
const FUNNEL_COUNTERS = ['visits', 'signups', 'activations', 'first_purchases', 'repeat_purchases', 'refunds', 'chargebacks', 'revenue', 'refunded', 'charged_back'];

/**
 * Traffic attribution and lander experiments (issue 23).
 *
 * - `users.lander`, `lander_variant`, `lander_niche`, `lander_locale`: the lander (and the
 *   variant of its text) the member first saw before signing up, from the attribution cookie;
 *   null for a signup that saw none. Their later events (activation, purchases, refunds) are
 *   counted for it. The traffic source is the member's `tracking` JSON, as before.
 * - `source_daily` and `lander_daily`: the counts per brand and brand day, by traffic source
 *   (network, ref) and by lander (lander, variant, niche, locale), each per currency, kept exact by
 *   upserted increments: a visit (batched in memory for a second), a signup, an activation, a
 *   first and a further purchase, a refund and a chargeback (each in the transaction of the
 *   change it counts). Two narrow tables rather than one of every dimension: each console table
 *   reads only its own, a few thousand rows a month for a large brand rather than a hundred
 *   thousand (bench/traffic.ts). Money columns are cents of `currency`; counts of events without
 *   money have currency ''. An absent dimension is '' (or niche 0), never null: a unique key
 *   treats nulls as different, and the upsert needs one row per combination.
 * - `lander_variant_ends`: variants staff ended (the console): the runtime stops assigning them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('lander', 'text').execute();
  await db.schema.alterTable('users').addColumn('lander_variant', 'text').execute();
  await db.schema.alterTable('users').addColumn('lander_niche', 'integer').execute();
  await db.schema.alterTable('users').addColumn('lander_locale', 'text').execute();

  const counters = (table: CreateTableBuilder<string, any>) =>
    FUNNEL_COUNTERS.reduce((t, column) => t.addColumn(column, 'integer', (c) => c.notNull().defaultTo(0)), table);
  const text = (table: CreateTableBuilder<string, any>, columns: string[]) => columns.reduce((t, column) => t.addColumn(column, 'text', (c) => c.notNull()), table);
  await counters(text(db.schema.createTable('source_daily'), ['tenant_id', 'day', 'network', 'ref', 'currency']))
    .addPrimaryKeyConstraint('source_daily_pk', ['tenant_id', 'day', 'network', 'ref', 'currency'] as never)
    .execute();
  await counters(text(db.schema.createTable('lander_daily'), ['tenant_id', 'day', 'lander', 'variant']).addColumn('niche', 'integer', (c) => c.notNull()).addColumn('locale', 'text', (c) => c.notNull()).addColumn('currency', 'text', (c) => c.notNull()))
    .addPrimaryKeyConstraint('lander_daily_pk', ['tenant_id', 'day', 'lander', 'variant', 'niche', 'locale', 'currency'] as never)
    .execute();

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
  await db.schema.dropTable('lander_daily').execute();
  await db.schema.dropTable('source_daily').execute();
  for (const column of ['lander_locale', 'lander_niche', 'lander_variant', 'lander']) await db.schema.alterTable('users').dropColumn(column).execute();
}
