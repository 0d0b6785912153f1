import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';
import type { PhotoRejectReason } from '../../../src/lib/photo-screening.ts';

type Queue = AnswerOf<'GET photos'>;

export interface PhotosState {
  /** The brand whose queue is shown; '' for every brand in scope. */
  brand: string;
  photos: Queue['photos'];
  counts: Queue['counts'];
  next: number | null;
  /** The photo the keyboard acts on (index into `photos`). */
  selected: number;
  loading: boolean;
  error: string;
  done: string;
}

/** The photo screening queue (console/src/pages/[locale]/photos.astro): oldest first, decided photos leave it. */
export const $photos = atom<PhotosState>({ brand: '', photos: [], counts: [], next: null, selected: 0, loading: false, error: '', done: '' });

const fail = (e: unknown) => (e instanceof ConsoleApiError ? e.message : String(e));

/** Loads the first page of a brand's queue (or every brand's). */
export async function loadPhotos(brand = $photos.get().brand): Promise<void> {
  $photos.set({ ...$photos.get(), brand, loading: true, error: '' });
  try {
    const queue = await consoleApi('GET photos', { query: { brand } });
    $photos.set({ ...$photos.get(), photos: queue.photos, counts: queue.counts, next: queue.next, selected: 0, loading: false });
  } catch (e) {
    $photos.set({ ...$photos.get(), loading: false, error: fail(e) });
  }
}

export function select(index: number): void {
  const { photos } = $photos.get();
  $photos.set({ ...$photos.get(), selected: Math.max(0, Math.min(photos.length - 1, index)) });
}

/** Takes decided photos off the screen and the counts. */
function removeDecided(ids: number[], done: string): void {
  const state = $photos.get();
  const gone = new Set(ids);
  const brands = state.photos.filter((p) => gone.has(p.id)).map((p) => p.member.brand);
  const counts = state.counts.map((c) => ({ ...c, photos: c.photos - brands.filter((b) => b === c.brand).length }));
  const photos = state.photos.filter((p) => !gone.has(p.id));
  $photos.set({ ...state, photos, counts, selected: Math.min(state.selected, Math.max(0, photos.length - 1)), error: '', done });
}

/** Approves, or rejects with a reason of the list; a photo decided meanwhile by someone else leaves the screen too. */
export async function decide(id: number, status: 'active' | 'rejected', reason: PhotoRejectReason | undefined, done: string): Promise<void> {
  try {
    await consoleApi('POST photos/:id', { params: { id }, body: { status, reason } });
    removeDecided([id], done);
  } catch (e) {
    if (e instanceof ConsoleApiError && e.code === 'photo_already_decided') removeDecided([id], e.message);
    else throw e;
  }
}

/** Approves every photo on the screen. */
export async function approveShown(done: (n: number) => string): Promise<void> {
  const ids = $photos.get().photos.map((p) => p.id);
  if (!ids.length) return;
  try {
    const { approved, skipped } = await consoleApi('POST photos/approve', { body: { ids } });
    removeDecided([...approved, ...skipped], done(approved.length));
  } catch (e) {
    $photos.set({ ...$photos.get(), error: fail(e) });
  }
}
