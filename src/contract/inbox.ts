import { z } from 'zod';
import { BodyId, QueryId } from './ids.ts';
import { ProfileBody } from './profile.ts';

/**
 * Fictional profiles and the fictional inbox of the console (issue 22, DESIGN §10, §11): the
 * bodies and queries of their console routes, and the console's live events. The routes are in
 * src/server/console/inbox-routes.ts, the rules in src/server/services/fictional.ts and inbox.ts.
 */

/**
 * A claim ends after this many minutes without a reply by its holder (each reply renews it).
 * Long enough to read a conversation's history and write an answer in it, short enough that a
 * conversation left by someone who went away waits a quarter of an hour at most for the next.
 */
export const INBOX_CLAIM_MINUTES = 15;

/** Conversations of one inbox page. */
export const INBOX_PAGE_SIZE = 50;

/** The time to first answer is the median over this many of a brand's most recently answered conversations. */
export const FIRST_ANSWER_SAMPLE = 200;

const brandId = z.string().regex(/^[a-z0-9-]{1,40}$/);

/** `?brand=` of a list (absent: every brand in the staff member's scope). */
export const BrandQuery = z.object({ brand: brandId.optional() });

/** `?brand=` of a call that makes something in one brand. */
export const BrandRequiredQuery = z.object({ brand: brandId });

/** A fictional profile's fields: the member profile's (SPEC §3, PUT /api/profile.php), any subset when edited. */
export const FictionalChanges = ProfileBody;
export type FictionalChanges = z.output<typeof FictionalChanges>;

/** POST /api/console/fictional?brand=: a new fictional profile needs what a member's signup needs. */
export const FictionalNew = ProfileBody.required({ name: true, gender: true, sexuality: true, birth_date: true, country: true });
export type FictionalNew = z.output<typeof FictionalNew>;

/** A fictional profile's id in a console path. */
export const FictionalParams = z.object({ id: QueryId });
/** One of its photos. */
export const FictionalPhotoParams = z.object({ id: QueryId, photo: QueryId });
/** POST /api/console/fictional/{id}/photos/{photo}: make it the main photo, or delete it. */
export const FictionalPhotoBody = z.object({ action: z.enum(['main', 'delete']) }).strict();
/** POST /api/console/fictional/{id}/retire */
export const RetireBody = z.object({ reason: z.string().trim().min(1).max(1000) }).strict();

/** A conversation's id in a console path. */
export const ConversationParams = z.object({ id: QueryId });

/** GET /api/console/inbox: waiting longest first; `after` is the `next` of the page before. */
export const InboxQuery = z.object({
  brand: brandId.optional(),
  after: z
    .string()
    .max(80)
    .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z\.\d{1,15}$/)
    .optional(),
});
export type InboxInput = z.output<typeof InboxQuery>;

const ClientId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/**
 * POST /api/console/inbox/{conversation_id}: the reply as the fictional profile, one of a text,
 * a gift of the brand's catalogue, or one of the fictional profile's own photos (already screened:
 * a staff reply never shows a member a photo nobody approved). `client_id` makes a retried reply
 * count once, as in the member's chat.
 */
export const InboxReplyBody = z.union([
  z.object({ text: z.string().max(20_000), client_id: ClientId.optional() }).strict(),
  z.object({ gift: z.string().max(40), client_id: ClientId.optional() }).strict(),
  z.object({ photo: BodyId, client_id: ClientId.optional() }).strict(),
]);
export type InboxReply = z.output<typeof InboxReplyBody>;

/** A console live event (GET /api/console/events): ids only (DESIGN §9); the page reads what changed. */
export interface ConsoleEvent {
  type: 'inbox_message' | 'inbox_claim' | 'inbox_release' | 'inbox_reply';
  brand: string;
  conversation_id: number;
}
