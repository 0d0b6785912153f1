import { existsSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { createRuntime } from '../src/server/http.ts';
import { createDb } from '../src/server/db/index.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { seedDemo } from '../src/server/db/seed.ts';
import { seedDemoPhotos } from '../src/server/db/seed-photos.ts';
import { defaultMediaDir } from '../src/server/services/photos.ts';
import { createServices } from '../src/server/services/create.ts';
import { loadAllTenants, listTenantIds } from '../src/tenant/load.ts';
import { REPO_ROOT, TENANTS_DIR, DIST_DIR, DATA_DIR } from './paths.ts';
import { buildTenants, isStale } from './build.ts';

/** How often accounts past their reactivation window are looked for. */
const PURGE_EVERY_MS = 3_600_000;

export interface ServeOptions {
  port: number;
  host: string;
  seed?: boolean;
  watch?: boolean;
}

/** Migrates, optionally seeds, and serves every tenant from one process; prints each tenant's URL. */
export async function startServer(opts: ServeOptions) {
  const database = createDb();
  const migrated = await migrateToLatest(database.db);
  if (migrated.length) console.log(`sitegen: ${database.engine}: ran ${migrated.length} migrations`);
  if (opts.seed) {
    const { profiles } = await seedDemo(database.db, loadAllTenants(TENANTS_DIR));
    if (profiles) console.log(`sitegen: added ${profiles} demo profiles`);
    const photos = await seedDemoPhotos(database.db, defaultMediaDir());
    if (photos) console.log(`sitegen: drew ${photos} demo portraits`);
  }
  const vapidFile = join(DATA_DIR, 'vapid.json');
  const pushPublicKey = existsSync(vapidFile) ? (JSON.parse(readFileSync(vapidFile, 'utf8')) as { publicKey: string }).publicKey : null;
  let runtime: ReturnType<typeof createRuntime> | undefined;
  const services = createServices({ db: database.db, engine: database.engine, pushPublicKey, tenants: () => runtime?.registry.tenants() ?? [], production: process.env.NODE_ENV === 'production' });
  // Accounts past their 14-day reactivation window are removed for good, at start and every hour.
  const purge = () =>
    services.accounts
      .purgeExpired((profileId) => services.photos.eraseAll(profileId))
      .then((n) => n && console.log(`sitegen: removed ${n} deleted account${n === 1 ? '' : 's'} for good`))
      .catch((error: unknown) => console.error(`sitegen: purge failed: ${(error as Error).message}`));
  void purge();
  setInterval(purge, PURGE_EVERY_MS).unref();
  runtime = createRuntime({
    port: opts.port,
    host: opts.host,
    tenantsDir: TENANTS_DIR,
    distDir: DIST_DIR,
    services,
    defaultTenant: process.env.DEFAULT_TENANT,
    trustProxy: process.env.TRUST_PROXY === '1',
    production: process.env.NODE_ENV === 'production',
  });
  const url = await runtime.listen();
  const port = new URL(url).port;
  const tenants = runtime.registry.tenants();
  const fallback = tenants.find((t) => t.id === process.env.DEFAULT_TENANT) ?? tenants[0];
  console.log(`\nsitegen: serving ${tenants.length} brand${tenants.length === 1 ? '' : 's'} (${database.engine} database)`);
  for (const t of tenants) {
    console.log(`  ${t.name.padEnd(20)} http://${t.id}.localhost:${port}/   (${t.domains.join(', ')})${t === fallback ? `   also http://localhost:${port}/` : ''}`);
  }
  console.log('');
  if (opts.watch) watchAndRebuild();
  const stop = async () => {
    await runtime?.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return { runtime, database, url };
}

/** dev: rebuild the stale tenants a moment after a source changes, one round at a time. */
function watchAndRebuild(): void {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const round = async () => {
    if (running) return;
    running = true;
    try {
      const stale = listTenantIds(TENANTS_DIR).filter((id) => isStale(id));
      if (stale.length) await buildTenants(stale);
    } catch (error) {
      console.error(`sitegen dev: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  };
  for (const dir of ['src', 'locales', 'content', 'tenants']) {
    watch(join(REPO_ROOT, dir), { recursive: true }, (_event, name) => {
      if (name?.includes('paraglide')) return;
      clearTimeout(timer);
      timer = setTimeout(round, 400);
    });
  }
  console.log('sitegen dev: watching src, locales, content and tenants; changed brands rebuild on save');
}
