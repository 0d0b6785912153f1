import type { z } from 'zod';
import { atom } from '../../../src/stores/browser-only.ts';
import type { FictionalChanges, FictionalNew } from '../../../src/contract/inbox.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';

export interface FictionalState {
  brand: string;
  retired: boolean;
  list: AnswerOf<'GET fictional'> | null;
  /** The profile open in the editor, or null (the form for a new one). */
  open: AnswerOf<'GET fictional/:id'> | null;
  error: string;
  /** The field a refusal is about (the form marks it). */
  field: string | undefined;
  done: string;
}

/** The fictional profiles page (console/src/pages/[locale]/fictional.astro). */
export const $fictional = atom<FictionalState>({ brand: '', retired: false, list: null, open: null, error: '', field: undefined, done: '' });

const failed = (e: unknown) => $fictional.set({ ...$fictional.get(), error: e instanceof ConsoleApiError ? e.message : String(e), field: e instanceof ConsoleApiError ? e.field : undefined, done: '' });

export async function loadFictional(brand = $fictional.get().brand, retired = $fictional.get().retired): Promise<void> {
  try {
    const list = await consoleApi('GET fictional', { query: { brand, retired: retired ? '1' : undefined } });
    $fictional.set({ ...$fictional.get(), brand, retired, list, error: '' });
  } catch (e) {
    failed(e);
  }
}

export async function openFictional(id: number | null): Promise<void> {
  if (id === null) return $fictional.set({ ...$fictional.get(), open: null, error: '', field: undefined, done: '' });
  try {
    $fictional.set({ ...$fictional.get(), open: await consoleApi('GET fictional/:id', { params: { id } }), error: '', field: undefined, done: '' });
  } catch (e) {
    failed(e);
  }
}

/** Runs a change, keeps the answer open, reloads the list and says `done` when it worked. */
async function change(run: () => Promise<AnswerOf<'GET fictional/:id'> | { photos: AnswerOf<'GET fictional/:id'>['photos'] }>, done: string): Promise<boolean> {
  try {
    const answer = await run();
    const open = 'profile' in answer ? answer : { ...$fictional.get().open!, photos: answer.photos };
    $fictional.set({ ...$fictional.get(), open, error: '', field: undefined, done });
    await loadFictional();
    return true;
  } catch (e) {
    failed(e);
    return false;
  }
}

export const createFictional = (brand: string, body: z.input<typeof FictionalNew>, done: string) =>
  change(() => consoleApi('POST fictional', { query: { brand }, body }), done);
export const updateFictional = (id: number, body: z.input<typeof FictionalChanges>, done: string) => change(() => consoleApi('POST fictional/:id', { params: { id }, body }), done);
export const retireFictional = (id: number, reason: string, done: string) => change(() => consoleApi('POST fictional/:id/retire', { params: { id }, body: { reason } }), done);
export const photoAction = (id: number, photo: number, action: 'main' | 'delete', done: string) => change(() => consoleApi('POST fictional/:id/photos/:photo', { params: { id, photo }, body: { action } }), done);

/** Uploads a photo (multipart, as the member's upload): screened as the brand's photo_moderation says. */
export function uploadPhoto(id: number, file: File, done: string) {
  const form = new FormData();
  form.append('photo', file);
  return change(() => consoleApi('POST fictional/:id/photos', { params: { id }, form }), done);
}
