import { atom, computed } from './browser-only.ts';
import type { BodyOf } from '../contract/endpoints.ts';
import { api, changeGuard } from './api.ts';
import type { SiteUser } from '../contract/user.ts';
import { KEPT_MEMBER_KEY, SIGNED_IN_COOKIE } from '../lib/signed-in.ts';
import { readCookie } from '../lib/cookies.ts';

/** The logged-in member (SPEC §3 User), null when logged out. Pages seed it from the server render. */
export const $user = atom<SiteUser | null>(null);
export const $loggedIn = computed($user, (user) => user !== null);

/** The tag of the session this browser is signed in with (the signed_in cookie), or null. */
function sessionTag(): string | null {
  return readCookie(document.cookie, SIGNED_IN_COOKIE) || null;
}

// Whatever the store learns is kept for the tab's next page (see KEPT_MEMBER_KEY). On the server
// there is no sessionStorage and nothing is kept.
$user.listen((user) => {
  try {
    const tag = sessionTag();
    if (user && tag) sessionStorage.setItem(KEPT_MEMBER_KEY, JSON.stringify({ tag, user: { ...user, email: '' } }));
    else sessionStorage.removeItem(KEPT_MEMBER_KEY);
  } catch {
    // No storage (the server, a privacy mode): the page waits for GET /api/user.php.
  }
});

/** Puts the member the tab's last page knew into an empty store, if the same session is signed in (see KEPT_MEMBER_KEY). */
export function restoreUser(): void {
  if ($user.get()) return;
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEPT_MEMBER_KEY) ?? 'null') as { tag?: unknown; user?: SiteUser } | null;
    if (kept?.user && typeof kept.user.id === 'number' && kept.tag === sessionTag()) $user.set(kept.user);
  } catch {
    // Nothing usable kept.
  }
}

export function setUser(user: SiteUser | null): void {
  $user.set(user);
}

/** The member's logins, logouts and settings, before which no older read of the user is set. */
const guard = changeGuard();

/** Runs another call whose answer changes the user (a signup, a send's credits, a deletion), so no older read of the user is set after it. */
export const changeUser = <T,>(run: () => Promise<T>): Promise<T> => guard.change(run);

/** Re-fetches the current user (GET /api/user.php). */
export async function loadUser(): Promise<SiteUser | null> {
  const { user } = await guard.read(() => api('GET', '/user.php'), (answer) => $user.set(answer.user));
  return user;
}

export async function login(email: string, password: string): Promise<SiteUser> {
  const { user } = await guard.change(() => api('POST', '/user.php', { email, password }));
  $user.set(user);
  return user;
}

export async function logout(): Promise<void> {
  await guard.change(() => api('POST', '/logout.php'));
  $user.set(null);
}

/** Saves member settings on the user record (PUT /api/user.php): language, invisible mode, the own brand only. */
export async function saveUserSettings(settings: { language?: string; invisible?: boolean; own_brand_only?: boolean }): Promise<SiteUser> {
  const { user } = await guard.change(() => api('PUT', '/user.php', settings as BodyOf<'PUT user.php'>));
  $user.set(user);
  return user;
}
