import type { Locale } from '../../lib/locales.ts';
import type { Fictional } from '../search/ProfileCard.tsx';
import type { ChatWords } from './words.ts';

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
  /** Gift names and icebreakers in the member's language, read on the server (words.ts). */
  words: ChatWords;
}

/** A gift's name in the member's language; an id the page has no name for stays as it is. */
export function giftName(ctx: Pick<ChatContext, 'words'>, id: string): string {
  return Object.hasOwn(ctx.words.gifts, id) ? ctx.words.gifts[id as keyof ChatWords['gifts']] : id;
}

/** A time in a chat: the hour today, else the date and hour. */
export function chatTime(iso: string, locale: string, now = new Date()): string {
  const at = new Date(iso);
  const sameDay = at.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(locale, sameDay ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(at);
}
