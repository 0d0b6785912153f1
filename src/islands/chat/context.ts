import type { Locale } from '../../lib/locales.ts';
import type { Fictional } from '../search/ProfileCard.tsx';

/** What every part of the chat island needs from the page. */
export interface ChatContext {
  locale: Locale;
  /** The brand's gift catalogue (SPEC §2 gift button). */
  gifts: { id: string; credits: number }[];
  fictional: Fictional;
  /** The brand's message_length (SPEC §3), also enforced by the server. */
  messageLength: number;
  /** What premium costs: the first purchase, from the cheapest bundle in the member's currency (formatted); null when the brand sells none. */
  premiumFrom: string | null;
}

/** A time in a chat: the hour today, else the date and hour. */
export function chatTime(iso: string, locale: string, now = new Date()): string {
  const at = new Date(iso);
  const sameDay = at.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(locale, sameDay ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(at);
}
