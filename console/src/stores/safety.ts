import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';

export interface SafetyState {
  brands: AnswerOf<'GET safety'>['brands'] | null;
  error: string;
}

/** Each brand's safety rules as the runtime applies them (console/src/pages/[locale]/safety.astro). */
export const $safety = atom<SafetyState>({ brands: null, error: '' });

export async function loadSafety(): Promise<void> {
  try {
    $safety.set({ brands: (await consoleApi('GET safety')).brands, error: '' });
  } catch (e) {
    $safety.set({ brands: null, error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}
