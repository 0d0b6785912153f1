import { join } from 'node:path';
import { isPostgresUrl } from './db/engine.ts';
import { repoRoot } from './paths.ts';
import { parseTrustProxy, type TrustProxy } from './http/proxy.ts';
import type { AbuseLimits } from './services/accounts.ts';
import type { S3Settings } from './media-store.ts';

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
  /** The texts of the static pages (CONTENT_DIR, default content/: pages/<page>.<locale>.md), read when a brand's output is rendered. */
  contentDir: string;
  distDir: string;
  dataDir: string;
  /** Where mails are written without SMTP (OUTBOX_DIR, default data/outbox). */
  outboxDir: string;
  /** Photos on this machine's disk (MEDIA_DIR, default data/media), unless S3_BUCKET names a bucket. */
  mediaDir: string;
  /** S3_*: photos in an S3-compatible bucket that every machine shares (README "Many processes"); null: on disk. */
  s3: S3Settings | null;
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
  /** VAPID public key for web push when no key pair is configured here (tests); the runtime reads the database's (services/keys.ts). */
  pushPublicKey: string | null;
  /**
   * The VAPID key pair web pushes are signed with, from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY;
   * unset, the pair kept in the database (`sitegen keys`). Contact: VAPID_SUBJECT, default mailto:webmaster@localhost.
   */
  vapid?: { publicKey: string; privateKey: string; subject: string } | null;
  /** VAPID_SUBJECT: the contact pushes signed with the database's key pair carry. */
  vapidSubject: string;
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
  /**
   * Holds the writing of the rest of a brand's pages, after those its first request needs, until
   * the promise resolves (tests: the first answer must not wait for the rest; brand-output.ts).
   */
  holdBrandRest?: (id: string) => Promise<void>;
  /**
   * How long a brand's replaced output, or a removed brand's, is kept for the requests reading it
   * (src/server/output-folders.ts RETIRED_OUTPUT_MS, a minute; tests shorten it).
   */
  retiredOutputMs?: number;
  /** EUR_RATES (`USD=0.92,GBP=1.17`): EUR per unit of each currency, for revenue in EUR where asked; none by default. */
  eurRates: Record<string, number>;
  /**
   * BRAND_SYNC (PostgreSQL only; src/server/brand-sync.ts): `build` (the default) writes the
   * brands published to the database into TENANTS_DIR and builds those without a build; `files`
   * writes them only (builds come with the release or a shared DIST_DIR); `off` neither.
   */
  brandSync: 'build' | 'files' | 'off';
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

/** The contact push services are given with each push (RFC 8292 `sub`). */
export const vapidSubject = (env: NodeJS.ProcessEnv) => env.VAPID_SUBJECT || 'mailto:webmaster@localhost';

/** A setting of the environment the runtime cannot start with; its message names the variable and the mistake. */
export class ConfigError extends Error {}

/** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: both or neither; each base64url as `sitegen keys` prints them. */
export function vapidFromEnv(env: NodeJS.ProcessEnv): AppConfig['vapid'] {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim();
  const privateKey = env.VAPID_PRIVATE_KEY?.trim();
  if (!publicKey && !privateKey) return null;
  if (!publicKey || !privateKey) throw new ConfigError(`${publicKey ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'} is missing: set both VAPID keys or neither (npx sitegen keys prints a pair)`);
  // A P-256 public key is 65 bytes (87 base64url characters), its private key 32 (43).
  if (!/^[A-Za-z0-9_-]{87}$/.test(publicKey)) throw new ConfigError('VAPID_PUBLIC_KEY: not a base64url P-256 public key (87 characters)');
  if (!/^[A-Za-z0-9_-]{43}$/.test(privateKey)) throw new ConfigError('VAPID_PRIVATE_KEY: not a base64url P-256 private key (43 characters)');
  return { publicKey, privateKey, subject: vapidSubject(env) };
}

/**
 * S3_BUCKET and the rest of S3_*: null when S3_BUCKET is unset (photos on disk). S3_REGION
 * defaults to us-east-1 (R2: auto); the key pair comes both or neither (neither: the SDK's own
 * chain, such as an instance role); S3_ENDPOINT is an http(s) address. The bucket need not (and
 * should not) be public: photos waiting for screening are in it too; the runtime serves them.
 */
export function s3FromEnv(env: NodeJS.ProcessEnv): S3Settings | null {
  const bucket = env.S3_BUCKET?.trim();
  const others = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'].filter((name) => env[name]);
  if (!bucket) {
    if (others.length) throw new ConfigError(`${others[0]} is set but S3_BUCKET is not: name the bucket, or unset S3_* to keep photos on disk`);
    return null;
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`S3_BUCKET: "${bucket}" is not a bucket name (3-63 of a-z, 0-9, dot and hyphen)`);
  const address = (name: string): string | undefined => {
    const value = env[name]?.trim();
    if (!value) return undefined;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ConfigError(`${name}: "${value}" is not an address such as https://s3.example.com`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${name}: "${value}" is not an http(s) address`);
    return value.replace(/\/+$/, '');
  };
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || undefined;
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError(`${accessKeyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} is missing: set both S3 keys or neither`);
  const pathStyle = (env.S3_FORCE_PATH_STYLE ?? '').trim().toLowerCase();
  if (!['', '0', '1', 'true', 'false'].includes(pathStyle)) throw new ConfigError(`S3_FORCE_PATH_STYLE: "${env.S3_FORCE_PATH_STYLE}" is not true or false`);
  return {
    bucket,
    endpoint: address('S3_ENDPOINT'),
    region: env.S3_REGION?.trim() || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: pathStyle === '1' || pathStyle === 'true',
  };
}

function brandSyncOf(value: string | undefined): AppConfig['brandSync'] {
  const mode = (value ?? '').trim().toLowerCase() || 'build';
  if (mode !== 'build' && mode !== 'files' && mode !== 'off') throw new ConfigError(`BRAND_SYNC: "${value}" is not build, files or off`);
  return mode;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env, root = repoRoot()): AppConfig {
  const dataDir = env.DATA_DIR ?? join(root, 'data');
  const vapid = vapidFromEnv(env);
  return {
    databaseUrl: isPostgresUrl(env.DATABASE_URL) ? env.DATABASE_URL : null,
    databaseFile: env.DATABASE_FILE ?? join(dataDir, 'app.db'),
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    tenantsDir: env.TENANTS_DIR ?? join(root, 'tenants'),
    contentDir: env.CONTENT_DIR ?? join(root, 'content'),
    distDir: env.DIST_DIR ?? join(root, 'dist'),
    dataDir,
    outboxDir: env.OUTBOX_DIR ?? join(dataDir, 'outbox'),
    mediaDir: env.MEDIA_DIR ?? join(dataDir, 'media'),
    s3: s3FromEnv(env),
    smtpUrl: env.SMTP_URL || undefined,
    defaultTenant: env.DEFAULT_TENANT || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    production: env.NODE_ENV === 'production',
    pushPublicKey: vapid?.publicKey ?? null,
    vapid,
    vapidSubject: vapidSubject(env),
    mailWebhookSecret: env.MAIL_WEBHOOK_SECRET || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    jobs: env.JOBS !== '0',
    consoleHost: (env.CONSOLE_HOST || 'console.localhost').trim().toLowerCase().replace(/:\d+$/, ''),
    checkAnswers: env.NODE_ENV === 'test',
    eurRates: parseEurRates(env.EUR_RATES),
    brandSync: brandSyncOf(env.BRAND_SYNC),
  };
}
