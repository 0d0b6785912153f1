import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';
import { filtersToAddress } from '../lib/filters.ts';

export interface PostbacksState {
  brand: string;
  result: AnswerOf<'GET postbacks'> | null;
  loading: boolean;
  error: string;
  /** The confirmation of the last resend. */
  done: string;
}

/** The postback log (console/src/pages/[locale]/postbacks.astro). */
export const $postbacks = atom<PostbacksState>({ brand: '', result: null, loading: false, error: '', done: '' });

export async function loadPostbacks(brand: string, before?: number): Promise<void> {
  filtersToAddress({ brand });
  $postbacks.set({ ...$postbacks.get(), brand, loading: true, error: '' });
  try {
    const result = await consoleApi('GET postbacks', { query: { brand, before } });
    $postbacks.set({ ...$postbacks.get(), brand, result, loading: false });
  } catch (e) {
    $postbacks.set({ ...$postbacks.get(), loading: false, error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}

/** Sends a postback again (audited by the server), then reloads the log; answers the confirmation to show. */
export async function resendPostback(id: number, confirmation: string): Promise<void> {
  try {
    await consoleApi('POST postbacks/:id/resend', { params: { id } });
    $postbacks.set({ ...$postbacks.get(), done: confirmation, error: '' });
    await loadPostbacks($postbacks.get().brand);
  } catch (e) {
    $postbacks.set({ ...$postbacks.get(), done: '', error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}
