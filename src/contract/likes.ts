import { z } from 'zod';
import { BodyId } from './ids.ts';

/** POST and DELETE /api/like.php, POST and DELETE /api/block.php: the profile concerned. */
export const ProfileIdBody = z.object({ profile_id: BodyId });

/** The tabs of the likes list (SPEC §2 likes-type). */
export const LIKE_TABS = ['received', 'given', 'matches'] as const;
export type LikeTab = (typeof LIKE_TABS)[number];

/** GET /api/likes.php: every list, or the one tab asked for. */
export const LikesQuery = z.object({ type: z.enum(LIKE_TABS).optional() });

/** Swipe game (SPEC §9): likes a member may give in the game per brand day. */
export const SWIPE_LIKES_PER_DAY = 4;
/** Cards GET /api/swipe.php hands out at once (chosen: the client asks again when few are left). */
export const SWIPE_DECK_SIZE = 10;
/** Suggestions of the match finder (chosen). */
export const MATCH_FINDER_SIZE = 12;

/** POST /api/swipe.php: a card of the swipe game answered. */
export const SwipeBody = z.object({ profile_id: BodyId, action: z.enum(['like', 'pass']) });

/** Complaint reasons (chosen: what dating sites ask for; `service` for a complaint about the site itself). */
export const COMPLAINT_REASONS = ['fake_profile', 'harassment', 'offensive', 'scam', 'underage', 'other', 'service'] as const;
export type ComplaintReason = (typeof COMPLAINT_REASONS)[number];
export const COMPLAINT_SUBJECT_MAX = 120;
export const COMPLAINT_MESSAGE_MIN = 10;
export const COMPLAINT_MESSAGE_MAX = 2000;

/** POST /api/complaint.php: about a member (profile_id) or, without one, about the service. */
export const ComplaintBody = z.object({
  profile_id: BodyId.optional(),
  reason: z.enum(COMPLAINT_REASONS),
  subject: z.string().trim().min(1).max(COMPLAINT_SUBJECT_MAX),
  message: z.string().trim().min(COMPLAINT_MESSAGE_MIN).max(COMPLAINT_MESSAGE_MAX),
});
export type ComplaintInput = z.output<typeof ComplaintBody>;

/** A profile's main image as the API gives it (urls). */
export interface MainImage {
  filename: string;
  thumb_filename: string;
  status: string;
  match: string;
}

/** The card of another profile in the likes lists, the swipe game and the match finder. */
export interface ProfileCardData {
  id: number;
  name: string;
  age: number;
  city: string | null;
  region: string | null;
  country: string;
  fictional: boolean;
  main_image: MainImage | null;
}

/** A like as the lists show it (SPEC §3 like item: id, like_new), with the other profile's card. */
export interface LikeItem {
  /** The like's id. */
  id: number;
  /** Received likes: the member has not opened this profile since it liked them. */
  like_new: boolean;
  /** Both have liked each other. */
  match: boolean;
  created_at: string;
  profile: ProfileCardData;
}

/** GET /api/likes.php (SPEC §7): given likes, received likes (new first), and how many are new. */
export interface LikesAnswer {
  profiles: LikeItem[];
  liked_by: LikeItem[];
  total_new: number;
}

/** POST /api/like.php: the like, and whether it made a match. */
export interface LikeAnswer {
  like: { id: number; profile_id: number; created_at: string };
  match: boolean;
}

/** How the member stands with a profile they open (the profile's buttons). */
export interface Relation {
  /** The member likes this profile. */
  liked: boolean;
  /** This profile likes the member. */
  liked_me: boolean;
  /** The member blocked this profile (only the blocker still opens it, to unblock). */
  blocked: boolean;
}

/** A card of the swipe game: the profile card with a few lines about them. */
export interface SwipeCard extends ProfileCardData {
  about: string | null;
  interests: string[];
}

/** GET and POST /api/swipe.php: the likes left today and, when none, when the next day starts. */
export interface SwipeState {
  likes_left: number;
  /** The start of the brand's next day (ISO), when no likes are left. */
  next_at: string | null;
}

/** Why the match finder suggests a profile: each reason one line on the card. */
export type MatchReason = { type: 'interests'; count: number } | { type: 'region' } | { type: 'country' } | { type: 'age' } | { type: 'liked_you' };

export interface MatchSuggestion extends ProfileCardData {
  reasons: MatchReason[];
}
