import { existsSync, mkdirSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { configFromEnv } from '../src/server/config.ts';
import { seedDemo } from '../src/server/db/seed.ts';
import { seedDemoPhotos } from '../src/server/db/seed-photos.ts';
import { loadAllTenants, listTenantIds } from '../src/tenant/load.ts';
import { defaultTenantOf } from '../src/tenant/resolve.ts';
import { REPO_ROOT, TENANTS_DIR } from './paths.ts';
import { buildStale } from './build.ts';

/** data/serving.json: the pid and port of the running `sitegen serve`. */
const SERVING_FILE = 'serving.json';

/** The port a running `sitegen serve` of this checkout listens on, or undefined. */
export function runningPort(dataDir: string): number | undefined {
  const file = join(dataDir, SERVING_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const { pid, port } = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; port: number };
    process.kill(pid, 0); // throws when that process is gone
    return port;
  } catch {
    return undefined;
  }
}

export interface ServeOptions {
  port: number;
  host: string;
  seed?: boolean;
  watch?: boolean;
}

/** Builds the runtime (DESIGN §8: one wiring), optionally seeds, serves every tenant; prints each tenant's URL. */
export async function startServer(opts: ServeOptions) {
  const config = configFromEnv();
  // Libraries (React's server renderer above all, three times faster) run their production builds
  // except under `sitegen dev`. What the operator's NODE_ENV decides (Secure cookies, HSTS) was
  // read into the configuration just above and does not change.
  if (!opts.watch) process.env.NODE_ENV ??= 'production';
  const app = await buildApp(config);
  if (opts.seed) {
    const { profiles } = await seedDemo(app.db.db, loadAllTenants(config.tenantsDir));
    if (profiles) console.log(`sitegen: added ${profiles} demo profiles`);
    const photos = await seedDemoPhotos(app.db.db, app.services.media);
    if (photos) console.log(`sitegen: drew ${photos} demo portraits`);
  }
  const url = await app.listen(opts.port, opts.host);
  const port = new URL(url).port;
  const tenants = app.registry.tenants();
  const fallback = defaultTenantOf(tenants, config.defaultTenant);
  console.log(`\nsitegen: serving ${tenants.length} brand${tenants.length === 1 ? '' : 's'} (${app.db.engine} database)`);
  for (const t of tenants) {
    console.log(`  ${t.name.padEnd(20)} http://${t.id}.localhost:${port}/   (${t.domains.join(', ')})${t === fallback ? `   also http://localhost:${port}/` : ''}`);
  }
  const consoleCount = await app.db.db.selectFrom('staff').select((eb) => eb.fn.countAll<number>().as('n')).where('removed_at', 'is', null).executeTakeFirstOrThrow();
  console.log(`  ${'Operator console'.padEnd(20)} http://${config.consoleHost}:${port}/console/${Number(consoleCount.n) ? '' : '   (no staff yet: npx sitegen staff add --email you@example.com --role owner --password-stdin)'}`);
  console.log('');
  if (opts.watch) watchAndRebuild();
  // Where this server listens, for `sitegen new` to print the new brand's address.
  const serving = join(config.dataDir, SERVING_FILE);
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(serving, JSON.stringify({ pid: process.pid, port: Number(port) }));
  const stop = async () => {
    rmSync(serving, { force: true });
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return { app, url };
}

/** dev: rebuild the stale tenants a moment after a source changes, one round at a time. */
function watchAndRebuild(): void {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const round = async () => {
    if (running) return;
    running = true;
    try {
      await buildStale();
    } catch (error) {
      console.error(`sitegen dev: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  };
  for (const dir of ['src', 'locales', 'content', 'tenants', 'console']) {
    watch(join(REPO_ROOT, dir), { recursive: true }, (_event, name) => {
      if (name?.includes('paraglide')) return;
      clearTimeout(timer);
      timer = setTimeout(round, 400);
    });
  }
  console.log('sitegen dev: watching src, locales, content, tenants and console; changed brands (and those showing a changed shared text) and the console rebuild on save');
}
