/**
 * The fictional inbox across two runtime processes on one PostgreSQL database (issue 22, DESIGN
 * §9): a claim made on A is refused on B; a member's message through B reaches the console's
 * stream on A; a staff reply through A arrives on the member's stream on B. Runs when
 * DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { createDb } from '../../src/server/db/index.ts';
import { grant } from '../../src/server/ledger.ts';
import type { TestRuntime } from '../support/runtime.ts';
import { Client, PASSWORD, activeMember, apiError } from '../support/accounts.ts';
import { useTwoProcesses } from '../support/serve-process.ts';
import { sitegen } from '../support/cli.ts';
import { totpCode } from '../support/console.ts';
import { openEvents, until } from '../support/sse.ts';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('the fictional inbox on two runtime processes', () => {
  const { schema, dir, view, a, b } = useTwoProcesses('inbox');

  /** A staff member added with `sitegen staff add --password-stdin`, logged in on the console of one process. */
  async function staffOn(p: { port: number }, role: string): Promise<Client> {
    const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
    const added = await sitegen(['staff', 'add', '--email', email, '--role', role, '--password-stdin'], { DATABASE_SCHEMA: schema, DATA_DIR: dir }, `${PASSWORD}\n`);
    if (added.code !== 0) throw new Error(added.stderr);
    const secret = new URL(added.stdout.trim().split('\n').at(-1)!).searchParams.get('secret')!;
    const client = new Client(view(p), 'console');
    const login = await client.post('/api/console/login', { email, password: PASSWORD, code: totpCode(secret) });
    if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
    return client;
  }

  test('a claim on A is refused on B; a member message through B reaches the console on A; a reply through A reaches the member on B', async () => {
    const [ownerA, moderatorB] = await Promise.all([staffOn(a, 'owner'), staffOn(b, 'moderator')]);
    const created = await ownerA.post('/api/console/fictional?brand=spetter', { name: 'Persona Twee', gender: 'female', sexuality: 'hetero', birth_date: '1993-03-03', country: 'NL' });
    expect(created.status, created.text).toBe(201);
    const persona = created.json().profile.id as number;

    // The console page on A listens.
    const consoleOnA = await openEvents(ownerA, { path: '/api/console/events' });
    await until('the console stream on A', () => consoleOnA.events.some((e) => e.type === 'ready'));

    // The member writes through B.
    const member = await activeMember(view(a), 'spetter', { gender: 'male', sexuality: 'hetero' });
    const user = await member.client.user();
    const db = createDb({ url, schema });
    await grant(db.db, { userId: user.id, credits: 50, reason: 'bonus', ref: `inbox-two-${user.id}` });
    await db.close();
    const memberOnB = member.client.clone();
    (memberOnB as { rt: TestRuntime }).rt = view(b);
    const sent = await memberOnB.post('/api/chat.php', { profile_id: persona, kind: 'text', text: 'Hallo via B', client_id: randomUUID() });
    expect(sent.status, sent.text).toBe(200);
    const conversation = sent.json().conversation_id as number;
    await until('the member message on the console stream of A', () => consoleOnA.events.find((e) => e.type === 'inbox_message' && e.data.conversation_id === conversation));

    // Claimed on A: refused on B, and B cannot answer.
    expect((await ownerA.post(`/api/console/inbox/${conversation}/claim`)).status).toBe(200);
    const onB = await moderatorB.post(`/api/console/inbox/${conversation}/claim`);
    expect([onB.status, apiError(onB).code]).toEqual([409, 'inbox_claimed']);
    expect((await moderatorB.post(`/api/console/inbox/${conversation}`, { text: 'Ik ook!' })).status).toBe(409);
    expect((await moderatorB.get(`/api/console/inbox/${conversation}`)).json().claim).toMatchObject({ by: { email: expect.stringMatching(/^owner-/) } });

    // The member's tab is served by B; the reply goes through A.
    const tab = await openEvents(memberOnB);
    await until('the member stream on B', () => tab.events.some((e) => e.type === 'ready'));
    const reply = await ownerA.post(`/api/console/inbox/${conversation}`, { text: 'Hoi! Leuk je te lezen.' });
    expect(reply.status, reply.text).toBe(200);
    const heard = await until('the reply on the member stream of B', () => tab.events.find((e) => e.type === 'message' && e.data.message_id === reply.json().message.id));
    expect(heard.data).toEqual({ conversation_id: conversation, message_id: reply.json().message.id });
    expect((await memberOnB.get(`/api/chat.php?id=${conversation}`)).json().conversation.messages.at(-1)).toMatchObject({ mine: false, text: 'Hoi! Leuk je te lezen.' });
    // The release on A frees it for B.
    expect((await ownerA.post(`/api/console/inbox/${conversation}/release`)).status).toBe(200);
    expect((await moderatorB.post(`/api/console/inbox/${conversation}/claim`)).status).toBe(200);
    tab.close();
    consoleOnA.close();
  });
});
