import pino from 'pino';
import type { AppConfig } from './config.ts';
import { createDb, createSchemaIfMissing, type Db } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { TenantRegistry } from './registry.ts';
import { channelOf, createMemoryBus, createPostgresBus, type EventBus } from './bus.ts';
import { createLocalJobs, createPgBossJobs, type Jobs } from './jobs.ts';
import { createLimits } from './limits.ts';
import { createServices } from './services/create.ts';
import { join } from 'node:path';
import { mediaStoreOf } from './media-store.ts';
import { ensureVapidKeys, storedVapidKeys } from './services/push-keys.ts';
import { existsSync } from 'node:fs';
import type { Services } from './services/index.ts';
import { createHttp } from './http/server.ts';
import { addressPhotosUnder } from './media-address.ts';
import { buildInChild, startBrandSync } from './brand-sync.ts';
import { createBrandOutputs } from './brand-output.ts';
import { createOutputInputs, refreshOnChange, SharedTextsWatch } from './output-dependencies.ts';
import { API_ROUTES } from './api/index.ts';
import { POSTBACK_ATTEMPTS, POSTBACK_QUEUE, POSTBACK_RETRY_SECONDS } from './services/postbacks.ts';

/** How often accounts past their reactivation window are looked for (minutes). */
const PURGE_EVERY_MINUTES = 60;
/** How often messages whose push and mail a crash left behind are looked for (minutes). */
const NOTIFY_SWEEP_EVERY_MINUTES = 1;
/** How often members with unread messages are looked for (minutes); services/notify.ts spaces the mails. */
const REMINDERS_EVERY_MINUTES = 60;
/** How often the revenue sums of ended days are kept (minutes). */
const REVENUE_DAYS_EVERY_MINUTES = 60;
/** How often postbacks whose job was lost are looked for (minutes). */
const POSTBACK_SWEEP_EVERY_MINUTES = 1;

export interface App {
  config: AppConfig;
  db: Db;
  registry: TenantRegistry;
  bus: EventBus;
  jobs: Jobs;
  services: Services;
  http: Awaited<ReturnType<typeof createHttp>>;
  log: pino.Logger;
  /** Starts listening; resolves to the base URL. */
  listen(port: number, host?: string): Promise<string>;
  /** Stops listening, the jobs, the bus and the database, in that order. */
  close(): Promise<void>;
}



/**
 * The one wiring of the runtime (DESIGN §8): configuration, database (migrated), tenant registry,
 * event bus, jobs, services and the HTTP runtime. `sitegen serve` and the tests both build it here.
 */
export async function buildApp(config: AppConfig): Promise<App> {
  const log = pino({ level: config.logLevel, redact: ['req.headers.cookie', 'password', '*.password', 'token'] });
  const line = (text: string) => log.warn(text);
  const db = config.databaseUrl
    ? createDb({ url: config.databaseUrl, schema: config.databaseSchema, log: line })
    : createDb({ file: config.databaseFile });
  await createSchemaIfMissing(db.db, config.databaseSchema);
  const migrated = await migrateToLatest(db.db);
  if (migrated.length) log.info(`${db.engine}: ran ${migrated.length} migrations`);

  // Web push signs with the configured pair (VAPID_* or a test's), else the database's, which
  // every process and machine shares; a data/vapid.json of an older runtime moves in once.
  const legacyKeys = join(config.dataDir, 'vapid.json');
  const keys = config.vapid
    ? null
    : ((await storedVapidKeys(db.db)) ?? (existsSync(legacyKeys) ? (await ensureVapidKeys(db.db, legacyKeys)).keys : null));
  const vapid = config.vapid ?? (keys ? { ...keys, subject: config.vapidSubject } : null);
  // Photos on this machine's disk, or in the bucket every machine shares (S3_*).
  const media = await mediaStoreOf(config);
  if (config.s3) log.info(`photos in bucket ${config.s3.bucket}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''}`);

  const registry = new TenantRegistry({ tenantsDir: config.tenantsDir, distDir: config.distDir, onError: line });
  // Approved photos in the bucket are addressed under their brand's cdn_prefix (media-address.ts).
  if (config.s3) addressPhotosUnder(() => registry.tenants());
  // Connections are named after the schema, so an operator (or a test) can tell them apart.
  const name = `sitegen${config.databaseSchema ? `:${config.databaseSchema}` : ''}`;
  const bus: EventBus =
    config.databaseUrl && db.pool
      ? createPostgresBus({ connectionString: config.databaseUrl, pool: db.pool, channel: await channelOf(db.db, config.databaseSchema), applicationName: `${name}:bus`, log: line })
      : createMemoryBus();
  // Brands published to the database by another machine (or this one) are written into this
  // machine's tenants folder and made servable, before the first request and on every change.
  // A brand's output is rendered from the one program on the first request for it
  // (brand-output.ts); with BRAND_SYNC=build a machine with no program yet gets one built in a
  // child process (`sitegen build <id> --missing`).
  const makeServable = config.brandSync === 'build' ? buildInChild({ tenantsDir: config.tenantsDir, distDir: config.distDir, log: line }) : null;
  // The texts every brand shares (tenants/_defaults/landers, content/pages): an edit re-renders the
  // brands that show it, in the background, never the program (docs/ONE-BUILD.md step 6).
  const sharedTexts = new SharedTextsWatch({ tenantsDir: config.tenantsDir, contentDir: config.contentDir });
  const inputs = createOutputInputs({ watch: sharedTexts, tenantsDir: config.tenantsDir, distDir: config.distDir, tenants: () => registry.tenants() });
  const outputs = createBrandOutputs({ registry, tenantsDir: config.tenantsDir, distDir: config.distDir, log: line, withoutProgram: makeServable?.make, holdRest: config.holdBrandRest, retiredOutputMs: config.retiredOutputMs, shared: { texts: () => sharedTexts.texts(), inputs } });
  const inputsChanged = refreshOnChange({ tenants: () => registry.tenants(), isBuilt: (id) => registry.isBuilt(id), inputs, refresh: (tenant) => outputs.refresh(tenant), log: line });
  sharedTexts.start(inputsChanged, line);
  // The pool's other brands are named on a brand's pages: a new tenant list (a brand joined, left,
  // was suspended from or renamed in a pool) is looked at as a changed text is.
  registry.onChange(() => inputsChanged());
  const brandSync =
    config.databaseUrl && config.brandSync !== 'off'
      ? startBrandSync({
          db: db.db,
          bus,
          tenantsDir: config.tenantsDir,
          log: (text) => log.info(text),
          onChange: (changed) => {
            registry.rescan();
            // Rendered now rather than on the first request (a brand with no build answers 503).
            for (const tenant of registry.tenants()) if (changed.includes(tenant.id)) void outputs.ready(tenant);
          },
        })
      : null;
  await brandSync?.ready;
  const jobs: Jobs = config.databaseUrl
    ? createPgBossJobs({ connectionString: config.databaseUrl, schema: `${config.databaseSchema ?? 'public'}_jobs`.slice(0, 63), applicationName: `${name}:jobs`, log: line })
    : createLocalJobs({ log: line });
  const services = createServices({
    db: db.db,
    engine: db.engine,
    // The session cache hears this process's writes from the database adapter, and the others':
    // on SQLite through data_version, on PostgreSQL through the triggers' events on the bus.
    sessionCache: db.sqlite
      ? { onWrite: db.onWrite, epoch: () => db.sqlite!.dataVersionThisTurn() }
      : { onWrite: db.onWrite, epoch: () => bus.listening(), onChange: (listener) => bus.subscribe('session_rows', listener as (event: object) => void) },
    // The shared lists and cards of listings hear the same way (migration 2026-11-27-0300's triggers on PostgreSQL).
    // On SQLite also which rows are written: each member's own view is kept (own-views.ts).
    listingChanges: db.sqlite
      ? { onWrite: db.onWrite, epoch: () => db.sqlite!.dataVersionThisTurn(), onRowWrite: (...args) => db.sqlite!.onRowWrite(...args) }
      : { onWrite: db.onWrite, epoch: () => bus.listening(), onChange: (listener) => bus.subscribe('listings', listener) },
    bus,
    limits: createLimits(db.pool ? { pool: db.pool } : null),
    pushPublicKey: vapid?.publicKey ?? config.pushPublicKey,
    vapid,
    pushAgent: config.pushAgent,
    mailWebhookSecret: config.mailWebhookSecret,
    tenants: () => registry.tenants(),
    outboxDir: config.outboxDir,
    smtpUrl: config.smtpUrl,
    mediaDir: config.mediaDir,
    media,
    production: config.production,
    abuse: config.abuse,
    log: (text) => log.info(text),
    now: config.now,
    jobs,
    postbackRetrySeconds: config.postbackRetrySeconds,
    eurRates: config.eurRates,
    landers: (id) => registry.landerManifests(id),
  });
  // Accounts past their 14-day reactivation window are removed for good, at start and every hour,
  // by one process at a time.
  jobs.every('purge-deleted-accounts', PURGE_EVERY_MINUTES, async () => {
    const n = await services.accounts.purgeExpired((profileId) => services.photos.eraseAll(profileId));
    if (n) log.info(`removed ${n} deleted account${n === 1 ? '' : 's'} for good`);
  });

  // Pushes and mails a crash left behind, every minute; unread-message reminders every hour.
  jobs.every('notify-sweep', NOTIFY_SWEEP_EVERY_MINUTES, async () => {
    const n = await services.notifier.sweep();
    if (n) log.info(`sent the notifications of ${n} message${n === 1 ? '' : 's'} left behind`);
  });
  jobs.every('unread-reminders', REMINDERS_EVERY_MINUTES, async () => {
    const n = await services.notifier.remindUnread();
    if (n) log.info(`sent ${n} unread-message reminder${n === 1 ? '' : 's'}`);
  });

  // Postbacks to affiliate networks (issue 23): each through the queue, retried with backoff; those
  // whose job was lost with its process, every minute.
  jobs.queue<{ id: number; resend?: boolean }>(POSTBACK_QUEUE, { retries: POSTBACK_ATTEMPTS - 1, retryDelaySeconds: config.postbackRetrySeconds ?? POSTBACK_RETRY_SECONDS }, (data) => services.postbacks.deliver(data));
  jobs.every('postback-sweep', POSTBACK_SWEEP_EVERY_MINUTES, async () => {
    const n = await services.postbacks.sweep();
    if (n) log.info(`queued ${n} postback${n === 1 ? '' : 's'} left behind`);
  });

  // Revenue sums of the days that ended, once an hour (a query sums what is missing itself).
  jobs.every('revenue-days', REVENUE_DAYS_EVERY_MINUTES, () => services.revenue.keep());

  const http = await createHttp({
    registry,
    outputs,
    services,
    routes: API_ROUTES,
    defaultTenant: config.defaultTenant,
    trustProxy: config.trustProxy,
    production: config.production,
    consoleHost: config.consoleHost,
    checkAnswers: config.checkAnswers,
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
  });

  return {
    config,
    db,
    registry,
    bus,
    jobs,
    services,
    http,
    log,
    async listen(port, host) {
      if (config.jobs) await jobs.start();
      await bus.ready();
      return http.listen(port, host);
    },
    async close() {
      if (config.s3) addressPhotosUnder(null);
      brandSync?.stop();
      makeServable?.stop();
      outputs.stop();
      registry.close();
      sharedTexts.close();
      await http.close();
      // The visits counted in memory since the last second.
      await services.traffic.close();
      await jobs.stop();
      await bus.close();
      await db.close();
    },
  };
}
