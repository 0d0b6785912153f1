/**
 * Many runtime processes on one PostgreSQL database (DESIGN §4, §9): a process survives its
 * database connections being terminated; live events published by one process reach the event
 * streams of another, also after the listening connection was cut; rate limits count across
 * processes. Runs when DATABASE_URL is set.
 */
import { request, type IncomingMessage } from 'node:http';
import pg from 'pg';
import { createDb } from '../../src/server/db/index.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostFetch, startTestRuntime, type TestRuntime } from '../support/runtime.ts';
import { Client, activeMember, signUp, takeMail } from '../support/accounts.ts';
import { useTwoProcesses } from '../support/serve-process.ts';
import { collectEvents, openEvents } from '../support/sse.ts';
import { grant } from '../../src/server/ledger.ts';
import { ABUSE_LIMITS } from '../../src/server/services/accounts.ts';

const url = process.env.DATABASE_URL;

/** Terminates the connections of one runtime's schema whose application_name matches. */
async function terminate(schema: string, pattern = `%${schema}%`): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and application_name like $1 and pid <> pg_backend_pid()',
      [pattern],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

describe.skipIf(!url)('a runtime on PostgreSQL survives its database', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('postgres');
  });
  afterAll(async () => {
    await rt?.close();
  });

  test('terminated connections: requests fail cleanly (never a crash), then it serves again by itself', async () => {
    const { client } = await activeMember(rt);
    expect((await client.get('/api/user.php')).status).toBe(200);
    const killed = await terminate(rt.schema!);
    expect(killed).toBeGreaterThan(0);
    // Requests right after: a clean answer (200 when a fresh connection was made, else 503 JSON).
    for (let i = 0; i < 5; i++) {
      const res = await client.get('/api/user.php');
      expect([200, 503]).toContain(res.status);
      if (res.status === 503) {
        expect(res.json().error).toMatchObject({ code: 'service_unavailable', message: 'De dienst is even niet bereikbaar. Probeer het zo opnieuw.' });
        expect(res.headers['retry-after']).toBe('5');
      }
    }
    const back = await until('user.php answers again', async () => {
      const res = await client.get('/api/user.php');
      return res.status === 200 ? res : undefined;
    });
    expect(back.json().user).not.toBeNull();
    expect((await hostFetch(rt, 'spetter', '/api/settings.php')).status).toBe(200);
    // Again while requests are in flight: none of them ends the process.
    const inFlight = Array.from({ length: 20 }, () => client.get('/api/members.php'));
    await terminate(rt.schema!);
    const statuses = (await Promise.all(inFlight)).map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    await until('members.php answers again', async () => ((await client.get('/api/members.php')).status === 200 ? true : undefined));
  });

  test('a page in flight when the database goes away gets the brand error page, not a crash', async () => {
    const { client } = await activeMember(rt);
    await terminate(rt.schema!);
    const page = await client.get('/members', { accept: 'text/html' });
    expect([200, 503]).toContain(page.status);
    if (page.status === 503) expect(page.headers['content-type']).toMatch(/^text\/html/);
    await until('the members page again', async () => ((await client.get('/members')).status === 200 ? true : undefined));
  });
});

describe.skipIf(!url)('two runtime processes on one PostgreSQL database', () => {
  const { view, a, b, schema } = useTwoProcesses('two');

  test('an event published by one process reaches the event stream on the other, also after the listener is cut', async () => {
    const member = await activeMember(view(a), 'spetter');
    const onB = member.client.clone();
    (onB as { rt: TestRuntime }).rt = view(b);
    const stream = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: b.port, path: '/api/events.php', headers: { host: `spetter.localhost:${b.port}`, cookie: onB.cookieHeader(), accept: 'text/event-stream' } }, resolve);
      req.on('error', reject);
      req.end();
    });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['content-encoding']).toBeUndefined();
    const events = collectEvents(stream);
    await until('the stream is ready', async () => (events.some((e) => e.type === 'ready') ? true : undefined));

    // A change saved through process A: B's stream hears it.
    expect((await member.client.put('/api/user.php', { invisible: true })).status).toBe(200);
    await until('the user event on B', async () => (events.some((e) => e.type === 'user') ? true : undefined));

    // The listening connections of both processes are terminated: delivery resumes by itself.
    expect(await terminate(schema, '%bus%')).toBeGreaterThan(0);
    const before = events.filter((e) => e.type === 'user').length;
    await until('delivery after the listener came back', async () => {
      await member.client.put('/api/user.php', { invisible: false });
      await new Promise((r) => setTimeout(r, 300));
      return events.filter((e) => e.type === 'user').length > before ? true : undefined;
    }, 15_000);
    stream.destroy();
  });

  test('a message sent through one process reaches the other member\'s stream on the other, with typing and read; a reconnect on either catches up', async () => {
    const anna = await activeMember(view(a), 'spetter', { gender: 'female', sexuality: 'hetero' });
    const bob = await activeMember(view(a), 'spetter', { gender: 'male', sexuality: 'hetero' });
    const annaUser = await anna.client.user();
    const bobUser = await bob.client.user();
    const db = createDb({ url, schema });
    await grant(db.db, { userId: bobUser.id, credits: 100, reason: 'bonus', ref: `two-${bobUser.id}` });
    await db.close();
    // Anna's tab is served by B; Bob writes through A.
    const annaOnB = anna.client.clone();
    (annaOnB as { rt: TestRuntime }).rt = view(b);
    const tab = await openEvents(annaOnB);
    await until('ready', async () => (tab.events.some((e) => e.type === 'ready') ? true : undefined));
    const sent = (await bob.client.post('/api/chat.php', { profile_id: annaUser.profile.id, kind: 'text', text: 'Over twee processen', client_id: `two-${Date.now()}` })).json();
    const heard = await until('the message on B', async () => tab.events.find((e) => e.type === 'message'));
    expect(heard).toMatchObject({ id: String(sent.message.id), data: { conversation_id: sent.conversation_id, message_id: sent.message.id } });
    // Anna reads through B: Bob's tab on A hears it; Anna types through B: Bob hears it on A.
    const bobTab = await openEvents(bob.client);
    await until('Bob ready', async () => (bobTab.events.some((e) => e.type === 'ready') ? true : undefined));
    expect((await annaOnB.get(`/api/chat.php?id=${sent.conversation_id}`)).json().conversation.messages[0].text).toBe('Over twee processen');
    await until('read on A', async () => bobTab.events.find((e) => e.type === 'read'));
    await annaOnB.post('/api/chat-typing.php', { conversation_id: sent.conversation_id });
    await until('typing on A', async () => bobTab.events.find((e) => e.type === 'typing'));
    // Anna's tab drops; two messages go out through A; her tab reconnects to A with the last id it saw.
    tab.close();
    for (const text of ['een', 'twee']) await bob.client.post('/api/chat.php', { conversation_id: sent.conversation_id, kind: 'text', text, client_id: `two-${text}-${Date.now()}` });
    const back = await openEvents(anna.client, { lastEventId: heard.id });
    await until('the missed messages', async () => (back.events.filter((e) => e.type === 'message').length === 2 ? true : undefined));
    back.close();
    bobTab.close();
  });

  test('rate limits count across processes', async () => {
    const { client, email } = await signUp(view(a), 'spetter');
    const onB = client.clone();
    (onB as { rt: TestRuntime }).rt = view(b);
    takeMail(view(a), email, 'mail_activate');
    const statuses: number[] = [];
    for (let i = 0; i < ABUSE_LIMITS.activationResendsPerHour + 1; i++) {
      // Alternating between the two processes, as a load balancer would.
      statuses.push((await (i % 2 ? onB : client).post('/api/activate.php?resend=1', {})).status);
    }
    expect(statuses).toEqual([...Array(ABUSE_LIMITS.activationResendsPerHour).fill(200), 429]);
  });

  test('a session made on one process is known on the other', async () => {
    const { client } = await activeMember(view(a), 'spetter');
    const onB = new Client(view(b), 'spetter');
    for (const [k, v] of client.jar) onB.jar.set(k, v);
    expect((await onB.user())?.email).toBe((await client.user()).email);
  });

  test('what a member changes through one process, another process that keeps the session shows as soon as it is told; a logout ends it there too', async () => {
    const { client } = await activeMember(view(a), 'spetter');
    const onB = new Client(view(b), 'spetter');
    for (const [k, v] of client.jar) onB.jar.set(k, v);
    const soon = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 2_000, interval: 5 });
    const me = await onB.user(); // B keeps the session now
    expect((await client.put('/api/profile.php', { name: 'Tweede Naam' })).status).toBe(200);
    await soon(async () => (await onB.user()).profile.name).toBe('Tweede Naam');
    // A grant by the operator's own connection (as `sitegen credits grant`).
    const db = createDb({ url, schema });
    try {
      await grant(db.db, { userId: me.id, credits: 11, reason: 'bonus', ref: `cache-two-${me.id}` });
      await soon(async () => (await onB.user()).credits).toBe(me.credits + 11);
      // B's listening connection cut: what was written meanwhile was never told, yet B shows it
      // (no session is kept while B cannot listen, and the cache starts empty when it listens again).
      expect(await terminate(schema, `%${schema}:bus`)).toBeGreaterThan(0);
      await db.db.updateTable('users').set({ credits: 5 }).where('id', '=', me.id).execute();
      await soon(async () => (await onB.user()).credits).toBe(5);
      await new Promise((r) => setTimeout(r, 500)); // listening again
      expect((await onB.user()).credits).toBe(5);
    } finally {
      await db.close();
    }
    expect((await client.post('/api/logout.php')).status).toBeLessThan(400);
    await soon(async () => (await onB.get('/api/user.php')).json().user).toBeNull();
  });
});
