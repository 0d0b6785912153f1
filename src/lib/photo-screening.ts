/**
 * Photo screening (issue 22, "Photo screening"): the rules every read and write of a photo follows,
 * on the member side and in the console. Pure: the server and the islands import them.
 */

/** When a brand screens uploaded photos (tenant.json `photo_moderation`). */
export const PHOTO_MODERATION = ['before', 'after'] as const;
export type PhotoModeration = (typeof PHOTO_MODERATION)[number];

/** A photo's status: only `active` is public, counted on a profile or used as a main or share image (SPEC §3). */
export const PHOTO_STATUSES = ['active', 'pending', 'rejected'] as const;
export type PhotoStatus = (typeof PHOTO_STATUSES)[number];

/** Why staff rejected a photo; each has a catalogue text `photo_reason_<reason>` in every locale. */
export const PHOTO_REJECT_REASONS = ['not_a_person', 'nudity_in_profile', 'minor_suspected', 'not_the_member', 'contact_details', 'copyright', 'other'] as const;
export type PhotoRejectReason = (typeof PHOTO_REJECT_REASONS)[number];

/** Which queue a staff member reads: photos waiting to be shown, or photos already shown and not yet reviewed (`after`). */
export const PHOTO_QUEUES = ['pending', 'after-review'] as const;
export type PhotoQueue = (typeof PHOTO_QUEUES)[number];

/** The status of a newly uploaded photo on a brand: `before` holds it back, `after` shows it at once. */
export function initialPhotoStatus(moderation: PhotoModeration): PhotoStatus {
  return moderation === 'before' ? 'pending' : 'active';
}

/** Whether a photo may be shown to anyone but its owner. */
export function isPublicPhoto(status: string): boolean {
  return status === 'active';
}

/**
 * Whether a photo counts toward the member's photo limit (SPEC §9: 3 free, 25 premium): an active
 * and a pending one do (a member cannot queue past the limit); a rejected one does not, so its
 * owner may upload another.
 */
export function countsTowardLimit(status: string): boolean {
  return status === 'active' || status === 'pending';
}

/** Which queue a photo is in, or null when it needs no decision: pending photos, and active photos shown before review. */
export function queueOf(photo: { status: string; reviewed_at: string | null }): PhotoQueue | null {
  if (photo.status === 'pending') return 'pending';
  if (photo.status === 'active' && photo.reviewed_at === null) return 'after-review';
  return null;
}

/**
 * Whether a staff decision may be taken on a photo in its present state: a pending photo, or an
 * `after` photo not yet reviewed. A photo already decided (approved after review, or rejected)
 * answers 409 photo_already_decided.
 */
export function canDecide(photo: { status: string; reviewed_at: string | null }): boolean {
  return queueOf(photo) !== null;
}
