import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, ABOUT_MAX } from '../lib/account-rules.ts';
import { DELETE_REASONS, EMAIL_NOTIFICATION_TYPES, GENDERS, SEXUALITIES, TRACKING_KEYS, TRACKING_MAX } from './enums.ts';

const password = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
const givenPassword = z.string().min(1).max(PASSWORD_MAX);
const text = (max: number) => z.string().max(max);
const trackingValue = z.string().max(10_000).transform((v) => v.slice(0, TRACKING_MAX)).optional();
const token = z.string().min(1).max(200);

/** POST /api/signup.php */
export const SignupBody = z.object({
  email: z.string().max(254),
  password,
  name: z.string().max(100),
  // Absent counts as empty, which the service answers with "fill in your birth date".
  date_of_birth: z.string().max(10).default(''),
  gender: z.enum(GENDERS),
  sexuality: z.enum(SEXUALITIES),
  country: z.string().regex(/^[A-Z]{2}$/),
  region: text(100).nullish(),
  city: text(100).nullish(),
  signup_message: text(ABOUT_MAX).nullish(),
  tracking: z.object(Object.fromEntries(TRACKING_KEYS.map((k) => [k, trackingValue])) as Record<(typeof TRACKING_KEYS)[number], typeof trackingValue>).strip().nullish(),
});
export type SignupInput = z.output<typeof SignupBody>;
/** The catalogue message of each refused signup field. */
export const SIGNUP_MESSAGES = { email: 'signup_email_invalid', password: 'password_too_short', date_of_birth: 'birth_date_invalid', name: 'name_length' } as const;

/** A mail link's token: activation, password reset, address change, reactivation. */
export const TokenBody = z.object({ token });
/** POST /api/reset-password.php: ask for the mail, or set the new password with its token. */
export const ResetRequestBody = z.object({ email: z.string().max(254) });
export const ResetBody = z.object({ token, password });
/** POST /api/mail-change.php: ask (logged in), or confirm with the token. */
export const MailChangeBody = z.object({ email: z.string().max(254), password: givenPassword });
/** POST /api/password.php */
export const PasswordBody = z.object({ old_password: givenPassword, password, password_repeat: z.string().max(PASSWORD_MAX) });
/** DELETE /api/account.php */
export const DeleteBody = z.object({ reason: z.enum(DELETE_REASONS), password: givenPassword });

/** PUT /api/notifications.php */
export const NotificationsBody = z
  .object({
    email: z.partialRecord(z.enum(EMAIL_NOTIFICATION_TYPES), z.boolean()).optional(),
    push: z.boolean().optional(),
    reenable: z.literal(true).optional(),
  })
  .strict();
export type NotificationsChange = z.output<typeof NotificationsBody>;

/** Whether a JSON body carries a mail link's token (the second form of reset-password and mail-change). */
export function hasToken(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'token' in body;
}

// ---- Answers

/** GET /api/account.php: the reasons to delete an account, each with a solution that may keep the member. */
export const DeleteReasonsAnswer = z.object({
  delete_discount: z.number().int(),
  reasons: z.array(z.object({ key: z.enum(DELETE_REASONS), label: z.string(), solution: z.object({ label: z.string(), href: z.string() }) })),
});
export type DeleteReasonsAnswer = z.infer<typeof DeleteReasonsAnswer>;

/** GET and PUT /api/notifications.php: the member's e-mail types and push, and what was switched off without them. */
export const NotificationSettings = z.object({
  email: z.record(z.enum(EMAIL_NOTIFICATION_TYPES), z.boolean()),
  push: z.boolean(),
  /** Types switched off by a spam report, bounce or list-unsubscribe (SPEC §3), with the reason. */
  disabled: z.array(z.object({ type: z.enum(EMAIL_NOTIFICATION_TYPES), reason: z.string() })),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

/** POST /api/mail-events.php: how many members' mails were switched off. */
export const MailEventAnswer = z.object({ ok: z.literal(true), members: z.number().int() });

/** POST /api/mail-events.php: the mail provider's event about an address. */
export const MailEventBody = z.object({
  /** bounce (hard bounce), complaint or spam (a spam report: reason fbl). */
  event: z.enum(['bounce', 'complaint', 'spam']),
  email: z.email().max(254),
});
