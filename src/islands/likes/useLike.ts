import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { ProfileCardData } from '../../contract/likes.ts';
import { $liked, likeProfile, markLiked, unlikeProfile } from '../../stores/likes.ts';
import { ApiError } from '../../stores/api.ts';

/**
 * Whether the member likes a profile, and the toggle, for every like button on the page. The
 * `$liked` store is the one truth once the island has hydrated (seeded with what the server said),
 * so the profile's button, a card's heart and the swipe game never disagree; before that the
 * server's answer shows. A like back is a match: the store opens the match dialog.
 */
export function useLike(profile: ProfileCardData, likedOnServer: boolean) {
  const likedSet = useStore($liked);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    if (likedOnServer) markLiked(profile.id, true);
    setHydrated(true);
  }, []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const liked = hydrated ? likedSet.has(profile.id) : likedOnServer;

  async function toggle() {
    setBusy(true);
    setError('');
    try {
      if (liked) await unlikeProfile(profile.id);
      else await likeProfile(profile);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return { liked, busy, error, hydrated, toggle };
}
