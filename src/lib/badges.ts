export const CHAT_BADGE_CAP = 99; // SPEC §9: chat badge cap 99+
export const CREDITS_BADGE_THRESHOLD = 10; // SPEC §9: credits badge at 10 or fewer

/** The text of a count badge: nothing at 0, the number up to the cap, then "99+". */
export function countBadge(count: number, cap = CHAT_BADGE_CAP): string {
  if (!Number.isFinite(count) || count <= 0) return '';
  return count > cap ? `${cap}+` : String(Math.floor(count));
}

export type CreditsBadge = { text: string; tone: 'warning' | 'danger' } | null;

/** Paid users see a credits badge at 10 or fewer: warning colour above 0, danger colour at 0 (SPEC §2). */
export function creditsBadge(credits: number, paidUser: boolean): CreditsBadge {
  if (!paidUser || credits > CREDITS_BADGE_THRESHOLD) return null;
  const shown = Math.max(0, Math.floor(credits));
  return { text: String(shown), tone: shown > 0 ? 'warning' : 'danger' };
}

/** The app badge and title count: unread messages plus new likes (SPEC §4). */
export function attentionCount(unreadMessages: number, newLikes: number): number {
  return Math.max(0, unreadMessages) + Math.max(0, newLikes);
}

/**
 * A page's title with the brand after it ('Anna | Spetter'), unless it names the brand already (the
 * home's 'Spetter - flirten …', its index_title).
 */
export function brandedTitle(title: string, brand: string, indexTitle?: string): string {
  const namesBrand = title === brand || title === indexTitle || title.startsWith(`${brand} - `);
  return namesBrand ? title : `${title} | ${brand}`;
}

/** The page title is prefixed with the count of unread messages plus new likes in brackets (SPEC §2). */
export function titleWithCount(title: string, unreadMessages: number, newLikes: number): string {
  const count = attentionCount(unreadMessages, newLikes);
  return count > 0 ? `(${count}) ${title}` : title;
}
