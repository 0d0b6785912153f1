import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { request } from 'node:http';
import { createRuntime } from '../../src/server/http.ts';
import { createDb, type Db } from '../../src/server/db/index.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { seedDemo } from '../../src/server/db/seed.ts';
import { createServices } from '../../src/server/services/create.ts';
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
  outbox: string;
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
  let db: Db;
  if (engine === 'postgres') {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('PostgreSQL tests need DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)');
    schema = `t_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    db = createDb({ url, schema });
  } else {
    db = createDb({ file: join(dir, 'app.db') });
  }
  await migrateToLatest(db.db);
  const tenants = loadAllTenants(tenantsDir);
  if (opts.seed ?? true) await seedDemo(db.db, tenants, { perTenant: 12 });
  let runtime: ReturnType<typeof createRuntime> | undefined;
  const services = createServices({ db: db.db, engine: db.engine, pushPublicKey: null, tenants: () => runtime?.registry.tenants() ?? [], outboxDir: join(dir, 'outbox'), mediaDir: join(dir, 'media'), log: () => {} });
  runtime = createRuntime({ port: 0, host: '127.0.0.1', tenantsDir, distDir, services, log: () => {} });
  const url = await runtime.listen();
  const port = Number(new URL(url).port);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    db,
    services,
    outbox: join(dir, 'outbox'),
    tenantUrl: (id) => `http://${id}.localhost:${port}`,
    async close() {
      await runtime?.close();
      await db.close();
      if (schema) {
        const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
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
