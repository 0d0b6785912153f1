import type { Kysely, Transaction } from 'kysely';
import type { CountryCode } from 'libphonenumber-js/max';
import type { Database } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { EventBus } from '../bus.ts';
import type { MessageKind } from '../../contract/chat.ts';
import type { HeldQueueInput, StaffView } from '../../contract/console.ts';
import type { ProfileCardData } from '../../contract/likes.ts';
import { burstHolds, type HeldAction, type HoldReason, type SafetyRules } from '../../lib/safety-rules.ts';
import { screenText } from '../../lib/message-screening.ts';
import type { ContactKind } from '../../lib/contact-details.ts';
import { AppError, notFound } from '../errors.ts';
import { nowIso } from '../db/engine.ts';
import { grant } from '../ledger.ts';
import { publishToMember } from './events.ts';
import { CARD_COLUMNS, profileCards } from './cards.ts';
import { audit } from './console.ts';
import { amongBrands, brandCondition, brandsToQuery, inScope } from './brand-scope.ts';
import { reachRecipient, shownTo, type ChatService, type MessageScreen } from './chat.ts';
import type { Liker } from './likes.ts';

/**
 * The brand's safety rules on members' messages (issue 22, "Safety rules"; the rules themselves
 * are pure, in src/lib/safety-rules.ts) and the moderators' queue of held messages.
 *
 * A held message is stored and charged like any other, but does not reach its recipient: not in
 * their conversation, list or unread counts, no event, push or mail (chat.ts `shownTo` and
 * `deliver`). Its sender sees it as sent: a scammer is not told they were caught, or they would
 * just change their words or wait. A moderator releases it (delivered live at once, as a normal
 * send: the recipient's tabs on any runtime, push and mail by preference) or rejects it (its sender
 * sees it marked not delivered with the reason, DSA art. 17, and gets its credits back through
 * the ledger). A suspended member's held messages are kept: the queue shows the suspension, and
 * a moderator rejects them (credits back) or, when the suspension was a mistake, releases them.
 */

/** Held messages of one queue page. */
export const HELD_PAGE_SIZE = 50;
/** The sender's "recent sends" in the queue: messages of the last this many hours. */
export const RECENT_SENDS_HOURS = 24;

/** Why a message was held, as stored in `messages.hold_reasons` and answered to the queue. */
export interface HoldWhy {
  reasons: HoldReason[];
  contacts?: ContactKind[];
  word?: string | null;
  /** Burst: the members written to, this one included, and the limit of the brand. */
  recipients?: number;
  max_recipients?: number;
}

/** The effective rules of a brand: tenant.json `safety` with its defaults (the schema resolves them). */
export const safetyRules = (tenant: Tenant): SafetyRules => tenant.safety;

export interface HeldMessage {
  id: number;
  brand: string;
  created_at: string;
  kind: MessageKind;
  /** The text as stored (contact details masked when the brand masks them); null for other kinds. */
  text: string | null;
  credits: number;
  why: HoldWhy;
  conversation_id: number;
  /** The sender as staff see them: the profile card, the account's age and state; no e-mail address. */
  sender: { user_id: number; card: ProfileCardData; signup_date: string; suspended: boolean; recent_sends: number; recent_recipients: number };
  /** The recipient's profile card only. */
  recipient: ProfileCardData;
}

export function createMessageSafety(deps: { db: Kysely<Database>; bus: EventBus; chat: () => ChatService; tenants: () => Tenant[]; log?: (line: string) => void }) {
  const { db, bus } = deps;
  const log = deps.log ?? ((line: string) => console.error(line));

  /** Distinct members (not fictional profiles) the sender wrote to, besides `besides`. */
  async function membersWrittenTo(trx: Transaction<Database> | Kysely<Database>, senderProfileId: number, besides: number | null): Promise<number> {
    const { n } = await trx
      .selectFrom('messages as m')
      .innerJoin('conversation_members as cm', (join) => join.onRef('cm.conversation_id', '=', 'm.conversation_id').onRef('cm.profile_id', '=', 'm.sender_profile_id'))
      .innerJoin('profiles as p', 'p.id', 'cm.other_profile_id')
      .select((eb) => eb.fn.count<number | string>('cm.other_profile_id').distinct().as('n'))
      .where('m.sender_profile_id', '=', senderProfileId)
      .where('p.user_id', 'is not', null)
      .$if(besides !== null, (qb) => qb.where('cm.other_profile_id', '!=', besides!))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /**
   * The rules on one message, in the send's transaction (the profile lock of chat.ts serialises a
   * member's sends, so two at once are counted one after the other). Only a message to a member is
   * held: a fictional profile's messages are read by staff anyway; its text is still masked.
   */
  const screen: MessageScreen = async (trx, tenant, sender, recipient, what) => {
    // Only a member's message is screened (the chat asks for no other): a fictional profile's reply (staff) has rules of its own (contact-details.ts staffReplyRefusal).
    const rules = safetyRules(tenant);
    const text = what.kind === 'text' && what.body !== null ? screenText(what.body, rules, tenant.countries[0] as CountryCode) : null;
    const why: HoldWhy = { reasons: [...(text?.hold ?? [])] };
    if (text?.contacts.length) why.contacts = text.contacts;
    if (text?.word) why.word = text.word;
    if (recipient.userId !== null && rules.burst.new_account_hours > 0) {
      const ageHours = (Date.now() - Date.parse(sender.signupDate)) / 3_600_000;
      if (ageHours < rules.burst.new_account_hours) {
        const recipients = (await membersWrittenTo(trx, sender.profileId, recipient.profileId)) + 1;
        if (burstHolds(rules.burst, { ageHours, recipients })) {
          why.reasons.push('burst');
          why.recipients = recipients;
          why.max_recipients = rules.burst.max_recipients;
        }
      }
    }
    const held = recipient.userId !== null && why.reasons.length > 0;
    return { body: text ? text.text : what.body, hold: held ? JSON.stringify(why) : null };
  };

  /** A held message in the staff member's scope, or 404 (another brand's does not exist for them). */
  async function heldInScope(trx: Transaction<Database>, staff: StaffView, id: number) {
    const row = await trx
      .selectFrom('messages as m')
      .innerJoin('profiles as sender', 'sender.id', 'm.sender_profile_id')
      .innerJoin('conversation_members as cm', (join) => join.onRef('cm.conversation_id', '=', 'm.conversation_id').onRef('cm.profile_id', '!=', 'm.sender_profile_id'))
      .innerJoin('profiles as recipient', 'recipient.id', 'cm.profile_id')
      .select(['m.id', 'm.conversation_id', 'm.credits', 'm.hold_status', 'sender.tenant_id', 'sender.user_id as sender_user_id', 'recipient.id as recipient_profile_id', 'recipient.user_id as recipient_user_id'])
      .where('m.id', '=', id)
      .where('m.hold_status', 'is not', null)
      .executeTakeFirst();
    if (!row || !inScope(staff, row.tenant_id)) throw notFound();
    return row;
  }

  return {
    screen,

    /** GET /api/console/held: the held messages of the brands in scope, oldest first, a page after `after`. */
    async queue(staff: StaffView, input: HeldQueueInput): Promise<{ messages: HeldMessage[]; next: number | null }> {
      const brands = brandsToQuery(staff, input.brand);
      const rows = await db
        .selectFrom('messages as m')
        .innerJoin('profiles as sender', 'sender.id', 'm.sender_profile_id')
        .innerJoin('users', 'users.id', 'sender.user_id')
        .innerJoin('conversation_members as cm', (join) => join.onRef('cm.conversation_id', '=', 'm.conversation_id').onRef('cm.profile_id', '!=', 'm.sender_profile_id'))
        .select(['m.id', 'm.created_at', 'm.kind', 'm.body', 'm.credits', 'm.hold_reasons', 'm.conversation_id', 'sender.id as sender_profile_id', 'sender.tenant_id', 'users.id as user_id', 'users.signup_date', 'users.suspended_at', 'cm.profile_id as recipient_profile_id'])
        .where('m.hold_status', '=', 'held')
        .where(brandCondition('sender.tenant_id', brands))
        .$if(input.after !== undefined, (qb) => qb.where('m.id', '>', input.after!))
        .orderBy('m.id')
        .limit(HELD_PAGE_SIZE + 1)
        .execute();
      const page = rows.slice(0, HELD_PAGE_SIZE);
      const profileIds = [...new Set(page.flatMap((r) => [r.sender_profile_id, r.recipient_profile_id]))];
      const cards = new Map(profileIds.length ? (await profileCards(db, await db.selectFrom('profiles').select(CARD_COLUMNS).where('profiles.id', 'in', profileIds).execute())).map((c) => [c.row.id, c.card]) : []);
      const since = new Date(Date.now() - RECENT_SENDS_HOURS * 3_600_000).toISOString();
      const senders = [...new Set(page.map((r) => r.sender_profile_id))];
      const recent = new Map(
        senders.length
          ? (
              await db
                .selectFrom('messages')
                .select((eb) => ['sender_profile_id', eb.fn.countAll<number | string>().as('sends'), eb.fn.count<number | string>('conversation_id').distinct().as('conversations')])
                .where('sender_profile_id', 'in', senders)
                .where('created_at', '>=', since)
                .groupBy('sender_profile_id')
                .execute()
            ).map((r) => [r.sender_profile_id, { sends: Number(r.sends), conversations: Number(r.conversations) }])
          : [],
      );
      return {
        messages: page.map((r) => ({
          id: r.id,
          brand: r.tenant_id,
          created_at: r.created_at,
          kind: r.kind,
          text: r.kind === 'text' ? r.body : null,
          credits: r.credits,
          why: JSON.parse(r.hold_reasons ?? '{"reasons":[]}') as HoldWhy,
          conversation_id: r.conversation_id,
          sender: {
            user_id: r.user_id,
            card: cards.get(r.sender_profile_id)!,
            signup_date: r.signup_date,
            suspended: r.suspended_at !== null,
            recent_sends: recent.get(r.sender_profile_id)?.sends ?? 0,
            recent_recipients: recent.get(r.sender_profile_id)?.conversations ?? 0,
          },
          recipient: cards.get(r.recipient_profile_id)!,
        })),
        next: rows.length > HELD_PAGE_SIZE ? page.at(-1)!.id : null,
      };
    },

    /**
     * POST /api/console/held/{id}: releases (delivered live at once, as a normal send) or rejects
     * (credits back through the ledger with the reason; the sender sees it not delivered) one held
     * message. One conditional update decides: of two moderators at once, the second gets 409.
     */
    async decide(staff: StaffView, id: number, decision: { action: HeldAction; reason: string }, ip: string): Promise<{ id: number; status: 'released' | 'rejected' }> {
      const status = decision.action === 'release' ? 'released' : 'rejected';
      const done = await db.transaction().execute(async (trx) => {
        const row = await heldInScope(trx, staff, id);
        const now = nowIso();
        const updated = await trx
          .updateTable('messages')
          // Released: the notifier's claim (notified_at) opens again, so its push and mail go out as for any send.
          .set({ hold_status: status, hold_decided_at: now, hold_decided_by: staff.id, hold_note: decision.reason, ...(status === 'released' ? { notified_at: null } : {}) })
          .where('id', '=', id)
          .where('hold_status', '=', 'held')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new AppError('console_already', 409);
        let balance: number | null = null;
        if (status === 'released') await reachRecipient(trx, { conversationId: row.conversation_id, recipientProfileId: row.recipient_profile_id, messageId: id, at: now });
        else if (row.credits > 0 && row.sender_user_id !== null) {
          ({ balance } = await grant(trx, { userId: row.sender_user_id, credits: row.credits, reason: 'not_delivered', ref: String(id), note: decision.reason }));
        }
        await audit(trx, { staff, action: status === 'released' ? 'held_release' : 'held_reject', brand: row.tenant_id, object: { type: 'message', id }, reason: decision.reason, ip, details: { member: row.sender_user_id, credits: status === 'rejected' ? row.credits : 0 } });
        const first = await trx.selectFrom('messages').select((eb) => eb.fn.min('id').as('id')).where('conversation_id', '=', row.conversation_id).where(shownTo(row.recipient_profile_id, 'messages')).executeTakeFirst();
        return { row, balance, first: Number(first?.id) === id };
      });
      const { row, balance } = done;
      try {
        if (status === 'released' && row.recipient_user_id !== null) await deps.chat().announce({ id, conversationId: row.conversation_id, recipientUserId: row.recipient_user_id, first: done.first });
        if (balance !== null && row.sender_user_id !== null) await publishToMember(bus, row.sender_user_id, { type: 'credits', balance });
      } catch (error) {
        log(`held message ${id}: ${(error as Error).message}`);
      }
      return { id, status };
    },

    /** GET /api/console/safety: the effective rules of each brand in scope (or the one asked for). */
    settings(staff: StaffView, brand?: string): { brands: Array<{ id: string; name: string; safety: SafetyRules }> } {
      const brands = brandsToQuery(staff, brand);
      const tenants = deps.tenants().filter((t) => amongBrands(brands, t.id));
      if (brand !== undefined && tenants.length === 0) throw notFound();
      return { brands: tenants.map((t) => ({ id: t.id, name: t.name, safety: safetyRules(t) })) };
    },
  };
}

export type MessageSafety = ReturnType<typeof createMessageSafety>;
