import { loadUser } from './user.ts';
import { $likeDialog, $newLikes, loadLikes } from './likes.ts';
import { $events, onEvent } from './events.ts';
import { $unread, listenToChat, loadChats } from './chat.ts';
import { $pushSubscribed, startPush } from './push.ts';
import { attentionCount, countBadge, titleWithCount } from '../lib/badges.ts';
import { REFRESH_FIRST_DELAY_S, refreshPeriodSeconds } from '../lib/refresh.ts';

let started = false;

/**
 * What keeps a member's page current (SPEC §2, §4, §9, DESIGN §9), started once per page by the
 * member bar or the chat: the tab's event stream (a message reloads the chats and the open
 * conversation, a like the likes, a match opens the match dialog, a user or credits change
 * reloads the user), the periodic refresh of the user, the chats and the likes (5 s after the page
 * is shown, then every 60 s, or 300 s with a push subscription), and the badges: messages,
 * likes, the title prefix and the app badge. `nav` is the member bar whose badges it keeps.
 */
export function startLive(nav: HTMLElement | null, seed: { unread?: number; newLikes?: number } = {}): void {
  if (started) return;
  started = true;
  const likesBadge = nav?.querySelector<HTMLElement>('[data-badge="likes"]');
  const unreadBadge = nav?.querySelector<HTMLElement>('[data-badge="unread"]');
  const title = document.querySelector<HTMLTitleElement>('title[data-base-title]');
  // A server-rendered page knows the counts; a prerendered one asks at once.
  const likesCount = likesBadge?.dataset.count ?? seed.newLikes;
  const unreadCount = unreadBadge?.dataset.count ?? seed.unread;
  if (likesCount !== undefined) $newLikes.set(Number(likesCount) || 0);
  else void loadLikes().catch(() => undefined);
  if (unreadCount !== undefined) $unread.set(Number(unreadCount) || 0);
  else void loadChats().catch(() => undefined);

  const showBadge = (badge: HTMLElement | null | undefined, count: number) => {
    if (!badge) return;
    const text = countBadge(count);
    badge.textContent = text;
    badge.hidden = text === '';
    if (text) badge.setAttribute('aria-label', (badge.dataset.label ?? '{count}').replace('{count}', text));
  };
  const attention = () => {
    const unread = $unread.get();
    const likes = $newLikes.get();
    if (title?.dataset.baseTitle) document.title = titleWithCount(title.dataset.baseTitle, unread, likes);
    const app = navigator as Navigator & { setAppBadge?: (n: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
    const total = attentionCount(unread, likes);
    // SPEC §8: failing to set the app badge is ignored.
    try {
      void (total > 0 ? app.setAppBadge?.(total) : app.clearAppBadge?.())?.catch(() => undefined);
    } catch {
      // Not supported here.
    }
  };
  $newLikes.subscribe((count) => {
    showBadge(likesBadge, count);
    attention();
  });
  $unread.subscribe((count) => {
    showBadge(unreadBadge, count);
    attention();
  });

  const refresh = () => Promise.all([loadUser(), loadChats(), loadLikes()]).catch(() => undefined);

  // The event stream of this tab; it stays open while these listeners are there.
  listenToChat();
  onEvent('like', () => void loadLikes().catch(() => undefined));
  onEvent('match', (data) => {
    void loadLikes().then(
      (likes) => {
        const item = [...likes.liked_by, ...likes.profiles].find((l) => l.profile.id === data.profile_id);
        if (item) $likeDialog.set({ kind: 'match', profile: item.profile });
      },
      () => undefined,
    );
  });
  for (const type of ['user', 'credits'] as const) onEvent(type, () => void loadUser().catch(() => undefined));
  onEvent('reconnected', () => void refresh());
  $events.listen(() => undefined);

  // The push worker: a push reloads the chats and likes (SPEC §7); being subscribed lengthens the refresh period.
  void startPush(() => void Promise.all([loadChats(), loadLikes()]).catch(() => undefined));

  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (seconds: number) => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (document.visibilityState === 'visible') await refresh();
      schedule(refreshPeriodSeconds($pushSubscribed.get()));
    }, seconds * 1000);
  };
  schedule(REFRESH_FIRST_DELAY_S);
  // Back on a hidden tab: refresh 5 s after it is shown again (SPEC §9). Going hidden sends the
  // page-hidden beacon (SPEC §7: the member's last-seen time).
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') schedule(REFRESH_FIRST_DELAY_S);
    else navigator.sendBeacon?.('/api/page-hidden.php');
  });
}
