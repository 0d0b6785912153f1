/**
 * The like and match dialogs (SPEC §2): the profile's main image animated in after 0.75 s, a
 * view-profile button to members-id, a click anywhere closes it, and a click on the image or the
 * button is reported with the profile id (a `sitegen:like-dialog-click` event on window, for the
 * brand's tracking). A `like_dialog=<seconds>` query parameter shows the like dialog after that many
 * seconds and is then removed from the URL; the dialog then asks the server for a profile
 * (GET /api/auto-like.php). Fictional profiles show their icon and warning here too.
 */
import { lazy, Suspense, useEffect } from 'react';
import type { Locale } from '../../lib/locales.ts';
import type { Fictional } from '../search/ProfileCard.tsx';
import { $likeDialog, showAutoLike } from '../../stores/likes.ts';
import { useStoreOnceHydrated } from '../useStoreOnceHydrated.ts';

// Every member page carries the dialogs, which few visits open: the open dialog loads when it opens.
const OpenLikeDialog = lazy(() => import('./OpenLikeDialog.tsx'));

/** The query parameter with the delay in seconds (SPEC §2: name not shown; chosen). */
export const LIKE_DIALOG_PARAM = 'like_dialog';

interface Props {
  locale: Locale;
  fictional: Fictional;
}

export default function LikeDialog({ locale, fictional }: Props) {
  // Closed in the server's HTML and while hydrating; then as the store has it.
  const state = useStoreOnceHydrated($likeDialog, null);

  useEffect(() => {
    const url = new URL(location.href);
    const raw = url.searchParams.get(LIKE_DIALOG_PARAM);
    if (raw === null) return;
    url.searchParams.delete(LIKE_DIALOG_PARAM);
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    const seconds = Math.min(Math.max(Number(raw) || 0, 0), 3600);
    const timer = setTimeout(() => void showAutoLike().catch(() => undefined), seconds * 1000);
    return () => clearTimeout(timer);
  }, []);

  return state ? (
    <Suspense fallback={null}>
      <OpenLikeDialog locale={locale} fictional={fictional} state={state} />
    </Suspense>
  ) : null;
}
