import type { z } from 'zod';
import type { BulkApproveBody, ComplaintActionBody, ConsoleBrand, ConsoleEnrolBody, ConsoleEnrolPasswordBody, ConsoleLoginBody, CreditsBody, EndVariantBody, HeldDecisionBody, PhotoDecisionBody, ReasonBody, StaffAddBody, StaffRoleBody, StaffView } from '../../../src/contract/console.ts';
import type { ModerationService, QueueCount } from '../../../src/server/services/moderation.ts';
import type { ComplaintService } from '../../../src/server/services/complaints.ts';
import type { ConsoleService } from '../../../src/server/services/console.ts';
import type { MessageSafety } from '../../../src/server/services/message-safety.ts';
import type { InboxService } from '../../../src/server/services/inbox.ts';
import type { FictionalChanges, FictionalNew, FictionalPhotoBody, InboxReplyBody, RetireBody } from '../../../src/contract/inbox.ts';
import type { FictionalService } from '../../../src/server/services/fictional.ts';
import type { TrafficService } from '../../../src/server/services/traffic.ts';
import type { PostbacksView, RevenueView } from '../../../src/contract/revenue.ts';
import { m } from '../paraglide/messages.js';
import { pageLocale } from './locale.ts';

type Answer<F extends keyof ConsoleService> = ConsoleService[F] extends (...args: never[]) => Promise<infer A> ? A : never;
type TrafficAnswer<F extends keyof TrafficService> = TrafficService[F] extends (...args: never[]) => Promise<infer A> ? A : never;
type Ok = { ok: true };
type InboxAnswer<F extends keyof InboxService> = Awaited<ReturnType<InboxService[F]>>;
type FictionalAnswer<F extends keyof FictionalService> = Awaited<ReturnType<FictionalService[F]>>;

/**
 * The console's JSON API as its pages call it (docs/API.md "Console"): per call, the body it takes
 * and the answer it gives, typed from the contract's schemas and the console service. A page that
 * adds a call adds its line here.
 */
export interface ConsoleCalls {
  'POST login': { body: z.input<typeof ConsoleLoginBody>; answer: { staff: StaffView } | { enrol: true; secret: string; otpauth: string; qr_svg: string } };
  'POST enrol': { body: z.input<typeof ConsoleEnrolBody>; answer: { staff: StaffView; recovery_codes: string[] } };
  'POST enrol/password': { body: z.input<typeof ConsoleEnrolPasswordBody>; answer: { email: string } };
  'POST logout': { body: undefined; answer: undefined };
  'GET me': { body: undefined; answer: { staff: StaffView; brands: ConsoleBrand[]; pool_brands: ConsoleBrand[] } };
  'GET members': { body: undefined; answer: Answer<'members'> };
  'GET members/:id': { body: undefined; answer: Answer<'member'> };
  'POST members/:id/suspend': { body: z.input<typeof ReasonBody>; answer: Ok };
  'POST members/:id/unsuspend': { body: z.input<typeof ReasonBody>; answer: Ok };
  'POST members/:id/credits': { body: z.input<typeof CreditsBody>; answer: { balance: number } };
  'POST members/:id/resend-activation': { body: undefined; answer: Ok };
  'POST members/:id/directdebit-block': { body: z.input<typeof ReasonBody>; answer: Ok };
  'POST members/:id/delete': { body: z.input<typeof ReasonBody>; answer: Ok };
  'GET audit': { body: undefined; answer: Answer<'auditLog'> };
  'GET held': { body: undefined; answer: Awaited<ReturnType<MessageSafety['queue']>> };
  'POST held/:id': { body: z.input<typeof HeldDecisionBody>; answer: Awaited<ReturnType<MessageSafety['decide']>> };
  'GET safety': { body: undefined; answer: ReturnType<MessageSafety['settings']> };
  'GET staff': { body: undefined; answer: { staff: Answer<'listStaff'> } };
  'POST staff': { body: z.input<typeof StaffAddBody>; answer: { id: number; enrol_path: string } };
  'POST staff/:id/role': { body: z.input<typeof StaffRoleBody>; answer: Ok };
  'POST staff/:id/remove': { body: undefined; answer: Ok };
  'GET inbox': { body: undefined; answer: InboxAnswer<'list'> };
  'GET inbox/stats': { body: undefined; answer: InboxAnswer<'stats'> };
  'GET inbox/:id': { body: undefined; answer: InboxAnswer<'conversation'> };
  'POST inbox/:id/claim': { body: undefined; answer: InboxAnswer<'claim'> };
  'POST inbox/:id/release': { body: undefined; answer: InboxAnswer<'release'> };
  'POST inbox/:id': { body: z.input<typeof InboxReplyBody>; answer: InboxAnswer<'reply'> };
  'GET fictional': { body: undefined; answer: FictionalAnswer<'list'> };
  'POST fictional': { body: z.input<typeof FictionalNew>; answer: FictionalAnswer<'create'> };
  'GET fictional/:id': { body: undefined; answer: FictionalAnswer<'get'> };
  'POST fictional/:id': { body: z.input<typeof FictionalChanges>; answer: FictionalAnswer<'update'> };
  'POST fictional/:id/retire': { body: z.input<typeof RetireBody>; answer: FictionalAnswer<'retire'> };
  'POST fictional/:id/photos': { body: undefined; answer: FictionalAnswer<'upload'> };
  'POST fictional/:id/photos/:photo': { body: z.input<typeof FictionalPhotoBody>; answer: FictionalAnswer<'photo'> };
  'GET sources': { body: undefined; answer: TrafficAnswer<'sources'> };
  'GET experiments': { body: undefined; answer: TrafficAnswer<'experiments'> };
  'POST experiments/end': { body: z.input<typeof EndVariantBody>; answer: TrafficAnswer<'endVariant'> };
  'GET photos': { body: undefined; answer: Awaited<ReturnType<ModerationService['photoQueue']>> & { counts: QueueCount[] } };
  'POST photos/:id': { body: z.input<typeof PhotoDecisionBody>; answer: { id: number; status: 'active' | 'rejected' } };
  'POST photos/approve': { body: z.input<typeof BulkApproveBody>; answer: { approved: number[]; skipped: number[] } };
  'GET chat-photos': { body: undefined; answer: Awaited<ReturnType<ModerationService['chatPhotoQueue']>> };
  'POST chat-photos/:id': { body: z.input<typeof PhotoDecisionBody>; answer: { id: number; status: 'active' | 'rejected' } };
  'GET complaints': { body: undefined; answer: Awaited<ReturnType<ComplaintService['queue']>> };
  'GET complaints/:id': { body: undefined; answer: Awaited<ReturnType<ComplaintService['complaint']>> };
  'POST complaints/:id': { body: z.input<typeof ComplaintActionBody>; answer: Awaited<ReturnType<ComplaintService['act']>> };
  'GET revenue': { body: undefined; answer: RevenueView };
  'GET postbacks': { body: undefined; answer: PostbacksView };
  'POST postbacks/:id/resend': { body: undefined; answer: { queued: boolean } };
}
export type ConsoleCall = keyof ConsoleCalls;
export type AnswerOf<K extends ConsoleCall> = ConsoleCalls[K]['answer'];

/** A refused call: the server's catalogue message in the console's language, and the field it is about. */
export class ConsoleApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** Calls that need no session: their 401 is an answer (wrong code), not an ended session. */
const PUBLIC_CALLS = new Set<ConsoleCall>(['POST login', 'POST enrol', 'POST enrol/password']);

/** The login page, coming back here afterwards. */
export function toLogin(): void {
  location.assign(`/console/login?next=${encodeURIComponent(location.pathname + location.search)}`);
}

/**
 * Calls /api/console/<path> (`:id` filled from `params`, `query` without its empty values). An ended
 * session goes to the login page; any other refusal throws ConsoleApiError with the server's message.
 */
export async function consoleApi<K extends ConsoleCall>(
  call: K,
  options: { params?: Record<string, string | number>; query?: Record<string, string | number | undefined>; body?: ConsoleCalls[K]['body']; form?: FormData } = {},
): Promise<AnswerOf<K>> {
  const [method, pattern] = call.split(' ') as [string, string];
  const path = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(options.params?.[name] ?? '')));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined && value !== '') query.set(name, String(value));
  let res: Response;
  try {
    res = await fetch(`/api/console/${path}${query.size ? `?${query}` : ''}`, {
      method,
      credentials: 'same-origin',
      headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
      // A multipart upload (a photo) sends its form as the browser encodes it.
      body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
  } catch {
    throw new ConsoleApiError(0, 'network', m.error_network({}, { locale: pageLocale() }));
  }
  if (res.status === 204) return undefined as AnswerOf<K>;
  const data = (await res.json().catch(() => null)) as { error?: { code: string; message: string; field?: string } } | null;
  if (res.ok) return data as AnswerOf<K>;
  if (res.status === 401 && !PUBLIC_CALLS.has(call)) toLogin();
  throw new ConsoleApiError(res.status, data?.error?.code ?? 'error', data?.error?.message ?? m.error_network({}, { locale: pageLocale() }), data?.error?.field);
}
