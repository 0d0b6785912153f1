import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf, type ConsoleCalls } from '../lib/api.ts';

export interface ComplaintsState {
  filters: { brand?: string; status?: string };
  result: AnswerOf<'GET complaints'> | null;
  error: string;
}

/** The complaints queue (console/src/pages/[locale]/complaints.astro): open and in review, oldest first. */
export const $complaints = atom<ComplaintsState>({ filters: {}, result: null, error: '' });

const fail = (e: unknown) => (e instanceof ConsoleApiError ? e.message : String(e));

export async function loadComplaints(filters: ComplaintsState['filters']): Promise<void> {
  $complaints.set({ ...$complaints.get(), filters, error: '' });
  try {
    $complaints.set({ filters, result: await consoleApi('GET complaints', { query: filters }), error: '' });
  } catch (e) {
    $complaints.set({ ...$complaints.get(), error: fail(e) });
  }
}

export interface ComplaintState {
  data: AnswerOf<'GET complaints/:id'> | null;
  error: string;
  done: string;
}

/** One complaint's page (console/src/pages/[locale]/complaints/id.astro). */
export const $complaint = atom<ComplaintState>({ data: null, error: '', done: '' });

/** The complaint's id in the address (/console/complaints/<id>). */
export function complaintIdOfAddress(): number {
  return Number(/\/complaints\/(\d+)/.exec(location.pathname)?.[1] ?? 0);
}

export async function loadComplaint(id: number): Promise<void> {
  try {
    $complaint.set({ ...$complaint.get(), data: await consoleApi('GET complaints/:id', { params: { id } }), error: '' });
  } catch (e) {
    $complaint.set({ ...$complaint.get(), error: fail(e) });
  }
}

/** Takes the complaint in hand or decides it, then reloads it; a refusal is thrown for the form to show. */
export async function actOnComplaint(id: number, body: ConsoleCalls['POST complaints/:id']['body'], done: string): Promise<void> {
  await consoleApi('POST complaints/:id', { params: { id }, body });
  await loadComplaint(id);
  $complaint.set({ ...$complaint.get(), done });
}
