import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { PhotoStatus } from '../../lib/photo-screening.ts';
import type { ComplaintDecision, ComplaintStatus } from '../../lib/complaints.ts';
import type { HoldStatus } from '../../lib/safety-rules.ts';

/**
 * Every table and column the runtime queries (STYLE: one `Database` interface). Conventions
 * shared by both engines are described in engine.ts: flags are 0/1 integers, timestamps ISO
 * text, JSON text serialized by its owner. Each table has its row types below it:
 * `User` (what a select returns), `NewUser` (what an insert takes), `UserUpdate`.
 */
export interface Database {
  users: UsersTable;
  profiles: ProfilesTable;
  likes: LikesTable;
  swipes: SwipesTable;
  blocks: BlocksTable;
  complaints: ComplaintsTable;
  statements: StatementsTable;
  conversations: ConversationsTable;
  conversation_members: ConversationMembersTable;
  messages: MessagesTable;
  payments: PaymentsTable;
  test_checkouts: TestCheckoutsTable;
  discount_codes: DiscountCodesTable;
  discount_code_uses: DiscountCodeUsesTable;
  directdebit_orders: DirectDebitOrdersTable;
  payment_customers: PaymentCustomersTable;
  test_mandates: TestMandatesTable;
  invoice_counters: InvoiceCountersTable;
  photos: PhotosTable;
  sessions: SessionsTable;
  tokens: TokensTable;
  credit_ledger: CreditLedgerTable;
  push_subscriptions: PushSubscriptionsTable;
  site_secrets: SiteSecretsTable;
  brands: BrandsTable;
  staff: StaffTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  staff_sessions: StaffSessionsTable;
  audit_log: AuditLogTable;
  payment_reversals: PaymentReversalsTable;
  postbacks: PostbacksTable;
  postback_attempts: PostbackAttemptsTable;
  source_daily: SourceDailyTable;
  lander_daily: LanderDailyTable;
  lander_variant_ends: LanderVariantEndsTable;
  revenue_days: RevenueDaysTable;
  revenue_days_done: { day: string };
  revenue_payers: RevenuePayersTable;
}

/** An integer 0/1 column standing for a boolean. */
export type Flag = 0 | 1;

/** Filled in by the database, never changed afterwards. */
type CreatedAt = ColumnType<string, string | undefined, never>;
/** A database-generated id that is never updated. */
type Id = ColumnType<number, number | undefined, never>;

// --- users -----------------------------------------------------------------------------

/** Account status; not_confirmed until the activation link is used. SPEC §3, §4 */
export type UserStatus = 'not_confirmed' | 'active' | 'deletion_requested' | 'deleted';

/** E-mail notification types a member can switch off. SPEC §3 */
export type { EmailNotificationType, Gender, Sexuality } from '../../contract/enums.ts';
import type { EmailNotificationType, Gender, Sexuality } from '../../contract/enums.ts';

/** Why notifications were switched off: by the member, or by a spam report, bounce or list-unsubscribe. SPEC §3 */
export type NotificationDisabledReason = 'fbl' | 'bounce' | 'listunsubscribe' | (string & {});

/** One entry of `users.notifications_disabled` (a JSON array of these). */
export interface NotificationDisabled {
  type: EmailNotificationType;
  reason: NotificationDisabledReason;
}

/** Traffic source stored at signup (`users.tracking`, JSON). SPEC §3 */
export type { Tracking } from '../../contract/enums.ts';

export interface UsersTable {
  id: Id;
  /** The brand the member signed up on; the same e-mail may have an account on another brand. */
  tenant_id: string;
  /** Lower-cased before it is stored; unique per tenant. */
  email: string;
  /** argon2id PHC string. */
  password_hash: string;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  /** Balance in credits; a check constraint keeps it >= 0 (DESIGN §3). Moves with a credit_ledger row. */
  credits: ColumnType<number, number | undefined, number>;
  /** 1 from the first credit bundle purchase on (SPEC §4 membership). */
  paid_user: ColumnType<Flag, Flag | undefined, Flag>;
  /** The direct-debit block (SPEC §6, §8): no more direct-debit orders. */
  directdebit_blocked: ColumnType<Flag, Flag | undefined, Flag>;
  /** Locale of the interface and of e-mails, e.g. nl or en-US. */
  language: string;
  /** JSON array of NotificationDisabled. */
  notifications_disabled: ColumnType<string, string | undefined, string>;
  invisible: ColumnType<Flag, Flag | undefined, Flag>;
  /** The member's choice to be shown on their own brand only, not on the pool's others (issue 24). */
  own_brand_only: ColumnType<Flag, Flag | undefined, Flag>;
  signup_date: ColumnType<string, string | undefined, string>;
  deletion_requested_at: string | null;
  /** JSON Tracking, null for a signup without a traffic source. */
  tracking: string | null;
  failed_logins: ColumnType<number, number | undefined, number>;
  locked_until: string | null;
  created_at: CreatedAt;
  /** JSON {type: boolean} of the member's own e-mail choices; a type not named is on. */
  email_preferences: ColumnType<string, string | undefined, string>;
  push_enabled: ColumnType<Flag, Flag | undefined, Flag>;
  /** Reason given when the member asked to delete the account. */
  deletion_reason: string | null;
  /** When the last like mail went out (like mails are spaced). */
  like_mailed_at: string | null;
  /** When the last unread-message reminder went out. */
  reminded_at: string | null;
  /** Set while staff have suspended the member (console): logged out, hidden, refused at login. */
  suspended_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the activation link (or a confirmed e-mail change) made the member active; null before. */
  activated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The lander first seen before signup (issue 23 attribution), its variant, niche and locale; null: none. */
  lander: ColumnType<string | null, string | null | undefined, string | null>;
  lander_variant: ColumnType<string | null, string | null | undefined, string | null>;
  lander_niche: ColumnType<number | null, number | null | undefined, number | null>;
  lander_locale: ColumnType<string | null, string | null | undefined, string | null>;
}
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

// --- profiles --------------------------------------------------------------------------

export type ProfileStatus = 'active' | 'disabled'; // SPEC §3

export interface ProfilesTable {
  /** Own sequence: fictional profiles have no user. */
  id: Id;
  /** Conversations this profile ever started (the free limit); never lowered by a deletion. */
  conversations_started: ColumnType<number, number | undefined, number>;
  tenant_id: string;
  /** The member this profile belongs to; null for a fictional profile. Unique. */
  user_id: number | null;
  name: string;
  gender: Gender;
  sexuality: Sexuality;
  /** YYYY-MM-DD */
  birth_date: string;
  /** ISO 3166-1 alpha-2, capitals. */
  country: string;
  /** Region name as country-region-data spells it (province, state, canton ...). */
  region: string | null;
  city: string | null;
  hair_color: string | null;
  eye_color: string | null;
  body_type: string | null;
  relationship_status: string | null;
  tattoos: string | null;
  /** Reason for joining. */
  reason: string | null;
  about: string | null;
  /** JSON array of interest keys. */
  interests: ColumnType<string, string | undefined, string>;
  status: ColumnType<ProfileStatus, ProfileStatus | undefined, ProfileStatus>;
  /** 1 for a profile not backed by a real person; the site warns about these (SPEC §1). */
  fictional: ColumnType<Flag, Flag | undefined, Flag>;
  /** When the member was last active; a new profile is seen at signup (never empty: listings order by it). */
  last_seen_at: string;
  /**
   * 1 when listings show this profile: active and the member not invisible. Kept by
   * `relist` (src/server/services/visibility.ts) wherever status or invisible mode change.
   */
  listed: ColumnType<Flag, Flag | undefined, Flag>;
  /**
   * 1 when the pool's other brands may show this profile (issue 24): the member did not choose
   * their own brand only. Kept by `relist` like `listed`; fictional profiles keep 1.
   */
  pooled: ColumnType<Flag, Flag | undefined, Flag>;
  /** A fictional profile staff retired (issue 22): not listed, its conversations closed to new messages. */
  retired_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<string, string | undefined, string>;
}
export type Profile = Selectable<ProfilesTable>;
export type NewProfile = Insertable<ProfilesTable>;
export type ProfileUpdate = Updateable<ProfilesTable>;

// --- likes -----------------------------------------------------------------------------

/** One like of a profile by another (SPEC §3 like item); both directions are a match. */
export interface LikesTable {
  id: Id;
  tenant_id: string;
  from_profile_id: number;
  to_profile_id: number;
  /** The receiver has not opened the liker's profile since (SPEC §3 like_new). */
  is_new: ColumnType<Flag, Flag | undefined, Flag>;
  created_at: CreatedAt;
}
export type Like = Selectable<LikesTable>;

/** A card of the swipe game answered (SPEC §4): once per pair; its likes count toward the day's 4. */
export interface SwipesTable {
  id: Id;
  tenant_id: string;
  from_profile_id: number;
  to_profile_id: number;
  action: 'like' | 'pass';
  /** When answered; a pass turned into a like takes the time of the like (it counts on that day). */
  created_at: ColumnType<string, string | undefined, string>;
}

/** A member's block of a profile (SPEC §4): the two no longer see or reach each other. */
export interface BlocksTable {
  id: Id;
  tenant_id: string;
  blocker_profile_id: number;
  blocked_profile_id: number;
  created_at: CreatedAt;
}

/** A member's report to the operator, about a member (reported_profile_id) or the service. */
export interface ComplaintsTable {
  id: Id;
  tenant_id: string;
  reporter_user_id: number;
  reported_profile_id: number | null;
  reason: string;
  subject: string;
  message: string;
  status: ColumnType<ComplaintStatus, ComplaintStatus | undefined, ComplaintStatus>;
  created_at: CreatedAt;
  /** What staff decided (src/lib/complaints.ts), on which ground, by whom and when; null while undecided. */
  decision: ComplaintDecision | null;
  decision_reason: string | null;
  decided_at: string | null;
  decided_by: number | null;
  /** Who took the complaint in hand (`in_review`), and when. */
  reviewed_at: string | null;
  reviewed_by: number | null;
}

/** The statement of a complaint's decision a member concerned reads in the product (DSA art. 17). */
export interface StatementsTable {
  id: Id;
  tenant_id: string;
  user_id: number;
  complaint_id: number;
  party: 'reporter' | 'reported';
  decision: ComplaintDecision;
  reason: string;
  created_at: CreatedAt;
}

// --- chat ------------------------------------------------------------------------------

export interface ConversationsTable {
  id: Id;
  tenant_id: string;
  /** The profile that sent the first message: a free member's conversations are counted by it. */
  started_by: number;
  last_message_id: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  /** The fictional inbox (issue 22): when the oldest unanswered member message to a fictional profile came; null when none waits. */
  waiting_since: ColumnType<string | null, string | null | undefined, string | null>;
  /** The first staff reply as the fictional profile (time to first answer). */
  first_answer_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The staff member who holds the conversation's claim, until claimed_until. */
  claimed_by: ColumnType<number | null, number | null | undefined, number | null>;
  claimed_until: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One side of a conversation. */
export interface ConversationMembersTable {
  conversation_id: number;
  profile_id: number;
  other_profile_id: number;
  unread: ColumnType<number, number | undefined, number>;
  last_read_id: ColumnType<number, number | undefined, number>;
  /** Messages up to this id were removed from this side's view. */
  cleared_id: ColumnType<number, number | undefined, number>;
  hidden: ColumnType<Flag, Flag | undefined, Flag>;
  /** The last message this side was mailed about (new-message mails wait until it is read). */
  mailed_id: ColumnType<number, number | undefined, number>;
  last_message_at: string;
}

export interface MessagesTable {
  id: Id;
  conversation_id: number;
  sender_profile_id: number;
  kind: 'text' | 'photo' | 'gift' | 'gif';
  /** The text of a text message. */
  body: string | null;
  /** A photo's stored file name, a gift id or a GIF id. */
  media: string | null;
  credits: ColumnType<number, number | undefined, never>;
  client_id: string;
  notified_at: string | null;
  created_at: CreatedAt;
  /** A photo message's screening (issue 22): pending/rejected photos are shown to the sender only; null = not screened (active). */
  photo_status: ColumnType<PhotoStatus | null, PhotoStatus | null | undefined, PhotoStatus | null>;
  photo_reviewed_at: ColumnType<string | null, string | null | undefined, string | null>;
  photo_reviewed_by: ColumnType<number | null, number | null | undefined, number | null>;
  photo_reject_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** Held for review by the brand's safety rules (issue 22, migration 0026): null = delivered at once. */
  hold_status: ColumnType<HoldStatus | null, HoldStatus | null | undefined, HoldStatus | null>;
  /** JSON: why it was held (`{reasons, contacts, word}`). */
  hold_reasons: ColumnType<string | null, string | null | undefined, string | null>;
  hold_decided_at: ColumnType<string | null, string | null | undefined, string | null>;
  hold_decided_by: ColumnType<number | null, number | null | undefined, number | null>;
  /** The moderator's reason for the decision (a rejected message's sender is shown it). */
  hold_note: ColumnType<string | null, string | null | undefined, string | null>;
}

// --- payments --------------------------------------------------------------------------

export type PaymentStatus = 'open' | 'pending' | 'paid' | 'failed' | 'canceled' | 'expired';

export interface PaymentsTable {
  id: Id;
  tenant_id: string;
  user_id: number;
  package_id: string;
  credits: number;
  /** Cents of `currency`. */
  amount: number;
  currency: string;
  method: string;
  provider: string;
  provider_id: string;
  status: ColumnType<PaymentStatus, PaymentStatus | undefined, PaymentStatus>;
  checkout_url: string;
  paid_at: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<string, string | undefined, string>;
  /** The package's price before a discount code (cents of `currency`); null before codes existed. */
  list_amount: number | null;
  discount_code: string | null;
  /** Cents taken off `list_amount` by the code; `amount` = `list_amount` − this. */
  discount_amount: ColumnType<number, number | undefined, number>;
  /** `<year>-<6 digits>`, per company without gaps; given when paid. */
  invoice_number: string | null;
  /** The invoice as issued with its number (JSON of InvoiceView); null before it was kept. */
  invoice: string | null;
  /** Cents given back since it was paid (refunds and chargebacks at the provider). */
  reversed_amount: ColumnType<number, number | undefined, number>;
  /** Cents net of VAT as the issued invoice says; set with the invoice number. */
  invoice_net: ColumnType<number | null, number | null | undefined, number | null>;
  /** 1 on the member's first paid payment (set when it is settled). */
  first_purchase: ColumnType<Flag, Flag | undefined, Flag>;
}

/** A refund or a chargeback of a paid payment: each rise of its amount, when it was seen. */
export interface PaymentReversalsTable {
  id: Id;
  payment_id: number;
  tenant_id: string;
  user_id: number;
  kind: 'refund' | 'chargeback';
  /** Cents of this rise. */
  amount: number;
  /** Cents of this kind given back so far (unique per payment and kind: recorded once). */
  total: number;
  currency: string;
  at: ColumnType<string, string | undefined, never>;
}

// --- discount codes --------------------------------------------------------------------

export type DiscountPurpose = 'campaign' | 'welcome' | 'retention';

export interface DiscountCodesTable {
  id: Id;
  tenant_id: string;
  /** Upper case, unique per brand. */
  code: string;
  /** Either a percentage… */
  percentage: number | null;
  /** …or a value in cents of `currency`. */
  value: number | null;
  currency: string | null;
  /** Cents of the order's currency before the discount; 0 for none. */
  minimum_order_value: ColumnType<number, number | undefined, number>;
  country: string | null;
  /** A personal code (welcome, retention); null for anyone of the brand. */
  user_id: number | null;
  expires_at: string | null;
  status: ColumnType<'active' | 'disabled', 'active' | 'disabled' | undefined, 'active' | 'disabled'>;
  /** JSON list of payment method ids, null for every method. */
  paymentmethods: string | null;
  purpose: ColumnType<DiscountPurpose, DiscountPurpose | undefined, never>;
  created_at: CreatedAt;
}

export interface DiscountCodeUsesTable {
  user_id: number;
  code: string;
  payment_id: number;
  created_at: CreatedAt;
}

export interface TestCheckoutsTable {
  id: string;
  tenant_id: string;
  amount: number;
  currency: string;
  description: string;
  method: string;
  status: ColumnType<PaymentStatus, PaymentStatus | undefined, PaymentStatus>;
  settle_at: string | null;
  redirect_url: string;
  webhook_url: string;
  created_at: CreatedAt;
  customer_id: string | null;
  sequence_type: string | null;
}

// --- photos ----------------------------------------------------------------------------

/** Only active photos are shown to others or used as a share image. SPEC §3; src/lib/photo-screening.ts */
export type { PhotoStatus } from '../../lib/photo-screening.ts';

export interface PhotosTable {
  id: Id;
  profile_id: number;
  filename: string;
  thumb_filename: string;
  status: ColumnType<PhotoStatus, PhotoStatus | undefined, PhotoStatus>;
  is_main: ColumnType<Flag, Flag | undefined, Flag>;
  /** Order on the profile, ascending. */
  position: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  /** When staff approved or rejected it; null while it waits (a pending photo, or an active one shown before review). */
  reviewed_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The staff member who decided (the console's staff id). */
  reviewed_by: ColumnType<number | null, number | null | undefined, number | null>;
  /** Why it was rejected: one of PHOTO_REJECT_REASONS. */
  reject_reason: ColumnType<string | null, string | null | undefined, string | null>;
}
export type Photo = Selectable<PhotosTable>;
export type NewPhoto = Insertable<PhotosTable>;
export type PhotoUpdate = Updateable<PhotosTable>;

// --- sessions --------------------------------------------------------------------------

export interface SessionsTable {
  /** Public half of the session token; the cookie holds `<id>.<secret>`. */
  id: ColumnType<string, string, never>;
  /** Copied from the user so a cookie of one brand is refused on another without a join. */
  tenant_id: string;
  user_id: number;
  /** Hash of the secret half; the secret itself is never stored. */
  secret_hash: string;
  created_at: CreatedAt;
  expires_at: string;
  last_used_at: ColumnType<string, string | undefined, string>;
  ip: string | null;
  user_agent: string | null;
}
/** A browser's Web Push subscription of a member (SPEC §7 POST /api/user.php?push=1). */
/** Secrets every process shares (migration 0042): the VAPID key pair as `vapid`. */
/** A brand's folder published for every machine (migration 0075, src/server/brand-sync.ts). */
export interface BrandsTable {
  id: string;
  /** JSON `{path: base64}` of tenant.json, landers/ and assets/. */
  files: string;
  /** SHA-256 of the folder's paths and bytes. */
  hash: string;
  updated_at: Generated<string>;
}

export interface SiteSecretsTable {
  name: string;
  value: string;
  created_at: Generated<string>;
}

export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  /** The push service's URL for this browser; one browser, one row. */
  endpoint: string;
  /** The browser's public key and auth secret for encrypting messages (RFC 8291). */
  p256dh: string;
  auth: string;
  created_at: CreatedAt;
}

export type Session = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;
export type SessionUpdate = Updateable<SessionsTable>;

// --- tokens ----------------------------------------------------------------------------

/** One-time links sent by e-mail. */
export type TokenKind = 'activate' | 'reset' | 'mail_change' | 'reactivate' | 'unsubscribe';

export interface TokensTable {
  id: ColumnType<string, string, never>;
  tenant_id: string;
  user_id: number;
  kind: TokenKind;
  secret_hash: string;
  /** JSON, e.g. the new address of a mail_change; null when the kind needs none. */
  payload: string | null;
  expires_at: string;
  /** Set when the link is used; a used token is refused. */
  used_at: string | null;
  created_at: CreatedAt;
}
export type Token = Selectable<TokensTable>;
export type NewToken = Insertable<TokensTable>;
export type TokenUpdate = Updateable<TokensTable>;

// --- credit_ledger ---------------------------------------------------------------------

/**
 * Append-only: a row is never updated or deleted (DESIGN §3). The sum of a user's deltas
 * equals users.credits; both change in the same transaction.
 */
export interface CreditLedgerTable {
  id: Id;
  tenant_id: string;
  user_id: number;
  /** Positive for a purchase or bonus, negative for a spend. */
  delta: ColumnType<number, number, never>;
  /** What moved the credits, e.g. signup_bonus, purchase, message, photo, gift, refund. */
  reason: ColumnType<string, string, never>;
  /** What it refers to (payment id, message id), null when nothing. */
  ref: ColumnType<string | null, string | null | undefined, never>;
  created_at: CreatedAt;
  /** Who moved credits by hand and why (operator grants and refunds). */
  note: ColumnType<string | null, string | null | undefined, never>;
}
export type CreditLedgerEntry = Selectable<CreditLedgerTable>;
export type NewCreditLedgerEntry = Insertable<CreditLedgerTable>;

// --- direct debit ----------------------------------------------------------------------

export type DirectDebitStatus = 'awaiting_code' | 'confirmed' | 'cancelled';

export interface DirectDebitOrdersTable {
  id: Id;
  tenant_id: string;
  user_id: number;
  package_id: string;
  discount_code: string | null;
  /** Cents of `currency` to debit (after the discount). */
  amount: number;
  /** Cents before the discount. */
  list_amount: number;
  currency: string;
  holder: string;
  /** Electronic format (no spaces, upper case). */
  iban: string;
  street: string;
  house_number: string;
  postcode: string;
  city: string;
  /** E.164. */
  mobile: string;
  consent_at: string;
  /** SHA-256 of the SMS code. */
  code_hash: string;
  code_expires_at: string;
  tries_left: number;
  status: ColumnType<DirectDebitStatus, DirectDebitStatus | undefined, DirectDebitStatus>;
  payment_id: number | null;
  created_at: CreatedAt;
}

export interface PaymentCustomersTable {
  user_id: number;
  provider: string;
  customer_id: string;
  created_at: CreatedAt;
}

export interface TestMandatesTable {
  id: string;
  customer_id: string;
  method: string;
  /** What the member sees: "Visa •••• 4242", or the account for direct debit. */
  label: string;
  status: ColumnType<'valid' | 'invalid', 'valid' | 'invalid' | undefined, 'valid' | 'invalid'>;
  created_at: CreatedAt;
}

export interface InvoiceCountersTable {
  company_id: number;
  year: number;
  last: number;
}

// --- the operator console (issue 22, migration 2026-11-26-0022) -------------------------

export type { StaffRole } from '../../contract/console.ts';
import type { StaffRole } from '../../contract/console.ts';

/** A member of staff: not a member (own table, own sessions, TOTP second factor). */
export interface StaffTable {
  id: Id;
  /** Lower-cased; unique. */
  email: string;
  /** argon2id PHC string; null until the enrolment link set one. */
  password_hash: string | null;
  role: StaffRole;
  /** JSON array of brand ids the staff member may see; null for every brand. */
  brands: string | null;
  /** base32 TOTP secret, stored as is; null before enrolment started. */
  totp_secret: string | null;
  totp_enabled: ColumnType<Flag, Flag | undefined, Flag>;
  /** The 30-second step of the last TOTP code accepted: a code is used once. */
  totp_last_step: number | null;
  /** SHA-256 of the one-time enrolment link's secret (CLI `staff add` without a password). */
  enrol_token_hash: string | null;
  enrol_expires_at: string | null;
  failed_logins: ColumnType<number, number | undefined, number>;
  locked_until: string | null;
  /** Raised when the role or brands change or the staff member is removed: older sessions end. */
  session_generation: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  removed_at: string | null;
}

export interface StaffRecoveryCodesTable {
  id: Id;
  staff_id: number;
  /** SHA-256 of the code. */
  code_hash: string;
  used_at: string | null;
}

export interface StaffSessionsTable {
  /** The public half of the cookie `id.secret`. */
  id: string;
  staff_id: number;
  secret_hash: string;
  /** staff.session_generation when the session began. */
  generation: number;
  ip: string | null;
  created_at: CreatedAt;
  expires_at: string;
}

/** Append-only (triggers refuse UPDATE and DELETE): every staff action and refused attempt. */
export interface AuditLogTable {
  id: Id;
  at: CreatedAt;
  staff_id: number | null;
  role: string | null;
  brand: string | null;
  object_type: string | null;
  object_id: string | null;
  action: string;
  reason: string | null;
  /** JSON. */
  details: string | null;
  ip: string | null;
}

// --- postbacks to affiliate networks ---------------------------------------------------------

export type PostbackStatus = 'pending' | 'sending' | 'sent' | 'failed';

/** One event posted to one network (unique per event and network: posted once, whichever runtime saw it). */
export interface PostbacksTable {
  id: Id;
  tenant_id: string;
  /** The member the event is about (no foreign key: the log outlives an erased member). */
  user_id: number | null;
  event: string;
  /** What happened, once: `purchase:<payment id>`, `refund:<payment id>:<total>`, `signup:<member id>`. */
  event_key: string;
  network: string;
  /** The template with its macros filled, as sent. */
  url: string;
  status: ColumnType<PostbackStatus, PostbackStatus | undefined, PostbackStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  /** While an attempt is under way: until when another worker leaves it alone. */
  claimed_until: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the next attempt is due (the sweep picks up a due one whose job was lost). */
  next_attempt_at: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
  sent_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PostbackAttemptsTable {
  id: Id;
  postback_id: number;
  tenant_id: string;
  at: ColumnType<string, string | undefined, never>;
  url: string;
  /** The HTTP status answered; null when no answer came (timeout, refused connection). */
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** 1 when staff resent it from the console. */
  resend: ColumnType<Flag, Flag | undefined, never>;
}

// --- attribution (issue 23) ------------------------------------------------------------

/** The counters of SourceDailyTable and LanderDailyTable, each an upserted increment. */
export const FUNNEL_COUNTERS = ['visits', 'signups', 'activations', 'first_purchases', 'repeat_purchases', 'refunds', 'chargebacks', 'revenue', 'refunded', 'charged_back'] as const;
export type FunnelCounter = (typeof FUNNEL_COUNTERS)[number];
type Counters = { [K in FunnelCounter]: ColumnType<number, number | undefined, number> };

/** Counts per brand, brand day (its time zone, YYYY-MM-DD), traffic source and currency ('': events without money). */
export type SourceDailyTable = { tenant_id: string; day: string; network: string; ref: string; currency: string } & Counters;
/** Counts per brand, brand day, lander, variant, niche, locale and currency. */
export type LanderDailyTable = { tenant_id: string; day: string; lander: string; variant: string; niche: number; locale: string; currency: string } & Counters;

/** A lander variant staff ended: no longer assigned to visitors. */
export interface LanderVariantEndsTable {
  tenant_id: string;
  variant: string;
  ended_at: string;
  staff_id: number | null;
}

/** A member who paid in a period (services/revenue.ts `keepPayer`): per brand, grain (day, week, month), period (as periodOf names it) and currency ('' for all currencies). */
export interface RevenuePayersTable {
  tenant_id: string;
  grain: string;
  period: string;
  currency: string;
  user_id: number;
}

/** Sums of a closed day (services/revenue.ts): per brand, measure (paid, refund, chargeback, signups, activations, credits) and key (a currency, a ledger reason, ''). */
export interface RevenueDaysTable {
  day: string;
  tenant_id: string;
  measure: string;
  key: string;
  n: number;
  amount: number;
  net: number;
  firsts: number;
}
