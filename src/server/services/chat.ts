import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { BusEvent, EventBus } from '../bus.ts';
import type { SpendReason } from '../../contract/credits.ts';
import {
  CHAT_HISTORY_LIMIT,
  CHATS_LIMIT,
  type ChatItem,
  type ChatMessage,
  type ChatsAnswer,
  type Conversation,
  type MessageKind,
  type ReplyBlock,
  type SendAnswer,
  type SendInput,
} from '../../contract/chat.ts';
import { FREE_CONVERSATIONS } from '../../lib/membership.ts';
import { giftCatalogue } from '../../lib/gifts.ts';
import { AppError, notFound } from '../errors.ts';
import { lockProfiles, nowIso } from '../db/engine.ts';
import { spend } from '../ledger.ts';
import { publishToMember, toMember } from './events.ts';
import { toConsole } from './console-events.ts';
import { waitingSince } from './inbox-waiting.ts';
import { visibleTarget, type Liker } from './likes.ts';
import { reachesAcross, type ScopeOf } from './pool.ts';
import { CARD_COLUMNS, profileCards } from './cards.ts';
import { mediaUrl } from '../media-address.ts';
import { deleteFiles, storeImage, type PhotoUpload } from './photos.ts';
import type { MediaStore } from '../media-store.ts';
import { initialPhotoStatus, isPublicPhoto, type PhotoModeration, type PhotoStatus } from '../../lib/photo-screening.ts';
import type { HoldStatus } from '../../lib/safety-rules.ts';
import type { GifProvider } from '../data/gifs.ts';

/**
 * The safety rules' look at a message before it is stored (services/message-safety.ts): the text to
 * store, and why it is held (JSON) or null when it is delivered.
 */
export type MessageScreen = (
  trx: Transaction<Database>,
  tenant: Tenant,
  /** The member writing, with their signup date as the send's transaction read it. */
  sender: Liker & { signupDate: string },
  recipient: { profileId: number; userId: number | null },
  what: { kind: MessageKind; body: string | null },
) => Promise<{ body: string | null; hold: string | null }>;

/** The refusals of the chat, each with its catalogue message (API.md "Chat"). */
export const chatError = {
  empty: () => new AppError('message_empty', 400, { field: 'text' }),
  tooLong: (max: number) => new AppError('message_too_long', 400, { field: 'text', params: { max } }),
  gift: () => new AppError('gift_unknown', 400, { field: 'gift' }),
  gif: () => new AppError('gif_unknown', 400, { field: 'gif' }),
  unconfirmed: () => new AppError('email_unconfirmed', 403),
  /** SPEC §9: a free member starts at most 2 conversations. */
  premium: () => new AppError('premium_only', 403, { key: 'premium_only', extra: { premium_required: true } }),
  /** A fictional profile staff retired (issue 22): its conversation stays readable, closed to new messages. */
  retired: () => new AppError('profile_retired', 409),
  /**
   * A conversation across brands the two members no longer reach each other in (issue 24): the
   * other's brand left the pool, or either chose to be shown on their own brand only. Both
   * profiles are active; it stays readable, closed to new messages, and opens again with the pool.
   */
  outOfReach: () => new AppError('conversation_closed', 409),
};

/**
 * Who sends: a member, or a fictional profile answered by staff (the console's inbox, issue 22:
 * no user, nothing charged; the inbox service checks the claim in `alongside`).
 */
export interface Sender {
  userId: number | null;
  profileId: number;
}

/** Runs in the transaction that stores a message, after it is stored: a refusal (a throw) undoes the message. */
export type Alongside = (trx: Transaction<Database>, message: { id: number; conversation_id: number; created_at: string }) => Promise<void>;

/** The ledger reason of each kind: a GIF is a message like a text. */
const REASON: Record<MessageKind, SpendReason> = { text: 'message', gif: 'message', photo: 'photo', gift: 'gift' };

/** A preview in the chats list shows this much of a text. */
const PREVIEW_CHARS = 80;

type MessageRow = Pick<Database['messages'], 'conversation_id' | 'sender_profile_id' | 'kind' | 'body' | 'media' | 'client_id' | 'notified_at'> & {
  id: number;
  photo_status: PhotoStatus | null;
  hold_status: HoldStatus | null;
  hold_note: string | null;
  credits: number;
  created_at: string;
};

export interface ChatServiceDeps {
  db: Kysely<Database>;
  bus: EventBus;
  gifs: GifProvider;
  /** Where sent photos are stored (media-store.ts). */
  media: MediaStore;
  /** Whose profiles a brand's members reach (services/pool.ts): a conversation with a member out of reach (a brand that left the pool, a choice of own brand only) is closed. */
  scopeOf: ScopeOf;
  /** The brand's photo_moderation by tenant id (issue 22): `before` holds a chat photo back from the recipient until approved. */
  moderationOf?: (tenantId: string) => PhotoModeration;
  /**
   * The brand's safety rules on a member's message (issue 22, services/message-safety.ts), in the
   * send's transaction: the text to store (contact details masked) and whether it is held.
   */
  screen?: MessageScreen;
  /** Called after a message is committed (push and mail to the recipient). */
  onMessage?: (message: { id: number; conversationId: number; recipientUserId: number; first: boolean }) => void;
}

/**
 * Conversations and their messages (SPEC §3 conversation and chat item, §4 chat): a member writes
 * to a profile they may see; the first message starts a conversation (a free member starts at
 * most 2), every message costs credits, paid through the ledger in the transaction that stores
 * it. Both members' tabs hear of each change over the event bus (DESIGN §9).
 */
/**
 * The one decision of whether a member may write to another now, a send's and typing's: a block
 * either way or a profile gone is 404, an unconfirmed address 403, a conversation closed (a retired
 * fictional profile, members out of each other's reach) 409; in this order.
 */
function refuseWrite<Other extends { status: string | null }>(facts: { blocked: boolean; user: { status: string | null } | null; other: Other | null | undefined; closed: 'retired' | 'out_of_reach' | null }): Other {
  if (facts.blocked) throw notFound();
  if (facts.user?.status === 'not_confirmed') throw chatError.unconfirmed();
  if (!facts.other || facts.other.status !== 'active') throw notFound();
  if (facts.closed === 'retired') throw chatError.retired();
  if (facts.closed === 'out_of_reach') throw chatError.outOfReach();
  return facts.other;
}

export function createChatService(deps: ChatServiceDeps) {
  const { db, bus, gifs, media } = deps;

  async function toMessages(rows: MessageRow[], me: number): Promise<ChatMessage[]> {
    const gifIds = [...new Set(rows.filter((r) => r.kind === 'gif' && r.media).map((r) => r.media!))];
    const found = new Map((await Promise.all(gifIds.map((id) => gifs.get(id)))).filter((g) => g !== null).map((g) => [g.id, g]));
    return rows.map((r) => ({
      id: r.id,
      mine: r.sender_profile_id === me,
      kind: r.kind,
      text: r.kind === 'text' ? r.body : null,
      // A chat photo waiting for screening or rejected is its sender's alone: the recipient gets a placeholder (issue 22).
      photo:
        r.kind === 'photo' && r.media && (r.sender_profile_id === me || isPublicPhoto(r.photo_status ?? 'active'))
          ? { url: mediaUrl(r.media), thumb_url: mediaUrl(r.media.replace(/\.webp$/, '-t.webp')) }
          : null,
      ...(r.kind === 'photo' ? { photo_status: r.photo_status ?? 'active' } : {}),
      gift: r.kind === 'gift' && r.media ? { id: r.media, credits: r.credits } : null,
      gif: r.kind === 'gif' && r.media ? (found.get(r.media) ?? null) : null,
      // A held message looks sent to its sender (a scammer is not told they were caught); a rejected
      // one is marked not delivered, with the moderator's reason (DSA art. 17). Others never see either.
      ...(r.hold_status === 'rejected' ? { not_delivered: { reason: r.hold_note ?? '' } } : {}),
      created_at: r.created_at,
    }));
  }

  const MESSAGE_COLUMNS = ['messages.id', 'messages.conversation_id', 'messages.sender_profile_id', 'messages.kind', 'messages.body', 'messages.media', 'messages.credits', 'messages.client_id', 'messages.notified_at', 'messages.created_at', 'messages.photo_status', 'messages.hold_status', 'messages.hold_note'] as const;

  /** The member's side of a conversation, by id or by the other profile. */
  function side(q: Kysely<Database> | Transaction<Database>, me: number, by: { conversationId?: number; profileId?: number }) {
    let query = q.selectFrom('conversation_members as cm').innerJoin('conversations as c', 'c.id', 'cm.conversation_id').select(['cm.conversation_id', 'cm.other_profile_id', 'cm.unread', 'cm.last_read_id', 'cm.cleared_id', 'c.last_message_id', 'c.started_by']).where('cm.profile_id', '=', me);
    if (by.conversationId !== undefined) query = query.where('cm.conversation_id', '=', by.conversationId);
    else query = query.where('cm.other_profile_id', '=', by.profileId!);
    return query.executeTakeFirst();
  }

  /**
   * The other profile of a conversation with its member's status (null for a fictional profile),
   * of any brand: a conversation is one across the brands of a pool (issue 24). `closed`: why the
   * conversation is closed to new messages, still readable: `retired`, a fictional profile staff
   * retired; `out_of_reach`, the two no longer reach each other across brands (pool.ts
   * reachesAcross: its brand left the pool, or either member chose their own brand only).
   */
  async function otherOf(q: Kysely<Database> | Transaction<Database>, tenant: Tenant, me: number, profileId: number) {
    const other = await q
      .selectFrom('profiles')
      .leftJoin('users', 'users.id', 'profiles.user_id')
      .select([...CARD_COLUMNS, 'profiles.tenant_id', 'profiles.status', 'profiles.user_id', 'profiles.retired_at', 'profiles.pooled', 'users.status as user_status'])
      .select((eb) => eb.selectFrom('profiles as mine').select('mine.pooled').where('mine.id', '=', me).as('my_pooled'))
      .where('profiles.id', '=', profileId)
      .executeTakeFirst();
    if (!other) return other;
    return { ...other, closed: closedOf(tenant, other.my_pooled, other) };
  }

  /** Why a conversation with `other` is closed to new messages (otherOf), or null. */
  function closedOf(tenant: Tenant, myPooled: number | null, other: { retired_at: string | null; tenant_id: string; pooled: number }): 'retired' | 'out_of_reach' | null {
    if (other.retired_at !== null) return 'retired';
    return reachesAcross(deps.scopeOf(tenant), myPooled ?? 1, other) ? null : 'out_of_reach';
  }

  /**
   * Whether `me` may write to the other profile now, for typing: the facts read one by one and
   * decided by refuseWrite, as a send decides from its one statement (sendFacts). Answers the
   * sender's user (null for staff answering as a fictional profile) and the other profile.
   */
  async function mayWrite(q: Kysely<Database> | Transaction<Database>, tenant: Tenant, me: Sender, otherId: number) {
    const blocked = await q
      .selectFrom('blocks')
      .select('id')
      .where((eb) => eb.or([eb.and([eb('blocker_profile_id', '=', me.profileId), eb('blocked_profile_id', '=', otherId)]), eb.and([eb('blocker_profile_id', '=', otherId), eb('blocked_profile_id', '=', me.profileId)])]))
      .executeTakeFirst();
    const user = me.userId === null ? null : await q.selectFrom('users').select(['status', 'paid_user', 'signup_date']).where('id', '=', me.userId).executeTakeFirstOrThrow();
    const found = blocked ? undefined : await otherOf(q, tenant, me.profileId, otherId);
    return { user, other: refuseWrite({ blocked: Boolean(blocked), user, other: found, closed: found?.closed ?? null }) };
  }


  /** Conversations a profile ever started: a counter, since blocks and removals delete conversations. */
  async function conversationsStarted(q: Kysely<Database> | Transaction<Database>, me: number): Promise<number> {
    const row = await q.selectFrom('profiles').select('conversations_started').where('id', '=', me).executeTakeFirstOrThrow();
    return row.conversations_started;
  }

  /** Validates what is sent before any transaction: the text's length, the gift, the GIF. */
  async function content(tenant: Tenant, input: SendInput): Promise<{ kind: MessageKind; body: string | null; media: string | null; credits: number }> {
    if (input.kind === 'gift') {
      const gift = giftCatalogue(tenant).find((g) => g.id === input.gift);
      if (!gift) throw chatError.gift();
      return { kind: 'gift', body: null, media: gift.id, credits: gift.credits };
    }
    if (input.kind === 'gif') {
      const gif = input.gif ? await gifs.get(input.gif) : null;
      if (!gif) throw chatError.gif();
      return { kind: 'gif', body: null, media: gif.id, credits: tenant.message_credits };
    }
    const text = (input.text ?? '').trim();
    if (!text) throw chatError.empty();
    if ([...text].length > tenant.message_length) throw chatError.tooLong(tenant.message_length);
    return { kind: 'text', body: text, media: null, credits: tenant.message_credits };
  }

  /**
   * What a send needs to know, in one statement read after the lock: the sender's side of the
   * conversation (none before a first message), the sender's account (none for a fictional
   * profile), the other profile with its member's status, whether either blocked the other, and
   * the message already stored under the client id, if any.
   */
  function sendFacts(trx: Transaction<Database>, me: Sender, target: { conversationId?: number; profileId?: number }, clientId: string) {
    return trx
      .selectFrom('profiles as mine')
      .leftJoin('conversation_members as cm', (join) => {
        const mineOnly = join.onRef('cm.profile_id', '=', 'mine.id');
        return target.conversationId !== undefined ? mineOnly.on('cm.conversation_id', '=', target.conversationId) : mineOnly.on('cm.other_profile_id', '=', target.profileId!);
      })
      .leftJoin('profiles', (join) => (target.conversationId !== undefined ? join.onRef('profiles.id', '=', 'cm.other_profile_id') : join.on('profiles.id', '=', target.profileId!)))
      .leftJoin('users', 'users.id', 'profiles.user_id')
      .leftJoin('users as sender', 'sender.id', 'mine.user_id')
      .select([...CARD_COLUMNS, 'profiles.tenant_id', 'profiles.status', 'profiles.user_id', 'profiles.retired_at', 'profiles.pooled', 'users.status as user_status'])
      .select(['cm.conversation_id', 'mine.pooled as my_pooled', 'mine.conversations_started', 'sender.status as sender_status', 'sender.paid_user', 'sender.signup_date', 'sender.credits'])
      .select((eb) => [
        eb
          .exists(
            eb
              .selectFrom('blocks')
              .select('blocks.id')
              .where((b) =>
                b.or([
                  b.and([b('blocks.blocker_profile_id', '=', me.profileId), b('blocks.blocked_profile_id', '=', b.ref('profiles.id'))]),
                  b.and([b('blocks.blocker_profile_id', '=', b.ref('profiles.id')), b('blocks.blocked_profile_id', '=', me.profileId)]),
                ]),
              ),
          )
          .as('blocked'),
        eb.selectFrom('messages').select('messages.id').where('messages.sender_profile_id', '=', me.profileId).where('messages.client_id', '=', clientId).as('repeated_id'),
      ])
      .where('mine.id', '=', me.profileId)
      .executeTakeFirst();
  }

  /** The events of a stored message, published with its commit (`EventBus.within`). */
  function sendEvents(me: Sender, row: MessageRow, other: { user_id: number | null; tenant_id: string }, credits: number): BusEvent[] {
    const reached = row.hold_status !== 'held';
    const message = { type: 'message', conversation_id: row.conversation_id, message_id: row.id } as const;
    return [
      // The recipient's first. A held message reaches its recipient only when a moderator releases it (announce then).
      ...(other.user_id !== null && reached ? [toMember(other.user_id, message)] : []),
      // A message to a fictional profile: the console's open inbox pages hear of it (issue 22).
      ...(other.user_id === null && reached ? [toConsole({ type: 'inbox_message', brand: other.tenant_id, conversation_id: row.conversation_id })] : []),
      ...(me.userId !== null ? [toMember(me.userId, message)] : []),
      ...(me.userId !== null && row.credits > 0 ? [toMember(me.userId, { type: 'credits', balance: credits })] : []),
    ];
  }

  /**
   * Stores one message and charges it, in one transaction: never a charged message that was not
   * stored, never a stored message that was not charged, never a balance below 0. A send repeated
   * with the same client_id answers the stored message and charges nothing. Its events go with the
   * commit (`published`: this process's subscribers, to call once committed); none for a repeat.
   */
  async function store(tenant: Tenant, me: Sender, target: { conversationId?: number; profileId?: number }, clientId: string, what: { kind: MessageKind; body: string | null; media: string | null; credits: number; photoStatus?: PhotoStatus }, alongside?: Alongside) {
    return db.transaction().execute(async (trx) => {
      // Both profiles' rows are the lock that serializes sends between the two (PostgreSQL; SQLite
      // runs one write transaction at a time): two tabs starting the same conversation, the two
      // members starting it at once, a free member's count of conversations. Everything the send
      // checks is read after it; a block (which deletes the conversation) may have come in before.
      const theOther = target.profileId ?? trx.selectFrom('conversation_members').select('other_profile_id').where('conversation_id', '=', target.conversationId!).where('profile_id', '=', me.profileId).$asScalar();
      await lockProfiles(trx, [me.profileId, theOther]);
      const facts = await sendFacts(trx, me, target, clientId);
      if (!facts || (facts.conversation_id === null && target.conversationId !== undefined)) throw notFound();
      const user = me.userId === null ? null : { status: facts.sender_status!, paid_user: facts.paid_user!, signup_date: facts.signup_date! };
      const found = facts.id === null ? null : { ...facts, id: facts.id, tenant_id: facts.tenant_id!, pooled: facts.pooled! };
      const other = refuseWrite({ blocked: Boolean(facts.blocked), user, other: found, closed: found && closedOf(tenant, facts.my_pooled, found) });
      const balance = me.userId === null ? 0 : facts.credits!;

      if (facts.repeated_id !== null) {
        const repeated = await trx.selectFrom('messages').select(MESSAGE_COLUMNS).where('id', '=', facts.repeated_id).executeTakeFirstOrThrow();
        return { row: repeated, credits: balance, other, first: false, repeated: true, published: () => undefined };
      }

      // Staff replies as a fictional profile are checked by the inbox (staffReplyRefusal), not screened as a member's.
      const screened = deps.screen && me.userId !== null ? await deps.screen(trx, tenant, { userId: me.userId, profileId: me.profileId, signupDate: user!.signup_date }, { profileId: other.id, userId: other.user_id }, what) : null;
      const held = screened?.hold !== undefined && screened.hold !== null;
      let conversationId = facts.conversation_id ?? undefined;
      const now = nowIso();
      const first = conversationId === undefined;
      if (conversationId === undefined) {
        // Staff answer in conversations members started; a fictional profile never starts one.
        if (!user || me.userId === null) throw notFound();
        if (user.paid_user !== 1 && facts.conversations_started >= FREE_CONVERSATIONS) throw chatError.premium();
        // A conversation is the starter's brand's; one with a fictional profile is the profile's brand's,
        // whose staff answer it in the console's inbox (issue 24: the member may be of another brand of the pool).
        const brand = other.fictional === 1 && other.user_id === null ? other.tenant_id : tenant.id;
        const created = await trx.insertInto('conversations').values({ tenant_id: brand, started_by: me.profileId, created_at: now }).returning('id').executeTakeFirstOrThrow();
        await trx.updateTable('profiles').set((eb) => ({ conversations_started: eb('conversations_started', '+', 1) })).where('id', '=', me.profileId).execute();
        conversationId = created.id;
        await trx
          .insertInto('conversation_members')
          .values([
            { conversation_id: conversationId, profile_id: me.profileId, other_profile_id: other.id, last_message_at: now, hidden: 0 },
            // A conversation whose first message is held stays out of the recipient's list until released.
            { conversation_id: conversationId, profile_id: other.id, other_profile_id: me.profileId, last_message_at: now, hidden: held ? 1 : 0 },
          ])
          .execute();
      }
      const row = await trx
        .insertInto('messages')
        .values({
          conversation_id: conversationId,
          sender_profile_id: me.profileId,
          kind: what.kind,
          body: screened?.body ?? what.body,
          media: what.media,
          photo_status: what.photoStatus ?? null,
          credits: what.credits,
          client_id: clientId,
          created_at: now,
          // Nobody to notify: a fictional profile, or a recipient the message does not reach (yet).
          notified_at: other.user_id === null || held ? now : null,
          hold_status: held ? 'held' : null,
          hold_reasons: screened?.hold ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const credits = what.credits > 0 && me.userId !== null ? (await spend(trx, { userId: me.userId, credits: what.credits, reason: REASON[what.kind], ref: String(row.id) })).balance : balance;
      await trx.updateTable('conversation_members').set({ hidden: 0, last_read_id: row.id, unread: 0, last_message_at: now }).where('conversation_id', '=', conversationId).where('profile_id', '=', me.profileId).execute();
      if (!held) await reachRecipient(trx, { conversationId, recipientProfileId: other.id, messageId: row.id, at: now });
      await alongside?.(trx, row);
      const published = await bus.within(trx, sendEvents(me, row, other, credits));
      return { row, credits, other, first, repeated: false, published };
    });
  }

  return {
    /** GET /api/chats.php (SPEC §7): the member's conversations, newest first, and the unread total. */
    async list(tenant: Tenant, me: Liker): Promise<ChatsAnswer> {
      const rows = await db
        .selectFrom('conversation_members as cm')
        .innerJoin('profiles', 'profiles.id', 'cm.other_profile_id')
        .innerJoin('conversations as c', 'c.id', 'cm.conversation_id')
        .leftJoin('messages as m', (join) =>
          // The newest message the member sees: delivered ones, and their own (held ones too).
          join.on((eb) =>
            eb(
              'm.id',
              '=',
              eb.selectFrom('messages as l').select((l) => l.fn.max('l.id').as('id')).whereRef('l.conversation_id', '=', 'cm.conversation_id').whereRef('l.id', '>', 'cm.cleared_id').where(shownTo(me.profileId, 'l')),
            ),
          ),
        )
        .select([...CARD_COLUMNS, 'cm.conversation_id', 'cm.unread', 'm.id as message_id', 'm.sender_profile_id', 'm.kind', 'm.body', 'm.created_at as message_at'])
        .where('cm.profile_id', '=', me.profileId)
        .where('cm.hidden', '=', 0)
        // Conversations with members of the pool's other brands too, and of a brand that left it (closed, still readable).
        .where('profiles.status', '=', 'active')
        .orderBy('cm.last_message_at', 'desc')
        .orderBy('cm.conversation_id', 'desc')
        .limit(CHATS_LIMIT)
        .execute();
      const cards = await profileCards(db, rows);
      const chats: ChatItem[] = cards.map(({ row, card }) => ({
        conversation: { id: row.conversation_id },
        profile: card,
        num_unread_messages: row.unread,
        last_message:
          row.message_id === null
            ? null
            : {
                id: row.message_id,
                mine: row.sender_profile_id === me.profileId,
                kind: row.kind!,
                text: row.kind === 'text' && row.body ? [...row.body].slice(0, PREVIEW_CHARS).join('') : null,
                created_at: row.message_at!,
              },
      }));
      return { chats, total_unread: await this.unreadCount(me) };
    },

    /**
     * Unread messages of every conversation in the member's list (the messages badge, SPEC §2):
     * the same conversations the list shows, so a profile deactivated since adds nothing.
     */
    async unreadCount(me: Liker): Promise<number> {
      const { n } = await db
        .selectFrom('conversation_members as cm')
        .innerJoin('profiles', 'profiles.id', 'cm.other_profile_id')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('cm.unread'), sql.lit(0)).as('n'))
        .where('cm.profile_id', '=', me.profileId)
        .where('cm.hidden', '=', 0)
        .where('profiles.status', '=', 'active')
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /**
     * GET /api/chat.php: a conversation by id or with a profile (there may be none yet), its last
     * messages (older ones hidden for privacy), whether the member may write, and why not. Opening
     * marks it read (SPEC §4) and tells the other member's tabs; `after` only answers newer messages.
     */
    async open(tenant: Tenant, me: Liker, query: { id?: number; profile_id?: number; after?: number; read: boolean }): Promise<Conversation> {
      const found = await side(db, me.profileId, { conversationId: query.id, profileId: query.profile_id });
      // A conversation nothing has reached yet (its first message held) is not its recipient's until released.
      const mine = found && (found.started_by === me.profileId || found.last_message_id > 0) ? found : undefined;
      if (!mine && query.id !== undefined) throw notFound();
      // Without a conversation the profile must be one the member may see.
      const otherId = mine ? mine.other_profile_id : (await visibleTarget(db, deps.scopeOf(tenant), me, query.profile_id!)).id;
      const other = await otherOf(db, tenant, me.profileId, otherId);
      if (!other || other.status !== 'active') throw notFound();
      const [card] = await profileCards(db, [other]);
      const user = await db.selectFrom('users').select(['status', 'paid_user']).where('id', '=', me.userId).executeTakeFirstOrThrow();
      const replyBlock: ReplyBlock = user.status === 'not_confirmed' ? 'confirm_email' : other.closed ?? (other.user_status === 'not_confirmed' ? 'other_unconfirmed' : null);
      const needsPremium = !found && user.paid_user !== 1 && (await conversationsStarted(db, me.profileId)) >= FREE_CONVERSATIONS;
      const answer: Conversation = { conversation: null, profile: card!.card, can_send: replyBlock !== 'confirm_email' && replyBlock !== 'retired' && replyBlock !== 'out_of_reach' && !needsPremium, reply_block: replyBlock, needs_premium: needsPremium };
      if (!mine) return answer;

      const from = Math.max(mine.cleared_id, query.after ?? 0);
      const rows = (await db
        .selectFrom('messages')
        .select(MESSAGE_COLUMNS)
        .where('conversation_id', '=', mine.conversation_id)
        .where('id', '>', from)
        .where(shownTo(me.profileId, 'messages'))
        .orderBy('id', query.after === undefined ? 'desc' : 'asc')
        .limit(CHAT_HISTORY_LIMIT + 1)
        .execute()) as MessageRow[];
      const olderHidden = query.after === undefined && rows.length > CHAT_HISTORY_LIMIT;
      const shown = query.after === undefined ? rows.slice(0, CHAT_HISTORY_LIMIT).reverse() : rows.slice(0, CHAT_HISTORY_LIMIT);
      const theirs = await db.selectFrom('conversation_members').select('last_read_id').where('conversation_id', '=', mine.conversation_id).where('profile_id', '=', otherId).executeTakeFirst();
      answer.conversation = { id: mine.conversation_id, messages: await toMessages(shown, me.profileId), older_hidden: olderHidden, read_up_to: theirs?.last_read_id ?? 0 };

      if (query.read && (mine.unread > 0 || mine.last_read_id < mine.last_message_id)) {
        await db.updateTable('conversation_members').set({ unread: 0, last_read_id: mine.last_message_id }).where('conversation_id', '=', mine.conversation_id).where('profile_id', '=', me.profileId).execute();
        await publishToMember(bus, me.userId, { type: 'chats' });
        if (other.user_id !== null) await publishToMember(bus, other.user_id, { type: 'read', conversation_id: mine.conversation_id, message_id: mine.last_message_id });
      }
      return answer;
    },

    /** POST /api/chat.php: a text, gift or GIF message (SPEC §3 costs). */
    async send(tenant: Tenant, me: Liker, input: SendInput): Promise<SendAnswer> {
      const what = await content(tenant, input);
      if (input.profile_id !== undefined && !(await side(db, me.profileId, { profileId: input.profile_id }))) await visibleTarget(db, deps.scopeOf(tenant), me, input.profile_id);
      return this.deliver(tenant, me, { conversationId: input.conversation_id, profileId: input.profile_id }, input.client_id, what);
    },

    /** POST /api/chat.php?photo=1: a photo, re-encoded as profile photos are, at photo_credits. */
    async sendPhoto(tenant: Tenant, me: Liker, target: { conversationId?: number; profileId?: number }, clientId: string, file: PhotoUpload): Promise<SendAnswer> {
      if (target.profileId !== undefined && !(await side(db, me.profileId, { profileId: target.profileId }))) await visibleTarget(db, deps.scopeOf(tenant), me, target.profileId);
      const { filename, thumbFilename } = await storeImage(media, tenant.id, file);
      try {
        const answer = await this.deliver(tenant, me, target, clientId, { kind: 'photo', body: null, media: filename, credits: tenant.photo_credits, photoStatus: initialPhotoStatus(deps.moderationOf?.(tenant.id) ?? tenant.photo_moderation) });
        // A repeated send keeps the photo stored the first time.
        if (answer.message.photo?.url !== mediaUrl(filename)) await deleteFiles(media, [filename, thumbFilename]);
        return answer;
      } catch (error) {
        await deleteFiles(media, [filename, thumbFilename]);
        throw error;
      }
    },

    /** Stores and charges a message; both members' tabs hear of it with the commit. */
    async deliver(tenant: Tenant, me: Sender, target: { conversationId?: number; profileId?: number }, clientId: string, what: { kind: MessageKind; body: string | null; media: string | null; credits: number; photoStatus?: PhotoStatus }, alongside?: Alongside): Promise<SendAnswer> {
      const { row, credits, other, first, repeated, published } = await store(tenant, me, target, clientId, what, alongside);
      published();
      // Pushed and mailed by the recipient's preference; a held message when a moderator releases it (announce).
      if (!repeated && other.user_id !== null && row.hold_status !== 'held') deps.onMessage?.({ id: row.id, conversationId: row.conversation_id, recipientUserId: other.user_id, first });
      const [message] = await toMessages([row], me.profileId);
      return { conversation_id: row.conversation_id, message: message!, credits };
    },

    /**
     * The last messages of a conversation as `viewer` (a profile of it) sees them, oldest first:
     * the console's fictional inbox reads a conversation as its fictional profile (issue 22).
     */
    async history(conversationId: number, viewer: number): Promise<ChatMessage[]> {
      const rows = (await db.selectFrom('messages').select(MESSAGE_COLUMNS).where('conversation_id', '=', conversationId).where(shownTo(viewer, 'messages')).orderBy('id', 'desc').limit(CHAT_HISTORY_LIMIT).execute()) as MessageRow[];
      return toMessages(rows.reverse(), viewer);
    },

    /** Tells the recipient's tabs of a message that reached them, and pushes and mails it by preference (after the commit). */
    async announce(message: { id: number; conversationId: number; recipientUserId: number; first: boolean }): Promise<void> {
      await publishToMember(bus, message.recipientUserId, { type: 'message', conversation_id: message.conversationId, message_id: message.id });
      deps.onMessage?.(message);
    },

    /**
     * POST /api/chat-typing.php: tells the other member's tabs that the member is typing, only
     * where a message could be sent (mayWrite, with the send's refusals): never into a closed conversation.
     */
    async typing(tenant: Tenant, me: Liker, conversationId: number): Promise<void> {
      const mine = await side(db, me.profileId, { conversationId });
      if (!mine) throw notFound();
      const { other } = await mayWrite(db, tenant, me, mine.other_profile_id);
      if (other.user_id !== null) await publishToMember(bus, other.user_id, { type: 'typing', conversation_id: conversationId });
    },

    /**
     * DELETE /api/chat.php (SPEC §4): removes the conversation from the member's list and its
     * messages from the member's view; the other member keeps theirs. A new message brings it back.
     */
    async remove(me: Liker, conversationId: number): Promise<void> {
      const result = await db
        .updateTable('conversation_members')
        .set((eb) => ({
          hidden: 1,
          unread: 0,
          // Up to the newest message the member sees (their own held ones included; a message still held for the other member stays theirs to receive).
          cleared_id: eb.fn.coalesce(eb.selectFrom('messages').select((m) => m.fn.max('messages.id').as('id')).where('messages.conversation_id', '=', conversationId).where(shownTo(me.profileId, 'messages')), sql.lit(0)),
        }))
        .where('conversation_id', '=', conversationId)
        .where('profile_id', '=', me.profileId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw notFound();
      await publishToMember(bus, me.userId, { type: 'chats' });
    },

    /**
     * Messages of the member's conversations after `afterId`, oldest first (at most one history's
     * worth): what a reconnecting event stream missed (GET /api/events.php, Last-Event-ID).
     */
    async missed(me: Liker, afterId: number): Promise<{ id: number; conversation_id: number }[]> {
      const mine = () =>
        db
          .selectFrom('messages')
          .innerJoin('conversation_members as cm', (join) => join.onRef('cm.conversation_id', '=', 'messages.conversation_id').on('cm.profile_id', '=', me.profileId))
          .select(['messages.id', 'messages.conversation_id'])
          .whereRef('messages.id', '>', 'cm.cleared_id')
          .where(shownTo(me.profileId, 'messages'));
      // When the last event seen reached the member: a held message released since then arrived
      // after it, whatever its (older) id, and is replayed too.
      const seen = await db.selectFrom('messages').select(['created_at', 'hold_decided_at', 'hold_status']).where('id', '=', afterId).executeTakeFirst();
      const seenAt = seen ? (seen.hold_status === 'released' && seen.hold_decided_at ? seen.hold_decided_at : seen.created_at) : null;
      const [newer, released] = await Promise.all([
        mine().where('messages.id', '>', afterId).orderBy('messages.id').limit(CHAT_HISTORY_LIMIT).execute(),
        seenAt === null
          ? Promise.resolve([])
          : mine().where('messages.id', '<', afterId).where('messages.hold_status', '=', 'released').where('messages.hold_decided_at', '>=', seenAt).orderBy('messages.id').limit(CHAT_HISTORY_LIMIT).execute(),
      ]);
      return [...released, ...newer].slice(0, CHAT_HISTORY_LIMIT);
    },

    /** The newest message id of the member's conversations (0: none): where a new event stream starts. */
    async lastMessageId(me: Liker): Promise<number> {
      const { n } = await db
        .selectFrom('conversation_members as cm')
        .innerJoin('conversations as c', 'c.id', 'cm.conversation_id')
        .select((eb) => eb.fn.coalesce(eb.fn.max<number | null>('c.last_message_id'), sql.lit(0)).as('n'))
        .where('cm.profile_id', '=', me.profileId)
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /** The brand's gifts (GET /api/gifts.php). */
    gifts: (tenant: Tenant) => giftCatalogue(tenant),
  };
}

export type ChatService = ReturnType<typeof createChatService>;

/** Deletes the conversations between two profiles (a block, SPEC §4), in the caller's transaction. */
export async function deleteConversationsBetween(trx: Kysely<Database> | Transaction<Database>, a: number, b: number): Promise<void> {
  await trx
    .deleteFrom('conversations')
    .where('id', 'in', (eb) => eb.selectFrom('conversation_members').select('conversation_id').where('profile_id', '=', a).where('other_profile_id', '=', b))
    .execute();
}

/**
 * Whether a member sees a message (src/lib/safety-rules.ts isDelivered, as SQL): their own, or one
 * delivered to them (not held, or released). Every read of a conversation's messages goes through it.
 */
export function shownTo(profileId: number, table: string) {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  return sql<SqlBool>`(${column('sender_profile_id')} = ${profileId} or ${column('hold_status')} is null or ${column('hold_status')} = 'released')`;
}

/**
 * A message reaches its recipient, in the caller's transaction: the conversation's last delivered
 * message, and the recipient's side back in their list with one more unread. Called when a message
 * is sent, and when a moderator releases a held one (services/message-safety.ts).
 */
export async function reachRecipient(trx: Transaction<Database>, message: { conversationId: number; recipientProfileId: number; messageId: number; at: string }): Promise<void> {
  await trx
    .updateTable('conversations')
    .set((eb) => ({
      last_message_id: eb.case().when('last_message_id', 'is', null).then(message.messageId).when('last_message_id', '<', message.messageId).then(message.messageId).else(eb.ref('last_message_id')).end(),
      // A message that reaches a fictional profile makes the conversation wait in the console's inbox (issue 22).
      waiting_since: waitingSince(eb, message),
    }))
    .where('id', '=', message.conversationId)
    .execute();
  await trx
    .updateTable('conversation_members')
    .set((eb) => ({ hidden: 0, unread: eb('unread', '+', 1), last_message_at: message.at }))
    .where('conversation_id', '=', message.conversationId)
    .where('profile_id', '=', message.recipientProfileId)
    .execute();
}
