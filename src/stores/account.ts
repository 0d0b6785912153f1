import { atom } from './browser-only.ts';
import { api } from './api.ts';
import { $user } from './user.ts';

/** A reason to leave and what the site offers against it (GET /api/account.php?reasons=1). */
export type DeleteReason = { key: string; label: string; solution: { label: string; href: string | null } | null };
export type DeleteReasons = { reasons: DeleteReason[]; delete_discount: number };

export const $deleteReasons = atom<DeleteReasons | null>(null);

/** Sends a confirmation link to the new address (POST /api/mail-change.php {email, password}). */
export async function requestMailChange(email: string, password: string): Promise<void> {
  await api('POST', '/mail-change.php', { email, password });
}

/** Confirms the new address with the token from the mail (POST /api/mail-change.php {token}). */
export async function confirmMailChange(token: string): Promise<void> {
  await api('POST', '/mail-change.php', { token });
}

export async function changePassword(input: { old_password: string; password: string; password_repeat: string }): Promise<void> {
  await api('POST', '/password.php', input);
}

export async function loadDeleteReasons(): Promise<DeleteReasons> {
  const cached = $deleteReasons.get();
  if (cached) return cached;
  const reasons = await api<DeleteReasons>('GET', '/account.php', undefined, { reasons: 1 });
  $deleteReasons.set(reasons);
  return reasons;
}

/** Requests deletion (DELETE /api/account.php); the server logs the member out and mails a reactivation link. */
export async function deleteAccount(reason: string, password: string): Promise<void> {
  await api('DELETE', '/account.php', { reason, password });
  $user.set(null);
}
