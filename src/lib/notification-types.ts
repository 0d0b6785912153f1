/** The e-mail notification types of SPEC §3, in SPEC order. */
export const EMAIL_NOTIFICATION_TYPES = [
  'new_conversations',
  'new_messages',
  'like',
  'unread_message_reminders',
  'promotions',
  'weekly_updates',
  'news',
  'reminders',
] as const;
export type EmailNotificationType = (typeof EMAIL_NOTIFICATION_TYPES)[number];

/** Why e-mails were switched off without the member's own choice (SPEC §3). */
export const DISABLED_REASONS = ['fbl', 'bounce', 'listunsubscribe'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];
