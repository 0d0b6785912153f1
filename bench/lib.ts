/**
 * The bench's processes and its tables. The runtime under test, the bare node:http baseline and
 * the load client (autocannon) each run in a process of their own, so the load client never
 * shares an event loop with what it measures and a figure can be read as a capacity.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { request, type IncomingHttpHeaders } from 'node:http';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { createDb, type Database } from '../src/server/db/index.ts';

export const REPO = join(import.meta.dirname, '..');
const NODE = process.execPath;

// ---------------------------------------------------------------------------------------------
// Tables

/** Prints a header line and an aligned table; numeric-looking cells are right-aligned. */
export function table(title: string, head: string[], rows: (string | number)[][]): void {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = (s: string) => /^[-+<>]?[\d.,]+(x|%| ms)?$/.test(s) || s === '' || s === '-';
  const right = head.map((_, i) => i > 0 && cells.slice(1).every((r) => numeric(r[i] ?? '')));
  const line = (r: string[]) => r.map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  console.log(`\n== ${title}`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}

export const kb = (n: number) => (n / 1024).toFixed(1);

/** p50, p95 and p99 of a list of milliseconds. */
export function percentiles(values: number[]): { p50: number; p95: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { p50: q(0.5), p95: q(0.95), p99: q(0.99) };
}

/**
 * The whole HTTP round trip of one request, `times` times one after the other after 20 to warm
 * up: p50, p95, p99 in ms. Anything but a 200 stops the bench (a figure of errors means nothing).
 */
export async function roundTrips(what: string, ask: () => Promise<Answer>, times: number): Promise<{ p50: number; p95: number; p99: number }> {
  const spent: number[] = [];
  for (let i = 0; i < times + 20; i++) {
    const t0 = performance.now();
    const res = await ask();
    if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${res.text().slice(0, 200)}`);
    if (i >= 20) spent.push(performance.now() - t0);
  }
  return percentiles(spent);
}
export const ratio = (a: number, b: number) => (b === 0 ? '-' : `${(a / b).toFixed(3)}x`);

// ---------------------------------------------------------------------------------------------
// Processes

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** `node <args>` in the checkout, its stdout and stderr together; rejects with them when it exits non-zero. */
export function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`node ${args.join(' ')} exited ${code}:\n${out}`))));
  });
}

/** Resolves once `url` answers (any status), polling; rejects after `ms`. */
async function waitFor(url: string, headers: Record<string, string>, child: ChildProcess, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode})`);
    try {
      await fetch(url, { headers });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  json<T>(): T;
}

/** One request over node:http (fetch would not send a brand's Host header). */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body: bytes, text: () => bytes.toString('utf8'), json: () => JSON.parse(bytes.toString('utf8')) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export type Engine = 'sqlite' | 'postgres';

export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

export interface Runtime {
  engine: Engine;
  port: number;
  pid: number;
  /** Where its database is: the SQLite file, or the PostgreSQL schema of DATABASE_URL. */
  database: { file: string; schema?: string };
  /** The event loop's delay (ms) since the last call, and starts over (bench/loop-monitor.ts). */
  loopDelay(): Promise<LoopDelay>;
  /** The runtime process's resident memory now (from /proc), in bytes. */
  rss(): number;
  /** CPU time the runtime process has used so far (user and system, from /proc), ms: per request, the figure a loaded machine leaves comparable. */
  cpuMs(): number;
  /** A request to http://127.0.0.1:<port> with the Host header of a brand. */
  request(tenant: string, method: string, path: string, headers?: Record<string, string>, body?: string): Promise<Answer>;
  get(tenant: string, path: string, headers?: Record<string, string>): Promise<Answer>;
  host(tenant: string): string;
  close(): Promise<void>;
}

/**
 * `sitegen db seed` then `sitegen serve` in a process of its own, on a fresh temporary SQLite
 * file, or a private schema of DATABASE_URL's PostgreSQL. Logs at warn; jobs off (they would
 * only add noise to the figures).
 */
export async function startRuntime(
  engine: Engine,
  opts: {
    members?: number;
    photos?: boolean;
    cpuProfileDir?: string;
    env?: NodeJS.ProcessEnv;
    /** More environment for the serving process only (not the seed): e.g. TENANTS_DIR with brands the seed need not grow. */
    serveEnv?: NodeJS.ProcessEnv;
    /** A second process on another runtime's PostgreSQL schema: no seeding, and the schema stays. */
    sharing?: Runtime;
    /** More data after the seed, before the runtime starts (bulk inserts of the bench's own). */
    prepare?: (database: { file: string; schema?: string }) => Promise<void>;
    /** After `sitegen db seed`, before the runtime starts: the bench's own rows, straight to the database (bench/bulk.ts). */
    populate?: (db: Kysely<Database>) => Promise<void>;
  } = {},
): Promise<Runtime> {
  const dir = mkdtempSync(join(tmpdir(), 'sitegen-bench-'));
  const schema = opts.sharing ? opts.sharing.database.schema : engine === 'postgres' ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  const admin = engine === 'postgres' && !opts.sharing ? new pg.Client({ connectionString: process.env.DATABASE_URL }) : undefined;
  if (admin) {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dir,
    DATABASE_FILE: join(dir, 'app.db'),
    DATABASE_URL: engine === 'postgres' ? process.env.DATABASE_URL : '',
    DATABASE_SCHEMA: schema ?? '',
    LOG_LEVEL: 'warn',
    BENCH_LOOP_FILE: join(dir, 'loop.json'),
    JOBS: '0',
    TRUST_PROXY: '1',
    NODE_ENV: 'production',
    ...opts.env,
  };
  if (!opts.sharing) await run(['cli/main.ts', 'db', 'seed', ...(opts.members ? ['--members', String(opts.members)] : []), ...(opts.photos === false ? ['--no-photos'] : [])], env);
  await opts.prepare?.({ file: join(dir, 'app.db'), schema });
  if (opts.populate) {
    const handle = engine === 'postgres' ? createDb({ url: process.env.DATABASE_URL, schema }) : createDb({ file: env.DATABASE_FILE! });
    try {
      await opts.populate(handle.db);
    } finally {
      await handle.close();
    }
  }
  const port = await freePort();
  const profile = opts.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProfileDir] : [];
  const child = spawn(NODE, [...profile, '--import', join(REPO, 'bench', 'loop-monitor.ts'), 'cli/main.ts', 'serve', '--port', String(port), '--host', '127.0.0.1'], { cwd: REPO, env: { ...env, ...opts.serveEnv }, stdio: ['ignore', 'ignore', 'inherit'] });
  const host = (tenant: string) => `${tenant}.localhost:${port}`;
  await waitFor(`http://127.0.0.1:${port}/api/settings.php`, {}, child);
  return {
    engine,
    port,
    pid: child.pid!,
    database: { file: join(dir, 'app.db'), schema },
    rss: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024,
    cpuMs: () => {
      // Fields 14 and 15 of /proc/<pid>/stat (utime, stime) in clock ticks of 10 ms; the name before them may hold spaces.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    host,
    async loopDelay() {
      const file = join(dir, 'loop.json');
      const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
      child.kill('SIGUSR2');
      for (let i = 0; i < 100; i++) {
        if (existsSync(file) && readFileSync(file, 'utf8') !== before) return JSON.parse(readFileSync(file, 'utf8')) as LoopDelay;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('the runtime did not report its event-loop delay');
    },
    request: (tenant, method, path, headers = {}, body) => send(port, method, path, { ...headers, host: host(tenant) }, body),
    get: (tenant, path, headers = {}) => send(port, 'GET', path, { ...headers, host: host(tenant) }),
    async close() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      if (admin) {
        await admin.query(`drop schema ${schema} cascade`);
        await admin.query(`drop schema if exists ${schema}_jobs cascade`);
        await admin.end();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Bare {
  port: number;
  /** The baseline's address answering `bytes` bytes of HTML. */
  url(bytes: number): string;
  close(): Promise<void>;
}

/** bench/bare.ts in a process of its own: node:http answering /<n> with n bytes, nothing else. */
export async function startBare(): Promise<Bare> {
  const port = await freePort();
  const child = spawn(NODE, [join(REPO, 'bench', 'bare.ts'), String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitFor(`http://127.0.0.1:${port}/1`, {}, child);
  return {
    port,
    url: (bytes) => `http://127.0.0.1:${port}/${bytes}`,
    async close() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Load

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Connections and seconds of every load run; BENCH_SECONDS shortens or lengthens them. */
export const CONNECTIONS = 50;
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/**
 * autocannon against `url` in a process of its own (keep-alive, CONNECTIONS connections,
 * SECONDS seconds, no Accept-Encoding: the bytes are the page's own).
 */
export async function load(url: string, headers: Record<string, string> = {}, connections = CONNECTIONS): Promise<LoadResult> {
  const args = [autocannonBin, '--json', '-c', String(connections), '-d', String(SECONDS)];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(NODE, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c));
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`autocannon ${url} exited ${code}`))));
  });
  const r = JSON.parse(out) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    '2xx': number;
  };
  return {
    rps: r.requests.total / SECONDS,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

// ---------------------------------------------------------------------------------------------
// A member of a brand, signed up through the API as a browser would

export interface Member {
  tenant: string;
  email: string;
  cookie: string;
  /** Every cookie the signup set (the session and the readable signed-in hint), as Set-Cookie lines. */
  setCookies: string[];
  /** A profile the member can open (the first of their search). */
  profileId: number;
}

export const SIGNUP: Record<string, { country: string; region: string | null; city: string | null }> = {
  spetter: { country: 'NL', region: 'Noord-Holland', city: 'Amsterdam' },
  velvet: { country: 'GB', region: null, city: null },
};

let signups = 0;

export async function signUp(rt: Runtime, tenant: string, where?: (typeof SIGNUP)[string]): Promise<Member> {
  const place = where ?? SIGNUP[tenant] ?? SIGNUP.velvet!;
  signups += 1;
  const email = `bench-${tenant}-${Date.now()}-${signups}@example.nl`;
  const body = JSON.stringify({ email, password: 'geheim-wachtwoord-1', name: 'Bench', date_of_birth: '1990-05-17', gender: 'male', sexuality: 'hetero', ...place });
  const headers = { origin: `http://${rt.host(tenant)}`, 'content-type': 'application/json', 'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` };
  const res = await rt.request(tenant, 'POST', '/api/signup.php', headers, body);
  if (res.status !== 201) throw new Error(`${tenant}: signup answered ${res.status}: ${res.text()}`);
  const setCookies = res.headers['set-cookie'] ?? [];
  const session = setCookies.find((c) => /^(__Host-)?session=/.test(c));
  if (!session) throw new Error(`${tenant}: signup set no session cookie`);
  const cookie = session.split(';')[0]!;
  const search = await rt.get(tenant, '/api/members.php', { cookie });
  const { profiles } = search.json<{ profiles: { id: number }[] }>();
  if (!profiles.length) throw new Error(`${tenant}: the member's search found nobody (is the demo population seeded?)`);
  return { tenant, email, cookie, setCookies, profileId: profiles[0]!.id };
}

/** Follows the activation mail's link (the runtime's outbox beside its database), as the member would. */
export async function activate(rt: Runtime, member: Member): Promise<Member> {
  const outbox = join(dirname(rt.database.file), 'outbox');
  const mail = existsSync(outbox)
    ? readdirSync(outbox)
        .filter((f) => /-mail_activate-/.test(f))
        .map((f) => readFileSync(join(outbox, f), 'utf8'))
        .find((raw) => raw.toLowerCase().includes(member.email))
    : undefined;
  const token = mail && /[?&]token=([^\s&"<>]+)/.exec(mail)?.[1];
  if (!token) throw new Error(`${member.tenant}: no activation mail to ${member.email} in ${outbox}`);
  const activated = await rt.get(member.tenant, `/api/activate.php?token=${token}`, { cookie: member.cookie });
  if (activated.status !== 303) throw new Error(`${member.tenant}: activation answered ${activated.status}`);
  return member;
}

/** A request under load beside the baseline: what it got, the bare req/s of its body size, the runtime's event-loop delay meanwhile. */
export interface Beside {
  got: LoadResult;
  /** Bare node:http's req/s with a body of the same size, the mean of just before and just after. */
  bare: number;
  loop: LoopDelay;
  /** The runtime's CPU time per request answered during the load, µs (from /proc: comparable on a loaded machine). */
  cpuUs: number;
}

/**
 * `path` of a brand loaded for SECONDS, with bare node:http answering a body of `bytes` loaded just
 * before and just after it: the machine's speed drifts on shared cores, so the ratio is to their mean.
 */
export async function loadBeside(rt: Runtime, bare: Bare, tenant: string, path: string, headers: Record<string, string>, bytes: number): Promise<Beside> {
  const before = await load(bare.url(bytes));
  await rt.loopDelay(); // starts the event-loop histogram over
  const cpuBefore = rt.cpuMs();
  const got = await load(`http://127.0.0.1:${rt.port}${path}`, { ...headers, host: rt.host(tenant) });
  const cpuUs = ((rt.cpuMs() - cpuBefore) * 1000) / Math.max(1, got.rps * SECONDS);
  const loop = await rt.loopDelay();
  const after = await load(bare.url(bytes));
  return { got, bare: (before.rps + after.rps) / 2, loop, cpuUs };
}
