/**
 * Helpers for the accounts and profile API tests: a browser-like client with a cookie jar, signup
 * bodies, the mails of the outbox and counts of what a refusal must leave untouched.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { hostFetch, startTestRuntime, type EngineName, type HostResponse, type TestRuntime, type TestRuntimeOptions } from './runtime.ts';

export const PASSWORD = 'geheim-wachtwoord-1';

/** One Set-Cookie header, split into its name, value and attributes (lower-cased names). */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

export function parseSetCookie(header: string): SetCookie {
  const [pair, ...rest] = header.split(';');
  const eq = pair!.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const i = part.indexOf('=');
    if (i === -1) attributes[part.trim().toLowerCase()] = true;
    else attributes[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim();
  }
  return { name: pair!.slice(0, eq).trim(), value: decodeURIComponent(pair!.slice(eq + 1).trim()), attributes };
}

export function setCookies(res: HostResponse): SetCookie[] {
  const raw = res.headers['set-cookie'];
  return (Array.isArray(raw) ? raw : raw ? [raw] : []).map(parseSetCookie);
}

/**
 * A browser on one brand: keeps its cookies like a browser does (Max-Age=0 deletes) and sends
 * JSON bodies. `origin` adds the Origin header of state-changing calls (the brand's own by default
 * when set to true).
 */
export class Client {
  readonly jar = new Map<string, string>();
  readonly rt: TestRuntime;
  readonly tenant: string;
  /** The address this browser calls from (a private one, so no country): per-address limits count it. */
  ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  constructor(rt: TestRuntime, tenant: string) {
    this.rt = rt;
    this.tenant = tenant;
  }

  get session(): string | undefined {
    return this.jar.get('session');
  }

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  }

  /** A second browser holding the same cookies (e.g. a stolen or older copy). */
  clone(tenant = this.tenant): Client {
    const c = new Client(this.rt, tenant);
    c.ip = this.ip;
    for (const [k, v] of this.jar) c.jar.set(k, v);
    return c;
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HostResponse> {
    const h: Record<string, string> = { 'x-forwarded-for': this.ip, ...headers };
    if (this.jar.size) h.cookie = this.cookieHeader();
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
      h['content-length'] = String(Buffer.byteLength(payload));
    }
    const res = await hostFetch(this.rt, this.tenant, path, { method, headers: h, body: payload });
    for (const c of setCookies(res)) {
      if (c.attributes['max-age'] === '0' || c.value === '') this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return res;
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }
  post(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }
  put(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request('PUT', path, body, headers);
  }
  delete(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request('DELETE', path, body, headers);
  }

  async user(): Promise<any> {
    const res = await this.get('/api/user.php');
    if (res.status !== 200) throw new Error(`GET /api/user.php answered ${res.status}: ${res.text}`);
    return res.json().user;
  }

  login(email: string, password = PASSWORD) {
    return this.post('/api/user.php', { email, password });
  }
}

let counter = 0;
/** A fresh address nobody on any brand uses yet. */
export function freshEmail(prefix = 'lid'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}@example.nl`;
}

/** An ISO date `years` years before today (UTC), shifted by `days`. */
export function yearsAgo(years: number, days = 0): string {
  const d = new Date();
  const date = new Date(Date.UTC(d.getUTCFullYear() - years, d.getUTCMonth(), d.getUTCDate() + days));
  return date.toISOString().slice(0, 10);
}

export interface SignupBody {
  email: string;
  password: string;
  name: string;
  date_of_birth: string;
  gender: 'male' | 'female';
  sexuality: 'hetero' | 'gay' | 'lesbian' | 'bi';
  country: string;
  region?: string | null;
  city?: string | null;
  signup_message?: string | null;
  tracking?: Record<string, string>;
}

export function signupBody(overrides: Partial<SignupBody> = {}): SignupBody {
  return {
    email: freshEmail(),
    password: PASSWORD,
    name: `Lid${++counter}`,
    date_of_birth: '1990-05-17',
    gender: 'male',
    sexuality: 'hetero',
    country: 'NL',
    region: 'Noord-Holland',
    city: 'Amsterdam',
    ...overrides,
  };
}

/** Signs up on a brand (in `client`, a browser with its cookies, or a new one) and returns the logged-in client; throws unless the answer is 201. */
export async function signUp(rt: TestRuntime, tenant = 'spetter', overrides: Partial<SignupBody> = {}, client = new Client(rt, tenant)) {
  const body = signupBody(overrides);
  const res = await client.post('/api/signup.php', body);
  if (res.status !== 201) throw new Error(`signup answered ${res.status}: ${res.text}`);
  return { client, body, email: body.email.toLowerCase(), user: res.json().user, res };
}

/** Signs up and follows the activation link of the mail: an active member, logged in. */
export async function activeMember(rt: TestRuntime, tenant = 'spetter', overrides: Partial<SignupBody> = {}, client?: Client) {
  const member = await signUp(rt, tenant, overrides, client);
  const mail = takeMail(rt, member.email, 'mail_activate');
  const res = await member.client.get(`/api/activate.php?token=${encodeURIComponent(mail.token!)}`);
  if (res.status !== 303 || res.headers.location !== '/activate/done') throw new Error(`activation answered ${res.status} ${res.headers.location}`);
  return member;
}

// ---------------------------------------------------------------------------------------------
// Mails

export interface Mail {
  file: string;
  kind: string;
  headers: Record<string, string>;
  to: string;
  subject: string;
  /** The text/plain part. */
  text: string;
  html: string;
  /** The first link of the text part. */
  link: string | undefined;
  /** The token= query parameter of that link. */
  token: string | undefined;
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

/** Reads an .eml of the outbox: headers, the text/plain and text/html parts (8bit), the link and its token. */
export function parseMail(file: string, raw: string): Mail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaders(raw.slice(0, split));
  const body = raw.slice(split + 4);
  const boundary = /boundary="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1];
  const parts: Record<string, string> = {};
  if (boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const end = chunk.indexOf('\r\n\r\n');
      const ph = parseHeaders(chunk.slice(0, end));
      const type = (ph['content-type'] ?? '').split(';')[0]!.trim();
      parts[type] = chunk.slice(end + 4).replace(/\r\n$/, '');
    }
  } else {
    parts['text/plain'] = body;
  }
  const text = (parts['text/plain'] ?? '').replace(/\r\n/g, '\n');
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  const token = link ? (new URL(link).searchParams.get('token') ?? undefined) : undefined;
  const kind = /-(mail_[a-z_]+)-[0-9a-f]+\.eml$/.exec(file)?.[1] ?? '';
  return { file, kind, headers, to: headers.to ?? '', subject: headers.subject ?? '', text, html: parts['text/html'] ?? '', link, token };
}

/** Every mail in the outbox, oldest first. */
export function allMails(rt: TestRuntime): Mail[] {
  if (!existsSync(rt.outbox)) return [];
  return readdirSync(rt.outbox)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => parseMail(f, readFileSync(join(rt.outbox, f), 'utf8')));
}

export function mailsTo(rt: TestRuntime, to: string, kind?: string): Mail[] {
  return allMails(rt).filter((m) => m.to.toLowerCase() === to.toLowerCase() && (!kind || m.kind === kind));
}

const taken = new WeakMap<TestRuntime, Set<string>>();
/** The one mail to an address (of a kind) not taken before; throws unless there is exactly one. */
export function takeMail(rt: TestRuntime, to: string, kind?: string): Mail {
  const seen = taken.get(rt) ?? new Set<string>();
  taken.set(rt, seen);
  const fresh = mailsTo(rt, to, kind).filter((m) => !seen.has(m.file));
  if (fresh.length !== 1) throw new Error(`expected one new ${kind ?? ''} mail to ${to}, found ${fresh.length}`);
  seen.add(fresh[0]!.file);
  return fresh[0]!;
}

// ---------------------------------------------------------------------------------------------
// Database

/** Row counts of everything a refused request must leave untouched, and the outbox size. */
export async function snapshot(rt: TestRuntime) {
  const db = rt.db.db;
  const count = async (table: 'users' | 'profiles' | 'sessions' | 'tokens' | 'credit_ledger') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    users: await count('users'),
    profiles: await count('profiles'),
    sessions: await count('sessions'),
    tokens: await count('tokens'),
    credit_ledger: await count('credit_ledger'),
    mails: allMails(rt).length,
  };
}

export function userRow(rt: TestRuntime, tenant: string, email: string) {
  return rt.db.db.selectFrom('users').selectAll().where('tenant_id', '=', tenant).where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export function profileRow(rt: TestRuntime, userId: number) {
  return rt.db.db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The error body of API.md: `{error: {code, message, field?}}`. */
export function apiError(res: HostResponse): { code: string; message: string; field?: string } {
  const body = res.json();
  if (!body?.error) throw new Error(`no error body (${res.status}): ${res.text}`);
  return body.error;
}

/**
 * A runtime of its own for a group of tests (fresh database, fresh per-IP login throttle), started
 * before the group and closed after it. Read it through the returned getter.
 */
export function useRuntime(engine: EngineName, opts: () => TestRuntimeOptions = () => ({})): () => TestRuntime {
  let rt: TestRuntime | undefined;
  beforeAll(async () => {
    rt = await startTestRuntime(engine, opts());
  });
  afterAll(async () => {
    await rt?.close();
  });
  return () => {
    if (!rt) throw new Error('runtime not started');
    return rt;
  };
}
