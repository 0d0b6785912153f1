import type { FullConfig } from '@playwright/test';
import webpush from 'web-push';
import { startTestRuntime, engines } from './runtime.ts';

/**
 * Starts one runtime for the browser tests, on PostgreSQL when DATABASE_URL is set (CI) and on
 * SQLite otherwise; the API and unit suites cover both engines. Its URL reaches the tests as E2E_PORT.
 */
export default async function globalSetup(_config: FullConfig) {
  const engine = engines().includes('postgres') && process.env.E2E_ENGINE !== 'sqlite' ? 'postgres' : 'sqlite';
  // One browser on one address signs up every member of the suite: the per-address signup limit
  // of a household (5 an hour) is raised for it; the API tests prove the limit itself.
  // VAPID keys of its own, so members are offered push (SPEC §2) as on a runtime `sitegen start` made.
  const runtime = await startTestRuntime(engine, { config: { abuse: { signupsPerIpHour: 10_000, resetLookupsPerIpHour: 10_000 }, vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@example.nl' } } });
  process.env.E2E_PORT = String(runtime.port);
  process.env.E2E_OUTBOX = runtime.outbox;
  process.env.E2E_ENGINE_USED = engine;
  // The database, for what the browser cannot do yet (credits before payments exist): tests/support/e2e.ts grantCredits.
  process.env.E2E_DATABASE = JSON.stringify({ file: runtime.app.config.databaseFile, url: runtime.app.config.databaseUrl, schema: runtime.schema ?? null });
  return async () => {
    await runtime.close();
  };
}
