import type { Kysely } from 'kysely';
import webpush from 'web-push';
import type { Database } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { EmailNotificationType } from '../../contract/enums.ts';
import { nowIso } from '../db/engine.ts';
import { message } from '../i18n.ts';
import type { MailService } from './mail.ts';
import type { PhotoRejectReason } from '../../lib/photo-screening.ts';
import type { NotificationService } from './notifications.ts';

/**
 * Notifications of a member who is not looking (SPEC §3 e-mail types, push; DESIGN §9): a web
 * push to each of their browsers for a new message, and e-mails by their preferences, batched:
 *
 * - new_conversations: the first message of a conversation;
 * - new_messages: one mail per conversation until the member has read it (not one per message);
 * - like: at most one like mail every LIKE_MAIL_SPACING_H hours;
 * - unread_message_reminders: one mail for all unread messages, when the oldest has waited
 *   REMINDER_AFTER_H hours, at most once every REMINDER_SPACING_H hours.
 *
 * A committed message is marked notified only after its push and mail were handled; a job sends
 * those a crash left behind (at least once).
 */

/** Hours between two like mails to one member. */
export const LIKE_MAIL_SPACING_H = 6;
/** Hours unread messages wait before a reminder. */
export const REMINDER_AFTER_H = 12;
/** Hours between two reminders to one member. */
export const REMINDER_SPACING_H = 24;
/** Messages older than this and not yet notified are the sweep job's (seconds). */
export const NOTIFY_SWEEP_AFTER_S = 60;
/** How long a push service may take to answer (chosen). */
const PUSH_TIMEOUT_MS = 10_000;
/** How long a push service keeps a message for an offline browser (seconds). */
const PUSH_TTL_S = 24 * 60 * 60;

export interface Vapid {
  publicKey: string;
  privateKey: string;
  /** A mailto: or https: contact for the push services. */
  subject: string;
}

export interface NotifyDeps {
  db: Kysely<Database>;
  mail: MailService;
  notifications: NotificationService;
  tenants: () => Tenant[];
  vapid: Vapid | null;
  /** The HTTPS agent pushes go out with; Node's default otherwise. */
  pushAgent?: import('node:https').Agent;
  production: boolean;
  log?: (line: string) => void;
  now?: () => Date;
}

/**
 * What a push message carries to the service worker (src/server/static/sw.js). It comes from the
 * member's own brand whoever wrote (a member of another brand of the pool, issue 24): its name in
 * the title, its domain in the url.
 */
export interface PushPayload {
  type: 'message';
  title: string;
  body: string;
  /** The page a click opens: an absolute address on the member's own brand's main domain. */
  url: string;
  /** One notification per conversation: a newer one replaces it. */
  tag: string;
}

export function createNotifier(deps: NotifyDeps) {
  const { db, mail } = deps;
  const log = deps.log ?? ((line: string) => console.error(line));
  const now = () => deps.now?.() ?? new Date();
  const tenantOf = (id: string) => deps.tenants().find((t) => t.id === id) ?? null;
  const site = (tenant: Tenant) => `${deps.production ? 'https' : 'http'}://${tenant.domain}`;

  /** Whether the member wants mails of this type and none was switched off by a bounce or report. */
  async function wants(userId: number, type: EmailNotificationType): Promise<boolean> {
    return (await deps.notifications.get(userId)).email[type];
  }

  async function sendMail(user: { id: number; tenant_id: string; email: string; language: string }, type: EmailNotificationType, kind: 'mail_new_conversation' | 'mail_new_message' | 'mail_like' | 'mail_unread_reminder' | 'mail_photo_rejected', path: string, params: Record<string, string | number>) {
    const tenant = tenantOf(user.tenant_id);
    if (!tenant) return;
    const token = await deps.notifications.unsubscribeToken(user);
    await mail.send({ tenant, to: user.email, locale: user.language, kind, link: `${site(tenant)}${path}`, params, unsubscribe: `${site(tenant)}/api/unsubscribe.php?u=${token}&type=${type}` });
  }

  /** Sends a push to every browser of the member; subscriptions the push service no longer knows (404, 410) are dropped. */
  async function push(userId: number, payload: PushPayload): Promise<number> {
    if (!deps.vapid) return 0;
    const subscriptions = await db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'p256dh', 'auth']).where('user_id', '=', userId).execute();
    let sent = 0;
    await Promise.all(
      subscriptions.map(async (s) => {
        try {
          await webpush.sendNotification({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, JSON.stringify(payload), {
            vapidDetails: deps.vapid!,
            TTL: PUSH_TTL_S,
            urgency: 'high',
            // A push service that does not answer must not hold the sweep.
            timeout: PUSH_TIMEOUT_MS,
            topic: payload.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
            ...(deps.pushAgent ? { agent: deps.pushAgent } : {}),
          });
          sent += 1;
        } catch (error) {
          const status = (error as { statusCode?: number }).statusCode;
          if (status === 404 || status === 410) await db.deleteFrom('push_subscriptions').where('id', '=', s.id).execute();
          else log(`push to ${new URL(s.endpoint).host} failed: ${status ?? (error as Error).message}`);
        }
      }),
    );
    return sent;
  }

  /** Push and mail for one stored message, then marks it notified. */
  async function messageArrived(messageId: number): Promise<void> {
    const row = await db
      .selectFrom('messages as m')
      .innerJoin('conversation_members as cm', (j) => j.onRef('cm.conversation_id', '=', 'm.conversation_id').onRef('cm.profile_id', '!=', 'm.sender_profile_id'))
      .innerJoin('profiles as sender', 'sender.id', 'm.sender_profile_id')
      .innerJoin('profiles as recipient', 'recipient.id', 'cm.profile_id')
      .innerJoin('users', 'users.id', 'recipient.user_id')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .select(['m.id', 'm.kind', 'm.body', 'm.conversation_id', 'm.notified_at', 'c.started_by', 'sender.name as sender_name', 'cm.last_read_id', 'cm.mailed_id', 'users.id as user_id', 'users.tenant_id', 'users.email', 'users.language', 'users.push_enabled', 'users.status'])
      .where('m.id', '=', messageId)
      .executeTakeFirst();
    const done = () => db.updateTable('messages').set({ notified_at: nowIso() }).where('id', '=', messageId).where('notified_at', 'is', null).executeTakeFirst();
    // A message to a fictional profile (no member) has nobody to tell; it is done all the same,
    // so the sweep never meets it again.
    if (!row) return void (await done());
    // Claimed before anything is sent: a message handled twice at once (its sender's process and
    // the sweep), or one whose mail keeps failing, never pushes or mails again. A crash between the
    // claim and the sending loses that one notification rather than repeating it every minute.
    if (row.notified_at !== null || Number((await done()).numUpdatedRows) === 0) return;
    const tenant = tenantOf(row.tenant_id);
    if (tenant && row.status === 'active') {
      const locale = row.language;
      const fallback = tenant.locales.fallback;
      const preview = row.kind === 'text' && row.body ? [...row.body].slice(0, 120).join('') : message(`chat_preview_${row.kind}`, locale, {}, fallback);
      if (row.push_enabled === 1) {
        const title = message('push_message_title', locale, { name: row.sender_name, brand: tenant.name }, fallback);
        await push(row.user_id, { type: 'message', title, body: preview, url: `${site(tenant)}/chats/${row.conversation_id}`, tag: `chat-${row.conversation_id}` });
      }
      const first = (await db.selectFrom('messages').select('id').where('conversation_id', '=', row.conversation_id).orderBy('id').limit(1).executeTakeFirst())?.id === row.id;
      const params = { name: row.sender_name };
      const recipient = { id: row.user_id, tenant_id: row.tenant_id, email: row.email, language: row.language };
      if (first) {
        if (await wants(row.user_id, 'new_conversations')) await sendMail(recipient, 'new_conversations', 'mail_new_conversation', `/chats/${row.conversation_id}`, params);
        await markMailed(row.conversation_id, row.user_id, row.id);
      } else if (row.mailed_id <= row.last_read_id && (await wants(row.user_id, 'new_messages')) && (await claimMail(row.conversation_id, row.user_id, row.id))) {
        // One mail per conversation until the member has read it: claimed first, so two messages
        // handled at once (or by two processes) send one.
        await sendMail(recipient, 'new_messages', 'mail_new_message', `/chats/${row.conversation_id}`, params);
      }
    }
  }

  async function markMailed(conversationId: number, userId: number, messageId: number): Promise<void> {
    await db
      .updateTable('conversation_members')
      .set({ mailed_id: messageId })
      .where('conversation_id', '=', conversationId)
      .where('profile_id', 'in', (eb) => eb.selectFrom('profiles').select('id').where('user_id', '=', userId))
      .execute();
  }

  /** Takes the conversation's one new-message mail for this message; false when another message took it. */
  async function claimMail(conversationId: number, userId: number, messageId: number): Promise<boolean> {
    const result = await db
      .updateTable('conversation_members')
      .set({ mailed_id: messageId })
      .where('conversation_id', '=', conversationId)
      .where('profile_id', 'in', (eb) => eb.selectFrom('profiles').select('id').where('user_id', '=', userId))
      .whereRef('mailed_id', '<=', 'last_read_id')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  return {
    push,
    messageArrived,

    /** Called after a message committed: push and mail now, without delaying the sender's answer. */
    afterMessage(messageId: number): void {
      messageArrived(messageId).catch((error: Error) => log(`notify message ${messageId}: ${error.message}`));
    },

    /** A like mail, at most every LIKE_MAIL_SPACING_H hours per member. */
    async likeArrived(recipientUserId: number, likerProfileId: number): Promise<void> {
      const user = await db.selectFrom('users').select(['id', 'tenant_id', 'email', 'language', 'status', 'like_mailed_at']).where('id', '=', recipientUserId).executeTakeFirst();
      if (!user || user.status !== 'active') return;
      const since = new Date(now().getTime() - LIKE_MAIL_SPACING_H * 3_600_000).toISOString();
      if (user.like_mailed_at && user.like_mailed_at > since) return;
      if (!(await wants(user.id, 'like'))) return;
      await db.updateTable('users').set({ like_mailed_at: now().toISOString() }).where('id', '=', user.id).execute();
      const liker = await db.selectFrom('profiles').select('name').where('id', '=', likerProfileId).executeTakeFirst();
      await sendMail(user, 'like', 'mail_like', '/likes', { name: liker?.name ?? '' });
    },

    /**
     * The statement of reasons for a rejected photo (issue 22, DSA art. 17), by preference: sent
     * under the `reminders` type (the account's service mails), so a member who switched those off,
     * or whose address bounced or reported spam, gets the notice on /profile only. The reason is
     * written in the member's language.
     */
    async photoRejected(userId: number, reason: PhotoRejectReason): Promise<void> {
      const user = await db.selectFrom('users').select(['id', 'tenant_id', 'email', 'language', 'status']).where('id', '=', userId).executeTakeFirst();
      if (!user || user.status !== 'active') return;
      if (!(await wants(user.id, 'reminders'))) return;
      const tenant = tenantOf(user.tenant_id);
      const text = message(`photo_reason_${reason}`, user.language, {}, tenant?.locales.fallback);
      await sendMail(user, 'reminders', 'mail_photo_rejected', '/profile#photos', { reason: text });
    },

    /** The sweep job: messages a crash left without their push and mail. */
    async sweep(): Promise<number> {
      const before = new Date(now().getTime() - NOTIFY_SWEEP_AFTER_S * 1000).toISOString();
      const rows = await db.selectFrom('messages').select('id').where('notified_at', 'is', null).where('created_at', '<', before).orderBy('id').limit(200).execute();
      // One message failing (a mail server down) neither stops the others nor comes back: it was claimed.
      for (const r of rows) await messageArrived(r.id).catch((error: Error) => log(`notify message ${r.id}: ${error.message}`));
      return rows.length;
    },

    /**
     * The reminders job: one mail per member for all their unread messages, when the oldest has
     * waited REMINDER_AFTER_H hours, at most once every REMINDER_SPACING_H hours.
     */
    async remindUnread(): Promise<number> {
      const waited = new Date(now().getTime() - REMINDER_AFTER_H * 3_600_000).toISOString();
      const spaced = new Date(now().getTime() - REMINDER_SPACING_H * 3_600_000).toISOString();
      const rows = await db
        .selectFrom('conversation_members as cm')
        .innerJoin('profiles', 'profiles.id', 'cm.profile_id')
        .innerJoin('users', 'users.id', 'profiles.user_id')
        .select((eb) => ['users.id', 'users.tenant_id', 'users.email', 'users.language', eb.fn.sum<number | string>('cm.unread').as('unread'), eb.fn.count<number | string>('cm.conversation_id').as('chats')])
        .where('cm.unread', '>', 0)
        .where('cm.hidden', '=', 0)
        .where('users.status', '=', 'active')
        .where('cm.last_message_at', '<', waited)
        .where((eb) => eb.or([eb('users.reminded_at', 'is', null), eb('users.reminded_at', '<', spaced)]))
        .groupBy(['users.id', 'users.tenant_id', 'users.email', 'users.language'])
        .limit(500)
        .execute();
      let sent = 0;
      for (const user of rows) {
        await db.updateTable('users').set({ reminded_at: now().toISOString() }).where('id', '=', user.id).execute();
        if (!(await wants(user.id, 'unread_message_reminders'))) continue;
        await sendMail(user, 'unread_message_reminders', 'mail_unread_reminder', '/chats', { count: Number(user.unread), chats: Number(user.chats) });
        sent += 1;
      }
      return sent;
    },

  };
}

export type Notifier = ReturnType<typeof createNotifier>;
