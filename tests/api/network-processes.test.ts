/**
 * Chat between two brands of one pool on two runtime processes (issue 24, DESIGN §9, §12): a
 * spetter member on runtime A writes to a rijpedates member whose tab is connected to runtime B;
 * the message arrives live on B, each pays their own brand's price, B's answer arrives live on A;
 * the mail and the push of the member who is not looking come from their own brand. Runs when
 * DATABASE_URL is set (the processes share one PostgreSQL schema).
 */
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import webpush from 'web-push';
// @ts-expect-error http_ece ships no types
import ece from 'http_ece';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDb, type Db } from '../../src/server/db/index.ts';
import { activeMember, mailsTo, yearsAgo, type Client } from '../support/accounts.ts';
import { useTwoProcesses } from '../support/serve-process.ts';
import { openEvents, until } from '../support/sse.ts';
import { pushService } from '../support/push-stand-in.ts';
import { grant } from '../../src/server/ledger.ts';
import type { TestRuntime } from '../support/runtime.ts';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('chat between two brands of a pool on two runtimes', () => {
  const push = pushService();
  const ca = join(tmpdir(), `sitegen-network-push-ca-${process.pid}.pem`);
  writeFileSync(ca, push.cert);
  const { view, a, b, dir, schema } = useTwoProcesses('network', () => ({ NODE_EXTRA_CA_CERTS: ca, VAPID_SUBJECT: 'mailto:ops@example.nl' }));
  // The key pair both processes sign pushes with (`sitegen keys` writes it; moved into the database at start).
  writeFileSync(join(dir, 'vapid.json'), JSON.stringify(webpush.generateVAPIDKeys()));
  let pushBase = '';
  let db: Db;
  beforeAll(async () => {
    pushBase = await push.start();
    db = createDb({ url: url!, schema });
  });
  afterAll(async () => {
    push.close();
    await db?.close();
  });

  /** A member signed up through runtime `rt` on `brand`, with 100 credits and no others. */
  async function member(rt: TestRuntime, brand: string, name: string, gender: 'male' | 'female', age: number) {
    const m = await activeMember(rt, brand, { name, gender, sexuality: 'hetero', date_of_birth: yearsAgo(age), country: 'NL', region: 'Noord-Holland' });
    const user = await m.client.user();
    // Only these credits: a signup's welcome credits would blur the prices below.
    await db.db.updateTable('users').set({ credits: 0 }).where('id', '=', user.id).execute();
    await db.db.deleteFrom('credit_ledger').where('user_id', '=', user.id).execute();
    await grant(db.db, { userId: user.id, credits: 100, reason: 'bonus', ref: randomUUID() });
    return { ...m, userId: user.id as number, profileId: user.profile.id as number };
  }

  /** The member's browser subscribed to push on their own brand; the push service is this test's stand-in. */
  async function subscribe(m: { client: Client }) {
    const browser = createECDH('prime256v1');
    browser.generateKeys();
    const auth = randomBytes(16);
    const id = randomUUID();
    const saved = await m.client.post('/api/user.php?push=1', { subscription: { endpoint: `https://push.example.com/push/${id}`, keys: { p256dh: browser.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } } });
    expect(saved.status).toBe(200);
    await db.db.updateTable('push_subscriptions').set({ endpoint: `${pushBase}/push/${id}` }).where('endpoint', '=', `https://push.example.com/push/${id}`).execute();
    return { path: `/push/${id}`, read: (body: Buffer) => JSON.parse(ece.decrypt(body, { version: 'aes128gcm', privateKey: browser, authSecret: auth }).toString()) };
  }

  const send = (client: Client, to: { profile_id?: number; conversation_id?: number }, text: string) => client.post('/api/chat.php', { ...to, kind: 'text', text, client_id: randomUUID() });
  const balance = async (userId: number) => (await db.db.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirstOrThrow()).credits;

  test('a spetter member on A and a rijpedates member on B write live to each other, each paying and notified on their own brand', { timeout: 120_000 }, async () => {
    const sam = await member(view(a), 'spetter', 'Sam', 'male', 45);
    const ria = await member(view(b), 'rijpedates', 'Ria', 'female', 50);
    const riaPush = await subscribe(ria);

    // Ria is not looking: Sam's first message through A reaches her by a mail and a push of her own brand.
    const first = await send(sam.client, { profile_id: ria.profileId }, 'Hoi Ria!');
    expect(first.status).toBe(200);
    const conversationId = first.json().conversation_id as number;
    expect(first.json().credits).toBe(95);
    const mail = await until('the mail to Ria', () => mailsTo(view(b), ria.email, 'mail_new_conversation').at(-1), 30_000);
    expect(mail.headers.from).toContain('Rijpe Dates');
    expect(mail.link).toMatch(/^https?:\/\/rijpedates\./);
    const pushed = await until('the push to Ria', () => push.received.find((r) => r.path === riaPush.path), 30_000);
    // Her push names her brand and links to it, whichever runtime and brand the message came through.
    expect(riaPush.read(pushed.body)).toMatchObject({ type: 'message', body: 'Hoi Ria!', title: expect.stringContaining('Rijpe Dates'), url: expect.stringMatching(new RegExp(`^https?://rijpedates\\.[^/]+/chats/${conversationId}$`)) });

    // Both tabs open: Ria's on B (rijpedates), Sam's on A (spetter).
    const riaTab = await openEvents(ria.client, { port: b.port });
    const samTab = await openEvents(sam.client, { port: a.port });
    try {
      await until('both streams ready', () => riaTab.events.some((e) => e.type === 'ready') && samTab.events.some((e) => e.type === 'ready'), 30_000);
      const second = await send(sam.client, { conversation_id: conversationId }, 'Hoe gaat het?');
      expect(second.status).toBe(200);
      const secondId = second.json().message.id as number;
      await until('the message live on B', () => riaTab.events.some((e) => e.type === 'message' && Number(e.id) === secondId), 30_000);

      const answer = await send(ria.client, { conversation_id: conversationId }, 'Goed, en met jou?');
      expect(answer.status).toBe(200);
      const answerId = answer.json().message.id as number;
      await until('the answer live on A', () => samTab.events.some((e) => e.type === 'message' && Number(e.id) === answerId), 30_000);
      const samView = (await sam.client.get(`/api/chat.php?id=${conversationId}`)).json();
      expect(samView.conversation.messages.map((m: { text: string; mine: boolean }) => [m.text, m.mine])).toEqual([
        ['Hoi Ria!', true],
        ['Hoe gaat het?', true],
        ['Goed, en met jou?', false],
      ]);
    } finally {
      riaTab.close();
      samTab.close();
    }
    // Each at their own brand's price: spetter 5 credits a message, rijpedates 6.
    expect(await balance(sam.userId)).toBe(90);
    expect(await balance(ria.userId)).toBe(94);
    const ledger = await db.db.selectFrom('credit_ledger').select(['user_id', 'delta']).where('reason', '=', 'message').where('user_id', 'in', [sam.userId, ria.userId]).orderBy('id').execute();
    expect(ledger).toEqual([
      { user_id: sam.userId, delta: -5 },
      { user_id: sam.userId, delta: -5 },
      { user_id: ria.userId, delta: -6 },
    ]);

    // Sam is not looking any more: Ria's next message through B reaches him by his own brand's push.
    const samPush = await subscribe(sam);
    const third = await send(ria.client, { conversation_id: conversationId }, 'Ben je er nog?');
    expect(third.status).toBe(200);
    const toSam = await until('the push to Sam', () => push.received.find((r) => r.path === samPush.path), 30_000);
    expect(samPush.read(toSam.body)).toMatchObject({ type: 'message', body: 'Ben je er nog?', title: expect.stringContaining('Spetter'), url: expect.stringMatching(new RegExp(`^https?://spetter\\.[^/]+/chats/${conversationId}$`)) });
  });
});
