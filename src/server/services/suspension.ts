import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/index.ts';
import type { EventBus } from '../bus.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { nowIso } from '../db/engine.ts';
import { AppError } from '../errors.ts';
import { relist } from './visibility.ts';
import { publishToMember } from './events.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** Where a suspended member's every request leads (SPEC §2 static pages). */
export const BAN_PAGE = '/pages/ban';

/** The refusal a suspended member gets, at login and on any request: 403 with the brand's support address and the ban page. */
export const suspendedError = (tenant: Pick<Tenant, 'support_email'>) =>
  new AppError('account_suspended', 403, { params: { support: tenant.support_email }, extra: { location: BAN_PAGE } });

/**
 * Suspends a member (issue 22, "Members"), in the caller's transaction: hidden from everyone
 * (`relist`), and their sessions open nothing from now on: every runtime drops them from its
 * session cache (this process's write; on PostgreSQL the users trigger), and each request that
 * still carries one is answered with /pages/ban. False when the member was suspended already.
 * After the commit, `announce()` closes the member's event streams on every runtime.
 */
export async function suspendMember(trx: Executor, userId: number): Promise<boolean> {
  const done = await trx.updateTable('users').set({ suspended_at: nowIso() }).where('id', '=', userId).where('suspended_at', 'is', null).executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) return false;
  await relist(trx as Kysely<Database>, userId);
  return true;
}

/**
 * Lifts a suspension: listed again, able to log in again. The sessions the suspension stopped
 * are deleted: the member logs in afresh. False when the member was not suspended.
 */
export async function liftSuspension(trx: Executor, userId: number): Promise<boolean> {
  const done = await trx.updateTable('users').set({ suspended_at: null }).where('id', '=', userId).where('suspended_at', 'is not', null).executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) return false;
  await relist(trx as Kysely<Database>, userId);
  await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
  return true;
}

/** After a suspension committed: the member's open tabs, on any runtime, hear it and their streams close. */
export function announceSuspension(bus: EventBus, userId: number): Promise<void> {
  return publishToMember(bus, userId, { type: 'suspended' });
}
