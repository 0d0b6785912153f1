import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../lib/account-rules.ts';
import { BodyId, QueryId } from './ids.ts';
import { PHOTO_QUEUES } from '../lib/photo-screening.ts';
import { COMPLAINT_ACTIONS, COMPLAINT_DECISION_REASONS, COMPLAINT_STATUSES } from '../lib/complaints.ts';
import { HELD_ACTIONS } from '../lib/safety-rules.ts';
import { VARIANT_NAME } from '../lib/attribution.ts';

/**
 * The operator console (issue 22, DESIGN §11): staff roles, what each may do, and the console
 * API's bodies and queries. Declared once here; the console's route table (src/server/console/
 * routes.ts) names a permission per route and the router enforces it.
 */
export const STAFF_ROLES = ['owner', 'admin', 'moderator', 'support', 'finance', 'marketer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * What each role may do. owner: everything, staff included; admin: everything but staff;
 * moderator: photos, complaints, members' blocks (suspensions), the fictional inbox; support:
 * members read, complaints, credit grants up to SUPPORT_MAX_CREDITS with a reason; finance:
 * payments, refunds, revenue (and the members read, to find whose payment it is); marketer: the
 * traffic sources and lander experiments (issue 23), figures only, no member.
 */
export const PERMISSIONS = {
  /** GET me, POST logout: every logged-in staff member. */
  self: ['owner', 'admin', 'moderator', 'support', 'finance', 'marketer'],
  /** Member search and a member's page. */
  'members.read': ['owner', 'admin', 'moderator', 'support', 'finance'],
  /** A member's payments on their page (never the moderator). */
  'members.payments': ['owner', 'admin', 'support', 'finance'],
  /** Suspend and lift a suspension. */
  'members.suspend': ['owner', 'admin', 'moderator'],
  /** Grant or take back credits (support: at most SUPPORT_MAX_CREDITS a move). */
  'members.credits': ['owner', 'admin', 'support'],
  /** Resend the activation mail. */
  'members.activation': ['owner', 'admin', 'support'],
  /** Block direct debit. */
  'members.directdebit': ['owner', 'admin', 'finance'],
  /** Erase a member at once (as their own deletion, without the 14 days). */
  'members.delete': ['owner', 'admin'],
  /**
   * The fictional inbox: answer members as a fictional profile, claim and release conversations,
   * see the fictional profiles (issue 22). Moderators do this work day to day.
   */
  inbox: ['owner', 'admin', 'moderator'],
  /**
   * Create, edit and retire fictional profiles and their photos. Deciding which personas a brand
   * shows is an operator's choice, not a moderator's: owner and admin only.
   */
  fictional: ['owner', 'admin'],
  /** The photo screening queues (profile and chat photos), their decisions and the staff-only media. */
  photos: ['owner', 'admin', 'moderator'],
  /** The complaints queue, one complaint with both members and their conversation, its decision. */
  complaints: ['owner', 'admin', 'moderator', 'support'],
  /** The queue of messages held by the brands' safety rules: release or reject them. */
  held: ['owner', 'admin', 'moderator'],
  /** Read the brands' safety rules (a read-only settings card). */
  safety: ['owner', 'admin', 'moderator', 'support'],
  /** Read the audit log. */
  audit: ['owner', 'admin'],
  /** Add, change and remove staff. */
  staff: ['owner'],
  /** Revenue figures of the brands in scope (issue 23). */
  revenue: ['owner', 'admin', 'finance'],
  /** The postbacks to affiliate networks: their log and configuration, and sending one again (issue 23). */
  postbacks: ['owner', 'admin', 'finance'],
  /** Visits, signups and money per traffic source (issue 23). */
  sources: ['owner', 'admin', 'finance', 'marketer'],
  /** The lander experiments' figures, and ending a variant (issue 23). */
  experiments: ['owner', 'admin', 'marketer'],
} as const satisfies Record<string, readonly StaffRole[]>;
export type Permission = keyof typeof PERMISSIONS;

export function may(role: StaffRole, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly StaffRole[]).includes(role);
}

/** The most credits a support agent may grant or take back in one move; others have no limit. */
export const SUPPORT_MAX_CREDITS = 100;
/** The most credits anybody moves in one console call (a typo guard). */
export const CONSOLE_MAX_CREDITS = 100_000;
/** How long a staff session lasts. */
export const STAFF_SESSION_HOURS = 12;
/** How many recovery codes an enrolment hands out. */
export const RECOVERY_CODES = 10;
/** Rows of a console list page. */
export const CONSOLE_PAGE_SIZE = 50;

const email = z.string().min(1).max(254);
const reason = z.string().trim().min(1).max(1000);
const brandId = z.string().regex(/^[a-z0-9-]{1,40}$/);
/** A calendar day, YYYY-MM-DD: a day that exists (2026-02-30 is refused, as 2026-13-01 is). */
const date = z.iso.date();
/** A page number of a list: digits only, as every id of a query (src/contract/ids.ts). */
const page = z.string().max(5).regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(10_000)).default(1);

/** POST /api/console/login: the code is a TOTP code (6 digits) or a recovery code; absent before enrolment. */
export const ConsoleLoginBody = z.object({
  email,
  password: z.string().min(1).max(PASSWORD_MAX),
  code: z.string().trim().max(40).optional(),
});
/** POST /api/console/enrol: the first TOTP code confirms the secret the login answer showed. */
export const ConsoleEnrolBody = z.object({
  email,
  password: z.string().min(1).max(PASSWORD_MAX),
  code: z.string().trim().regex(/^\d{6}$/),
});
/** POST /api/console/enrol/password: the one-time link of `sitegen staff add` sets the password. */
export const ConsoleEnrolPasswordBody = z.object({ token: z.string().min(1).max(200), password: z.string().min(PASSWORD_MIN).max(PASSWORD_MAX) });

export const MEMBER_STATUSES = ['not_confirmed', 'active', 'deletion_requested', 'suspended'] as const;
/** GET /api/console/members */
export const ConsoleMembersQuery = z.object({
  q: z.string().trim().max(254).optional(),
  brand: brandId.optional(),
  status: z.enum(MEMBER_STATUSES).optional(),
  from: date.optional(),
  to: date.optional(),
  source: z.string().trim().max(100).optional(),
  page,
});
export type ConsoleMembersInput = z.output<typeof ConsoleMembersQuery>;

/** A member's id in a console path. */
export const MemberParams = z.object({ id: QueryId });
/** POST /api/console/members/{id}/suspend, /unsuspend, /directdebit-block */
export const ReasonBody = z.object({ reason });
/** POST /api/console/members/{id}/credits: positive grants, negative takes back. */
export const CreditsBody = z.object({
  credits: z
    .number()
    .int()
    .min(-CONSOLE_MAX_CREDITS)
    .max(CONSOLE_MAX_CREDITS)
    .refine((n) => n !== 0),
  reason,
});
/** A staff member's brands: some brands by id, or null for every brand. */
const staffBrands = z.array(brandId).min(1).max(100).nullable();
/** POST /api/console/staff: a new staff member gets a one-time enrolment link (as `sitegen staff add`). */
export const StaffAddBody = z.object({ email: z.string().trim().toLowerCase().pipe(z.email().max(254)), role: z.enum(STAFF_ROLES), brands: staffBrands });
/** POST /api/console/staff/{id}/role */
export const StaffRoleBody = z.object({ role: z.enum(STAFF_ROLES), brands: staffBrands });
/** A staff member's id in a console path. */
export const StaffParams = z.object({ id: QueryId });

/** GET /api/console/audit */
export const AuditQuery = z.object({
  brand: brandId.optional(),
  staff: QueryId.optional(),
  action: z.string().max(60).optional(),
  q: z.string().max(200).optional(),
  /** An audit entry id: the page of entries older than it. */
  before: QueryId.optional(),
});
export type AuditInput = z.output<typeof AuditQuery>;

// ---- Photo screening -----------------------------------------------------------------------

/** Most photos a queue page answers, and the default. */
export const PHOTO_PAGE_MAX = 200;
export const PHOTO_PAGE_DEFAULT = 60;

/** GET /api/console/photos and /chat-photos: a brand's queue (or every brand in scope), oldest first, a page after `before`. */
export const PhotoQueueQuery = z.object({
  brand: brandId.optional(),
  /** `pending`: waiting to be shown; `after-review`: shown at once (`photo_moderation: after`), not yet reviewed. */
  status: z.enum(PHOTO_QUEUES).default('pending'),
  /** The `next` of the previous page. */
  before: QueryId.optional(),
  limit: z.string().max(3).regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(PHOTO_PAGE_MAX)).default(PHOTO_PAGE_DEFAULT),
});
export type PhotoQueueInput = z.output<typeof PhotoQueueQuery>;

/** A photo's (or a chat photo's message) id in a console path. */
export const PhotoParams = z.object({ id: QueryId });
/**
 * POST /api/console/photos/{id} and /chat-photos/{id}: approve, or reject with a reason of
 * PHOTO_REJECT_REASONS (checked by the service: a missing or unknown one is 400 photo_reject_reason).
 */
export const PhotoDecisionBody = z.object({
  status: z.enum(['active', 'rejected']),
  reason: z.string().max(40).optional(),
});
/** POST /api/console/photos/approve: the ids of the photos on the staff member's screen. */
export const BulkApproveBody = z.object({ ids: z.array(BodyId).min(1).max(PHOTO_PAGE_MAX) });

// ---- Complaints ----------------------------------------------------------------------------

/** GET /api/console/complaints: open first, oldest first; `before` pages on. */
export const ComplaintsQuery = z.object({
  brand: brandId.optional(),
  status: z.enum(COMPLAINT_STATUSES).optional(),
  /** The `next` of the previous page. */
  before: QueryId.optional(),
});
export type ComplaintsInput = z.output<typeof ComplaintsQuery>;
export const ComplaintParams = z.object({ id: QueryId });
/**
 * POST /api/console/complaints/{id}: `review` takes the complaint in hand (no reason needed);
 * the other actions decide it with a reason of COMPLAINT_DECISION_REASONS; `remove_photo` names
 * the photo of the member concerned. `note` is staff's own words, kept in the audit log only.
 */
export const ComplaintActionBody = z.object({
  action: z.enum(COMPLAINT_ACTIONS),
  reason: z.enum(COMPLAINT_DECISION_REASONS).optional(),
  photo_id: BodyId.optional(),
  note: z.string().trim().max(1000).optional(),
});
export type ComplaintActionInput = z.output<typeof ComplaintActionBody>;
/** How revenue figures are grouped: per UTC day, ISO week (from Monday) or calendar month. */
export const REVENUE_GROUPS = ['day', 'week', 'month'] as const;
export type RevenueGroup = (typeof REVENUE_GROUPS)[number];
/** The longest range one revenue query covers. */
export const REVENUE_MAX_DAYS = 732;
/** The tables of the revenue page, each a CSV download: per currency, and per brand (members, conversion, credits). */
export const REVENUE_TABLES = ['money', 'members'] as const;
/** A chargeback rate above this (chargebacks over purchases) is flagged: the card schemes' line (Visa's 0.9%). */
export const DISPUTE_RATE_FLAG = 0.009;
/** `format=csv`: the same table as a CSV download (src/server/console/csv.ts; issue 23: every table shown, with the same filters). */
const format = z.enum(['json', 'csv']).default('json');

/** GET /api/console/revenue: `from`/`to` are UTC days, both included (default: the 30 days to today). */
export const RevenueQuery = z
  .object({
    brand: brandId.optional(),
    from: date.optional(),
    to: date.optional(),
    group: z.enum(REVENUE_GROUPS).default('day'),
    /** `1`: each currency's figures also in EUR at the configured rate (EUR_RATES), the rate named. */
    eur: z.enum(['0', '1']).default('0').transform((v) => v === '1'),
    format,
    table: z.enum(REVENUE_TABLES).default('money'),
  })
  .transform((q, ctx) => {
    const today = new Date().toISOString().slice(0, 10);
    const to = q.to ?? today;
    const from = q.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    // A day of the calendar only (2026-02-30 is none), `to` not before `from`, at most REVENUE_MAX_DAYS.
    const dayOf = (d: string) => {
      const t = Date.parse(`${d}T00:00:00Z`);
      return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d ? t : NaN;
    };
    for (const [field, d] of [['from', from], ['to', to]] as const) if (Number.isNaN(dayOf(d))) ctx.addIssue({ code: 'custom', path: [field], message: 'not a day' });
    const days = (dayOf(to) - dayOf(from)) / 86_400_000;
    if (days < 0 || days >= REVENUE_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: 'range' });
    return { ...q, from, to };
  });
export type RevenueInput = z.output<typeof RevenueQuery>;

/** GET /api/console/postbacks */
export const PostbacksQuery = z.object({
  brand: brandId.optional(),
  /** An attempt id: the page of attempts older than it. */
  before: QueryId.optional(),
  format,
});
export type PostbacksInput = z.output<typeof PostbacksQuery>;
/** A postback's id in a console path. */
export const PostbackParams = z.object({ id: QueryId });
// ---- Held messages and safety rules --------------------------------------------------------

/** GET /api/console/held: a brand's held messages (or every brand in scope), oldest first, a page after the message id `after`. */
export const HeldQuery = z.object({ brand: brandId.optional(), after: QueryId.optional() });
export type HeldQueueInput = z.output<typeof HeldQuery>;
/** A held message's id in a console path. */
export const HeldParams = z.object({ id: QueryId });
/** POST /api/console/held/{id}: release (deliver now) or reject (credits back), with the reason the audit log and, on a rejection, the sender see. */
export const HeldDecisionBody = z.object({ action: z.enum(HELD_ACTIONS), reason });
/** GET /api/console/safety */
export const SafetyQuery = z.object({ brand: brandId.optional() });

/** The logged-in staff member as GET /api/console/me answers. */
export interface StaffView {
  id: number;
  email: string;
  role: StaffRole;
  /** Brand ids, or null for every brand. */
  brands: string[] | null;
}

/**
 * GET /api/console/sources: the brand's days from `from` to `to` (both included, the brand's
 * calendar; the last 30 days by default), or every brand in scope without `brand`.
 */
export const SourcesQuery = z.object({ brand: brandId.optional(), from: date.optional(), to: date.optional(), format });
export type SourcesInput = z.output<typeof SourcesQuery>;
/** GET /api/console/experiments: one brand's experiments, over all days by default. */
export const ExperimentsQuery = z.object({ brand: brandId, from: date.optional(), to: date.optional(), format });
export type ExperimentsInput = z.output<typeof ExperimentsQuery>;
/** POST /api/console/experiments/end?brand=: the variant (by name) visitors are no longer sent to. */
export const EndVariantQuery = z.object({ brand: brandId });
export const EndVariantBody = z.object({ variant: z.string().regex(VARIANT_NAME) });
/**
 * A brand as the console names it (GET /api/console/me): `brands` are those in the staff member's
 * scope, `pool_brands` the other brands of their brands' pools, whose members they may meet.
 */
export interface ConsoleBrand {
  id: string;
  name: string;
  /** Its main domain (tenant.json `domains[0]`). */
  domain: string;
}
