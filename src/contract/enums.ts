/**
 * Every enumeration and limit the browser and the runtime share, declared once (DESIGN §8).
 * No zod here: islands import these constants and must not pull a validator into the page.
 */

export const GENDERS = ['male', 'female'] as const; // SPEC §3
export type Gender = (typeof GENDERS)[number];
/** The search's "everyone" choice: both genders, whatever the searcher's profile looks for. */
export const SEARCH_GENDER_ALL = 'all';
/** The search's gender filter: one gender or everyone; absent is the genders the searcher's profile looks for. */
export const SEARCH_GENDER_CHOICES = [SEARCH_GENDER_ALL, ...GENDERS] as const;

export const SEXUALITIES = ['hetero', 'gay', 'lesbian', 'bi'] as const; // SPEC §3
export type Sexuality = (typeof SEXUALITIES)[number];

/**
 * The tracking parameters of SPEC §3 ("Tracking parameters stored"); any of them marks a traffic
 * source. `clickid` is the network's id of the click (issue 23), sent back in its postbacks.
 */
export const TRACKING_KEYS = ['network', 'ref', 'sub1', 'sub2', 'sub3', 'clickid'] as const;
export type TrackingKey = (typeof TRACKING_KEYS)[number];
export type Tracking = Partial<Record<TrackingKey, string>>;
/** Tracking values are kept up to this length; a longer click id from an ad is cut, never refused. */
export const TRACKING_MAX = 200;
/**
 * A tracking value as a network sends it: letters, digits and - _ . ~ (what URL-safe ids and
 * sub-ids are made of), at most TRACKING_MAX characters (src/lib/attribution.ts). The source of a
 * RegExp, so the inline script of a lander (src/lib/consent.ts) can carry the same pattern.
 */
export const TRACKING_VALUE_SOURCE = `^[A-Za-z0-9._~-]{1,${TRACKING_MAX}}$`;

/** The e-mail notification types of SPEC §3, in SPEC order. */
export const EMAIL_NOTIFICATION_TYPES = [
  'new_conversations',
  'new_messages',
  'like',
  'unread_message_reminders',
  'promotions',
  'weekly_updates',
  'news',
  'reminders',
] as const;
export type EmailNotificationType = (typeof EMAIL_NOTIFICATION_TYPES)[number];

/** Why e-mails were switched off without the member's own choice (SPEC §3). */
export const DISABLED_REASONS = ['fbl', 'bounce', 'listunsubscribe'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** Reasons offered when deleting the account, each with a solution that may keep the member. */
export const DELETE_REASONS = ['expensive', 'found_someone', 'too_many_mails', 'privacy', 'no_matches', 'other'] as const;
export type DeleteReason = (typeof DELETE_REASONS)[number];

// ---- Member search (SPEC §3 "Search state") ----

/**
 * Cards per page of the member search. SPEC §3 names "results by page number" but the page
 * size is "not shown"; 24 fills the 2-, 3- and 4-column grids of the breakpoints without a gap.
 */
export const PER_PAGE = 24;
/** How many "similar results" an empty search shows instead (SPEC §3), so the page is never empty. */
export const SIMILAR_PROFILES = 12;
/** Age range a search may ask for (members are 18+, SPEC §5). */
export const SEARCH_MIN_AGE = 18;
export const SEARCH_MAX_AGE = 99;
/** Deepest page a search may ask for: paging further is scraping, not searching. */
export const MAX_PAGE = 1000;
/**
 * A search counts its matches up to this many and then says "1000+" (SPEC §3 names a "total
 * result count" but no bound; not shown). Counting every one of 50,000 matches of a large
 * brand cost 60 ms a search; nobody pages through more than 40 pages of cards.
 */
export const SEARCH_COUNT_LIMIT = 1000;

/** Statuses a payment may have (SPEC §3 payment); the result screen stops asking at the final ones, which a payment never leaves. */
export const PAYMENT_STATUSES = ['open', 'pending', 'paid', 'failed', 'canceled', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const FINAL_PAYMENT_STATUSES: readonly PaymentStatus[] = ['paid', 'failed', 'canceled', 'expired'];
