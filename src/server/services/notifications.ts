import type { Kysely } from 'kysely';
import type { NotificationSettings } from '../../contract/accounts.ts';
import type { Database } from '../db/index.ts';
import type { EmailNotificationType, NotificationDisabled } from '../db/schema.ts';
import { newToken, parseToken, secretMatches } from './secrets.ts';
import { TOKEN_LIFETIME_MS } from './accounts.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { EMAIL_NOTIFICATION_TYPES } from '../../contract/enums.ts';

/** The e-mail notification types of SPEC §3. */
export const EMAIL_TYPES: readonly EmailNotificationType[] = EMAIL_NOTIFICATION_TYPES;

export type { NotificationSettings };

export function createNotificationService(deps: { db: Kysely<Database> }) {
  const { db } = deps;

  async function read(userId: number): Promise<NotificationSettings> {
    const row = await db.selectFrom('users').select(['email_preferences', 'push_enabled', 'notifications_disabled']).where('id', '=', userId).executeTakeFirstOrThrow();
    const prefs = JSON.parse(row.email_preferences) as Partial<Record<EmailNotificationType, boolean>>;
    const disabled = JSON.parse(row.notifications_disabled) as NotificationDisabled[];
    const email = Object.fromEntries(EMAIL_TYPES.map((t) => [t, prefs[t] !== false && !disabled.some((d) => d.type === t)])) as Record<EmailNotificationType, boolean>;
    return { email, push: row.push_enabled === 1, disabled };
  }

  return {
    get: read,

    /** Saves the member's choices; `reenable` lifts the switches made by spam reports, bounces and unsubscribes. */
    async update(userId: number, changes: { email?: Partial<Record<EmailNotificationType, boolean>>; push?: boolean; reenable?: boolean }): Promise<NotificationSettings> {
      const row = await db.selectFrom('users').select(['email_preferences', 'notifications_disabled']).where('id', '=', userId).executeTakeFirstOrThrow();
      const prefs = { ...(JSON.parse(row.email_preferences) as Record<string, boolean>), ...changes.email };
      let disabled = JSON.parse(row.notifications_disabled) as NotificationDisabled[];
      if (changes.reenable) {
        disabled = [];
      } else if (changes.email) {
        // Switching a type on is the member's own word: it lifts that type's automatic switch-off.
        disabled = disabled.filter((d) => changes.email![d.type] !== true);
      }
      await db
        .updateTable('users')
        .set({
          email_preferences: JSON.stringify(prefs),
          notifications_disabled: JSON.stringify(disabled),
          ...(changes.push !== undefined ? { push_enabled: changes.push ? 1 : 0 } : {}),
        })
        .where('id', '=', userId)
        .execute();
      return read(userId);
    },

    /**
     * Keeps a browser's push subscription (SPEC §7) and switches push on: the member allowed it
     * in that browser. The same browser sends the same endpoint and keys again, so a known
     * endpoint moves to the member subscribing now only with its own keys; with other keys it is
     * someone else's subscription and the answer is false, changing nothing.
     */
    async subscribePush(userId: number, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }): Promise<boolean> {
      const { endpoint, keys } = subscription;
      const stored = await db
        .insertInto('push_subscriptions')
        .values({ user_id: userId, endpoint, p256dh: keys.p256dh, auth: keys.auth })
        .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: userId }).where('push_subscriptions.p256dh', '=', keys.p256dh).where('push_subscriptions.auth', '=', keys.auth))
        .executeTakeFirst();
      if (Number(stored.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
      await db.updateTable('users').set({ push_enabled: 1 }).where('id', '=', userId).execute();
      return true;
    },

    /** The member's push subscriptions, newest first. */
    async pushSubscriptions(userId: number): Promise<{ endpoint: string; p256dh: string; auth: string }[]> {
      return db.selectFrom('push_subscriptions').select(['endpoint', 'p256dh', 'auth']).where('user_id', '=', userId).orderBy('id', 'desc').execute();
    },

    /** A lasting one-click unsubscribe link for the mails a member may opt out of. */
    async unsubscribeToken(user: { id: number; tenant_id: string }): Promise<string> {
      const token = newToken();
      await db
        .insertInto('tokens')
        .values({ id: token.id, tenant_id: user.tenant_id, user_id: user.id, kind: 'unsubscribe', secret_hash: token.hash, payload: null, expires_at: new Date(Date.now() + TOKEN_LIFETIME_MS.unsubscribe).toISOString() })
        .execute();
      return token.value;
    },

    /**
     * A bounce or spam report of the mail provider (POST /api/mail-events.php, `sitegen mail
     * bounce`): every e-mail type of every member with that address, on every brand, is switched
     * off with the reason (SPEC §3: bounce, fbl). Answers how many members it touched.
     */
    async disableAddress(email: string, reason: 'bounce' | 'fbl'): Promise<number> {
      const disabled: NotificationDisabled[] = EMAIL_TYPES.map((type) => ({ type, reason }));
      const result = await db.updateTable('users').set({ notifications_disabled: JSON.stringify(disabled) }).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /**
     * RFC 8058 one-click unsubscribe, reason listunsubscribe: the e-mail type the link names (a
     * notification mail's link), or every type (the link of the other mails). False for a bad link.
     */
    async unsubscribe(tenant: Tenant, value: unknown, type?: EmailNotificationType): Promise<boolean> {
      const parsed = parseToken(value);
      if (!parsed) return false;
      const row = await db.selectFrom('tokens').selectAll().where('id', '=', parsed.id).executeTakeFirst();
      if (!row || row.kind !== 'unsubscribe' || row.tenant_id !== tenant.id || !secretMatches(parsed.secret, row.secret_hash)) return false;
      const before = JSON.parse((await db.selectFrom('users').select('notifications_disabled').where('id', '=', row.user_id).executeTakeFirstOrThrow()).notifications_disabled) as NotificationDisabled[];
      const disabled: NotificationDisabled[] = type
        ? [...before.filter((d) => d.type !== type), { type, reason: 'listunsubscribe' }]
        : EMAIL_TYPES.map((t) => ({ type: t, reason: 'listunsubscribe' }));
      await db.updateTable('users').set({ notifications_disabled: JSON.stringify(disabled) }).where('id', '=', row.user_id).execute();
      return true;
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
