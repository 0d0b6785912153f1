import { atom } from './browser-only.ts';
import { api, ApiError, changeGuard } from './api.ts';
import { loadUser } from './user.ts';
import { FREE_PHOTOS, PREMIUM_PHOTOS } from '../lib/membership.ts';

export { FREE_PHOTOS, PREMIUM_PHOTOS };
/** The server refuses larger uploads (docs/API.md: at most 10 MiB); checked first to spare the upload. */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;

/** One of the member's own photos (GET /api/photos.php). */
export type Photo = {
  id: number;
  url: string;
  thumb_url: string;
  main: boolean;
  /** active; pending (waiting for screening, seen only by the member); rejected (never shown to others). */
  status: string;
  /** Why staff rejected it (PHOTO_REJECT_REASONS); only on a rejected photo. */
  reason?: string;
};

export const $photos = atom<Photo[] | null>(null);
/** The upload under way: the share of bytes sent (0..1), or null when none is. */
export const $upload = atom<{ progress: number } | null>(null);

/** How many photos a member may have (SPEC §6). */
export function photoLimit(paidUser: boolean): number {
  return paidUser ? PREMIUM_PHOTOS : FREE_PHOTOS;
}

/** The member's uploads, main choices and deletes, before which no older list read is set. */
const guard = changeGuard();

function settle(photos: Photo[]): Photo[] {
  $photos.set(photos);
  // The main image lives on the user too (top bar thumbnail, profile-photo alert).
  void loadUser().catch(() => undefined);
  return photos;
}

export async function loadPhotos(): Promise<Photo[]> {
  const { photos } = await guard.read(() => api('GET', '/photos.php'), (answer) => $photos.set(answer.photos));
  return photos;
}

/**
 * Uploads one photo (POST /api/photos.php, multipart field `photo`). XMLHttpRequest rather than
 * fetch because only it reports upload progress; errors are the same ApiError as api() throws.
 */
export function uploadPhoto(file: File): Promise<Photo[]> {
  const form = new FormData();
  form.append('photo', file);
  $upload.set({ progress: 0 });
  return guard.change(() => new Promise<{ photos: Photo[] }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/photos.php');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) $upload.set({ progress: e.loaded / e.total });
    };
    xhr.onload = () => {
      const body = xhr.response as { photos?: Photo[]; error?: { code: string; message: string; field?: string } } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.photos) return resolve({ photos: body.photos });
      const e = body?.error;
      reject(new ApiError(xhr.status, e?.code ?? 'unknown', e?.message ?? xhr.statusText, e?.field, body));
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', 'network error', undefined, undefined));
    xhr.send(form);
  }))
    .then(({ photos }) => settle(photos))
    .finally(() => $upload.set(null));
}

/** Makes a photo the main image (PUT /api/photos.php {id, main: true}). */
export async function setMainPhoto(id: number): Promise<Photo[]> {
  const { photos } = await guard.change(() => api('PUT', '/photos.php', { id, main: true }));
  return settle(photos);
}

export async function deletePhoto(id: number): Promise<Photo[]> {
  const { photos } = await guard.change(() => api('DELETE', '/photos.php', { id }));
  return settle(photos);
}
