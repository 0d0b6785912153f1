import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf, type ConsoleCalls } from '../lib/api.ts';

/** The staff page (owner): the staff list. */
export const $staffList = atom<{ staff: AnswerOf<'GET staff'>['staff'] | null; error: string }>({ staff: null, error: '' });

export async function loadStaffList(): Promise<void> {
  try {
    $staffList.set({ staff: (await consoleApi('GET staff')).staff, error: '' });
  } catch (e) {
    $staffList.set({ ...$staffList.get(), error: e instanceof ConsoleApiError ? e.message : String(e) });
  }
}

/** Adds a staff member; answers the one-time enrolment link on this host. */
export async function addStaff(body: ConsoleCalls['POST staff']['body']): Promise<string> {
  const added = await consoleApi('POST staff', { body });
  await loadStaffList();
  return `${location.origin}${added.enrol_path}`;
}

export async function changeStaff(id: number, body: ConsoleCalls['POST staff/:id/role']['body']): Promise<void> {
  await consoleApi('POST staff/:id/role', { params: { id }, body });
  await loadStaffList();
}

export async function removeStaff(id: number): Promise<void> {
  await consoleApi('POST staff/:id/remove', { params: { id } });
  await loadStaffList();
}
