import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { request } from 'node:http';
import { buildApp, type App } from '../../src/server/app.ts';
import { configFromEnv, type AppConfig } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/index.ts';
import { seedDemo } from '../../src/server/db/seed.ts';
import { loadAllTenants } from '../../src/tenant/load.ts';
import type { Services } from '../../src/server/services/index.ts';

export const REPO = join(import.meta.dirname, '..', '..');
export const TENANTS_DIR = join(REPO, 'tenants');
export const DIST_DIR = join(REPO, 'dist');

export type EngineName = 'sqlite' | 'postgres';

/** The engines a test file runs on: SQLite always, PostgreSQL when DATABASE_URL is set. */
export function engines(): EngineName[] {
  return process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestRuntime {
  url: string;
  port: number;
  db: Db;
  services: Services;
  app: App;
  /** PostgreSQL: the private schema of this runtime. */
  schema?: string;
  outbox: string;
  /** The environment that points `sitegen` (tests/support/cli.ts) at this runtime's database. */
  cliEnv: Record<string, string>;
  /** http://<tenant>.localhost:<port> */
  tenantUrl(id: string): string;
  close(): Promise<void>;
}

export interface TestRuntimeOptions {
  seed?: boolean;
  /** Tenant folders to serve (default: the checkout's tenants/); `sitegen new` tests pass a temporary copy. */
  tenantsDir?: string;
  /** Builds to serve (default: the checkout's dist/). */
  distDir?: string;
  /** Run the background jobs (off by default: tests call services directly). */
  jobs?: boolean;
  /** Anything else of the configuration. */
  config?: Partial<AppConfig>;
}

/**
 * Starts a runtime on a free port with a fresh database: a temporary SQLite file, or a private
 * schema in the PostgreSQL of DATABASE_URL. Uses the builds in dist/ (globalSetup makes them).
 */
export async function startTestRuntime(engine: EngineName = 'sqlite', opts: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const tenantsDir = opts.tenantsDir ?? TENANTS_DIR;
  const distDir = opts.distDir ?? DIST_DIR;
  const dir = mkdtempSync(join(tmpdir(), 'sitegen-test-'));
  let schema: string | undefined;
  if (engine === 'postgres') {
    if (!process.env.DATABASE_URL) throw new Error('PostgreSQL tests need DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)');
    schema = `t_${randomBytes(6).toString('hex')}`;
    await adminQuery(`create schema ${schema}`);
  }
  const config: AppConfig = {
    ...configFromEnv({}, REPO),
    databaseUrl: engine === 'postgres' ? process.env.DATABASE_URL! : null,
    databaseFile: join(dir, 'app.db'),
    databaseSchema: schema,
    tenantsDir,
    distDir,
    dataDir: dir,
    outboxDir: join(dir, 'outbox'),
    mediaDir: join(dir, 'media'),
    logLevel: 'silent',
    // Test clients stand for browsers on addresses of their own (X-Forwarded-For) behind one proxy,
    // which the test's own connection stands for.
    trustProxy: 1,
    jobs: opts.jobs ?? false,
    // Every JSON answer is checked against its route's answer schema (src/contract): drift is a 500.
    checkAnswers: true,
    ...opts.config,
  };
  const app = await buildApp(config);
  if (opts.seed ?? true) await seedDemo(app.db.db, loadAllTenants(tenantsDir), { perTenant: 12 });
  const url = await app.listen(0, '127.0.0.1');
  const port = Number(new URL(url).port);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    db: app.db,
    services: app.services,
    app,
    schema,
    outbox: config.outboxDir,
    cliEnv: { DATABASE_URL: config.databaseUrl ?? '', DATABASE_SCHEMA: config.databaseSchema ?? '', DATABASE_FILE: config.databaseFile, TENANTS_DIR: config.tenantsDir },
    tenantUrl: (id) => `http://${id}.localhost:${port}`,
    async close() {
      await app.close();
      if (schema) await adminQuery(`drop schema ${schema} cascade; drop schema if exists ${schema}_jobs cascade`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One statement on the PostgreSQL of DATABASE_URL outside any test schema (create or drop one). */
export async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export interface HostResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body as received (still compressed when the answer says Content-Encoding). */
  body: Buffer;
  json<T = any>(): T;
}

/**
 * A request to a tenant by Host header, as a browser on <id>.localhost sends it (Node's fetch
 * does not let the Host header be set). Redirects are not followed.
 */
export function hostFetch(
  rt: TestRuntime,
  tenant: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<HostResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: rt.port, path, method: init.method ?? 'GET', headers: { host: `${tenant}.localhost:${rt.port}`, ...init.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}
