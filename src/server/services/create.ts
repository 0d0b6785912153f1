import type { IncomingMessage } from 'node:http';
import { createConsoleService } from './console.ts';
import { createComplaintService } from './complaints.ts';
import type { Kysely } from 'kysely';
import type { Database, Engine } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { EventBus } from '../bus.ts';
import type { Limits } from '../limits.ts';
import type { Services } from './index.ts';
import { createUserViews } from './user-view.ts';
import { createSessionService, type SessionCacheSource } from './sessions.ts';
import { createMailService } from './mail.ts';
import { createAccountService, type AbuseLimits } from './accounts.ts';
import { createProfileService } from './profiles.ts';
import { createNotificationService } from './notifications.ts';
import { createPhotoService } from './photos.ts';
import { diskMedia, type MediaStore } from '../media-store.ts';
import { createModerationService } from './moderation.ts';
import { createSearchService } from './search.ts';
import type { ListingChangeSource } from './listing-changes.ts';
import { createLikeService } from './likes.ts';
import { createSwipeService } from './swipes.ts';
import { createListingCache } from './listing-cache.ts';
import { createOwnViews } from './own-views.ts';
import { createSafetyService } from './safety.ts';
import { createInboxService } from './inbox.ts';
import { createFictionalService } from './fictional.ts';
import { createChatService } from './chat.ts';
import { createPoolScopes } from './pool.ts';
import { createMessageSafety } from './message-safety.ts';
import { createNotifier, type Vapid } from './notify.ts';
import { createPaymentService } from './payments.ts';
import { createDiscountService } from './discounts.ts';
import { createDirectDebitService } from './directdebit.ts';
import { outboxSms } from '../sms.ts';
import { createTransactionService } from './invoices.ts';
import { createTestProvider } from '../payments/test-provider.ts';
import { createMollieProvider } from '../payments/mollie.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { AppError } from '../errors.ts';
import { localGifs, type GifProvider } from '../data/gifs.ts';
import type { Jobs } from '../jobs.ts';
import { createPostbackService, POSTBACK_QUEUE } from './postbacks.ts';
import { createRevenueService } from './revenue.ts';
import { createTrafficService } from './traffic.ts';
import type { LanderManifest } from '../../lib/attribution.ts';

export interface ServiceDeps {
  db: Kysely<Database>;
  engine: Engine;
  /** What keeps the session cache fresh (sessions.ts); none: every request looks its session up. */
  sessionCache?: SessionCacheSource | null;
  /** Where the shared lists and cards of listings hear that what they hold changed (listing-changes.ts); without it cards are not kept. */
  listingChanges?: ListingChangeSource | null;
  bus: EventBus;
  limits: Limits;
  pushPublicKey: string | null;
  tenants: () => Tenant[];
  /** Where mails are written when no SMTP server is configured. */
  outboxDir: string;
  smtpUrl?: string;
  mediaDir: string;
  /** Where photos are stored (media-store.ts); the disk under mediaDir when left out. */
  media?: MediaStore;
  production: boolean;
  /** Mail and abuse limits other than the defaults (a test browser signs up many members from one address). */
  abuse?: Partial<AbuseLimits>;
  log?: (line: string) => void;
  /** The clock of the brand's day (the swipe game's likes of the day); tests move it. */
  now?: () => Date;
  /** The GIF search; the offline library by default. */
  gifs?: GifProvider;
  /** The VAPID keys pushes are signed with; null: no pushes are sent. */
  vapid?: Vapid | null;
  /** The HTTPS agent of pushes (tests: a stand-in push service with its own certificate). */
  pushAgent?: import('node:https').Agent;
  mailWebhookSecret?: string;
  /** Where brands' Mollie keys are read (process.env by default). */
  env?: Record<string, string | undefined>;
  /** Mollie's API base URL other than Mollie's own (tests: a stand-in); else MOLLIE_API_ENDPOINT. */
  mollieEndpoint?: string;
  /** The job queue postbacks go out through; none: they wait for a process that runs jobs. */
  jobs?: Jobs;
  /** The first postback retry's delay in seconds (POSTBACK_RETRY_SECONDS unless configured; tests: 1). */
  postbackRetrySeconds?: number;
  /** EUR per unit of each currency, for revenue in EUR where asked (EUR_RATES). */
  eurRates?: Record<string, number>;
  /** The landers of a brand's build, per locale (the registry's); none: no lander experiments known. */
  landers?: (tenantId: string) => LanderManifest[];
}

/**
 * The payment provider of a brand (tenant `payments`): the built-in test provider, or Mollie with
 * the API key of the environment variable the brand names (one client per brand and key). A brand
 * on Mollie without its key cannot take payments: 503, never a silent fall-back to test money.
 */
function paymentProviders(testProvider: PaymentProvider, deps: Pick<ServiceDeps, 'env' | 'mollieEndpoint' | 'log'>): (tenant: Tenant, name?: PaymentProvider['name']) => PaymentProvider {
  const mollies = new Map<string, PaymentProvider>();
  const env = deps.env ?? process.env;
  return (tenant, name = tenant.payments.provider) => {
    if (name === 'test') return testProvider;
    const apiKey = env[tenant.payments.mollie_api_key_env];
    if (!apiKey) {
      deps.log?.(`payments: ${tenant.id} uses Mollie but ${tenant.payments.mollie_api_key_env} is not set`);
      throw new AppError('service_unavailable', 503);
    }
    const key = `${tenant.id}:${apiKey}`;
    let provider = mollies.get(key);
    if (!provider) mollies.set(key, (provider = createMollieProvider({ apiKey, apiEndpoint: deps.mollieEndpoint ?? env.MOLLIE_API_ENDPOINT })));
    return provider;
  };
}

/** Creates the services of one process over one database connection (DESIGN §2: once, never per tenant). */
export function createServices(deps: ServiceDeps): Services {
  const { db, bus, limits } = deps;
  const views = createUserViews(db);
  const sessions = createSessionService({ db, views, production: deps.production, cache: deps.sessionCache ?? null });
  const mail = createMailService({ outboxDir: deps.outboxDir, smtpUrl: deps.smtpUrl, log: deps.log });
  const notifications = createNotificationService({ db });
  // The members search's and the swipe deck's shared lists (bench/README.md "The search under load").
  const listings = createListingCache({ db, changes: deps.listingChanges });
  const gifs = deps.gifs ?? localGifs();
  const testProvider = createTestProvider({ db, now: deps.now });
  const discounts = createDiscountService({ db, now: deps.now });
  const postbacks = createPostbackService({ db, tenants: deps.tenants, send: (data) => deps.jobs?.send(POSTBACK_QUEUE, data) ?? Promise.resolve(false), retrySeconds: deps.postbackRetrySeconds, log: deps.log });
  const traffic = createTrafficService({ db, bus, production: deps.production, tenants: deps.tenants, now: deps.now, log: deps.log, landers: deps.landers });
  const countMember = traffic.countMember;
  const payments = createPaymentService({ db, bus, provider: paymentProviders(testProvider, deps), tenants: deps.tenants, discounts, log: deps.log, now: deps.now, postbacks, countMember });
  const notifier = createNotifier({ db, mail, notifications, tenants: deps.tenants, vapid: deps.vapid ?? null, pushAgent: deps.pushAgent, production: deps.production, log: deps.log, now: deps.now });
  const accounts = createAccountService({ db, mail, sessions, views, bus, limits, abuse: deps.abuse, unsubscribeToken: (user) => notifications.unsubscribeToken(user), production: deps.production, postbacks, countMember });
  // A brand gone from the registry screens before showing: the safe default of issue 22.
  const moderationOf = (tenantId: string) => deps.tenants().find((t) => t.id === tenantId)?.photo_moderation ?? 'before';
  const media = deps.media ?? diskMedia(deps.mediaDir);
  const photos = createPhotoService({ db, media, moderationOf });
  // Whose profiles each brand's viewers draw from: its own and its pool's, worked out per reload of the tenants (issue 24).
  const scopeOf = createPoolScopes(deps.tenants);
  // The chat screens members' messages by the brand's safety rules; a released message goes out through the chat.
  const messageSafety = createMessageSafety({ db, bus, chat: () => chat, tenants: deps.tenants, log: deps.log });
  const chat = createChatService({ db, bus, scopeOf, gifs, media, moderationOf, screen: messageSafety.screen, onMessage: (m) => notifier.afterMessage(m.id) });
  const onLike = (userId: number, likerProfileId: number) => void notifier.likeArrived(userId, likerProfileId).catch((error: Error) => deps.log?.(`like mail: ${error.message}`));
  return {
    db,
    engine: deps.engine,
    bus,
    tenants: deps.tenants,
    pushPublicKey: deps.pushPublicKey,
    mediaDir: deps.mediaDir,
    media,
    sessions,
    accounts,
    profiles: createProfileService({ db, scopeOf }),
    notifications,
    photos,
    moderation: createModerationService({ db, bus, mailRejection: (userId, reason) => notifier.photoRejected(userId, reason), syncPublic: (ids) => photos.syncPublic(ids), log: deps.log }),
    mail,
    // Each member's own view kept where the rows written are told (SQLite, own-views.ts).
    search: createSearchService({ db, listings, scopeOf, views: createOwnViews({ db, changes: deps.listingChanges }) }),
    likes: createLikeService({ db, bus, scopeOf, onLike }),
    swipes: createSwipeService({ db, bus, scopeOf, now: deps.now, onLike, listings }),
    safety: createSafetyService({ db, mail, limits, scopeOf, bus }),
    complaints: createComplaintService({ db, bus, mail, tenants: deps.tenants, syncPublic: (ids) => photos.syncPublic(ids), log: deps.log }),
    gifs,
    chat,
    messageSafety,
    notifier,
    mailWebhookSecret: deps.mailWebhookSecret,
    testProvider,
    discounts,
    payments,
    transactions: createTransactionService({ db }),
    postbacks,
    revenue: createRevenueService({ db, tenants: deps.tenants, eurRates: deps.eurRates, now: deps.now }),
    traffic,
    directDebit: createDirectDebitService({ db, sms: outboxSms({ outboxDir: deps.outboxDir, log: deps.log }), limits, discounts, pay: (order) => payments.directDebit(order), now: deps.now }),
    console: createConsoleService({
      db,
      bus,
      tenants: deps.tenants,
      limits,
      production: deps.production,
      // The member's own activation mail, with its limits; its links point at the brand's main domain.
      resendActivation: async (userId) => {
        const user = await db.selectFrom('users').select('tenant_id').where('id', '=', userId).executeTakeFirstOrThrow();
        const tenant = deps.tenants().find((t) => t.id === user.tenant_id);
        if (!tenant) throw new Error(`no brand ${user.tenant_id}`);
        await accounts.resendActivation(tenant, userId, { headers: {} } as IncomingMessage, 'console');
      },
      erase: (userId, alongside) => accounts.erase(userId, (profileId) => photos.eraseAll(profileId), alongside),
    }),
    inbox: createInboxService({ db, bus, chat, tenants: deps.tenants }),
    fictional: createFictionalService({ db, bus, photos, tenants: deps.tenants }),
  };
}
