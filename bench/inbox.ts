/**
 * The console's fictional inbox at scale (bench section `inbox`, issue 22): its pages (the first,
 * one deep in the keyset, one conversation, the brand's figures) at many members with many
 * waiting conversations, requests one after the other; and the time from a member's message to a
 * fictional profile to its `inbox_message` event on an open console stream, on one runtime and,
 * on PostgreSQL, across two (the member on B, the console on A). Used by bench/run.ts; prints,
 * never asserts.
 */
import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { grant } from '../src/server/ledger.ts';
import { sitegen } from '../tests/support/cli.ts';
import { openBenchDb } from './queries.ts';
import { openStream, quantiles, type Quantiles } from './delivery.ts';
import { roundTrips, type Runtime } from './lib.ts';

const BRAND = 'spetter';
const PASSWORD = 'geheim-wachtwoord-1';

/** A staff owner added with `sitegen staff add --password-stdin` and logged in: the console cookie. */
export async function consoleLogin(rt: Runtime): Promise<string> {
  const email = `bench-${randomUUID().slice(0, 8)}@example.com`;
  const env = { DATA_DIR: '', DATABASE_FILE: rt.database.file, DATABASE_URL: rt.engine === 'postgres' ? process.env.DATABASE_URL! : '', DATABASE_SCHEMA: rt.database.schema ?? '' };
  const added = await sitegen(['staff', 'add', '--email', email, '--role', 'owner', '--password-stdin'], env, `${PASSWORD}\n`);
  if (added.code !== 0) throw new Error(`staff add: ${added.stderr}`);
  const secret = new URL(added.stdout.trim().split('\n').at(-1)!).searchParams.get('secret')!;
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
  const res = await rt.request('console', 'POST', '/api/console/login', { 'content-type': 'application/json' }, JSON.stringify({ email, password: PASSWORD, code }));
  if (res.status !== 200) throw new Error(`console login answered ${res.status}: ${res.text()}`);
  return (res.headers['set-cookie'] ?? []).find((c) => /^(__Host-)?staff=/.test(c))!.split(';')[0]!;
}

/**
 * `waiting` conversations of the brand's members with its fictional profiles, each with one
 * unanswered message, waiting one second apart: written straight to the database in batches.
 */
export async function seedWaiting(rt: Runtime, waiting: number): Promise<void> {
  const handle = openBenchDb(rt.engine, rt.database);
  try {
    const db = handle.db;
    const members = await db.selectFrom('profiles').select('id').where('tenant_id', '=', BRAND).where('user_id', 'is not', null).orderBy('id').limit(waiting).execute();
    const personas = await db.selectFrom('profiles').select('id').where('tenant_id', '=', BRAND).where('fictional', '=', 1).orderBy('id').execute();
    const start = Date.now() - waiting * 1000;
    for (let i = 0; i < members.length; i += 500) {
      const batch = members.slice(i, i + 500);
      const at = (j: number) => new Date(start + (i + j) * 1000).toISOString();
      const made = await db
        .insertInto('conversations')
        .values(batch.map((m, j) => ({ tenant_id: BRAND, started_by: m.id, created_at: at(j), waiting_since: at(j) })))
        .returning('id')
        .execute();
      const pairs = batch.map((m, j) => ({ conversation: made[j]!.id, member: m.id, persona: personas[(i + j) % personas.length]!.id, at: at(j) }));
      await db
        .insertInto('conversation_members')
        .values(pairs.flatMap((p) => [
          { conversation_id: p.conversation, profile_id: p.member, other_profile_id: p.persona, last_message_at: p.at, unread: 0 },
          { conversation_id: p.conversation, profile_id: p.persona, other_profile_id: p.member, last_message_at: p.at, unread: 1 },
        ]))
        .execute();
      const messages = await db
        .insertInto('messages')
        .values(pairs.map((p) => ({ conversation_id: p.conversation, sender_profile_id: p.member, kind: 'text' as const, body: 'Hoi, hoe is het?', client_id: `bench-${p.conversation}`, created_at: p.at, notified_at: p.at })))
        .returning(['id', 'conversation_id'])
        .execute();
      for (const m of messages) await db.updateTable('conversations').set({ last_message_id: m.id }).where('id', '=', m.conversation_id).execute();
    }
  } finally {
    await handle.close();
  }
}

/** Each console request `times` times one after the other (after 20 to warm up): p50, p95, p99 in ms. */
export async function timeInboxPages(rt: Runtime, cookie: string, times: number): Promise<{ path: string; p50: number; p95: number; p99: number }[]> {
  const get = (path: string) => rt.get('console', path, { cookie });
  const first = (await get(`/api/console/inbox?brand=${BRAND}`)).json<{ conversations: { id: number }[]; next: string | null }>();
  // A cursor a hundred pages in: the keyset reads from the index there too.
  let deep = first.next;
  for (let i = 0; i < 100 && deep; i++) {
    const next = (await get(`/api/console/inbox?brand=${BRAND}&after=${encodeURIComponent(deep)}`)).json<{ next: string | null }>().next;
    if (!next) break;
    deep = next;
  }
  const paths = [`/api/console/inbox?brand=${BRAND}`, ...(deep ? [`/api/console/inbox?brand=${BRAND}&after=${encodeURIComponent(deep)}`] : []), `/api/console/inbox/${first.conversations[0]!.id}`, `/api/console/inbox/stats?brand=${BRAND}`];
  const rows = [];
  for (const path of paths) {
    const { p50, p95, p99 } = await roundTrips(path, () => get(path), times);
    rows.push({ path: path.replace(/after=[^&]+/, 'after=<a page far in>').replace('/api/console/', ''), p50, p95, p99 });
  }
  return rows;
}

/**
 * A member of `memberOn` writes `messages` times to a fictional profile, one after the other; each
 * is timed from the POST leaving to its `inbox_message` event on the console stream open on `consoleOn`.
 */
export async function inboxArrival(consoleOn: Runtime, memberOn: Runtime, cookie: string, messages: number): Promise<Quantiles> {
  const signup = await memberOn.request(
    BRAND,
    'POST',
    '/api/signup.php',
    { origin: `http://${memberOn.host(BRAND)}`, 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9' },
    JSON.stringify({ email: `inbox-${randomUUID()}@example.nl`, password: PASSWORD, name: 'Inboxlezer', date_of_birth: '1985-05-17', gender: 'male', sexuality: 'hetero', country: 'NL', region: 'Utrecht', city: 'Utrecht' }),
  );
  const memberCookie = (signup.headers['set-cookie'] ?? []).find((c) => /^(__Host-)?session=/.test(c))!.split(';')[0]!;
  const { user } = signup.json<{ user: { id: number } }>();
  const handle = openBenchDb(memberOn.engine, memberOn.database);
  const persona = await handle.db.selectFrom('profiles').select('id').where('tenant_id', '=', BRAND).where('fictional', '=', 1).where('listed', '=', 1).orderBy('id').executeTakeFirstOrThrow();
  await handle.db.updateTable('users').set({ status: 'active' }).where('id', '=', user.id).execute();
  await grant(handle.db, { userId: user.id, credits: 1_000_000, reason: 'bonus', ref: `bench-inbox-${user.id}` });
  await handle.close();

  const waiters = new Map<number, () => void>();
  const stream = await openStream(consoleOn, 'console', '/api/console/events', cookie, (e) => e.type === 'inbox_message' && waiters.get(e.data.conversation_id)?.());
  const send = (body: object) => memberOn.request(BRAND, 'POST', '/api/chat.php', { cookie: memberCookie, origin: `http://${memberOn.host(BRAND)}`, 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9' }, JSON.stringify({ kind: 'text', text: 'Ben je er?', client_id: randomUUID(), ...body }));
  const firstSend = await send({ profile_id: persona.id });
  if (firstSend.status !== 200) throw new Error(`chat.php answered ${firstSend.status}: ${firstSend.text()}`);
  const conversation = firstSend.json<{ conversation_id: number }>().conversation_id;
  const spent: number[] = [];
  for (let i = 0; i < messages; i++) {
    const t0 = performance.now();
    const heard = new Promise<void>((r) => waiters.set(conversation, r));
    const res = await send({ conversation_id: conversation });
    if (res.status !== 200) throw new Error(`chat.php answered ${res.status}: ${res.text()}`);
    await heard;
    spent.push(performance.now() - t0);
  }
  stream.destroy();
  return quantiles(spent);
}
