import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';

/** The staff page (owner): the staff list. */
export const $staffList = atom<{ staff: AnswerOf<'GET staff'>['staff'] | null; error: string }>({ staff: null, error: '' });

export async function loadStaffList(): Promise<void> {
  try {
    $staffList.set({ staff: (await consoleApi('GET staff')).staff, error: '' });
  } catch (e) {
    $staffList.set({ ...$staffList.get(), error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}
