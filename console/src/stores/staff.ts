import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, type AnswerOf } from '../lib/api.ts';

/** The logged-in staff member and the brands in their scope (GET /api/console/me); null until loaded. */
export const $me = atom<AnswerOf<'GET me'> | null>(null);

let loading: Promise<AnswerOf<'GET me'>> | null = null;

/** Loads the staff member once per page (every island that needs it shares the one call). */
export function loadMe(): Promise<AnswerOf<'GET me'>> {
  loading ??= consoleApi('GET me').then((me) => {
    $me.set(me);
    return me;
  });
  return loading;
}

export async function logout(): Promise<void> {
  await consoleApi('POST logout');
  $me.set(null);
  location.assign('/console/login');
}
