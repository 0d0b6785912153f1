import type { FullConfig } from '@playwright/test';
import { startTestRuntime, engines } from './runtime.ts';

/**
 * Starts one runtime for the browser tests, on PostgreSQL when DATABASE_URL is set (CI) and on
 * SQLite otherwise; the API and unit suites cover both engines. Its URL reaches the tests as E2E_PORT.
 */
export default async function globalSetup(_config: FullConfig) {
  const engine = engines().includes('postgres') && process.env.E2E_ENGINE !== 'sqlite' ? 'postgres' : 'sqlite';
  const runtime = await startTestRuntime(engine);
  process.env.E2E_PORT = String(runtime.port);
  process.env.E2E_OUTBOX = runtime.outbox;
  process.env.E2E_ENGINE_USED = engine;
  return async () => {
    await runtime.close();
  };
}
