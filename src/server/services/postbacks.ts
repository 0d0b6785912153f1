import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { Tracking } from '../../contract/enums.ts';
import { CONSOLE_PAGE_SIZE, type PostbacksInput, type StaffView } from '../../contract/console.ts';
import { fillPostbackUrl, payoutOf, redactPostbackUrl, type PostbackEvent } from '../../lib/postbacks.ts';
import { notFound } from '../errors.ts';
import type { PostbacksView } from '../../contract/revenue.ts';
import { audit } from './console.ts';
import { amongBrands, brandCondition, brandsToQuery, inScope } from './brand-scope.ts';

/** How long a network's answer is waited for (an operator-configured tracker may hang; never longer). */
export const POSTBACK_TIMEOUT_MS = 10_000;
/** Attempts of one postback before it is given up as failed (the console can send it again). */
export const POSTBACK_ATTEMPTS = 8;
/** The first retry's delay; each next one doubles (8 attempts span about 2 hours at 60 s). */
export const POSTBACK_RETRY_SECONDS = 60;
/** A postback due this long ago whose job was lost (a process died after commit) is sent again by the sweep. */
const LOST_AFTER_MS = 2 * 60_000;
/** The job queue postbacks go out through (jobs.ts: pg-boss on PostgreSQL). */
export const POSTBACK_QUEUE = 'postback';

/** Something that happened to a member that networks may want to hear of. */
export interface PostbackOccurrence {
  tenantId: string;
  userId: number;
  event: PostbackEvent;
  /** Unique per occurrence: `purchase:<payment id>`, `refund:<payment id>:<total>` … */
  key: string;
  /** Cents of `currency` (purchases, refunds, chargebacks). */
  payout?: number;
  currency?: string;
  /** The tracker's transaction id: the payment's id, or the member's for signup and activation. */
  txid: string | number;
}

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Server-to-server postbacks (issue 23): an event of a member whose tracking network has a
 * postback in the brand's tenant.json is written as a row in the transaction of the event itself
 * (unique per event and network, so it exists once whichever runtime saw it), then sent through
 * the job queue after commit, never in the member's request. Each attempt is logged with the URL
 * sent and the answer; a failure is retried with backoff (the queue's), a job lost with its
 * process is picked up by the sweep. Outgoing requests follow no redirects and wait at most
 * POSTBACK_TIMEOUT_MS: the URL is the operator's own choice, so no address is refused.
 */
export function createPostbackService(deps: {
  db: Kysely<Database>;
  tenants: () => Tenant[];
  /** Sends a job to POSTBACK_QUEUE; false when this process runs no jobs. */
  send: (data: { id: number; resend?: boolean }) => Promise<boolean>;
  retrySeconds?: number;
  timeoutMs?: number;
  log?: (line: string) => void;
}) {
  const { db } = deps;
  const retrySeconds = deps.retrySeconds ?? POSTBACK_RETRY_SECONDS;
  const timeoutMs = deps.timeoutMs ?? POSTBACK_TIMEOUT_MS;
  const log = deps.log ?? (() => {});

  async function dispatch(ids: number[]): Promise<void> {
    for (const id of ids) await deps.send({ id }).catch((error: Error) => log(`postback ${id}: not queued (${error.message}); the sweep sends it`));
  }

  /** One attempt; true when the network answered below 400. */
  async function post(id: number, resend: boolean): Promise<'sent' | 'retry' | 'failed' | 'busy'> {
    const at = new Date();
    const claimed = await db
      .updateTable('postbacks')
      .set({ status: 'sending', claimed_until: new Date(at.getTime() + timeoutMs * 2).toISOString() })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<', at.toISOString())])]))
      .returningAll()
      .executeTakeFirst();
    // Sent already, given up, or under way in another process.
    if (!claimed) return 'busy';
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(claimed.url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      statusCode = res.status;
      await res.body?.cancel();
    } catch (e) {
      error = (e as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : ((e as Error & { cause?: Error }).cause?.message ?? (e as Error).message);
    }
    const delivered = statusCode !== null && statusCode < 400;
    const attempts = claimed.attempts + 1;
    const done = new Date();
    const outcome = delivered ? 'sent' : attempts >= POSTBACK_ATTEMPTS ? 'failed' : 'retry';
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('postback_attempts')
        .values({ postback_id: id, tenant_id: claimed.tenant_id, at: at.toISOString(), url: claimed.url, status_code: statusCode, error, duration_ms: done.getTime() - at.getTime(), resend: resend ? 1 : 0 })
        .execute();
      await trx
        .updateTable('postbacks')
        .set({
          status: outcome === 'retry' ? 'pending' : outcome,
          attempts,
          claimed_until: null,
          sent_at: delivered ? done.toISOString() : claimed.sent_at,
          // The queue's next try comes within retrySeconds * 2^(attempts - 1); the sweep waits longer.
          next_attempt_at: new Date(done.getTime() + retrySeconds * 1000 * 2 ** (attempts - 1)).toISOString(),
        })
        .where('id', '=', id)
        .execute();
    });
    return outcome;
  }

  return {
    /**
     * Writes the postbacks of an occurrence in the caller's transaction: one per network of the
     * brand that wants the event and that the member came from. Answers the new rows' ids, for
     * `dispatch` after commit (none when the occurrence was recorded before).
     */
    async record(trx: Executor, o: PostbackOccurrence): Promise<number[]> {
      const wanted = deps.tenants().find((t) => t.id === o.tenantId)?.postbacks.filter((p) => p.events.includes(o.event)) ?? [];
      if (!wanted.length) return [];
      const user = await trx.selectFrom('users').select('tracking').where('id', '=', o.userId).executeTakeFirst();
      const tracking = (user?.tracking ? JSON.parse(user.tracking) : {}) as Tracking & { clickid?: string };
      const ids: number[] = [];
      for (const postback of wanted.filter((p) => p.network === tracking.network)) {
        const url = fillPostbackUrl(postback.url, {
          clickid: tracking.clickid ?? '',
          sub1: tracking.sub1 ?? '',
          sub2: tracking.sub2 ?? '',
          sub3: tracking.sub3 ?? '',
          event: o.event,
          payout: o.payout === undefined ? '' : payoutOf(o.payout),
          currency: o.currency ?? '',
          txid: String(o.txid),
          member_id: String(o.userId),
        });
        const row = await trx
          .insertInto('postbacks')
          .values({ tenant_id: o.tenantId, user_id: o.userId, event: o.event, event_key: o.key, network: postback.network, url, next_attempt_at: new Date().toISOString() })
          .onConflict((oc) => oc.columns(['event_key', 'network']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (row) ids.push(row.id);
      }
      return ids;
    },

    /** Queues the postbacks `record` wrote, after their transaction committed; never throws, never waits for a network. */
    dispatch(ids: number[]): void {
      if (ids.length) void dispatch(ids);
    },

    /** The job: one attempt of a postback. Throws while it should be tried again, so the queue retries it with backoff. */
    async deliver(data: { id: number; resend?: boolean }): Promise<void> {
      const outcome = await post(data.id, data.resend === true);
      if (outcome === 'retry') throw new Error(`postback ${data.id} not delivered; tried again later`);
    },

    /** Queues the postbacks whose job was lost (due long ago and not under way); answers how many. */
    async sweep(): Promise<number> {
      const before = new Date(Date.now() - LOST_AFTER_MS).toISOString();
      const lost = await db
        .selectFrom('postbacks')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<', before)]),
            eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<', before)]),
          ]),
        )
        .orderBy('id')
        .limit(500)
        .execute();
      await dispatch(lost.map((r) => r.id));
      return lost.length;
    },

    /**
     * GET /api/console/postbacks: the attempts of the brands in scope, newest first, 50 a page
     * before an attempt id, and each brand's postback configuration (credentials in URLs hidden).
     */
    async list(staff: StaffView, input: PostbacksInput): Promise<PostbacksView> {
      let q = db
        .selectFrom('postback_attempts as a')
        .innerJoin('postbacks as p', 'p.id', 'a.postback_id')
        .select(['a.id', 'a.postback_id', 'p.tenant_id as brand', 'p.event', 'p.network', 'p.user_id as member_id', 'a.url', 'a.status_code', 'a.error', 'a.at', 'a.duration_ms', 'a.resend', 'p.status']);
      const asked = brandsToQuery(staff, input.brand);
      q = q.where(brandCondition('a.tenant_id', asked));
      if (input.before) q = q.where('a.id', '<', input.before);
      const rows = await q.orderBy('a.id', 'desc').limit(input.format === 'csv' ? 10_000 : CONSOLE_PAGE_SIZE + 1).execute();
      const size = input.format === 'csv' ? rows.length : CONSOLE_PAGE_SIZE;
      const brands = deps.tenants().filter((t) => amongBrands(asked, t.id));
      return {
        attempts: rows.slice(0, size).map((r) => ({ ...r, url: redactPostbackUrl(r.url), resend: r.resend === 1 })),
        before: rows.length > size ? rows[size - 1]!.id : null,
        config: brands.map((t) => ({ brand: t.id, postbacks: t.postbacks.map((p) => ({ network: p.network, url: redactPostbackUrl(p.url), events: p.events })) })),
      };
    },

    /** POST /api/console/postbacks/{id}/resend: posts it again through the queue (audited); 404 outside the staff member's scope. */
    async resend(staff: StaffView, id: number, ip: string): Promise<{ queued: boolean }> {
      const row = await db.selectFrom('postbacks').select(['id', 'tenant_id', 'event', 'network', 'status']).where('id', '=', id).executeTakeFirst();
      if (!row || !inScope(staff, row.tenant_id)) throw notFound();
      await db.transaction().execute(async (trx) => {
        // A new round of attempts; one under way now is left to finish first (its claim holds).
        await trx.updateTable('postbacks').set({ status: 'pending', attempts: 0, next_attempt_at: new Date().toISOString() }).where('id', '=', id).where('status', '!=', 'sending').execute();
        await audit(trx, { staff, action: 'postback_resend', brand: row.tenant_id, object: { type: 'postback', id }, ip, details: { event: row.event, network: row.network, was: row.status } });
      });
      return { queued: await deps.send({ id, resend: true }) };
    },
  };
}

export type PostbackService = ReturnType<typeof createPostbackService>;
