import { sql, type Kysely } from 'kysely';
import { autoIdColumn, engineOf, sqlNowDefault } from '../engine.ts';

/**
 * Revenue figures and postbacks to affiliate networks (issue 23, second half).
 *
 * Revenue is computed from the stored records by indexed queries (bench/revenue.ts measures
 * them), so a refund that arrives months later changes the figures of the day it happened and
 * nothing has to be kept in step. What those queries need that was not stored:
 * - `payments.invoice_net`: cents net of VAT as the issued invoice says (set with the invoice
 *   number); filled here from `payments.invoice` for the invoices issued before.
 * - `payments.first_purchase`: 1 on a member's first paid payment (set when it is settled, under
 *   the member's lock); filled here by paid date.
 * - `users.activated_at`: when the activation link (or a confirmed e-mail change) made the member
 *   active; members active before are taken as activated at signup.
 * - `payment_reversals`: each rise of a payment's refunded or charged-back amount, when it was
 *   seen (`payments.reversed_amount` adds both up and has no date); `total` is the kind's amount
 *   so far, unique per payment and kind, so a replayed webhook records nothing twice. Amounts
 *   reversed before are taken as one refund at the payment's last change.
 *
 * Postbacks (one row per event and network; `event_key` + `network` unique, so an event seen by
 * two runtimes is posted once) and their attempts, each with the URL sent and the answer.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const engine = engineOf(db);
  const id = autoIdColumn(engine);
  const now = sqlNowDefault(engine);

  await db.schema.alterTable('payments').addColumn('invoice_net', 'integer').execute();
  await db.schema.alterTable('payments').addColumn('first_purchase', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('activated_at', 'text').execute();

  for (const row of await db.selectFrom('payments').select(['id', 'invoice']).where('invoice', 'is not', null).execute()) {
    const net = (JSON.parse(row.invoice as string) as { net?: unknown }).net;
    if (typeof net === 'number') await db.updateTable('payments').set({ invoice_net: net }).where('id', '=', row.id).execute();
  }
  await sql`update payments set first_purchase = 1 where status = 'paid' and paid_at is not null and not exists (
      select 1 from payments p2 where p2.user_id = payments.user_id and p2.status = 'paid' and p2.paid_at is not null
        and (p2.paid_at < payments.paid_at or (p2.paid_at = payments.paid_at and p2.id < payments.id)))`.execute(db);
  await db.updateTable('users').set({ activated_at: sql`signup_date` }).where('status', 'in', ['active', 'deletion_requested']).execute();

  await db.schema
    .createTable('payment_reversals')
    .addColumn('id', 'integer', id)
    .addColumn('payment_id', 'integer', (c) => c.notNull().references('payments.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('payment_reversals_once', ['payment_id', 'kind', 'total'])
    .execute();
  await sql`insert into payment_reversals (payment_id, tenant_id, user_id, kind, amount, total, currency, at)
      select id, tenant_id, user_id, 'refund', reversed_amount, reversed_amount, currency, updated_at from payments where reversed_amount > 0`.execute(db);

  await db.schema.createIndex('payments_revenue_idx').on('payments').columns(['tenant_id', 'status', 'paid_at']).execute();
  await db.schema.createIndex('payment_reversals_revenue_idx').on('payment_reversals').columns(['tenant_id', 'at']).execute();
  await db.schema.createIndex('users_signup_idx').on('users').columns(['tenant_id', 'signup_date']).execute();
  await db.schema.createIndex('users_activated_idx').on('users').columns(['tenant_id', 'activated_at']).execute();
  await db.schema.createIndex('credit_ledger_revenue_idx').on('credit_ledger').columns(['tenant_id', 'created_at', 'reason', 'delta']).execute();

  await db.schema
    .createTable('postbacks')
    .addColumn('id', 'integer', id)
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', 'text')
    .addColumn('next_attempt_at', 'text', (c) => c.notNull().defaultTo(now))
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(now))
    .addColumn('sent_at', 'text')
    .addUniqueConstraint('postbacks_once', ['event_key', 'network'])
    .execute();
  await db.schema.createIndex('postbacks_tenant_idx').on('postbacks').columns(['tenant_id', 'id']).execute();
  await db.schema.createIndex('postbacks_due_idx').on('postbacks').columns(['status', 'next_attempt_at']).execute();

  await db.schema
    .createTable('postback_attempts')
    .addColumn('id', 'integer', id)
    .addColumn('postback_id', 'integer', (c) => c.notNull().references('postbacks.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull().defaultTo(now))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('resend', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('postback_attempts_tenant_idx').on('postback_attempts').columns(['tenant_id', 'id']).execute();
  await db.schema.createIndex('postback_attempts_postback_idx').on('postback_attempts').columns(['postback_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('postback_attempts').execute();
  await db.schema.dropTable('postbacks').execute();
  for (const index of ['credit_ledger_revenue_idx', 'users_activated_idx', 'users_signup_idx', 'payment_reversals_revenue_idx', 'payments_revenue_idx']) await db.schema.dropIndex(index).execute();
  await db.schema.dropTable('payment_reversals').execute();
  await db.schema.alterTable('users').dropColumn('activated_at').execute();
  await db.schema.alterTable('payments').dropColumn('first_purchase').execute();
  await db.schema.alterTable('payments').dropColumn('invoice_net').execute();
}
