
/**
 * A brand's safety rules for members' messages and signups (issue 22, "Safety rules"): pure, so
 * the chat service, the console and their tests read the same rules. tenant.json `safety`
 * (src/tenant/schema.ts) holds each brand's choices. Light on purpose (the console's pages import
 * it): the text screening is in message-screening.ts, the disposable-address list in disposable-email.ts.
 */

/** What a brand does with contact details in a member's text message. */
export const CONTACT_ACTIONS = ['mask', 'hold', 'allow'] as const;
export type ContactAction = (typeof CONTACT_ACTIONS)[number];

/** Why a message was held for review. */
export const HOLD_REASONS = ['burst', 'contacts', 'words'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** What a moderator does with a held message. */
export const HELD_ACTIONS = ['release', 'reject'] as const;
export type HeldAction = (typeof HELD_ACTIONS)[number];

/**
 * A message's delivery: null for a message delivered at once, `held` while it waits for a
 * moderator, `released` once delivered by one, `rejected` when it never reaches the recipient
 * (its sender sees it marked not delivered, with the reason, and has its credits back).
 */
export const HOLD_STATUSES = ['held', 'released', 'rejected'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

export interface SafetyRules {
  burst: { new_account_hours: number; max_recipients: number };
  contacts: ContactAction;
  words: string[];
  disposable_email: boolean;
}

/**
 * Whether a message reaches its recipient: the one rule of the hold. Every read of the
 * recipient's side (the conversation, the chats list and its unread counts, the event stream,
 * pushes and mails) follows it; the sender always sees their own messages.
 */
export function isDelivered(holdStatus: string | null): boolean {
  return holdStatus === null || holdStatus === 'released';
}

/**
 * OpenCupid's burst rule: an account younger than `new_account_hours` that writes to more than
 * `max_recipients` different members has its further messages held. `recipients` counts the
 * distinct members it wrote to since signup, this message's recipient included.
 */
export function burstHolds(rule: SafetyRules['burst'], account: { ageHours: number; recipients: number }): boolean {
  return account.ageHours < rule.new_account_hours && account.recipients > rule.max_recipients;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first word of the brand's list in the text (case-insensitive, whole words only), or null. */
export function findListedWord(text: string, words: readonly string[]): string | null {
  const listed = words.map((w) => w.trim()).filter(Boolean);
  if (listed.length === 0) return null;
  // Whole words: no letter or digit right before or after ("sex" does not match "Essex").
  const pattern = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${listed.map(escapeRegExp).join('|')})(?![\p{L}\p{N}])`, 'iu');
  return pattern.exec(text)?.[0] ?? null;
}
