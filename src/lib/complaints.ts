/**
 * Complaints as staff handle them (issue 22, "Complaints"; the EU Digital Services Act's notice
 * and action, art. 16 and 17): the statuses, the actions, the reasons a decision gives and what
 * each action decides. Pure: the server and the console's islands import them.
 */
import type { PhotoRejectReason } from './photo-screening.ts';

/** A complaint waits (`open`), is taken in hand (`in_review`), or is decided (`handled`). */
export const COMPLAINT_STATUSES = ['open', 'in_review', 'handled'] as const;
export type ComplaintStatus = (typeof COMPLAINT_STATUSES)[number];

/** What staff may do with a complaint: take it in hand, or decide it one of four ways. */
export const COMPLAINT_ACTIONS = ['review', 'dismiss', 'warn', 'remove_photo', 'suspend'] as const;
export type ComplaintAction = (typeof COMPLAINT_ACTIONS)[number];

/** The decision a deciding action stores (`complaints.decision`). */
export type ComplaintDecision = 'dismissed' | 'warned' | 'photo_removed' | 'suspended';

/**
 * The grounds a decision gives, each with a catalogue text `complaint_ground_<reason>` in every
 * locale, so both members read it in their own language (a statement of reasons, DSA art. 17).
 */
export const COMPLAINT_DECISION_REASONS = ['no_breach', 'fake_profile', 'harassment', 'offensive', 'scam', 'underage', 'contact_details', 'other'] as const;
export type ComplaintDecisionReason = (typeof COMPLAINT_DECISION_REASONS)[number];

const DECISIONS: Record<Exclude<ComplaintAction, 'review'>, ComplaintDecision> = {
  dismiss: 'dismissed',
  warn: 'warned',
  remove_photo: 'photo_removed',
  suspend: 'suspended',
};

/** What an action decides; null for `review`, which decides nothing. */
export function decisionOf(action: ComplaintAction): ComplaintDecision | null {
  return action === 'review' ? null : DECISIONS[action];
}

/** Whether an action may be taken on a complaint of this status: nothing is done twice to a handled complaint. */
export function canAct(status: string, action: ComplaintAction): boolean {
  if (status === 'handled') return false;
  return action !== 'review' || status === 'open';
}

/**
 * Whether an action needs a member concerned: warning, removing a photo and suspending act on the
 * member reported; a complaint about the service has none (it can be dismissed or reviewed).
 */
export function needsMember(action: ComplaintAction): boolean {
  return action === 'warn' || action === 'remove_photo' || action === 'suspend';
}

/** Dismissing finds no breach, so `no_breach` grounds a dismissal only, and a dismissal nothing else but `other`. */
export function reasonFits(action: ComplaintAction, reason: ComplaintDecisionReason): boolean {
  if (action === 'dismiss') return reason === 'no_breach' || reason === 'other';
  return reason !== 'no_breach';
}

/** The reason a photo removed on a complaint shows its owner on /profile (PHOTO_REJECT_REASONS). */
export function photoReasonOf(reason: ComplaintDecisionReason): PhotoRejectReason {
  switch (reason) {
    case 'fake_profile':
      return 'not_the_member';
    case 'offensive':
      return 'nudity_in_profile';
    case 'underage':
      return 'minor_suspected';
    case 'contact_details':
      return 'contact_details';
    default:
      return 'other';
  }
}
