import { atom } from './browser-only.ts';
import { api, changeGuard } from './api.ts';
import { loadUser } from './user.ts';
import { EMAIL_NOTIFICATION_TYPES, type EmailNotificationType, type DisabledReason } from '../contract/enums.ts';

export { EMAIL_NOTIFICATION_TYPES, type EmailNotificationType, type DisabledReason };

/** GET /api/notifications.php. */
export interface NotificationSettings {
  email: Record<EmailNotificationType, boolean>;
  push: boolean;
  disabled: { type: string; reason: DisabledReason | string }[];
}

export const $notifications = atom<NotificationSettings | null>(null);

/** A switch moves at once and its save answers with the settings; the page's first read, if it overlapped, is older. */
const changes = changeGuard();

export async function loadNotifications(): Promise<NotificationSettings> {
  return changes.read(() => api('GET', '/notifications.php'), (settings) => $notifications.set(settings));
}

async function save(body: { email?: Partial<Record<EmailNotificationType, boolean>>; push?: boolean; reenable?: true }): Promise<NotificationSettings> {
  const settings = await changes.change(() => api('PUT', '/notifications.php', body));
  $notifications.set(settings);
  return settings;
}

/** Switches one e-mail type; the switch moves at once and moves back when the server refuses. */
export async function setEmailNotification(type: EmailNotificationType, on: boolean): Promise<NotificationSettings> {
  const before = $notifications.get();
  if (before) $notifications.set({ ...before, email: { ...before.email, [type]: on } });
  try {
    return await save({ email: { [type]: on } });
  } catch (error) {
    if (before) $notifications.set(before);
    throw error;
  }
}

/** Saves the push preference only; subscribing the browser is a later concern. */
export async function setPushNotifications(on: boolean): Promise<NotificationSettings> {
  const before = $notifications.get();
  if (before) $notifications.set({ ...before, push: on });
  try {
    return await save({ push: on });
  } catch (error) {
    if (before) $notifications.set(before);
    throw error;
  }
}

/** Turns e-mails back on after fbl, bounce or list-unsubscribe; the user's notifications_disabled follows. */
export async function reenableEmails(): Promise<NotificationSettings> {
  const settings = await save({ reenable: true });
  void loadUser().catch(() => undefined);
  return settings;
}

/** The browser can receive push messages (SPEC §4 push: unknown or capable). */
export { pushSupported } from './push.ts';
