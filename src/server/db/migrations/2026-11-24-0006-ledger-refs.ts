import { sql, type Kysely } from 'kysely';

/**
 * A ledger entry that refers to something (a payment, a message) exists once per reason and
 * reference: a replayed payment webhook or a retried charge cannot move credits twice. Entries
 * without a reference (the signup credits) are not bound by it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('credit_ledger_reason_ref_key')
    .on('credit_ledger')
    .columns(['reason', 'ref'])
    .unique()
    .where(sql.ref('ref'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('credit_ledger_reason_ref_key').execute();
}
