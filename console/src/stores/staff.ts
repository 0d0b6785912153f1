import { atom, computed } from '../../../src/stores/browser-only.ts';
import type { ConsoleBrand } from '../../../src/contract/console.ts';
import { consoleApi, type AnswerOf, type ConsoleCalls } from '../lib/api.ts';

/** The logged-in staff member and the brands in their scope (GET /api/console/me); null until loaded. */
export const $me = atom<AnswerOf<'GET me'> | null>(null);

/**
 * Every brand the console may name for this staff member, by id: those of their scope and the
 * other brands of their pools (`pool: true`), whose members they meet through their own (issue 24).
 */
export const $brandNames = computed($me, (me) => new Map<string, ConsoleBrand & { pool: boolean }>([...(me?.brands ?? []).map((b) => [b.id, { ...b, pool: false }] as const), ...(me?.pool_brands ?? []).map((b) => [b.id, { ...b, pool: true }] as const)]));

let loading: Promise<AnswerOf<'GET me'>> | null = null;

/** Loads the staff member once per page (every island that needs it shares the one call). */
export function loadMe(): Promise<AnswerOf<'GET me'>> {
  loading ??= consoleApi('GET me').then((me) => {
    $me.set(me);
    return me;
  });
  return loading;
}

/** A brand's name for a text (a select's option, a sentence); its id when the staff member's brands do not know it. */
export const brandName = (names: ReadonlyMap<string, ConsoleBrand>, id: string): string => names.get(id)?.name ?? id;

export async function logout(): Promise<void> {
  await consoleApi('POST logout');
  $me.set(null);
  location.assign('/console/login');
}

/** Logs in: the staff member, or the secret to enrol (first login, no second factor yet). */
export function login(body: ConsoleCalls['POST login']['body']): Promise<AnswerOf<'POST login'>> {
  return consoleApi('POST login', { body });
}

/** Confirms the second factor with its first code: the ten recovery codes, shown once. */
export async function enrol(body: ConsoleCalls['POST enrol']['body']): Promise<string[]> {
  return (await consoleApi('POST enrol', { body })).recovery_codes;
}

/** Sets the password of an enrolment link; answers the staff member's e-mail. */
export async function setPassword(body: ConsoleCalls['POST enrol/password']['body']): Promise<string> {
  return (await consoleApi('POST enrol/password', { body })).email;
}
