import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf, type ConsoleCalls } from '../lib/api.ts';

export interface MemberState {
  data: AnswerOf<'GET members/:id'> | null;
  error: string;
  /** What the last action did, for the page's confirmation. */
  done: string;
}

/** One member's page (console/src/pages/[locale]/members/id.astro). */
export const $member = atom<MemberState>({ data: null, error: '', done: '' });

/** The member's id in the address (/console/members/<id>). */
export function memberIdOfAddress(): number {
  return Number(/\/members\/(\d+)/.exec(location.pathname)?.[1] ?? 0);
}

export async function loadMember(id: number): Promise<void> {
  try {
    $member.set({ ...$member.get(), data: await consoleApi('GET members/:id', { params: { id } }), error: '' });
  } catch (e) {
    $member.set({ ...$member.get(), error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}

type MemberAction = Extract<keyof ConsoleCalls, `POST members/:id/${string}`>;

/** Runs a staff action on the member and reloads the page's data; a refusal is thrown for the dialog to show. */
export async function actOnMember<K extends MemberAction>(call: K, id: number, body: ConsoleCalls[K]['body'], done: string): Promise<void> {
  await consoleApi(call, { params: { id }, body });
  await loadMember(id);
  $member.set({ ...$member.get(), done });
}

export function clearDone(): void {
  $member.set({ ...$member.get(), done: '' });
}
