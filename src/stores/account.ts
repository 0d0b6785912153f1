import { atom } from './browser-only.ts';
import type { BodyOf } from '../contract/endpoints.ts';
import type { DeleteReasonsAnswer } from '../contract/accounts.ts';
import { api } from './api.ts';
import { $user, changeUser } from './user.ts';

/** A reason to leave and what the site offers against it (GET /api/account.php?reasons=1). */
/** The reasons to delete an account, with their solutions (GET /api/account.php): the contract's. */
export type DeleteReasons = DeleteReasonsAnswer;
export type DeleteReason = DeleteReasonsAnswer['reasons'][number];

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
  const reasons = await api('GET', '/account.php', undefined, { reasons: 1 });
  $deleteReasons.set(reasons);
  return reasons;
}

/** Requests deletion (DELETE /api/account.php); the server logs the member out and mails a reactivation link. */
export async function deleteAccount(reason: BodyOf<'DELETE account.php'>['reason'], password: string): Promise<void> {
  await changeUser(() => api('DELETE', '/account.php', { reason, password }));
  $user.set(null);
}
