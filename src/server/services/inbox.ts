import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { EventBus } from '../bus.ts';
import type { StaffView } from '../../contract/console.ts';
import type { ChatMessage, MessageKind } from '../../contract/chat.ts';
import { FIRST_ANSWER_SAMPLE, INBOX_CLAIM_MINUTES, INBOX_PAGE_SIZE, type InboxInput, type InboxReply } from '../../contract/inbox.ts';
import { nowIso } from '../db/engine.ts';
import { AppError, notFound } from '../errors.ts';
import { staffReplyRefusal } from '../../lib/contact-details.ts';
import { giftCatalogue } from '../../lib/gifts.ts';
import { audit } from './console.ts';
import { amongBrands, brandCondition, brandsToQuery, inScope, type BrandIds } from './brand-scope.ts';
import { CARD_COLUMNS, profileCards } from './cards.ts';
import { mediaUrl } from '../media-address.ts';
import { publishToConsole } from './console-events.ts';
import { chatError, type ChatService } from './chat.ts';
import type { CountryCode } from 'libphonenumber-js';


/** A text preview in the inbox list shows this much. */
const PREVIEW_CHARS = 120;

/** The refusals of the inbox, each with its catalogue message. */
export const inboxError = {
  claimed: (until: string) => new AppError('inbox_claimed', 409, { extra: { claimed_until: until } }),
  claimNeeded: () => new AppError('inbox_claim_needed', 409),
  /** What staffReplyRefusal found, quoted in the message and named in `found`. */
  refused: (found: { kind: string; text: string }) => new AppError('inbox_reply_refused', 400, { field: 'text', params: { found: found.text }, extra: { found } }),
};


const claimEnd = (from = Date.now()) => new Date(from + INBOX_CLAIM_MINUTES * 60_000).toISOString();

export interface InboxDeps {
  db: Kysely<Database>;
  bus: EventBus;
  chat: ChatService;
  tenants: () => Tenant[];
}

/**
 * The fictional inbox of the console (issue 22, DESIGN §10, §11): conversations members hold
 * with fictional profiles whose last message is the member's and unanswered, waiting longest
 * first; one claim per conversation; staff answer as the fictional profile through the chat
 * service (stored as the profile's message, free for the member, live on the member's tabs,
 * push and mail by preference). Members' e-mail addresses and payments never leave this service.
 */
export function createInboxService(deps: InboxDeps) {
  const { db, bus, chat } = deps;

  /** The conversation between a member and a fictional profile, in the staff member's scope; 404 otherwise. */
  async function requireConversation(staff: StaffView, id: number) {
    const row = await db
      .selectFrom('conversations as c')
      .innerJoin('conversation_members as cm', 'cm.conversation_id', 'c.id')
      .innerJoin('profiles as f', 'f.id', 'cm.profile_id')
      .innerJoin('profiles as mp', 'mp.id', 'cm.other_profile_id')
      .select(['c.id', 'c.tenant_id', 'c.waiting_since', 'c.claimed_by', 'c.claimed_until', 'c.created_at', 'f.id as fictional_id', 'f.retired_at', 'mp.id as member_profile_id', 'mp.user_id as member_user_id', 'mp.country as member_country', 'mp.tenant_id as member_brand'])
      .where('c.id', '=', id)
      .where('f.fictional', '=', 1)
      .where('f.user_id', 'is', null)
      .where('mp.user_id', 'is not', null)
      .executeTakeFirst();
    if (!row || !inScope(staff, row.tenant_id)) throw notFound();
    return row;
  }

  const tenantOf = (id: string): Tenant => {
    const tenant = deps.tenants().find((t) => t.id === id);
    if (!tenant) throw notFound();
    return tenant;
  };

  /** Who holds a claim now (a claim past its end is nobody's). */
  async function claimOf(row: { claimed_by: number | null; claimed_until: string | null }) {
    if (row.claimed_by === null || !row.claimed_until || row.claimed_until <= nowIso()) return null;
    const by = await db.selectFrom('staff').select(['id', 'email']).where('id', '=', row.claimed_by).executeTakeFirst();
    return { by: { id: row.claimed_by, email: by?.email ?? null }, until: row.claimed_until };
  }

  /**
   * What each member spent on messages to fictional profiles of `brands` (credits), by member
   * profile: a member of another brand of the pool shows what they spent here, never there.
   */
  async function spentWithFictional(profileIds: number[], brands: string[]): Promise<Map<number, number>> {
    if (profileIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('messages as m')
      .innerJoin('conversation_members as cm', (join) => join.onRef('cm.conversation_id', '=', 'm.conversation_id').onRef('cm.profile_id', '=', 'm.sender_profile_id'))
      .innerJoin('profiles as f', 'f.id', 'cm.other_profile_id')
      .select(['m.sender_profile_id', (eb) => eb.fn.sum<number | string>('m.credits').as('spent')])
      .where('m.sender_profile_id', 'in', profileIds)
      // Said of cm too: PostgreSQL carries no `in` across a join, and would read every message.
      .where('cm.profile_id', 'in', profileIds)
      .where('f.fictional', '=', 1)
      .where('f.tenant_id', 'in', brands)
      .groupBy('m.sender_profile_id')
      .execute();
    return new Map(rows.map((r) => [r.sender_profile_id, Number(r.spent)]));
  }

  /**
   * The member's card as the inbox shows it: the profile card, premium, language and credits spent
   * with fictional profiles. No e-mail, no payments. A member of a brand outside the staff member's
   * scope (another brand of the pool, issue 24) pays on their own brand: their card shows none of
   * what comes of that (premium, credits spent) nor their language, as their member page (the pool
   * view) shows none of their account.
   */
  async function memberCards(staff: StaffView, profileIds: number[], brands: string[]) {
    if (profileIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('profiles')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .select([...CARD_COLUMNS, 'profiles.tenant_id', 'profiles.gender', 'profiles.about', 'users.paid_user', 'users.language'])
      .where('profiles.id', 'in', profileIds)
      .execute();
    const spent = await spentWithFictional(profileIds, brands);
    const cards = await profileCards(db, rows);
    return new Map(
      cards.map(({ row, card }) => [
        row.id,
        {
          ...card,
          brand: row.tenant_id,
          gender: row.gender,
          about: row.about,
          ...(inScope(staff, row.tenant_id) ? { premium: row.paid_user === 1, language: row.language, credits_spent_fictional: spent.get(row.id) ?? 0 } : {}),
        },
      ]),
    );
  }

  async function fictionalCards(profileIds: number[]) {
    if (profileIds.length === 0) return new Map();
    const rows = await db.selectFrom('profiles').select([...CARD_COLUMNS, 'profiles.gender', 'profiles.about', 'profiles.retired_at']).where('id', 'in', profileIds).execute();
    return new Map((await profileCards(db, rows)).map(({ row, card }) => [row.id, { ...card, gender: row.gender, about: row.about, retired: row.retired_at !== null }]));
  }

  /** The waiting conversations of some brands (null: every brand), oldest wait first. */
  function waiting(brands: BrandIds) {
    let q = db
      .selectFrom('conversations as c')
      .innerJoin('conversation_members as cm', 'cm.conversation_id', 'c.id')
      .innerJoin('profiles as f', 'f.id', 'cm.profile_id')
      .where('c.waiting_since', 'is not', null)
      // Fictional profiles have no user; `f.user_id is null` here would lead SQLite's planner to
      // start from every fictional profile instead of the waiting index.
      .where('f.fictional', '=', 1)
      .where('f.retired_at', 'is', null);
    // One brand (the usual page) reads the waiting index in its order; several are merged by a sort.
    return q.where(brandCondition('c.tenant_id', brands));
  }

  /** After a claim, a release or a reply has committed: every open inbox page hears of it. */
  const tell = (type: 'inbox_claim' | 'inbox_release' | 'inbox_reply', row: { id: number; tenant_id: string }) => publishToConsole(bus, { type, brand: row.tenant_id, conversation_id: row.id });

  return {
    /** GET /api/console/inbox: waiting longest first, INBOX_PAGE_SIZE a page; `next` asks for the page after. */
    async list(staff: StaffView, input: InboxInput) {
      const brands = brandsToQuery(staff, input.brand);
      // The page's conversations from the waiting index alone, then their rows by id: PostgreSQL
      // would otherwise join every waiting conversation before the limit. Only a fictional profile
      // that is not retired makes a conversation wait (inbox-waiting.ts), so waiting() keeps them all.
      let ids = db.selectFrom('conversations').select('id').where('waiting_since', 'is not', null).where(brandCondition('tenant_id', brands));
      if (input.after) {
        const cut = input.after.lastIndexOf('.');
        const since = input.after.slice(0, cut);
        const id = Number(input.after.slice(cut + 1));
        ids = ids.where((eb) => eb.or([eb('waiting_since', '>', since), eb.and([eb('waiting_since', '=', since), eb('id', '>', id)])]));
      }
      const pageIds = (await ids.orderBy('waiting_since').orderBy('id').limit(INBOX_PAGE_SIZE + 1).execute()).map((r) => r.id);
      const rows = pageIds.length === 0 ? [] : await waiting(brands)
        .where('c.id', 'in', pageIds)
        .leftJoin('messages as lm', 'lm.id', 'c.last_message_id')
        .select(['c.id', 'c.tenant_id', 'c.waiting_since', 'c.claimed_by', 'c.claimed_until', 'cm.profile_id as fictional_id', 'cm.other_profile_id as member_profile_id', 'cm.unread', 'lm.kind', 'lm.body', 'lm.created_at as last_at'])
        .orderBy('c.waiting_since')
        .orderBy('c.id')
        .execute();
      const page = rows.slice(0, INBOX_PAGE_SIZE);
      const [members, fictional] = await Promise.all([memberCards(staff, [...new Set(page.map((r) => r.member_profile_id))], [...new Set(page.map((r) => r.tenant_id))]), fictionalCards([...new Set(page.map((r) => r.fictional_id))])]);
      const staffIds = [...new Set(page.filter((r) => r.claimed_by !== null && r.claimed_until && r.claimed_until > nowIso()).map((r) => r.claimed_by!))];
      const emails = new Map(staffIds.length ? (await db.selectFrom('staff').select(['id', 'email']).where('id', 'in', staffIds).execute()).map((s) => [s.id, s.email]) : []);
      const now = nowIso();
      const last = page[page.length - 1];
      return {
        conversations: page.map((r) => ({
          id: r.id,
          brand: r.tenant_id,
          waiting_since: r.waiting_since!,
          unanswered: r.unread,
          last_message: r.kind ? { kind: r.kind, text: r.kind === 'text' && r.body ? [...r.body].slice(0, PREVIEW_CHARS).join('') : null, created_at: r.last_at! } : null,
          member: members.get(r.member_profile_id) ?? null,
          fictional: fictional.get(r.fictional_id) ?? null,
          claim: r.claimed_by !== null && r.claimed_until && r.claimed_until > now ? { by: { id: r.claimed_by, email: emails.get(r.claimed_by) ?? null }, until: r.claimed_until } : null,
        })),
        next: rows.length > INBOX_PAGE_SIZE && last ? `${last.waiting_since}.${last.id}` : null,
      };
    },

    /** GET /api/console/inbox/stats: per brand in scope, the waiting count and the median time to first answer. */
    async stats(staff: StaffView, brand: string | undefined) {
      const asked = brandsToQuery(staff, brand);
      const brands = deps
        .tenants()
        .map((t) => t.id)
        .filter((id) => amongBrands(asked, id));
      return {
        brands: await Promise.all(
          brands.map(async (id) => {
            // Read from conversations_waiting_idx alone, without a join per waiting conversation:
            // only a fictional profile that is not retired makes a conversation wait (inbox-waiting.ts),
            // and retiring one clears its conversations' waiting_since (fictional.ts), so these are
            // exactly the conversations of waiting().
            const counted = await db
              .selectFrom('conversations')
              .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('waiting_since').as('oldest')])
              .where('tenant_id', '=', id)
              .where('waiting_since', 'is not', null)
              .executeTakeFirstOrThrow();
            const answered = await db
              .selectFrom('conversations')
              .select(['created_at', 'first_answer_at'])
              .where('tenant_id', '=', id)
              .where('first_answer_at', 'is not', null)
              .orderBy('first_answer_at', 'desc')
              .limit(FIRST_ANSWER_SAMPLE)
              .execute();
            const seconds = answered.map((r) => Math.max(0, (Date.parse(r.first_answer_at!) - Date.parse(r.created_at)) / 1000)).sort((a, b) => a - b);
            return { brand: id, waiting: Number(counted.n), oldest_waiting_since: (counted.oldest as string | null) ?? null, first_answer_median_seconds: median(seconds), answered_sample: seconds.length };
          }),
        ),
      };
    },

    /** GET /api/console/inbox/{id}: the history as the fictional profile sees it, both cards, the claim, what a reply may carry. */
    async conversation(staff: StaffView, id: number, ip: string) {
      const row = await requireConversation(staff, id);
      const tenant = tenantOf(row.tenant_id);
      // A member of another brand of the pool writing to this brand's fictional profile (issue 24): the reading is audited.
      if (row.member_brand !== row.tenant_id) {
        await audit(db, { staff, action: 'inbox_read_pool', brand: row.tenant_id, object: { type: 'conversation', id: row.id }, ip, details: { member_brand: row.member_brand } });
      }
      const [members, fictional, messages, claim, photos] = await Promise.all([
        memberCards(staff, [row.member_profile_id], [row.tenant_id]),
        fictionalCards([row.fictional_id]),
        chat.history(row.id, row.fictional_id),
        claimOf(row),
        db.selectFrom('photos').select(['id', 'thumb_filename']).where('profile_id', '=', row.fictional_id).where('status', '=', 'active').orderBy('position').execute(),
      ]);
      return {
        conversation: {
          id: row.id,
          brand: row.tenant_id,
          waiting_since: row.waiting_since,
          created_at: row.created_at,
          messages: messages.map((m: ChatMessage) => ({ ...m, from: m.mine ? ('fictional' as const) : ('member' as const) })),
        },
        member: members.get(row.member_profile_id) ?? null,
        fictional: fictional.get(row.fictional_id) ?? null,
        claim,
        reply: { message_length: tenant.message_length, gifts: giftCatalogue(tenant).map((g) => g.id), photos: photos.map((p) => ({ id: p.id, thumb_url: mediaUrl(p.thumb_filename) })) },
      };
    },

    /**
     * POST /api/console/inbox/{id}/claim: one conditional write takes a free or expired claim (or
     * renews one's own), so of many staff claiming at once, on any runtime, exactly one holds it.
     */
    async claim(staff: StaffView, id: number, ip: string) {
      const row = await requireConversation(staff, id);
      if (row.retired_at !== null) throw chatError.retired();
      const now = nowIso();
      const until = claimEnd();
      const taken = await db.transaction().execute(async (trx) => {
        const done = await trx
          .updateTable('conversations')
          .set({ claimed_by: staff.id, claimed_until: until })
          .where('id', '=', row.id)
          .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_by', '=', staff.id), eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) === 0) return false;
        await audit(trx, { staff, action: 'inbox_claim', brand: row.tenant_id, object: { type: 'conversation', id: row.id }, ip, details: { until } });
        return true;
      });
      if (!taken) {
        const now = await db.selectFrom('conversations').select(['claimed_by', 'claimed_until']).where('id', '=', row.id).executeTakeFirstOrThrow();
        throw inboxError.claimed(now.claimed_until ?? until);
      }
      await tell('inbox_claim', row);
      return { claim: { by: { id: staff.id, email: staff.email }, until } };
    },

    /** POST /api/console/inbox/{id}/release: gives up one's own claim; 409 when one holds none. */
    async release(staff: StaffView, id: number, ip: string) {
      const row = await requireConversation(staff, id);
      await db.transaction().execute(async (trx) => {
        const done = await trx.updateTable('conversations').set({ claimed_by: null, claimed_until: null }).where('id', '=', row.id).where('claimed_by', '=', staff.id).where('claimed_until', '>', nowIso()).executeTakeFirst();
        if (Number(done.numUpdatedRows) === 0) throw inboxError.claimNeeded();
        await audit(trx, { staff, action: 'inbox_release', brand: row.tenant_id, object: { type: 'conversation', id: row.id }, ip });
      });
      await tell('inbox_release', row);
      return { claim: null };
    },

    /**
     * POST /api/console/inbox/{id}: the reply as the fictional profile, through the chat service:
     * stored as the profile's message, nothing charged, live on the member's tabs on any runtime,
     * push and mail by the member's preference. Refused (400, nothing stored) when the text holds
     * contact details or a meeting word (DESIGN §10: nothing proposes a meeting); 409 without the
     * claim, checked in the message's own transaction (a claim lost meanwhile stores nothing).
     */
    async reply(staff: StaffView, id: number, body: InboxReply, ip: string) {
      const row = await requireConversation(staff, id);
      const tenant = tenantOf(row.tenant_id);
      if (row.retired_at !== null) throw chatError.retired();
      const what = await replyContent(db, tenant, row, body);
      const answer = await chat.deliver(tenant, { userId: null, profileId: row.fictional_id }, { conversationId: row.id }, body.client_id ?? randomUUID(), what, async (trx, message) => {
        const now = nowIso();
        const held = await trx
          .updateTable('conversations')
          .set((eb) => ({ claimed_until: claimEnd(), waiting_since: null, first_answer_at: eb.fn.coalesce('first_answer_at', eb.val(message.created_at)) }))
          .where('id', '=', row.id)
          .where('claimed_by', '=', staff.id)
          .where('claimed_until', '>', now)
          .executeTakeFirst();
        if (Number(held.numUpdatedRows) === 0) {
          const claim = await trx.selectFrom('conversations').select(['claimed_by', 'claimed_until']).where('id', '=', row.id).executeTakeFirstOrThrow();
          throw claim.claimed_by !== null && claim.claimed_until && claim.claimed_until > now ? inboxError.claimed(claim.claimed_until) : inboxError.claimNeeded();
        }
        await audit(trx, { staff, action: 'inbox_reply', brand: row.tenant_id, object: { type: 'conversation', id: row.id }, ip, details: { message_id: message.id, kind: what.kind } });
      });
      await tell('inbox_reply', row);
      return { message: { ...answer.message, from: 'fictional' as const } };
    },
  };
}

export type InboxService = ReturnType<typeof createInboxService>;

/** What a staff reply carries, checked: a text free of contact details and meeting words, a gift of the brand, a screened photo of the profile. Nothing is charged. */
async function replyContent(
  db: Kysely<Database>,
  tenant: Tenant,
  row: { fictional_id: number; member_country: string },
  body: InboxReply,
): Promise<{ kind: MessageKind; body: string | null; media: string | null; credits: number }> {
  if ('gift' in body) {
    if (!giftCatalogue(tenant).some((g) => g.id === body.gift)) throw chatError.gift();
    return { kind: 'gift', body: null, media: body.gift, credits: 0 };
  }
  if ('photo' in body) {
    const photo = await db.selectFrom('photos').select('filename').where('id', '=', body.photo).where('profile_id', '=', row.fictional_id).where('status', '=', 'active').executeTakeFirst();
    if (!photo) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'photo' });
    return { kind: 'photo', body: null, media: photo.filename, credits: 0 };
  }
  const text = body.text.trim();
  if (!text) throw chatError.empty();
  if ([...text].length > tenant.message_length) throw chatError.tooLong(tenant.message_length);
  const found = staffReplyRefusal(text, row.member_country as CountryCode);
  if (found) throw inboxError.refused(found);
  return { kind: 'text', body: text, media: null, credits: 0 };
}

/** The middle value of sorted numbers (the mean of the middle two for an even count), null for none. */
export function median(sorted: number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return Math.round(sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2);
}
