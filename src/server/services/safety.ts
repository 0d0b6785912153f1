import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { ComplaintInput, ProfileCardData } from '../../contract/likes.ts';
import { notFound } from '../errors.ts';
import { nowIso } from '../db/engine.ts';
import type { MailService } from './mail.ts';
import type { Limits } from '../limits.ts';
import { visibleProfiles } from './visibility.ts';
import type { ScopeOf } from './pool.ts';
import { CARD_COLUMNS, profileCards } from './cards.ts';
import type { Liker } from './likes.ts';
import { deleteConversationsBetween } from './chat.ts';
import { publishToMember } from './events.ts';
import type { EventBus } from '../bus.ts';

/** Complaints a member may file per day (chosen: enough for real trouble, not for flooding the operator). */
export const COMPLAINTS_PER_DAY = 10;

/**
 * Blocking and complaints (SPEC §4 blocking, §2 complaints). A block hides the two members from
 * each other everywhere (the visibility rule reads `blocks`) and deletes the likes between them
 * (and, with chat, their conversations); only the blocker still opens the blocked profile, to
 * unblock it. A complaint is stored for the operator and copied to the brand's support address.
 */
export function createSafetyService(deps: { db: Kysely<Database>; mail: MailService; limits: Limits; scopeOf: ScopeOf; bus?: EventBus }) {
  const { db, mail } = deps;
  const complaintsLimit = deps.limits({ name: 'complaint', points: COMPLAINTS_PER_DAY, windowSeconds: 86_400 });

  return {
    /** POST /api/block.php: blocks a profile the member may see (blocking again changes nothing). */
    async block(tenant: Tenant, liker: Liker, profileId: number): Promise<void> {
      // As the blocker sees it: a profile blocked already may be blocked again (nothing changes).
      const other = await visibleProfiles(db, deps.scopeOf(tenant), liker, { blockedByMe: true }).select(['profiles.id', 'profiles.user_id']).where('profiles.id', '=', profileId).executeTakeFirst();
      if (!other) throw notFound();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('blocks')
          .values({ tenant_id: tenant.id, blocker_profile_id: liker.profileId, blocked_profile_id: other.id, created_at: nowIso() })
          .onConflict((oc) => oc.columns(['blocker_profile_id', 'blocked_profile_id']).doNothing())
          .execute();
        await trx
          .deleteFrom('likes')
          .where((eb) =>
            eb.or([
              eb.and([eb('from_profile_id', '=', liker.profileId), eb('to_profile_id', '=', other.id)]),
              eb.and([eb('from_profile_id', '=', other.id), eb('to_profile_id', '=', liker.profileId)]),
            ]),
          )
          .execute();
        // SPEC §4: blocking deletes chats and likes.
        await deleteConversationsBetween(trx, liker.profileId, other.id);
      });
      // Both members' open chat lists drop the conversation at once.
      if (deps.bus) for (const userId of [liker.userId, other.user_id]) if (userId !== null) await publishToMember(deps.bus, userId, { type: 'chats' });
    },

    /** DELETE /api/block.php: lifts the member's own block (one that does not exist is fine). */
    async unblock(tenant: Tenant, liker: Liker, profileId: number): Promise<void> {
      await db.deleteFrom('blocks').where('tenant_id', '=', tenant.id).where('blocker_profile_id', '=', liker.profileId).where('blocked_profile_id', '=', profileId).execute();
    },

    /** GET /api/block.php: the profiles the member blocked, newest first (settings: unblock them). */
    async blocked(tenant: Tenant, liker: Liker): Promise<ProfileCardData[]> {
      const rows = await db
        .selectFrom('blocks')
        .innerJoin('profiles', 'profiles.id', 'blocks.blocked_profile_id')
        .select(CARD_COLUMNS)
        .where('blocks.tenant_id', '=', tenant.id)
        .where('blocks.blocker_profile_id', '=', liker.profileId)
        .orderBy('blocks.created_at', 'desc')
        .orderBy('blocks.id', 'desc')
        .execute();
      return (await profileCards(db, rows)).map((c) => c.card);
    },

    /**
     * POST /api/complaint.php: stores the complaint with the brand, the reporter and the member
     * reported (one the reporter may see, or blocked), and sends a copy to the support address.
     */
    async complain(tenant: Tenant, reporter: { userId: number; profileId: number | null; email: string; locale: string }, input: ComplaintInput): Promise<{ id: number }> {
      let reported: { id: number; name: string } | undefined;
      if (input.profile_id !== undefined) {
        // As the reporter sees it: a member they blocked is hidden from them, and still reportable.
        reported = await visibleProfiles(db, deps.scopeOf(tenant), { userId: reporter.userId, profileId: reporter.profileId }, { blockedByMe: true })
          .select(['profiles.id', 'profiles.name'])
          .where('profiles.id', '=', input.profile_id)
          .executeTakeFirst();
        if (!reported) throw notFound();
      }
      await complaintsLimit.take(reporter.userId);
      const row = await db
        .insertInto('complaints')
        .values({
          tenant_id: tenant.id,
          reporter_user_id: reporter.userId,
          reported_profile_id: reported?.id ?? null,
          reason: input.reason,
          subject: input.subject,
          message: input.message,
          created_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await mail.send({
        tenant,
        to: tenant.support_email,
        locale: tenant.locales.default,
        kind: 'mail_complaint',
        link: `https://${tenant.domain}${reported ? `/members/${reported.id}` : '/complaints'}`,
        params: { number: row.id, reporter: reporter.email, reported: reported ? `${reported.name} (#${reported.id})` : '-', reason: input.reason, subject: input.subject },
        quote: input.message,
        replyTo: reporter.email,
      });
      return { id: row.id };
    },
  };
}

export type SafetyService = ReturnType<typeof createSafetyService>;
