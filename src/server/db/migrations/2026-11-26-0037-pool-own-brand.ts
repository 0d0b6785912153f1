import type { Kysely } from 'kysely';

/**
 * The member network (issue 24): a member may choose to be shown on their own brand only.
 *
 * - `users.own_brand_only`: the member's choice (settings, PUT /api/user.php).
 * - `profiles.pooled`: 1 when the pool's other brands may show the profile; kept from the choice
 *   by `relist` (services/visibility.ts) like `listed`, so the one visibility rule reads one row.
 *   Fictional profiles keep 1: their brand's `network.share_fictional` decides for them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('own_brand_only', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('profiles').addColumn('pooled', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('pooled').execute();
  await db.schema.alterTable('users').dropColumn('own_brand_only').execute();
}
