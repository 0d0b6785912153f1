import { z } from 'zod';
import { BodyId } from './ids.ts';
import { ProfileCardData } from './cards.ts';

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

export { MainImage, ProfileCardData, Relation } from './cards.ts';

/** A like as the lists show it (SPEC §3 like item: id, like_new), with the other profile's card. */
export const LikeItem = z.object({
  /** The like's id. */
  id: z.number().int(),
  /** Received likes: the member has not opened this profile since it liked them. */
  like_new: z.boolean(),
  /** Both have liked each other. */
  match: z.boolean(),
  created_at: z.string(),
  profile: ProfileCardData,
});
export type LikeItem = z.infer<typeof LikeItem>;

/** GET /api/likes.php (SPEC §7): given likes, received likes (new first), and how many are new. */
export const LikesAnswer = z.object({ profiles: z.array(LikeItem), liked_by: z.array(LikeItem), total_new: z.number().int() });
export type LikesAnswer = z.infer<typeof LikesAnswer>;

/** POST /api/like.php: the like, and whether it made a match. */
export const LikeAnswer = z.object({ like: z.object({ id: z.number().int(), profile_id: z.number().int(), created_at: z.string() }), match: z.boolean() });
export type LikeAnswer = z.infer<typeof LikeAnswer>;

/** A card of the swipe game: the profile card with a few lines about them. */
export const SwipeCard = ProfileCardData.extend({ about: z.string().nullable(), interests: z.array(z.string()) });
export type SwipeCard = z.infer<typeof SwipeCard>;

/** GET and POST /api/swipe.php: the likes left today and, when none, when the next day starts. */
export const SwipeState = z.object({
  likes_left: z.number().int(),
  /** The start of the brand's next day (ISO), when no likes are left. */
  next_at: z.string().nullable(),
});
export type SwipeState = z.infer<typeof SwipeState>;

/** GET /api/swipe.php: the cards to play and the likes left. */
export const DeckAnswer = SwipeState.extend({ profiles: z.array(SwipeCard) });
export type DeckAnswer = z.infer<typeof DeckAnswer>;
/** POST /api/swipe.php: the likes left and whether the like made a match. */
export const SwipeAnswer = SwipeState.extend({ match: z.boolean() });
export type SwipeAnswer = z.infer<typeof SwipeAnswer>;

/** Why the match finder suggests a profile: each reason one line on the card. */
export const MatchReason = z.discriminatedUnion('type', [
  z.object({ type: z.literal('interests'), count: z.number().int() }),
  z.object({ type: z.literal('region') }),
  z.object({ type: z.literal('country') }),
  z.object({ type: z.literal('age') }),
  z.object({ type: z.literal('liked_you') }),
]);
export type MatchReason = z.infer<typeof MatchReason>;

export const MatchSuggestion = ProfileCardData.extend({ reasons: z.array(MatchReason) });
export type MatchSuggestion = z.infer<typeof MatchSuggestion>;

/** GET /api/match-finder.php */
export const MatchFinderAnswer = z.object({ profiles: z.array(MatchSuggestion) });
/** GET /api/auto-like.php: a profile for the like dialog, or null. */
export const AutoLikeAnswer = z.object({ profile: ProfileCardData.extend({ liked_me: z.boolean(), reasons: z.array(MatchReason).optional() }).nullable() });
export type AutoLikeAnswer = z.infer<typeof AutoLikeAnswer>;
/** GET /api/block.php: the profiles the member blocked. */
export const BlockedAnswer = z.object({ profiles: z.array(ProfileCardData) });
/** POST /api/complaint.php */
export const ComplaintAnswer = z.object({ ok: z.literal(true), id: z.number().int() });

/**
 * A statement of a complaint's decision (issue 22, DSA art. 17), as the member concerned reads
 * it on /profile: what was decided, on which ground, and how to object, in their language.
 */
export const StatementView = z.object({
  id: z.number().int(),
  complaint_id: z.number().int(),
  /** Which side of the complaint the member was on. */
  party: z.enum(['reporter', 'reported']),
  decision: z.enum(['dismissed', 'warned', 'photo_removed', 'suspended']),
  /** The ground: one of COMPLAINT_DECISION_REASONS (src/lib/complaints.ts). */
  reason: z.string(),
  created_at: z.string(),
  /** The whole statement in the member's language. */
  text: z.string(),
});
export type StatementView = z.infer<typeof StatementView>;
/** GET /api/statements.php: the member's newest statements. */
export const StatementsAnswer = z.object({ statements: z.array(StatementView) });
