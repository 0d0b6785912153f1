/**
 * Which photo a member's card and a profile show first: the islands draw them, and a member
 * shell's head fetches them early (src/lib/early-gets.ts writes the same rules as plain script).
 */
import type { MainImage } from '../contract/cards.ts';
import type { MemberAnswer } from '../contract/profile.ts';

/** A card's photo: the thumbnail of the main photo, else the photo itself; null when none (an initial). */
export function cardPhoto(card: { main_image?: Pick<MainImage, 'filename' | 'thumb_filename'> | null }): string | null {
  return card.main_image?.thumb_filename || card.main_image?.filename || null;
}

/** A profile's first photo: the main one the viewer may see, else the first they may, else the card's. */
export function profilePhoto(answer: Pick<MemberAnswer, 'photos' | 'profile'>): string | null {
  const { photos, profile } = answer;
  return (photos.find((p) => p.main && p.url) ?? photos.find((p) => p.url))?.url ?? profile.main_image?.filename ?? null;
}
