import { loadUser } from './user.ts';
import { $likeDialog, $newLikes, loadLikes } from './likes.ts';
import { attentionCount, countBadge, titleWithCount } from '../lib/badges.ts';
import { REFRESH_FIRST_DELAY_S, refreshPeriodSeconds } from '../lib/refresh.ts';

/**
 * What keeps a member's page current (SPEC §2, §4, §9, DESIGN §9): the event stream of this tab
 * (GET /api/events.php: a like reloads the likes, a match opens the match dialog, a user or
 * credits change reloads the user), the periodic refresh of the user and the likes (5 s after
 * the page is shown, then every 60 s, or 300 s with a push subscription), and the badges: the
 * likes badge, the title prefix and the app badge.
 */
export function startLive(nav: HTMLElement): void {
  const badge = nav.querySelector<HTMLElement>('[data-badge="likes"]');
  const title = document.querySelector<HTMLTitleElement>('title[data-base-title]');
  // A server-rendered page knows the count; a prerendered one asks at once.
  if (badge?.dataset.count !== undefined) $newLikes.set(Number(badge.dataset.count) || 0);
  else void loadLikes().catch(() => undefined);

  $newLikes.subscribe((count) => {
    if (badge) {
      const text = countBadge(count);
      badge.textContent = text;
      badge.hidden = text === '';
      if (text) badge.setAttribute('aria-label', (badge.dataset.label ?? '{count}').replace('{count}', text));
    }
    // Unread messages arrive with the chat; until then the prefix counts the new likes.
    if (title?.dataset.baseTitle) document.title = titleWithCount(title.dataset.baseTitle, 0, count);
    const app = navigator as Navigator & { setAppBadge?: (n: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
    const total = attentionCount(0, count);
    // SPEC §8: failing to set the app badge is ignored.
    void (total > 0 ? app.setAppBadge?.(total) : app.clearAppBadge?.())?.catch(() => undefined);
  });

  const refresh = () => Promise.all([loadUser(), loadLikes()]).catch(() => undefined);

  // The event stream: EventSource reconnects by itself after a dropped connection.
  if ('EventSource' in window) {
    const events = new EventSource('/api/events.php');
    events.addEventListener('like', () => void loadLikes().catch(() => undefined));
    events.addEventListener('match', (e) => {
      const { profile_id } = JSON.parse((e as MessageEvent<string>).data) as { profile_id: number };
      void loadLikes().then(
        (likes) => {
          const item = [...likes.liked_by, ...likes.profiles].find((l) => l.profile.id === profile_id);
          if (item) $likeDialog.set({ kind: 'match', profile: item.profile });
        },
        () => undefined,
      );
    });
    for (const type of ['user', 'credits']) events.addEventListener(type, () => void loadUser().catch(() => undefined));
    addEventListener('pagehide', () => events.close());
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (seconds: number) => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (document.visibilityState === 'visible') await refresh();
      // The push subscription's longer period arrives with web push (the chat issue).
      schedule(refreshPeriodSeconds(false));
    }, seconds * 1000);
  };
  schedule(REFRESH_FIRST_DELAY_S);
  // Back on a hidden tab: refresh 5 s after it is shown again (SPEC §9).
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') schedule(REFRESH_FIRST_DELAY_S);
  });
}
