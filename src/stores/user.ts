import { atom, computed } from 'nanostores';
import { api } from './api.ts';
import type { SiteUser } from '../contract/user.ts';

/** The logged-in member (SPEC §3 User), null when logged out. Pages seed it from the server render. */
export const $user = atom<SiteUser | null>(null);
export const $loggedIn = computed($user, (user) => user !== null);

export function setUser(user: SiteUser | null): void {
  $user.set(user);
}

/** Re-fetches the current user (GET /api/user.php). */
export async function loadUser(): Promise<SiteUser | null> {
  const { user } = await api<{ user: SiteUser | null }>('GET', '/user.php');
  $user.set(user);
  return user;
}

export async function login(email: string, password: string): Promise<SiteUser> {
  const { user } = await api<{ user: SiteUser }>('POST', '/user.php', { email, password });
  $user.set(user);
  return user;
}

export async function logout(): Promise<void> {
  await api('POST', '/logout.php');
  $user.set(null);
}

/** Saves member settings on the user record (PUT /api/user.php): language, invisible mode. */
export async function saveUserSettings(settings: { language?: string; invisible?: boolean }): Promise<SiteUser> {
  const { user } = await api<{ user: SiteUser }>('PUT', '/user.php', settings);
  $user.set(user);
  return user;
}
