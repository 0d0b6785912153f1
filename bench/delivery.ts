/**
 * Live delivery of chat messages (bench section `delivery`): the time from a POST /api/chat.php
 * leaving the sender to the message event arriving on the recipient's event stream, with 1,000
 * streams open, on one runtime and across two runtimes on one PostgreSQL (the sender on one, the
 * streams on the other); beside it, in the same run, the raw NOTIFY-to-LISTEN latency of that
 * PostgreSQL. And how many paid sends a runtime stores per second. Used by bench/run.ts.
 * Between two brands of one pool (issue 24) the sender is a member of one brand and the
 * recipients of the other, their streams on their own brand's host.
 */
import { request, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { grant } from '../src/server/ledger.ts';
import { openBenchDb } from './queries.ts';
import { onEvents, type StreamEvent } from '../tests/support/sse.ts';
import type { Runtime } from './lib.ts';

/** Streams open during the measurement (issue: 1,000). */
export const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
/** Members whose tabs hold them: STREAMS / MEMBERS tabs each. */
const MEMBERS = 25;
/** Messages timed, one after the other. */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 300);

export interface Quantiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function quantiles(values: number[]): Quantiles {
  const sorted = [...values].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { p50: q(0.5), p95: q(0.95), p99: q(0.99), max: sorted.at(-1) ?? NaN };
}

interface BenchMember {
  userId: number;
  profileId: number;
  cookie: string;
}

/** Signs a member up and makes them active at once (no mail round trip). */
async function member(rt: Runtime, n: number, gender: 'male' | 'female', brand = 'spetter'): Promise<BenchMember> {
  const body = JSON.stringify({ email: `chat-${n}-${randomUUID()}@example.nl`, password: 'geheim-wachtwoord-1', name: `Chat${n}`, date_of_birth: '1990-05-17', gender, sexuality: 'hetero', country: 'NL', region: 'Utrecht', city: 'Utrecht' });
  const headers = { origin: `http://${rt.host(brand)}`, 'content-type': 'application/json', 'x-forwarded-for': `10.${n % 250}.${Math.floor(n / 250)}.${1 + (n % 200)}` };
  const res = await rt.request(brand, 'POST', '/api/signup.php', headers, body);
  if (res.status !== 201) throw new Error(`signup answered ${res.status}: ${res.text()}`);
  const cookie = (res.headers['set-cookie'] ?? []).find((c) => /^(__Host-)?session=/.test(c))!.split(';')[0]!;
  const { user } = res.json<{ user: { id: number; profile: { id: number } } }>();
  return { userId: user.id, profileId: user.profile.id, cookie };
}

/**
 * A server-sent event stream of `rt` under a host (a brand's id, or `console`), open once its
 * `ready` event came; `each` gets every event after it (tests/support/sse.ts reads them).
 */
export function openStream(rt: Runtime, host: string, path: string, cookie: string, each: (event: StreamEvent) => void): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: rt.port, path, headers: { host: rt.host(host), cookie, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${path} answered ${res.statusCode}`));
      onEvents(res, (event) => (event.type === 'ready' ? resolve(res) : each(event)));
      res.on('error', () => undefined);
    });
    req.on('error', reject);
    req.end();
  });
}

function post(rt: Runtime, cookie: string, body: object, brand = 'spetter') {
  return rt.request(brand, 'POST', '/api/chat.php', { cookie, origin: `http://${rt.host(brand)}`, 'content-type': 'application/json' }, JSON.stringify(body));
}

/** The sender's brand and the recipients' (two brands of one pool, or the same brand). */
export interface DeliveryBrands {
  sender: string;
  recipients: string;
}

/**
 * The delivery latency with STREAMS streams open on `streamsOn` and the sender on `sendOn` (the
 * same runtime, or another process on the same PostgreSQL), and the sends per second of `sendOn`.
 */
export async function measureDelivery(sendOn: Runtime, streamsOn: Runtime, brands: DeliveryBrands = { sender: 'spetter', recipients: 'spetter' }): Promise<{ latency: Quantiles; sendsPerSecond: number; streams: number }> {
  const handle = openBenchDb(sendOn.engine, sendOn.database);
  const recipients: BenchMember[] = [];
  // Women born in 1990: of every brand's audience (rijpedates': women of 35 and older).
  for (let i = 0; i < MEMBERS; i++) recipients.push(await member(sendOn, i, 'female', brands.recipients));
  const sender = await member(sendOn, 999, 'male', brands.sender);
  const send = (body: object) => post(sendOn, sender.cookie, body, brands.sender);
  try {
    // Active at once, the sender premium with credits for every message of the run.
    await handle.db.updateTable('users').set({ status: 'active' }).where('id', 'in', [...recipients.map((r) => r.userId), sender.userId]).execute();
    await handle.db.updateTable('profiles').set({ status: 'active', listed: 1 }).where('id', 'in', [...recipients.map((r) => r.profileId), sender.profileId]).execute();
    // An account of a month: a new one writing to 25 members is held by the burst rule (issue 22), and its messages never reach a stream.
    await handle.db.updateTable('users').set({ paid_user: 1, signup_date: new Date(Date.now() - 30 * 86_400_000).toISOString() }).where('id', '=', sender.userId).execute();
    await grant(handle.db, { userId: sender.userId, credits: 10_000_000, reason: 'bonus', ref: randomUUID() });
  } finally {
    await handle.close();
  }
  // One conversation per recipient, started before the streams open.
  const conversations: number[] = [];
  for (const r of recipients) {
    const res = await send({ profile_id: r.profileId, kind: 'text', text: 'Hoi!', client_id: randomUUID() });
    if (res.status !== 200) throw new Error(`chat.php answered ${res.status}: ${res.text()}`);
    conversations.push(res.json<{ conversation_id: number }>().conversation_id);
  }

  const waiting = new Map<number, { sent: number; left: number; done: () => void }>();
  const arrivals: number[] = [];
  const streams: IncomingMessage[] = [];
  const tabs = Math.max(1, Math.round(STREAMS / MEMBERS));
  /** Arrivals of a message whose send has not answered yet: when they came. */
  const seen = new Map<number, number[]>();
  const onMessage = (id: number) => {
    const w = waiting.get(id);
    if (!w) {
      seen.set(id, [...(seen.get(id) ?? []), performance.now()]);
      return;
    }
    arrivals.push(performance.now() - w.sent);
    w.left -= 1;
    if (w.left === 0) w.done();
  };
  for (const r of recipients) for (let t = 0; t < tabs; t++) streams.push(await openStream(streamsOn, brands.recipients, '/api/events.php', r.cookie, (e) => e.type === 'message' && onMessage(Number(e.id))));

  // Messages one after the other, round the recipients; each is timed on every tab of its recipient.
  for (let i = 0; i < MESSAGES; i++) {
    const k = i % recipients.length;
    // The event may come before the answer: the message id is the next one, so the entry waits
    // under it before the send; timed from the send, until every tab has it (at most 2 s).
    const sent = performance.now();
    let done!: () => void;
    const all = new Promise<void>((r) => (done = r));
    const pending = send({ conversation_id: conversations[k], kind: 'text', text: `Bericht ${i}`, client_id: randomUUID() });
    const early: number[] = [];
    const res = await pending;
    if (res.status !== 200) throw new Error(`chat.php answered ${res.status}`);
    const id = res.json<{ message: { id: number } }>().message.id;
    const entry = { sent, left: tabs - (seen.get(id)?.length ?? 0), done };
    for (const at of seen.get(id) ?? []) early.push(at - sent);
    arrivals.push(...early);
    seen.delete(id);
    waiting.set(id, entry);
    if (entry.left <= 0) done();
    await Promise.race([all, new Promise((r) => setTimeout(r, 2_000))]);
    waiting.delete(id);
  }
  const latency = quantiles(arrivals);

  // Sends per second: 20 senders' worth of concurrent posts for 5 s.
  let sends = 0;
  const until = performance.now() + 5_000;
  await Promise.all(
    Array.from({ length: 20 }, async (_, w) => {
      while (performance.now() < until) {
        const res = await send({ conversation_id: conversations[w % conversations.length], kind: 'text', text: 'Snel', client_id: randomUUID() });
        if (res.status === 200) sends += 1;
      }
    }),
  );
  for (const s of streams) s.destroy();
  return { latency, sendsPerSecond: sends / 5, streams: streams.length };
}

/** Raw NOTIFY to LISTEN on the PostgreSQL of DATABASE_URL: the floor under delivery across processes. */
export async function notifyLatency(count = MESSAGES): Promise<Quantiles> {
  const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const notifier = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await listener.connect();
  await notifier.connect();
  const channel = `bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await listener.query(`listen ${channel}`);
  const times: number[] = [];
  let resolveOne: (() => void) | null = null;
  listener.on('notification', () => resolveOne?.());
  for (let i = 0; i < count; i++) {
    const heard = new Promise<void>((r) => (resolveOne = r));
    const t0 = performance.now();
    await notifier.query('select pg_notify($1, $2)', [channel, JSON.stringify({ t: 'user:1', e: { type: 'message', conversation_id: 1, message_id: i } })]);
    await heard;
    times.push(performance.now() - t0);
  }
  await listener.end();
  await notifier.end();
  return quantiles(times);
}
