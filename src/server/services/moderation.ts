import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/index.ts';
import type { EventBus } from '../bus.ts';
import { nowIso } from '../db/engine.ts';
import { AppError, forbidden, notFound } from '../errors.ts';
import { publishToMember } from './events.ts';
import { brandCondition } from './brand-scope.ts';
import { passMainOn } from './main-image.ts';
import { POOL_PHOTO_STATUS } from './pool-view.ts';
import { grant } from '../ledger.ts';
import { PHOTO_REJECT_REASONS, type PhotoQueue, type PhotoRejectReason, type PhotoStatus } from '../../lib/photo-screening.ts';

/**
 * Photo screening for the operator console (issue 22, "Photo screening"): the queue, a decision
 * and a bulk approval of profile photos, and the same for photos sent in chats (chatPhotoQueue,
 * decideChatPhoto: ids are message ids). The console's routes (src/server/console/, built beside this) call these
 * functions; they hold the rules, the routes only parse, check the session and answer.
 *
 * How the console calls them:
 * - `staff` is the acting staff member as the console's session knows it, `{ id, role }`; only
 *   the roles of PHOTO_SCREENING_ROLES may decide (403 forbidden otherwise: the route writes that
 *   attempt to the audit log too).
 * - `brandsInScope` is the staff member's brand scope, `'all'` or a list of tenant ids: a photo
 *   of another brand is not found (404), never told apart from a photo that does not exist.
 * - What to audit: each decision calls `audit(entry, trx)` inside its transaction when given (the
 *   audit row commits with the decision or not at all) and also returns the entries.
 * - Staff see photos at `/api/console/media/<tenant>/<hex>.webp` (STAFF_MEDIA_PREFIX): the
 *   console route serves the file `staffMediaFile()` answers, whatever the photo's status; the
 *   member-facing /media/ serves a non-active photo to its owner only.
 *
 * The database is the record: a decision is one conditional UPDATE, so two moderators deciding
 * at once give one decision and the other gets 409 photo_already_decided, on any runtime. After
 * the commit the owner's tabs hear `{type: 'photos'}` over the event bus (every runtime on
 * PostgreSQL); a rejection also sends the statement of reasons by mail (by preference) and the
 * owner's /profile shows it beside the photo (GET /api/photos.php answers its `reason`).
 */

/** Roles that screen photos (issue 22: owner, admin, moderator). */
export const PHOTO_SCREENING_ROLES = ['owner', 'admin', 'moderator'] as const;
/** Where the console serves a photo to staff, whatever its status. */
export const STAFF_MEDIA_PREFIX = '/api/console/media/';
/** Most photos one queue page answers. */
export const PHOTO_QUEUE_MAX_LIMIT = 200;
/** Most photos one bulk approval takes. */
export const BULK_APPROVE_MAX = 200;

export interface StaffActor {
  id: number;
  role: string;
}

/** A brand scope: every brand, or these tenant ids. */
export type BrandScope = readonly string[] | 'all';

/** One row for the console's audit log, as the decision describes it. */
export interface PhotoAuditEntry {
  staff_id: number;
  role: string;
  action: 'photo_approve' | 'photo_reject' | 'chat_photo_approve' | 'chat_photo_reject';
  brand: string;
  /** The member whose photo it is (users.id), null for a profile without an account (fictional). */
  member_id: number | null;
  /** `photo:<id>` for a profile photo, `message:<id>` for a photo sent in a chat. */
  object: string;
  reason: PhotoRejectReason | null;
}

export type AuditCallback = (entry: PhotoAuditEntry, trx: Transaction<Database>) => Promise<void>;

export interface PhotoQueueItem {
  id: number;
  kind: 'profile';
  status: PhotoStatus;
  created_at: string;
  /** The photo and its thumbnail at the staff-only media path. */
  url: string;
  thumb_url: string;
  member: { user_id: number | null; profile_id: number; name: string; brand: string; fictional: boolean };
}

/** A photo sent in a chat, waiting in the chat photo queue. */
export interface ChatPhotoQueueItem {
  /** The message id. */
  id: number;
  kind: 'chat';
  status: PhotoStatus;
  created_at: string;
  url: string;
  thumb_url: string;
  conversation_id: number;
  member: { user_id: number | null; profile_id: number; name: string; brand: string; fictional: boolean };
}

export interface ChatPhotoQueuePage {
  photos: ChatPhotoQueueItem[];
  next: number | null;
}

export interface PhotoQueuePage {
  photos: PhotoQueueItem[];
  /** Pass as `before` for the next page; null on the last page. */
  next: number | null;
}

export interface PhotoDecision {
  status: 'active' | 'rejected';
  reason?: PhotoRejectReason;
}

export interface ModerationDeps {
  db: Kysely<Database>;
  bus: EventBus;
  /** The owner's statement of reasons by mail (notifier.photoRejected). */
  mailRejection: (userId: number, reason: PhotoRejectReason) => Promise<void>;
  /** Public copies follow a decision (photos.syncPublic); none when left out (a service built alone). */
  syncPublic?: (photoIds: readonly number[]) => Promise<void>;
  log?: (line: string) => void;
}

export const staffMediaUrl = (filename: string) => `${STAFF_MEDIA_PREFIX}${filename}`;

const alreadyDecided = () => new AppError('photo_already_decided', 409, { key: 'photo_already_decided' });
const needsReason = () => new AppError('photo_reject_reason', 400, { key: 'photo_reject_reason', field: 'reason' });

function mayScreen(staff: StaffActor): void {
  if (!(PHOTO_SCREENING_ROLES as readonly string[]).includes(staff.role)) throw forbidden();
}

/** A queue page's size: what was asked, within 1..PHOTO_QUEUE_MAX_LIMIT. */
const queueLimit = (asked: number) => Math.max(1, Math.min(PHOTO_QUEUE_MAX_LIMIT, Math.trunc(asked)));

/** The member a queued photo belongs to, as staff see them (no e-mail address). */
const queueMember = (r: { user_id: number | null; profile_id: number; name: string; tenant_id: string; fictional: number }) => ({
  user_id: r.user_id,
  profile_id: r.profile_id,
  name: r.name,
  brand: r.tenant_id,
  fictional: r.fictional === 1,
});

/** A keyset page of a queue read with `limit + 1` rows: the first `limit`, and the cursor of the next page when there is one. */
function keysetPage<R extends { id: number }, T>(rows: R[], limit: number, view: (row: R) => T): { photos: T[]; next: number | null } {
  const page = rows.slice(0, limit);
  return { photos: page.map(view), next: rows.length > limit ? page[page.length - 1]!.id : null };
}

/** A decision's reason: none to approve; one of PHOTO_REJECT_REASONS to reject (400 photo_reject_reason otherwise). */
function reasonOf(decision: PhotoDecision): PhotoRejectReason | undefined {
  if (decision.status === 'active') return undefined;
  if (decision.status !== 'rejected' || !decision.reason || !(PHOTO_REJECT_REASONS as readonly string[]).includes(decision.reason)) throw needsReason();
  return decision.reason as PhotoRejectReason;
}

/**
 * Removes a photo of a profile on a complaint (complaints.ts), in the caller's transaction:
 * rejected with the reason its owner reads on /profile, whatever its state (an approved photo
 * too); a main image passes the main flag on. False when the photo is not the profile's or is
 * rejected already.
 */
export async function removePhoto(trx: Transaction<Database>, input: { photoId: number; profileId: number; reason: PhotoRejectReason; staffId: number }): Promise<boolean> {
  const photo = await trx.selectFrom('photos').select(['id', 'is_main']).where('id', '=', input.photoId).where('profile_id', '=', input.profileId).where('status', '!=', 'rejected').executeTakeFirst();
  if (!photo) return false;
  await trx
    .updateTable('photos')
    .set({ status: 'rejected', reject_reason: input.reason, is_main: 0, reviewed_at: nowIso(), reviewed_by: input.staffId })
    .where('id', '=', photo.id)
    .execute();
  if (photo.is_main === 1) await passMainOn(trx, input.profileId);
  return true;
}

/** How many photos wait in a queue, per brand: profile photos and photos sent in chats. */
export interface QueueCount {
  brand: string;
  photos: number;
  chat_photos: number;
}

export function createModerationService(deps: ModerationDeps) {
  const { db, bus } = deps;
  const log = deps.log ?? ((line: string) => console.error(line));

  /** Photos with their owner, limited to the brands in scope. */
  const scoped = (q: Kysely<Database> | Transaction<Database>, brands: BrandScope) =>
    q
      .selectFrom('photos')
      .innerJoin('profiles', 'profiles.id', 'photos.profile_id')
      .where(brandCondition('profiles.tenant_id', brands === 'all' ? null : brands));

  /** Photo messages with their sender, limited to the brands in scope. */
  const chatScoped = (q: Kysely<Database> | Transaction<Database>, brands: BrandScope) =>
    q
      .selectFrom('messages')
      .innerJoin('profiles', 'profiles.id', 'messages.sender_profile_id')
      .where('messages.kind', '=', 'photo')
      .where(brandCondition('profiles.tenant_id', brands === 'all' ? null : brands));

  /** The state of a photo that may still be decided (canDecide): pending, or active and not yet reviewed. */
  const undecided = <Q extends { where: (...args: any[]) => Q }>(qb: Q): Q =>
    qb.where((eb: any) => eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'active'), eb('reviewed_at', 'is', null)])]));

  async function afterCommit(userId: number | null, photoId: number, reason: PhotoRejectReason | null) {
    await deps.syncPublic?.([photoId]);
    if (userId === null) return;
    await publishToMember(bus, userId, { type: 'photos', photo_id: photoId }).catch((error: Error) => log(`photos event: ${error.message}`));
    if (reason) await deps.mailRejection(userId, reason).catch((error: Error) => log(`photo rejected mail: ${error.message}`));
  }

  return {
    /**
     * The screening queue, oldest first (by upload, the photo id), keyset-paged by `before`
     * (the `next` of the previous page: photos after it). `pending`: photos waiting to be shown
     * (`photo_moderation: before`); `after-review`: photos shown at once (`after`) not yet reviewed.
     */
    async photoQueue(opts: { brands: BrandScope; status: PhotoQueue; before?: number; limit: number }): Promise<PhotoQueuePage> {
      const limit = queueLimit(opts.limit);
      const rows = await scoped(db, opts.brands)
        .select(['photos.id', 'photos.status', 'photos.created_at', 'photos.filename', 'photos.thumb_filename', 'profiles.id as profile_id', 'profiles.user_id', 'profiles.name', 'profiles.tenant_id', 'profiles.fictional'])
        .$if(opts.status === 'pending', (qb) => qb.where('photos.status', '=', 'pending'))
        .$if(opts.status === 'after-review', (qb) => qb.where('photos.status', '=', 'active').where('photos.reviewed_at', 'is', null))
        .$if(opts.before !== undefined, (qb) => qb.where('photos.id', '>', opts.before!))
        .orderBy('photos.id', 'asc')
        .limit(limit + 1)
        .execute();
      return keysetPage(rows, limit, (r) => ({
          id: r.id,
          kind: 'profile' as const,
          status: r.status,
          created_at: r.created_at,
          url: staffMediaUrl(r.filename),
          thumb_url: staffMediaUrl(r.thumb_filename),
          member: queueMember(r),
      }));
    },

    /**
     * Approves (`active`) or rejects (with a reason of PHOTO_REJECT_REASONS) one photo in one
     * transaction. A rejected main image passes the main flag to the owner's next photo that is
     * not rejected; others then see the next active photo or none. 404 out of scope or unknown,
     * 403 for a role that does not screen, 400 photo_reject_reason, 409 photo_already_decided.
     */
    async decidePhoto(staff: StaffActor, photoId: number, decision: PhotoDecision, brandsInScope: BrandScope, audit?: AuditCallback): Promise<{ id: number; status: 'active' | 'rejected'; audit: PhotoAuditEntry }> {
      mayScreen(staff);
      const reason = reasonOf(decision);
      const result = await db.transaction().execute(async (trx) => {
        const photo = await scoped(trx, brandsInScope)
          .select(['photos.id', 'photos.profile_id', 'photos.is_main', 'profiles.user_id', 'profiles.tenant_id'])
          .where('photos.id', '=', photoId)
          .executeTakeFirst();
        if (!photo) throw notFound();
        const now = nowIso();
        // The conditional update is the decision: of two at once, one changes the row.
        const updated = await undecided(
          trx
            .updateTable('photos')
            .set(reason ? { status: 'rejected', reject_reason: reason, is_main: 0, reviewed_at: now, reviewed_by: staff.id } : { status: 'active', reviewed_at: now, reviewed_by: staff.id })
            .where('id', '=', photoId),
        ).executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw alreadyDecided();
        if (reason && photo.is_main === 1) await passMainOn(trx, photo.profile_id);
        const entry: PhotoAuditEntry = {
          staff_id: staff.id,
          role: staff.role,
          action: reason ? 'photo_reject' : 'photo_approve',
          brand: photo.tenant_id,
          member_id: photo.user_id,
          object: `photo:${photoId}`,
          reason: reason ?? null,
        };
        if (audit) await audit(entry, trx);
        return { userId: photo.user_id, entry };
      });
      await afterCommit(result.userId, photoId, reason ?? null);
      return { id: photoId, status: decision.status, audit: result.entry };
    },

    /**
     * Approves many photos at once (the queue's bulk approve): each still undecided is approved,
     * in one transaction; those decided meanwhile (by another moderator) are answered as skipped
     * rather than failing the rest. An id that is unknown or of a brand out of scope is 404 and
     * nothing is approved, as for one photo.
     */
    async bulkApprove(staff: StaffActor, ids: readonly number[], brandsInScope: BrandScope, audit?: AuditCallback): Promise<{ approved: number[]; skipped: number[]; audit: PhotoAuditEntry[] }> {
      mayScreen(staff);
      const unique = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
      if (unique.length === 0) return { approved: [], skipped: [...ids], audit: [] };
      if (unique.length > BULK_APPROVE_MAX) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'ids' });
      const done = await db.transaction().execute(async (trx) => {
        const photos = await scoped(trx, brandsInScope)
          .select(['photos.id', 'profiles.user_id', 'profiles.tenant_id'])
          .where('photos.id', 'in', unique)
          .execute();
        if (photos.length !== unique.length) throw notFound();
        const now = nowIso();
        const approved: Array<{ id: number; userId: number | null; entry: PhotoAuditEntry }> = [];
        for (const photo of photos.sort((a, b) => a.id - b.id)) {
          const updated = await undecided(trx.updateTable('photos').set({ status: 'active', reviewed_at: now, reviewed_by: staff.id }).where('id', '=', photo.id)).executeTakeFirst();
          if (Number(updated.numUpdatedRows) !== 1) continue;
          const entry: PhotoAuditEntry = { staff_id: staff.id, role: staff.role, action: 'photo_approve', brand: photo.tenant_id, member_id: photo.user_id, object: `photo:${photo.id}`, reason: null };
          if (audit) await audit(entry, trx);
          approved.push({ id: photo.id, userId: photo.user_id, entry });
        }
        return approved;
      });
      for (const a of done) await afterCommit(a.userId, a.id, null);
      const approvedIds = done.map((a) => a.id);
      return { approved: approvedIds, skipped: ids.filter((id) => !approvedIds.includes(id)), audit: done.map((a) => a.entry) };
    },

    /**
     * The queue of photos sent in chats (issue 22: a chat photo is screened like a profile photo),
     * oldest first and keyset-paged like photoQueue; ids are message ids. A pending chat photo
     * reaches the recipient as a placeholder until approved.
     */
    async chatPhotoQueue(opts: { brands: BrandScope; status: PhotoQueue; before?: number; limit: number }): Promise<ChatPhotoQueuePage> {
      const limit = queueLimit(opts.limit);
      const rows = await chatScoped(db, opts.brands)
        .select(['messages.id', 'messages.photo_status', 'messages.created_at', 'messages.media', 'messages.conversation_id', 'profiles.id as profile_id', 'profiles.user_id', 'profiles.name', 'profiles.tenant_id', 'profiles.fictional'])
        .$if(opts.status === 'pending', (qb) => qb.where('messages.photo_status', '=', 'pending'))
        .$if(opts.status === 'after-review', (qb) => qb.where('messages.photo_status', '=', 'active').where('messages.photo_reviewed_at', 'is', null))
        .$if(opts.before !== undefined, (qb) => qb.where('messages.id', '>', opts.before!))
        .orderBy('messages.id', 'asc')
        .limit(limit + 1)
        .execute();
      return keysetPage(rows, limit, (r) => ({
          id: r.id,
          kind: 'chat' as const,
          status: r.photo_status ?? 'active',
          created_at: r.created_at,
          url: staffMediaUrl(r.media ?? ''),
          thumb_url: staffMediaUrl((r.media ?? '').replace(/\.webp$/, '-t.webp')),
          conversation_id: r.conversation_id,
          member: queueMember(r),
      }));
    },

    /**
     * Approves or rejects a photo sent in a chat, as decidePhoto does a profile photo (one
     * conditional update; 409 photo_already_decided for the second of two decisions). A rejected
     * photo's credits come back to its sender through the ledger (`not_delivered`). Both members'
     * tabs hear `chat_photo` on any runtime: approved, the recipient sees the photo instead of the
     * placeholder; rejected, the recipient never sees it and the sender sees it marked rejected.
     */
    async decideChatPhoto(staff: StaffActor, messageId: number, decision: PhotoDecision, brandsInScope: BrandScope, audit?: AuditCallback): Promise<{ id: number; status: 'active' | 'rejected'; audit: PhotoAuditEntry }> {
      mayScreen(staff);
      const reason = reasonOf(decision);
      const result = await db.transaction().execute(async (trx) => {
        const message = await chatScoped(trx, brandsInScope)
          .select(['messages.id', 'messages.conversation_id', 'messages.credits', 'profiles.user_id', 'profiles.tenant_id'])
          .where('messages.id', '=', messageId)
          .executeTakeFirst();
        if (!message) throw notFound();
        const now = nowIso();
        const updated = await trx
          .updateTable('messages')
          .set(reason ? { photo_status: 'rejected', photo_reject_reason: reason, photo_reviewed_at: now, photo_reviewed_by: staff.id } : { photo_status: 'active', photo_reviewed_at: now, photo_reviewed_by: staff.id })
          .where('id', '=', messageId)
          .where((eb) => eb.or([eb('photo_status', '=', 'pending'), eb.and([eb('photo_status', '=', 'active'), eb('photo_reviewed_at', 'is', null)])]))
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw alreadyDecided();
        // A rejected photo was paid for and never delivered: its credits come back through the ledger.
        const refund = reason && message.user_id !== null && message.credits > 0 ? await grant(trx, { userId: message.user_id, credits: message.credits, reason: 'not_delivered', ref: String(messageId) }) : null;
        const entry: PhotoAuditEntry = {
          staff_id: staff.id,
          role: staff.role,
          action: reason ? 'chat_photo_reject' : 'chat_photo_approve',
          brand: message.tenant_id,
          member_id: message.user_id,
          object: `message:${messageId}`,
          reason: reason ?? null,
        };
        if (audit) await audit(entry, trx);
        const members = await trx
          .selectFrom('conversation_members')
          .innerJoin('profiles', 'profiles.id', 'conversation_members.profile_id')
          .select('profiles.user_id')
          .where('conversation_members.conversation_id', '=', message.conversation_id)
          .execute();
        return { entry, conversationId: message.conversation_id, sender: message.user_id, refund, userIds: members.map((m) => m.user_id).filter((id): id is number => id !== null) };
      });
      if (result.refund && result.sender !== null) {
        await publishToMember(bus, result.sender, { type: 'credits', balance: result.refund.balance }).catch((error: Error) => log(`credits event: ${error.message}`));
      }
      for (const userId of result.userIds) {
        await publishToMember(bus, userId, { type: 'chat_photo', conversation_id: result.conversationId, message_id: messageId }).catch((error: Error) => log(`chat photo event: ${error.message}`));
      }
      return { id: messageId, status: decision.status, audit: result.entry };
    },

    /** The waiting counts per brand in scope (the console's queue tabs); brands with nothing waiting are left out. */
    async queueCounts(opts: { brands: BrandScope; status: PhotoQueue }): Promise<QueueCount[]> {
      const [photos, chats] = await Promise.all([
        scoped(db, opts.brands)
          .select((eb) => ['profiles.tenant_id', eb.fn.countAll<number | string>().as('n')])
          .$if(opts.status === 'pending', (qb) => qb.where('photos.status', '=', 'pending'))
          .$if(opts.status === 'after-review', (qb) => qb.where('photos.status', '=', 'active').where('photos.reviewed_at', 'is', null))
          .groupBy('profiles.tenant_id')
          .execute(),
        chatScoped(db, opts.brands)
          .select((eb) => ['profiles.tenant_id', eb.fn.countAll<number | string>().as('n')])
          .$if(opts.status === 'pending', (qb) => qb.where('messages.photo_status', '=', 'pending'))
          .$if(opts.status === 'after-review', (qb) => qb.where('messages.photo_status', '=', 'active').where('messages.photo_reviewed_at', 'is', null))
          .groupBy('profiles.tenant_id')
          .execute(),
      ]);
      const counts = new Map<string, QueueCount>();
      const entry = (brand: string) => counts.get(brand) ?? counts.set(brand, { brand, photos: 0, chat_photos: 0 }).get(brand)!;
      for (const r of photos) entry(r.tenant_id).photos = Number(r.n);
      for (const r of chats) entry(r.tenant_id).chat_photos = Number(r.n);
      return [...counts.values()].sort((a, b) => a.brand.localeCompare(b.brand));
    },

    /**
     * The stored file behind a staff media path (`<tenant>/<hex>.webp` or its `-t` thumbnail) for
     * the console's route to read from the media store: its stored name, or null when the name is
     * no photo of a brand in scope. `all`: a profile or chat photo whatever its status (screening);
     * `approved`: an approved profile photo only (pool-view.ts photosShown); `pool`: an approved
     * profile photo of a member shown on the pool's other brands (not one who chose their own brand only).
     */
    async staffMediaFile(storedName: string, brandsInScope: BrandScope, shown: 'all' | 'approved' | 'pool' = 'all'): Promise<string | null> {
      if (!/^[a-z0-9-]+\/[a-f0-9]+(?:-t)?\.webp$/.test(storedName)) return null;
      const name = storedName.replace(/-t\.webp$/, '.webp');
      const photo = await scoped(db, brandsInScope)
        .select('photos.id')
        .where('photos.filename', '=', name)
        .$if(shown !== 'all', (q) => q.where('photos.status', '=', POOL_PHOTO_STATUS))
        .$if(shown === 'pool', (q) => q.where('profiles.pooled', '=', 1))
        .executeTakeFirst();
      if (photo || shown !== 'all') return photo ? storedName : null;
      const sent = await chatScoped(db, brandsInScope).select('messages.id').where('messages.media', '=', name).executeTakeFirst();
      return sent ? storedName : null;
    },
  };
}

export type ModerationService = ReturnType<typeof createModerationService>;
