import type { Kysely } from 'kysely';
import type { Database, Engine } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { MediaStore } from '../media-store.ts';
import type { AccountService } from './accounts.ts';
import type { ProfileService } from './profiles.ts';
import type { NotificationService } from './notifications.ts';
import type { SessionServiceImpl } from './sessions.ts';
import type { PhotoService } from './photos.ts';
import type { ModerationService } from './moderation.ts';
import type { MailService } from './mail.ts';
import type { SearchService } from './search.ts';
import type { LikeService } from './likes.ts';
import type { SwipeService } from './swipes.ts';
import type { SafetyService } from './safety.ts';
import type { EventBus } from '../bus.ts';
import type { ChatService } from './chat.ts';
import type { MessageSafety } from './message-safety.ts';
import type { Notifier } from './notify.ts';
import type { PaymentService } from './payments.ts';
import type { DiscountService } from './discounts.ts';
import type { DirectDebitService } from './directdebit.ts';
import type { TransactionService } from './invoices.ts';
import type { TestProvider } from '../payments/test-provider.ts';
import type { GifProvider } from '../data/gifs.ts';
import type { ConsoleService } from './console.ts';
import type { InboxService } from './inbox.ts';
import type { FictionalService } from './fictional.ts';
import type { ComplaintService } from './complaints.ts';
import type { PostbackService } from './postbacks.ts';
import type { RevenueService } from './revenue.ts';
import type { TrafficService } from './traffic.ts';

/** A logged-in member on one request (declared beside the sessions that make it). */
export type { Session } from './sessions.ts';

/**
 * The services of one runtime process: created once and shared by every tenant (DESIGN §2).
 * API handlers and pages reach them through this object.
 */
export interface Services {
  db: Kysely<Database>;
  engine: Engine;
  /** Live events between the processes (DESIGN §9): publish after commit, subscribe per stream. */
  bus: EventBus;
  /** The tenants being served now (the registry re-reads tenants/ as they change). */
  tenants(): Tenant[];
  /** VAPID public key for web push, from `sitegen keys`; null until generated. */
  pushPublicKey: string | null;
  /** The folder of photos on this machine's disk (MEDIA_DIR); where they are when no bucket is configured. */
  mediaDir: string;
  /** Where photos are stored and read from for /media/… and the console: that disk or the S3 bucket (media-store.ts). */
  media: MediaStore;
  /** Sessions of logged-in members: the cookie, its rotation and revocation. */
  sessions: SessionServiceImpl;
  accounts: AccountService;
  profiles: ProfileService;
  notifications: NotificationService;
  photos: PhotoService;
  /** Photo screening for the console (issue 22): queue, decisions, staff media. */
  moderation: ModerationService;
  mail: MailService;
  search: SearchService;
  likes: LikeService;
  swipes: SwipeService;
  safety: SafetyService;
  /** Complaints as staff handle them, and the statements of their decisions (issue 22). */
  complaints: ComplaintService;
  /** The GIF search of the chat. */
  gifs: GifProvider;
  chat: ChatService;
  /** The brands' safety rules on members' messages and the moderators' queue of held messages (issue 22). */
  messageSafety: MessageSafety;
  /** Push and e-mail notifications of members who are not looking. */
  notifier: Notifier;
  /** The mail provider's webhook secret; undefined: the webhook answers 404. */
  mailWebhookSecret: string | undefined;
  /** Buying credit bundles. */
  payments: PaymentService;
  discounts: DiscountService;
  directDebit: DirectDebitService;
  transactions: TransactionService;
  /** The built-in test provider and its hosted checkout. */
  testProvider: TestProvider;
  /** The operator console: staff, their sessions, members as staff see them, the audit log. */
  console: ConsoleService;
  /** The console's fictional inbox: waiting conversations, claims, replies as a fictional profile (issue 22). */
  inbox: InboxService;
  /** The console's fictional profiles: create, edit, retire, photos (issue 22). */
  fictional: FictionalService;
  /** Postbacks to affiliate networks (issue 23). */
  postbacks: PostbackService;
  /** Revenue figures for the console (issue 23). */
  revenue: RevenueService;
  /** Traffic attribution, visit and funnel counts, lander experiments (issue 23). */
  traffic: TrafficService;
}
