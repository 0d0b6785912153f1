/**
 * A like button under a profile card (the likes list, the match finder, search results): likes
 * or takes the like back; a like back is a match and opens the match dialog.
 */
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import type { ProfileCardData } from '../../contract/likes.ts';
import { useLike } from './useLike.ts';

interface Props {
  locale: Locale;
  profile: ProfileCardData;
  liked: boolean;
  /** The profile likes the member: the button says "like back". */
  likedMe?: boolean;
  /** A round heart over the corner of a card (search results) instead of a full-width button. */
  compact?: boolean;
}

export default function LikeButton({ locale, profile, liked: likedOnServer, likedMe = false, compact = false }: Props) {
  const { liked: isLiked, busy, error, hydrated, toggle } = useLike(profile, likedOnServer);

  const label = isLiked ? m.profile_liked({}, { locale }) : likedMe ? m.profile_like_back({}, { locale }) : m.profile_like({}, { locale });
  const className = compact
    ? `grid h-10 w-10 place-items-center rounded-full text-xl shadow-md transition hover:scale-110 ${isLiked ? 'bg-primary text-white' : 'bg-white text-primary'}`
    : `flex w-full items-center justify-center gap-1.5 rounded-full px-3 py-2 text-sm font-semibold transition ${isLiked ? 'bg-primary/10 text-primary' : 'bg-primary text-white hover:brightness-110'}`;
  const button = (
    <button
      type="button"
      onClick={toggle}
      disabled={busy || !hydrated}
      aria-pressed={isLiked}
      aria-label={`${label}: ${profile.name}`}
      // The round heart has no room for an error line: its title says it.
      title={(compact && error) || (isLiked ? m.profile_unlike({}, { locale }) : label)}
      className={className}
      data-like={profile.id}
    >
      <span aria-hidden="true" className={isLiked ? 'i-tabler-heart-filled' : 'i-tabler-heart'} />
      {!compact && label}
    </button>
  );
  if (compact) return button;
  return (
    <>
      {button}
      {error && <p role="alert" className="mt-1 text-xs text-danger">{error}</p>}
    </>
  );
}
