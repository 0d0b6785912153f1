import { atom } from '../../../src/stores/browser-only.ts';
import { consoleApi, ConsoleApiError, type AnswerOf } from '../lib/api.ts';
import { filtersToAddress } from '../lib/filters.ts';
import type { PhotoRejectReason } from '../../../src/lib/photo-screening.ts';

type Queue = AnswerOf<'GET photos'>;
/** The two queues: photos on profiles, and photos sent in chats. */
export type PhotoQueueKind = 'photos' | 'chat-photos';
export type QueuedPhoto = Queue['photos'][number] | AnswerOf<'GET chat-photos'>['photos'][number];

export interface PhotosState {
  /** The brand whose queue is shown; '' for every brand in scope. */
  brand: string;
  queue: PhotoQueueKind;
  /** Oldest first, pages appended as they load. */
  photos: QueuedPhoto[];
  counts: Queue['counts'];
  /** Where the next page starts (`before=`); null at the end. */
  next: number | null;
  /** The photo the keyboard acts on (index into `photos`). */
  selected: number;
  loading: boolean;
  error: string;
  done: string;
}

/** The photo screening queues (console/src/pages/[locale]/photos.astro): oldest first, decided photos leave them. */
export const $photos = atom<PhotosState>({ brand: '', queue: 'photos', photos: [], counts: [], next: null, selected: 0, loading: false, error: '', done: '' });

const fail = (e: unknown) => (e instanceof ConsoleApiError ? e.message : String(e));

let asked = 0;

/**
 * Loads the first page of a brand's queue (or every brand's), or its next page (`more`). The
 * waiting counts come with the profile photos' page; the chat queue asks for them beside it.
 */
export async function loadPhotos(brand = $photos.get().brand, queue = $photos.get().queue, more = false): Promise<void> {
  const mine = ++asked;
  const now = $photos.get();
  if (!more) filtersToAddress({ brand, queue: queue === 'photos' ? undefined : queue });
  $photos.set({ ...now, brand, queue, loading: true, error: '', ...(more ? {} : { photos: [], next: null, selected: 0 }) });
  try {
    const query = { brand, before: more ? (now.next ?? undefined) : undefined };
    const [page, counts] = await Promise.all([
      queue === 'photos' ? consoleApi('GET photos', { query }) : consoleApi('GET chat-photos', { query }),
      queue === 'photos' || more ? null : consoleApi('GET photos', { query: { brand, limit: 1 } }).then((q) => q.counts),
    ]);
    if (mine !== asked) return;
    const state = $photos.get();
    $photos.set({
      ...state,
      photos: more ? [...state.photos, ...page.photos] : page.photos,
      counts: 'counts' in page ? page.counts : (counts ?? state.counts),
      next: page.next,
      loading: false,
    });
  } catch (e) {
    if (mine === asked) $photos.set({ ...$photos.get(), loading: false, error: fail(e) });
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
  const field = state.queue === 'photos' ? 'photos' : 'chat_photos';
  const counts = state.counts.map((c) => ({ ...c, [field]: c[field] - brands.filter((b) => b === c.brand).length }));
  const photos = state.photos.filter((p) => !gone.has(p.id));
  $photos.set({ ...state, photos, counts, selected: Math.min(state.selected, Math.max(0, photos.length - 1)), error: '', done });
}

/** Approves, or rejects with a reason of the list; a photo decided meanwhile by someone else leaves the screen too. */
export async function decide(id: number, status: 'active' | 'rejected', reason: PhotoRejectReason | undefined, done: string): Promise<void> {
  try {
    const body = { status, reason };
    await ($photos.get().queue === 'photos' ? consoleApi('POST photos/:id', { params: { id }, body }) : consoleApi('POST chat-photos/:id', { params: { id }, body }));
    removeDecided([id], done);
  } catch (e) {
    if (e instanceof ConsoleApiError && e.code === 'photo_already_decided') removeDecided([id], e.message);
    else throw e;
  }
}

/** Approves every profile photo on the screen (the chat queue is decided one by one). */
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
