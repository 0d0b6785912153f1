import { api } from './api.ts';
import { $user, changeUser } from './user.ts';
import type { SiteUser } from '../contract/user.ts';

/**
 * The account actions around logging in that a mail link or a forgotten password starts:
 * password reset (SPEC §8), the activation mail (SPEC §4) and reactivation after deletion.
 * Logging in and out are in user.ts.
 */

/** Mails a link to set a new password (POST /api/reset-password.php {email}). */
export async function requestPasswordReset(email: string): Promise<void> {
  await api('POST', '/reset-password.php', { email: email.trim() });
}

/** Sets the new password with the token from that mail (POST /api/reset-password.php {token, password}). */
export async function resetPassword(token: string, password: string): Promise<void> {
  await changeUser(() => api('POST', '/reset-password.php', { token, password }));
  // The server logs the member out everywhere.
  $user.set(null);
}

/** Sends the activation mail again (POST /api/activate.php?resend=1), for a logged-in, not-confirmed member. */
export async function resendActivation(): Promise<void> {
  await api('POST', '/activate.php?resend=1');
}

/** Undoes a deletion within the 14 days of SPEC §4 (POST /api/account.php?reactivate=1 {token}). */
export async function reactivateAccount(token: string): Promise<SiteUser> {
  const { user } = await changeUser(() => api('POST', '/account.php?reactivate=1', { token }));
  $user.set(user);
  return user;
}
