import { atom, computed } from './browser-only.ts';
import { api, changeGuard } from './api.ts';
import type { DeckAnswer, LikeAnswer, LikesAnswer, ProfileCardData } from '../contract/likes.ts';

/** The member's likes (GET /api/likes.php), null until loaded. */
export const $likes = atom<LikesAnswer | null>(null);

/** New received likes: the likes badge and half of the title prefix (SPEC §2). Seeded by the page. */
export const $newLikes = atom<number>(0);

/** The profiles the member liked, by id: the like buttons of every card and profile on the page. */
export const $liked = atom<ReadonlySet<number>>(new Set());

/** The like badge's text: nothing at 0. */
export const $likesBadge = computed($newLikes, (n) => (n > 0 ? String(n) : ''));

/** The like or match dialog (SPEC §2): which kind, for which profile. */
export type DialogState = { kind: 'like' | 'match'; profile: ProfileCardData & { liked_me?: boolean } } | null;
export const $likeDialog = atom<DialogState>(null);

/** The member's likes and unlikes, before which no older read of the likes is set. */
const guard = changeGuard();

/** Runs another call that changes the member's likes (a swipe, a block), so no older read of them is set after it. */
export const changeLikes = <T,>(run: () => Promise<T>): Promise<T> => guard.change(run);

export function loadLikes(): Promise<LikesAnswer> {
  return guard.read(
    () => api('GET', '/likes.php'),
    (answer) => {
      $likes.set(answer);
      $newLikes.set(answer.total_new);
      $liked.set(new Set(answer.profiles.map((l) => l.profile.id)));
    },
  );
}

/**
 * Reads the swipe game's deck (GET /api/swipe.php) behind the member's likes and passes: a deck read
 * before a swipe still on its way would hand back the card just answered and the likes left before it.
 */
export function loadSwipeDeck(set: (deck: DeckAnswer) => void): Promise<DeckAnswer> {
  return guard.read(() => api('GET', '/swipe.php'), set);
}

/** Records in the store that the member (no longer) likes a profile. */
export function markLiked(profileId: number, liked: boolean): void {
  const next = new Set($liked.get());
  if (liked) next.add(profileId);
  else next.delete(profileId);
  $liked.set(next);
}

/** Likes a profile; a match opens the match dialog. */
export async function likeProfile(profile: ProfileCardData): Promise<LikeAnswer> {
  const answer = await guard.change(() => api('POST', '/like.php', { profile_id: profile.id }));
  markLiked(profile.id, true);
  if (answer.match) $likeDialog.set({ kind: 'match', profile });
  return answer;
}

export async function unlikeProfile(profileId: number): Promise<void> {
  await guard.change(() => api('DELETE', '/like.php', { profile_id: profileId }));
  markLiked(profileId, false);
}

/** The like dialog without a profile asks the server for one (SPEC §7 auto-like), then the likes reload. */
export const AUTO_LIKE_RELOAD_MS = 500; // SPEC §9: chat likes are reloaded 0.5 s later

export async function showAutoLike(): Promise<void> {
  const { profile } = await api('GET', '/auto-like.php');
  if (profile) $likeDialog.set({ kind: 'like', profile });
  setTimeout(() => void loadLikes().catch(() => undefined), AUTO_LIKE_RELOAD_MS);
}
