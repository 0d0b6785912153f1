/**
 * The chat's words that the conversation shows itself (SPEC §2): a gift's name in the member's
 * language, and the icebreakers, ready openers for a new conversation. Read on the server
 * (ChatPage.astro) and handed to the island with its props: the island ships no catalogue module
 * for them (bench/README.md "/chats"). Islands import its type only (context.ts giftName reads it).
 */
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { GIFT_IDS, type GiftId } from '../../lib/gifts.ts';

export interface ChatWords {
  /** Every gift's name, by id: also a gift the brand no longer offers shows its name in a conversation. */
  gifts: Record<GiftId, string>;
  /** Ready openers for a new conversation. */
  icebreakers: string[];
}

const GIFT_NAMES: Record<GiftId, (p: object, o: { locale: Locale }) => string> = {
  rose: m.gift_rose,
  heart: m.gift_heart,
  chocolate: m.gift_chocolate,
  coffee: m.gift_coffee,
  balloon: m.gift_balloon,
  cake: m.gift_cake,
  champagne: m.gift_champagne,
  perfume: m.gift_perfume,
  crown: m.gift_crown,
  diamond: m.gift_diamond,
};

export function chatWords(locale: Locale): ChatWords {
  const o = { locale };
  return {
    gifts: Object.fromEntries(GIFT_IDS.map((id) => [id, GIFT_NAMES[id]({}, o)])) as Record<GiftId, string>,
    icebreakers: [m.icebreaker_1({}, o), m.icebreaker_2({}, o), m.icebreaker_3({}, o), m.icebreaker_4({}, o), m.icebreaker_5({}, o), m.icebreaker_6({}, o)],
  };
}
