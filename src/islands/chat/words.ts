/**
 * The chat's words that the conversation shows itself (SPEC §2): a gift's name in the member's
 * language, and the icebreakers, ready openers for a new conversation. The dialogs use them too.
 */
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { isGiftId, type GiftId } from '../../lib/gifts.ts';

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

export function giftName(id: string, locale: Locale): string {
  return isGiftId(id) ? GIFT_NAMES[id]({}, { locale }) : id;
}

/** Ready openers for a new conversation, in the member's language. */
export function icebreakers(locale: Locale): string[] {
  const o = { locale };
  return [m.icebreaker_1({}, o), m.icebreaker_2({}, o), m.icebreaker_3({}, o), m.icebreaker_4({}, o), m.icebreaker_5({}, o), m.icebreaker_6({}, o)];
}
