import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPostgresUrl } from './db/engine.ts';
import { repoRoot } from './paths.ts';
import { parseTrustProxy, type TrustProxy } from './http/proxy.ts';
import type { AbuseLimits } from './services/accounts.ts';

/**
 * Everything the runtime is configured with, read from the environment in this one place
 * (services read no environment variables themselves). README "Configuration by environment".
 */
export interface AppConfig {
  /** PostgreSQL URL (DATABASE_URL); null for the embedded SQLite file. */
  databaseUrl: string | null;
  /** SQLite file (DATABASE_FILE, default data/app.db). */
  databaseFile: string;
  /** PostgreSQL schema to work in (DATABASE_SCHEMA; tests use a private one); the default search_path otherwise. */
  databaseSchema?: string;
  tenantsDir: string;
  distDir: string;
  dataDir: string;
  /** Where mails are written without SMTP (OUTBOX_DIR, default data/outbox). */
  outboxDir: string;
  /** Photos (MEDIA_DIR, default data/media). */
  mediaDir: string;
  smtpUrl?: string;
  /** The brand for hosts that match none (DEFAULT_TENANT). */
  defaultTenant?: string;
  /**
   * TRUST_PROXY: the proxies in front whose X-Forwarded-For, -Proto, -Host and country headers are
   * believed: a hop count (1: one nginx) or their addresses/CIDRs; false (unset) for none.
   */
  trustProxy: TrustProxy;
  /** NODE_ENV=production: Secure __Host- cookies, HSTS, https mail links. */
  production: boolean;
  /** VAPID public key for web push, from data/vapid.json (`sitegen keys`). */
  pushPublicKey: string | null;
  /** The whole VAPID key pair and contact (VAPID_SUBJECT, default mailto:webmaster@localhost) the server signs pushes with. */
  vapid?: { publicKey: string; privateKey: string; subject: string } | null;
  /** The HTTPS agent pushes go out with (tests: one that trusts a local stand-in push service). */
  pushAgent?: import('node:https').Agent;
  /** MAIL_WEBHOOK_SECRET: the shared secret of the mail provider's event webhook (POST /api/mail-events.php); unset, the webhook is off. */
  mailWebhookSecret?: string;
  /** Request log level (LOG_LEVEL, default info); 'silent' for none. */
  logLevel: string;
  /** Run background jobs (the account purge) in this process. */
  jobs: boolean;
  /** Mail and abuse limits other than the defaults of docs/API.md (tests only). */
  abuse?: Partial<AbuseLimits>;
  /** CONSOLE_HOST: the operator console's host name (default console.localhost); no brand answers on it. */
  consoleHost: string;
  /** Check every JSON answer against its route's answer schema (tests; NODE_ENV=test): a mismatch is a 500. */
  checkAnswers?: boolean;
  /** The clock of brand days (the swipe game's likes per day); tests move it. */
  now?: () => Date;
  /** EUR_RATES (`USD=0.92,GBP=1.17`): EUR per unit of each currency, for revenue in EUR where asked; none by default. */
  eurRates: Record<string, number>;
  /** The first postback retry's delay in seconds (services/postbacks.ts POSTBACK_RETRY_SECONDS unless set; tests: 1). */
  postbackRetrySeconds?: number;
}

/** EUR_RATES as `CUR=rate` pairs separated by commas; a malformed pair stops the start. */
export function parseEurRates(text: string | undefined): Record<string, number> {
  const rates: Record<string, number> = {};
  for (const pair of (text ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^([A-Z]{3})=(\d+(?:\.\d+)?)$/.exec(pair);
    if (!match || !(Number(match[2]) > 0)) throw new Error(`EUR_RATES: "${pair}" is not CUR=rate such as USD=0.92`);
    rates[match[1]!] = Number(match[2]);
  }
  return rates;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env, root = repoRoot()): AppConfig {
  const dataDir = env.DATA_DIR ?? join(root, 'data');
  const vapidFile = join(dataDir, 'vapid.json');
  const keys = existsSync(vapidFile) ? (JSON.parse(readFileSync(vapidFile, 'utf8')) as { publicKey: string; privateKey: string }) : null;
  return {
    databaseUrl: isPostgresUrl(env.DATABASE_URL) ? env.DATABASE_URL : null,
    databaseFile: env.DATABASE_FILE ?? join(dataDir, 'app.db'),
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    tenantsDir: env.TENANTS_DIR ?? join(root, 'tenants'),
    distDir: env.DIST_DIR ?? join(root, 'dist'),
    dataDir,
    outboxDir: env.OUTBOX_DIR ?? join(dataDir, 'outbox'),
    mediaDir: env.MEDIA_DIR ?? join(dataDir, 'media'),
    smtpUrl: env.SMTP_URL || undefined,
    defaultTenant: env.DEFAULT_TENANT || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    production: env.NODE_ENV === 'production',
    pushPublicKey: keys?.publicKey ?? null,
    vapid: keys ? { publicKey: keys.publicKey, privateKey: keys.privateKey, subject: env.VAPID_SUBJECT || 'mailto:webmaster@localhost' } : null,
    mailWebhookSecret: env.MAIL_WEBHOOK_SECRET || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    jobs: env.JOBS !== '0',
    consoleHost: (env.CONSOLE_HOST || 'console.localhost').trim().toLowerCase().replace(/:\d+$/, ''),
    checkAnswers: env.NODE_ENV === 'test',
    eurRates: parseEurRates(env.EUR_RATES),
  };
}
