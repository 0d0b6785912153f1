#!/usr/bin/env node
/**
 * sitegen: launch and run branded sites. `npm start` is `sitegen start`.
 * Every command runs on Node 24 from the `node` devDependency (through npm run / npx).
 */
import { Command, InvalidArgumentError } from 'commander';
import { join } from 'node:path';
import { TENANTS_DIR, DATA_DIR, DIST_DIR } from './paths.ts';
import { buildConsole, buildStale, buildTenants, ensureProgram, isConsoleStale, isStale, sharedTexts } from './build.ts';
import { checkAll, missingPaymentKeys } from './check.ts';
import { createTenantFile } from './new.ts';
import { MEMBERS_STAY, planRemoval, removeBrand } from './remove.ts';
import { runningPort, startServer } from './serve.ts';
import { createDiscountCode, findMember, moveCredits, type DiscountOptions } from './operator.ts';
import { userInfo } from 'node:os';
import { listTenantIds } from '../src/tenant/load.ts';
import { createDb, createSchemaIfMissing } from '../src/server/db/index.ts';
import { migrateToLatest, migrateDown } from '../src/server/db/migrate.ts';
import { seedDemo } from '../src/server/db/seed.ts';
import { seedDemoPhotos } from '../src/server/db/seed-photos.ts';
import { ConfigError, configFromEnv } from '../src/server/config.ts';
import { ensureVapidKeys, replaceVapidKeys } from '../src/server/services/push-keys.ts';
import { mediaStoreOf } from '../src/server/media-store.ts';
import { TrustProxyError } from '../src/server/http/proxy.ts';
import { createNotificationService } from '../src/server/services/notifications.ts';
import { loadAllTenants, loadValidTenants } from '../src/tenant/load.ts';
import { NICHES } from '../src/lib/slugs.ts';
import { LOCALES } from '../src/lib/locales.ts';
import { channelOf, createPublishingBus } from '../src/server/bus.ts';
import { publishBrands } from '../src/server/brand-sync.ts';
import { createConsoleService, ENROL_LINK_HOURS, type ConsoleService } from '../src/server/services/console.ts';
import { createLimits } from '../src/server/limits.ts';
import { STAFF_ROLES, type StaffRole } from '../src/contract/console.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from '../src/lib/account-rules.ts';

process.env.ASTRO_TELEMETRY_DISABLED = '1';
process.env.TENANTS_DIR ??= TENANTS_DIR;

const program = new Command();
program.name('sitegen').description('Launch and run white-label dating sites from one checkout.').showHelpAfterError();

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number');
  return n;
}

function failOnCheck(): void {
  const problems = checkAll(TENANTS_DIR);
  if (problems.length) {
    for (const p of problems) console.error(p);
    console.error(`\nsitegen: ${problems.length} problem${problems.length === 1 ? '' : 's'} in tenant files`);
    process.exit(1);
  }
}

program
  .command('new')
  .description(
    'Create a brand: writes tenants/<id>/tenant.json and validates it; builds the program when there is none (one for every language). A running runtime renders its pages on the first request; `sitegen build <id>` renders them ahead.',
  )
  .argument('<id>', 'tenant id: lower-case letters, digits and dashes, e.g. flirtnl')
  .requiredOption('--domain <domain>', 'main domain, e.g. flirt.nl')
  .option('--name <name>', 'brand name (default: the id, capitalised)')
  .option('--niche <n>', `niche ${NICHES.join('-')}`, (v) => {
    const n = Number(v);
    if (!NICHES.includes(n as never)) throw new InvalidArgumentError(`must be one of ${NICHES.join(', ')}`);
    return n;
  })
  .option('--locales <list>', `locales, comma separated, the first is the default (${LOCALES.join(', ')})`)
  .option('--countries <list>', 'countries served, comma separated ISO codes, e.g. NL,BE')
  .option('--primary <colour>', 'primary colour, e.g. #7b2cbf')
  .option('--secondary <colour>', 'secondary colour')
  .option('--support-email <email>', 'support e-mail (default: support@<domain>)')
  .option('--no-build', 'only write and validate the file (no program built either)')
  .action(async (id: string, opts) => {
    const result = createTenantFile(TENANTS_DIR, id, opts);
    if ('errors' in result) {
      for (const e of result.errors) console.error(e);
      process.exit(1);
    }
    console.log(`sitegen: wrote ${result.file}`);
    // On PostgreSQL the brand reaches every runtime on every machine sharing the database.
    if (configFromEnv().databaseUrl) await publish([id]);
    if (opts.build) {
      await ensureProgram();
      const running = runningPort(DATA_DIR);
      // The brand's pages are rendered by the runtime on the first request for them (brand-output.ts).
      console.log(
        running
          ? `sitegen: the running server serves ${id} now at http://${id}.localhost:${running}/ and on ${result.domain}`
          : `sitegen: \`npx sitegen serve\` serves ${id} at http://${id}.localhost:${process.env.PORT ?? 4321}/ and on ${result.domain}`,
      );
    }
  });

program
  .command('remove')
  .description(
    "Remove a brand: deletes tenants/<id>/ and its output in dist/ (a running runtime stops serving it within a second). Without --yes it says what it would delete and exits 1. Not the default brand. The brand's members stay in the database.",
  )
  .argument('<id>', 'tenant id')
  .option('--yes', 'delete without asking again')
  .action(async (id: string, opts: { yes?: boolean }) => {
    const plan = planRemoval(TENANTS_DIR, DIST_DIR, id, configFromEnv().defaultTenant);
    if ('refused' in plan) fail(plan.refused);
    if (!opts.yes) {
      console.log(`sitegen: removing ${id} would delete:\n${plan.deletes.map((d) => `  ${d}`).join('\n')}`);
      console.log(`sitegen: ${MEMBERS_STAY(id)}`);
      fail(`nothing deleted; run \`sitegen remove ${id} --yes\` to delete it`);
    }
    removeBrand(TENANTS_DIR, DIST_DIR, id);
    console.log(`sitegen: removed ${id}: deleted ${plan.deletes.map((d) => d.replace(/ \(.*\)$/, '')).join(', ')}`);
    // On PostgreSQL every runtime on every machine removes its copy of the folder, and its output.
    if (configFromEnv().databaseUrl) await publish([id]);
    console.log(`sitegen: ${MEMBERS_STAY(id)}`);
  });

program
  .command('publish')
  .description(
    'Publish brands to the database (PostgreSQL) for every runtime on every machine: each writes the folders into its tenants folder and builds them. Without ids the database gets exactly the brands of tenants/ (one gone from it is withdrawn everywhere).',
  )
  .argument('[ids...]', 'tenant ids; one whose folder is gone is withdrawn')
  .action(async (ids: string[]) => {
    if (!configFromEnv().databaseUrl) fail('publish needs DATABASE_URL (PostgreSQL): on SQLite one machine serves tenants/ as it is');
    failOnCheck();
    await publish(ids.length ? ids : 'all');
  });

/** Publishes brands and says what changed (src/server/brand-sync.ts). */
async function publish(ids: string[] | 'all'): Promise<void> {
  const { db: kysely, pool, close } = await openDatabase();
  try {
    await migrateToLatest(kysely);
    const bus = pool ? createPublishingBus({ pool, channel: await channelOf(kysely, configFromEnv().databaseSchema) }) : undefined;
    const result = await publishBrands(kysely, bus, TENANTS_DIR, ids);
    for (const [what, list] of [['published', result.published], ['withdrawn', result.withdrawn], ['unchanged', result.unchanged]] as const) {
      if (list.length) console.log(`sitegen: ${what} ${list.join(', ')}`);
    }
  } finally {
    await close();
  }
}

program
  .command('check')
  .description('Validate every tenant file and lander variant; prints file: field: message and exits 1 on problems.')
  .action(() => {
    failOnCheck();
    for (const warning of missingPaymentKeys(TENANTS_DIR)) console.warn(`sitegen: warning: ${warning}`);
    console.log(`sitegen: ${listTenantIds(TENANTS_DIR).length} tenants are valid`);
  });

program
  .command('build')
  .description('Build the given tenants (all, and the operator console, when none is given) into dist/<id>/: each rendered from the program (one Astro build for every brand and language, made when missing or stale); the console into dist/_console/.')
  .argument('[ids...]', 'tenant ids, or `console` for the operator console')
  .option('--missing', 'only what is missing or older than its sources')
  .action(async (ids: string[], opts: { missing?: boolean }) => {
    failOnCheck();
    const withConsole = ids.length === 0 || ids.includes('console');
    let targets = ids.length ? ids.filter((id) => id !== 'console') : listTenantIds(TENANTS_DIR);
    const unknown = targets.filter((id) => !listTenantIds(TENANTS_DIR).includes(id));
    if (unknown.length) {
      console.error(`sitegen: no tenant ${unknown.join(', ')} in tenants/`);
      process.exit(1);
    }
    if (opts.missing) {
      const shared = sharedTexts();
      const tenants = loadValidTenants(TENANTS_DIR);
      targets = targets.filter((id) => isStale(id, shared, tenants));
    }
    await buildTenants(targets);
    if (withConsole && (!opts.missing || isConsoleStale())) await buildConsole();
  });

program
  .command('serve')
  .description('Serve every built tenant from one process (tenant by Host header).')
  .option('-p, --port <port>', 'port (default PORT or 4321)', port)
  .option('--host <host>', 'address to listen on', '0.0.0.0')
  .action(async (opts: { port?: number; host: string }) => {
    await startServer({ port: opts.port ?? Number(process.env.PORT ?? 4321), host: opts.host });
  });

program
  .command('start')
  .description('Fresh-clone start: build what is missing, migrate and seed the database, serve.')
  .option('-p, --port <port>', 'port (default PORT or 4321)', port)
  .action(async (opts: { port?: number }) => {
    failOnCheck();
    await buildStale();
    await ensurePushKeys();
    await startServer({ port: opts.port ?? Number(process.env.PORT ?? 4321), host: '0.0.0.0', seed: true });
  });

program
  .command('dev')
  .description('Like start, and rebuilds tenants when their sources change.')
  .option('-p, --port <port>', 'port (default PORT or 4321)', port)
  .action(async (opts: { port?: number }) => {
    failOnCheck();
    await buildStale();
    await ensurePushKeys();
    await startServer({ port: opts.port ?? Number(process.env.PORT ?? 4321), host: '0.0.0.0', seed: true, watch: true });
  });

/** The database the configuration names (DATABASE_URL, DATABASE_SCHEMA, made when missing, else DATABASE_FILE). */
async function openDatabase() {
  const config = configFromEnv();
  const handle = createDb({ url: config.databaseUrl, schema: config.databaseSchema, file: config.databaseFile });
  await createSchemaIfMissing(handle.db, config.databaseSchema);
  return handle;
}

const db = program.command('db').description('Database tasks (SQLite under data/, or DATABASE_URL).');
db.command('migrate')
  .description('Run every pending migration.')
  .action(async () => {
    const { db: kysely, engine, close } = await openDatabase();
    const ran = await migrateToLatest(kysely);
    console.log(`sitegen: ${engine}: ${ran.length ? `ran ${ran.join(', ')}` : 'up to date'}`);
    await close();
  });
db.command('down')
  .description('Undo the last migration.')
  .action(async () => {
    const { db: kysely, engine, close } = await openDatabase();
    const undone = await migrateDown(kysely);
    console.log(`sitegen: ${engine}: ${undone.length ? `undid ${undone.join(', ')}` : 'nothing to undo'}`);
    await close();
  });
db.command('seed')
  .description('Grow each brand to its demo population (300 people by default, or --members).')
  .option('--members <n>', 'grow each brand to this many demo people (default 300); 50000 on two brands is the 100,000 of the bench', (v) => Number.parseInt(v, 10))
  .option('--no-photos', 'draw no portraits (a large population for measuring queries)')
  .action(async (opts: { members?: number; photos: boolean }) => {
    if (opts.members !== undefined && !(Number.isInteger(opts.members) && opts.members > 0)) program.error('sitegen: --members takes a whole number above 0');
    const { db: kysely, engine, close } = await openDatabase();
    await migrateToLatest(kysely);
    const { profiles } = await seedDemo(kysely, loadAllTenants(TENANTS_DIR), { perTenant: opts.members });
    const photos = opts.photos ? await seedDemoPhotos(kysely, await mediaStoreOf(configFromEnv())) : 0;
    console.log(`sitegen: ${engine}: ${profiles} demo profiles added, ${photos} demo portraits drawn`);
    await close();
  });

program
  .command('seed')
  .description('Same as `db seed`.')
  .action(async () => {
    await program.parseAsync(['db', 'seed'], { from: 'user' });
  });

program
  .command('publish-photos')
  .description("Give every approved profile photo its public copy in the bucket (media/<file>), for photos approved before cdn_prefix addresses: run once before setting a brand's cdn_prefix. Nothing to do with photos on disk.")
  .action(async () => {
    const media = await mediaStoreOf(configFromEnv());
    if (media.kind === 'disk') fail('photos are on disk (no S3_BUCKET): they have no public copies');
    const { db: kysely, close } = await openDatabase();
    try {
      await migrateToLatest(kysely);
      let done = 0;
      for (let after = 0; ; ) {
        const page = await kysely.selectFrom('photos').select(['id', 'filename', 'thumb_filename']).where('status', '=', 'active').where('id', '>', after).orderBy('id').limit(500).execute();
        if (!page.length) break;
        await media.publish(page.flatMap((p) => [p.filename, p.thumb_filename]));
        done += page.length;
        after = page.at(-1)!.id;
      }
      console.log(`sitegen: ${done} approved photos have their public copy`);
    } finally {
      await close();
    }
  });

const mail = program.command('mail').description('Mail tasks.');
mail
  .command('bounce <address>')
  .description('Switch off every e-mail to an address that bounced (reason bounce), or that reported spam (--spam: reason fbl).')
  .option('--spam', 'the address reported a mail as spam')
  .action(async (address: string, opts: { spam?: boolean }) => {
    const { db: kysely, close } = await openDatabase();
    await migrateToLatest(kysely);
    const n = await createNotificationService({ db: kysely }).disableAddress(address, opts.spam ? 'fbl' : 'bounce');
    console.log(`sitegen: e-mail switched off for ${n} member${n === 1 ? '' : 's'} with ${address} (${opts.spam ? 'fbl' : 'bounce'})`);
    await close();
  });

const discount = program.command('discount').description('Discount codes.');
discount
  .command('create')
  .description('Create a campaign code of a brand: a percentage, or a value in cents with a currency.')
  .requiredOption('--brand <id>', 'brand id')
  .requiredOption('--code <code>', 'the code members type, e.g. HERFST10')
  .option('--percentage <n>', 'percent off', Number)
  .option('--value <cents>', 'cents off (with --currency)', Number)
  .option('--currency <code>', 'currency of --value and --minimum, e.g. EUR')
  .option('--minimum <cents>', 'minimum order value in cents', Number)
  .option('--country <code>', 'only for members of this country')
  .option('--expires <date>', 'last moment of validity, e.g. 2026-12-31T23:59:59Z')
  .option('--methods <list>', 'only for these payment methods, comma separated')
  .action(async (opts: DiscountOptions & { brand: string }) => {
    const { db: kysely, close } = await openDatabase();
    await migrateToLatest(kysely);
    const problems = await createDiscountCode(kysely, opts.brand, opts);
    await close();
    if (problems.length) {
      for (const p of problems) console.error(`sitegen: ${p}`);
      process.exit(1);
    }
    console.log(`sitegen: ${opts.code.toUpperCase()} created on ${opts.brand}`);
  });

const credits = program.command('credits').description("Move a member's credits by hand, written to the ledger with who and why.");
for (const [name, sign] of [['grant', 1], ['refund', -1]] as const) {
  credits
    .command(name)
    .description(sign > 0 ? 'Give a member credits (ledger reason bonus).' : "Take credits back from a member (ledger reason refund); never below 0.")
    .requiredOption('--brand <id>', 'brand id')
    .requiredOption('--member <id|email>', 'member id or e-mail address')
    .requiredOption('--credits <n>', 'a whole number above 0', (v) => {
      const n = Number(v);
      if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('must be a whole number above 0');
      return n;
    })
    .requiredOption('--reason <text>', 'why, shown to the member on /transactions')
    .option('--by <name>', 'who does it (default: the operating-system user)')
    .action(async (opts: { brand: string; member: string; credits: number; reason: string; by?: string }) => {
      const { db: kysely, close } = await openDatabase();
      await migrateToLatest(kysely);
      const result = await moveCredits(kysely, opts.brand, opts.member, sign * opts.credits, opts.reason, opts.by ?? userInfo().username);
      await close();
      if (typeof result === 'string') {
        console.error(`sitegen: ${result}`);
        process.exit(1);
      }
      console.log(`sitegen: ${sign > 0 ? 'granted' : 'refunded'} ${opts.credits} credits ${sign > 0 ? 'to' : 'from'} ${result.email} on ${opts.brand}; balance ${result.balance}`);
    });
}

const directDebit = program.command('directdebit').description('Direct debit.');
for (const [name, blocked] of [['block', true], ['unblock', false]] as const) {
  directDebit
    .command(name)
    .description(blocked ? 'Block a member from paying by direct debit ("Je account is geblokkeerd voor automatische incasso.").' : 'Lift the direct-debit block of a member.')
    .requiredOption('--brand <id>', 'brand id')
    .requiredOption('--member <id|email>', 'member id or e-mail address')
    .action(async (opts: { brand: string; member: string }) => {
      const { db: kysely, close } = await openDatabase();
      await migrateToLatest(kysely);
      const member = await findMember(kysely, opts.brand, opts.member);
      if (typeof member !== 'string') await kysely.updateTable('users').set({ directdebit_blocked: blocked ? 1 : 0 }).where('id', '=', member.id).execute();
      await close();
      if (typeof member === 'string') {
        console.error(`sitegen: ${member}`);
        process.exit(1);
      }
      console.log(`sitegen: direct debit ${blocked ? 'blocked' : 'unblocked'} for ${member.email} on ${opts.brand}`);
    });
}

const staff = program.command('staff').description('Staff of the operator console (roles: owner, admin, moderator, support, finance).');
const brandList = (value: string) => value.split(',').map((b) => b.trim()).filter(Boolean);

/** The console's address for links (CONSOLE_HOST; the port of PORT or 4321 outside production). */
function consoleAddress(): string {
  const config = configFromEnv();
  return config.production ? `https://${config.consoleHost}` : `http://${config.consoleHost}:${process.env.PORT ?? 4321}`;
}

async function withConsole<T>(work: (service: ConsoleService) => Promise<T>): Promise<T> {
  const { db: kysely, pool, close } = await openDatabase();
  try {
    await migrateToLatest(kysely);
    // On PostgreSQL a removal or a new role closes the staff member's open console streams on every
    // runtime (the runtimes' own NOTIFY); on SQLite each stream notices at its next check.
    const bus = pool ? createPublishingBus({ pool, channel: await channelOf(kysely, configFromEnv().databaseSchema) }) : undefined;
    return await work(createConsoleService({ db: kysely, bus, limits: createLimits(null), production: configFromEnv().production }));
  } finally {
    await close();
  }
}

function checkRole(role: string, brands: string[] | undefined): StaffRole {
  if (!(STAFF_ROLES as readonly string[]).includes(role)) fail(`role must be one of ${STAFF_ROLES.join(', ')}`);
  const known = listTenantIds(TENANTS_DIR);
  const unknown = (brands ?? []).filter((b) => !known.includes(b));
  if (unknown.length) fail(`unknown brand ${unknown.join(', ')}`);
  if (brands && !brands.length) fail('--brands names no brand');
  return role as StaffRole;
}

function fail(text: string): never {
  console.error(`sitegen: ${text}`);
  process.exit(1);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

staff
  .command('add')
  .description('Add a staff member: prints a one-time enrolment link, or with --password-stdin sets the password and prints the TOTP secret (otpauth://).')
  .requiredOption('--email <address>', 'e-mail address (the login)')
  .requiredOption('--role <role>', STAFF_ROLES.join(' | '))
  .option('--brands <ids>', 'only these brands (comma-separated); every brand when left out', brandList)
  .option('--password-stdin', 'read the password from standard input; TOTP is on at once')
  .action(async (opts: { email: string; role: string; brands?: string[]; passwordStdin?: boolean }) => {
    const role = checkRole(opts.role, opts.brands);
    const password = opts.passwordStdin ? await readStdin() : undefined;
    if (password !== undefined && (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)) fail(`the password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
    const added = await withConsole((service) => service.addStaff({ email: opts.email, role, brands: opts.brands ?? null, password, by: userInfo().username }).catch((error: Error) => fail(error.message)));
    const scope = opts.brands ? opts.brands.join(', ') : 'all brands';
    if (added.otpauth) {
      console.log(`sitegen: added ${opts.email.toLowerCase()} as ${role} (${scope}); add this to an authenticator app:`);
      console.log(added.otpauth);
    } else {
      console.log(`sitegen: added ${opts.email.toLowerCase()} as ${role} (${scope}); one-time enrolment link (${ENROL_LINK_HOURS} hours):`);
      console.log(`${consoleAddress()}/console/enrol?token=${added.token}`);
    }
  });

staff
  .command('list')
  .description('List the staff.')
  .action(async () => {
    const rows = await withConsole((service) => service.listStaff());
    for (const row of rows) console.log(`${row.email}\t${row.role}\t${row.brands ? row.brands.join(',') : '*'}\t${row.totp_enabled ? 'totp' : 'enrolling'}`);
  });

staff
  .command('remove <email>')
  .description('Remove a staff member; their sessions end at once.')
  .action(async (email: string) => {
    if (!(await withConsole((service) => service.removeStaff(email, userInfo().username)))) fail(`no staff member ${email}`);
    console.log(`sitegen: removed ${email.toLowerCase()}`);
  });

staff
  .command('role <email> <role>')
  .description("Change a staff member's role and brands; their sessions end at once.")
  .option('--brands <ids>', 'only these brands (comma-separated); every brand when left out', brandList)
  .action(async (email: string, roleName: string, opts: { brands?: string[] }) => {
    const role = checkRole(roleName, opts.brands);
    if (!(await withConsole((service) => service.setRole(email, role, opts.brands ?? null, userInfo().username)))) fail(`no staff member ${email}`);
    console.log(`sitegen: ${email.toLowerCase()} is now ${role} (${opts.brands ? opts.brands.join(', ') : 'all brands'})`);
  });

/**
 * The VAPID key pair web push signs with: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set, else the
 * database's, made when absent (a data/vapid.json of an older install moves in): web push works
 * from a fresh clone, and every process and machine on the database signs with the same pair.
 */
async function ensurePushKeys(force = false): Promise<{ keys: { publicKey: string; privateKey: string }; said: string }> {
  const config = configFromEnv();
  if (config.vapid) return { keys: config.vapid, said: 'uses VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY of the environment' };
  const { db: kysely, engine, close } = await openDatabase();
  try {
    await migrateToLatest(kysely);
    if (force) return { keys: await replaceVapidKeys(kysely), said: `${engine}: replaced the key pair in the database` };
    const { keys, created } = await ensureVapidKeys(kysely, join(DATA_DIR, 'vapid.json'));
    return { keys, said: `${engine}: ${created ? 'stored a new' : 'kept the'} key pair in the database` };
  } finally {
    await close();
  }
}

program
  .command('keys')
  .description('The VAPID key pair for web push: made once in the database (kept when present), or VAPID_* of the environment.')
  .option('--force', 'replace the key pair in the database (browsers subscribed with the old one stop receiving pushes)')
  .option('--env', 'also print the pair as VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY lines for an environment file')
  .action(async (opts: { force?: boolean; env?: boolean }) => {
    const { keys, said } = await ensurePushKeys(opts.force);
    console.log(`sitegen: ${said}; public key ${keys.publicKey}`);
    if (opts.env) console.log(`VAPID_PUBLIC_KEY=${keys.publicKey}\nVAPID_PRIVATE_KEY=${keys.privateKey}`);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // A configuration the runtime cannot start with: its message names the variable and the mistake.
  if (!(error instanceof TrustProxyError) && !(error instanceof ConfigError)) throw error;
  console.error(`sitegen: ${error.message}`);
  process.exit(1);
}
