import { atom } from '../../../src/stores/browser-only.ts';
import type { HeldAction } from '../../../src/lib/safety-rules.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';
import { filtersToAddress } from '../lib/filters.ts';

export type HeldItem = AnswerOf<'GET held'>['messages'][number];

export interface HeldState {
  /** The brand asked for; empty: every brand in scope. */
  brand: string;
  /** Oldest first, pages appended as they load. */
  messages: HeldItem[];
  /** The message id the next page starts after; null at the end. */
  next: number | null;
  loading: boolean;
  error: string;
  /** What the last decision did, for the page's confirmation. */
  done: string;
}

/** The queue of held messages (console/src/pages/[locale]/held.astro). */
export const $held = atom<HeldState>({ brand: '', messages: [], next: null, loading: false, error: '', done: '' });

let asked = 0;

/** Loads the queue of a brand (or all in scope) from the start, or its next page (`more`). */
export async function loadHeld(brand: string, more = false): Promise<void> {
  const mine = ++asked;
  const now = $held.get();
  if (!more) filtersToAddress({ brand });
  $held.set({ ...now, brand, loading: true, error: '', ...(more ? {} : { messages: [], next: null }) });
  try {
    const page = await consoleApi('GET held', { query: { brand, after: more ? (now.next ?? undefined) : undefined } });
    if (mine !== asked) return;
    const state = $held.get();
    $held.set({ ...state, messages: more ? [...state.messages, ...page.messages] : page.messages, next: page.next, loading: false });
  } catch (e) {
    if (mine === asked) $held.set({ ...$held.get(), loading: false, error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}

/** Releases or rejects one message; it leaves the queue. A refusal is thrown for the dialog to show. */
export async function decideHeld(id: number, action: HeldAction, reason: string, done: string): Promise<void> {
  await consoleApi('POST held/:id', { params: { id }, body: { action, reason } });
  const state = $held.get();
  $held.set({ ...state, messages: state.messages.filter((message) => message.id !== id), done });
}
