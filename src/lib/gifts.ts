/**
 * The gifts a member can send in a chat (SPEC §2 gift button, §3 gift_credits): drawn icons (Tabler
 * ids, drawn by Glyph in the gift's colour), each
 * with its price in credits. A brand lists its own in tenant.json `gifts` ({id, credits}); without
 * it, every gift below is offered at `gift_credits` times its factor.
 */
export const GIFTS = {
  rose: { icon: 'tabler:flower-filled', colour: '#e11d48', factor: 1 },
  heart: { icon: 'tabler:heart-filled', colour: '#db2777', factor: 1 },
  chocolate: { icon: 'tabler:chocolate', colour: '#92400e', factor: 1 },
  coffee: { icon: 'tabler:mug-filled', colour: '#78350f', factor: 1 },
  balloon: { icon: 'tabler:balloon-filled', colour: '#dc2626', factor: 2 },
  cake: { icon: 'tabler:cake', colour: '#f472b6', factor: 2 },
  champagne: { icon: 'tabler:glass-champagne', colour: '#ca8a04', factor: 3 },
  perfume: { icon: 'tabler:perfume', colour: '#9333ea', factor: 3 },
  crown: { icon: 'tabler:crown-filled', colour: '#eab308', factor: 5 },
  diamond: { icon: 'tabler:diamond-filled', colour: '#0891b2', factor: 10 },
} as const;

export type GiftId = keyof typeof GIFTS;
export const GIFT_IDS = Object.keys(GIFTS) as GiftId[];

export const isGiftId = (id: string): id is GiftId => Object.hasOwn(GIFTS, id);

/** The brand's gift catalogue: its own list, or every gift at gift_credits times its factor. */
export function giftCatalogue(tenant: { gift_credits: number; gifts?: { id: GiftId; credits: number }[] }): { id: GiftId; credits: number }[] {
  return tenant.gifts ?? GIFT_IDS.map((id) => ({ id, credits: tenant.gift_credits * GIFTS[id].factor }));
}
