/**
 * The chat paid with credits (docs/API.md "Chat", SPEC §3, §4, §7, §9), on every engine: what two
 * members see of each other's messages through the API, what each send costs, and the live events
 * of their tabs.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { apiError, useRuntime } from '../support/accounts.ts';
import { balanceAndLedger, chatMember, sendText, type ChatMember } from '../support/chat.ts';
import { openEvents, until } from '../support/sse.ts';
import { grant } from '../../src/server/ledger.ts';
import { CHAT_HISTORY_LIMIT } from '../../src/contract/chat.ts';
import { FREE_CONVERSATIONS } from '../../src/lib/membership.ts';
import { giftCatalogue } from '../../src/lib/gifts.ts';

/** What the runtime's PostgreSQL connections are running, while a test records them. */
let recording: string[] | null = null;
const watched = new WeakSet<object>();

/** The statements of the runtime's PostgreSQL pool during `work`, in order, each its first words. */
async function statementsOf(rt: TestRuntime, work: () => Promise<unknown>): Promise<string[]> {
  const pool = rt.db.pool!;
  const watch = (client: pg.PoolClient) => {
    if (watched.has(client)) return;
    watched.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
      recording?.push((text ?? '').trim().slice(0, 40).toLowerCase());
      return query(...args);
    };
  };
  pool.on('acquire', watch);
  recording = [];
  try {
    await work();
    // Anything the request leaves running after its answer (a NOTIFY after the commit) is counted too.
    await new Promise((r) => setTimeout(r, 300));
    return recording;
  } finally {
    recording = null;
    pool.off('acquire', watch);
  }
}

/** The spetter brand as the runtime serves it. */
const brand = (rt: TestRuntime) => rt.services.tenants().find((t) => t.id === 'spetter')!;

async function photoUpload(from: ChatMember, query: string, bytes: Buffer) {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'me.jpg');
  const req = new Request('http://x/', { method: 'POST', body: form });
  const body = Buffer.from(await req.arrayBuffer());
  return hostFetch(from.client.rt, from.client.tenant, `/api/chat.php?photo=1&${query}`, {
    method: 'POST',
    headers: { cookie: from.client.cookieHeader(), 'x-forwarded-for': from.client.ip, 'content-type': req.headers.get('content-type')!, 'content-length': String(body.length) },
    body,
  });
}

describe.each(engines())('chat API on %s', (engine) => {
  const rt = useRuntime(engine);

  test('a first message starts a conversation, is charged once through the ledger, arrives live, and opening it marks it read', async () => {
    const anna = await chatMember(rt(), 'female');
    const bob = await chatMember(rt(), 'male');
    const tenant = brand(rt());
    const annaTab = await openEvents(anna.client);
    const bobTab = await openEvents(bob.client);
    const bobOtherTab = await openEvents(bob.client);
    await until('the streams are ready', () => [annaTab, bobTab, bobOtherTab].every((t) => t.events.some((e) => e.type === 'ready')));

    // Before any message: the conversation does not exist yet, and the member may start it.
    const before = (await bob.client.get(`/api/chat.php?profile_id=${anna.profileId}`)).json();
    expect(before).toMatchObject({ conversation: null, profile: { id: anna.profileId }, can_send: true, reply_block: null, needs_premium: false, costs: { text: tenant.message_credits } });

    const res = await sendText(bob, { profile_id: anna.profileId }, { text: '  Hoi Anna, hoe gaat het?  ' });
    expect(res.status).toBe(200);
    const sent = res.json();
    expect(sent.message).toMatchObject({ mine: true, kind: 'text', text: 'Hoi Anna, hoe gaat het?' });
    expect(sent.credits).toBe(100 - tenant.message_credits);
    const money = await balanceAndLedger(rt(), bob.userId);
    expect(money.credits).toBe(100 - tenant.message_credits);
    expect(money.sum).toBe(money.credits);
    expect(money.entries.at(-1)).toEqual({ delta: -tenant.message_credits, reason: 'message', ref: String(sent.message.id) });

    // Anna's tab hears the message (event id = message id); Bob's other tab hears it and the new balance.
    const annaEvent = await until('the message on Anna\'s tab', () => annaTab.events.find((e) => e.type === 'message'));
    expect(annaEvent).toMatchObject({ id: String(sent.message.id), data: { conversation_id: sent.conversation_id, message_id: sent.message.id } });
    await until('the message and credits on Bob\'s other tab', () => bobOtherTab.events.some((e) => e.type === 'message') && bobOtherTab.events.find((e) => e.type === 'credits'));
    expect(bobOtherTab.events.find((e) => e.type === 'credits')!.data).toEqual({ balance: money.credits });

    // Both chats lists; only Anna has an unread message.
    const annaChats = (await anna.client.get('/api/chats.php')).json();
    expect(annaChats.total_unread).toBe(1);
    expect(annaChats.chats).toEqual([
      { conversation: { id: sent.conversation_id }, profile: expect.objectContaining({ id: bob.profileId, name: bob.body.name }), num_unread_messages: 1, last_message: expect.objectContaining({ id: sent.message.id, mine: false, kind: 'text', text: 'Hoi Anna, hoe gaat het?' }) },
    ]);
    const bobChats = (await bob.client.get('/api/chats.php')).json();
    expect(bobChats).toMatchObject({ total_unread: 0, chats: [{ conversation: { id: sent.conversation_id }, num_unread_messages: 0, last_message: { mine: true } }] });

    // Reading with read=0 (a hidden tab) leaves it unread; opening marks it read and tells Bob.
    const peek = (await anna.client.get(`/api/chat.php?id=${sent.conversation_id}&read=0`)).json();
    expect(peek.conversation.messages).toHaveLength(1);
    expect((await anna.client.get('/api/chats.php')).json().total_unread).toBe(1);
    // While Bob's profile is switched off, his conversation and its unread message leave the list and the badge.
    await rt().db.db.updateTable('profiles').set({ status: 'disabled' }).where('id', '=', bob.profileId).execute();
    expect((await anna.client.get('/api/chats.php')).json()).toMatchObject({ chats: [], total_unread: 0 });
    await rt().db.db.updateTable('profiles').set({ status: 'active' }).where('id', '=', bob.profileId).execute();
    expect((await anna.client.get('/api/chats.php')).json().total_unread).toBe(1);
    const opened = (await anna.client.get(`/api/chat.php?id=${sent.conversation_id}`)).json();
    expect(opened.conversation).toMatchObject({ id: sent.conversation_id, older_hidden: false, messages: [{ id: sent.message.id, mine: false, text: 'Hoi Anna, hoe gaat het?' }] });
    expect((await anna.client.get('/api/chats.php')).json()).toMatchObject({ total_unread: 0, chats: [{ num_unread_messages: 0 }] });
    const read = await until('the read event on Bob\'s tab', () => bobTab.events.find((e) => e.type === 'read'));
    expect(read.data).toEqual({ conversation_id: sent.conversation_id, message_id: sent.message.id });
    expect((await bob.client.get(`/api/chat.php?id=${sent.conversation_id}`)).json().conversation.read_up_to).toBe(sent.message.id);

    // The typing state reaches the other member only.
    expect((await anna.client.post('/api/chat-typing.php', { conversation_id: sent.conversation_id })).status).toBe(200);
    await until('typing on Bob\'s tab', () => bobTab.events.find((e) => e.type === 'typing'));
    expect(annaTab.events.some((e) => e.type === 'typing')).toBe(false);

    // A reply by Anna is the same conversation; the other's `after` catch-up answers only it.
    const reply = (await sendText(anna, { conversation_id: sent.conversation_id }, { text: 'Goed!' })).json();
    expect(reply.conversation_id).toBe(sent.conversation_id);
    const caught = (await bob.client.get(`/api/chat.php?id=${sent.conversation_id}&after=${sent.message.id}`)).json();
    expect(caught.conversation.messages.map((m: { text: string }) => m.text)).toEqual(['Goed!']);
    for (const tab of [annaTab, bobTab, bobOtherTab]) tab.close();
  });

  test('a reconnecting stream first gets the message events it missed (Last-Event-ID)', async () => {
    const anna = await chatMember(rt(), 'female');
    const bob = await chatMember(rt(), 'male');
    const first = (await sendText(bob, { profile_id: anna.profileId })).json();
    const tab = await openEvents(anna.client);
    const ready = await until('ready', () => tab.events.find((e) => e.type === 'ready'));
    expect(ready.id).toBe(String(first.message.id));
    tab.close();
    // While Anna's tab is away, two messages arrive.
    const second = (await sendText(bob, { conversation_id: first.conversation_id })).json();
    const third = (await sendText(bob, { conversation_id: first.conversation_id })).json();
    const back = await openEvents(anna.client, { lastEventId: ready.id });
    await until('ready again', () => back.events.some((e) => e.type === 'ready'));
    expect(back.events.filter((e) => e.type === 'message').map((e) => e.data.message_id)).toEqual([second.message.id, third.message.id]);
    back.close();
  });

  test('the text is checked on the server: empty or longer than message_length is refused and costs nothing', async () => {
    const anna = await chatMember(rt(), 'female');
    const bob = await chatMember(rt(), 'male');
    const max = brand(rt()).message_length;
    const long = await sendText(bob, { profile_id: anna.profileId }, { text: 'x'.repeat(max + 1) });
    expect(long.status).toBe(400);
    expect(apiError(long)).toMatchObject({ code: 'message_too_long', field: 'text' });
    expect(apiError(long).message).toContain(String(max));
    const empty = await sendText(bob, { profile_id: anna.profileId }, { text: '   ' });
    expect(apiError(empty)).toMatchObject({ code: 'message_empty', field: 'text' });
    expect((await sendText(bob, { profile_id: anna.profileId }, { text: 'x'.repeat(max) })).status).toBe(200);
    // Neither target, or both: refused before anything is read.
    expect((await bob.client.post('/api/chat.php', { kind: 'text', text: 'hoi', client_id: randomUUID() })).status).toBe(400);
    expect((await bob.client.post('/api/chat.php', { kind: 'text', text: 'hoi', client_id: 'short' , profile_id: anna.profileId })).status).toBe(400);
    // Ids past 32 bits and a NUL in the text are refused as bad input, never a database error.
    expect((await bob.client.get('/api/chat.php?id=3000000000')).status).toBe(400);
    expect((await bob.client.get(`/api/chat.php?profile_id=${anna.profileId}&after=99999999999`)).status).toBe(400);
    expect((await sendText(bob, { profile_id: anna.profileId }, { text: 'hoi\u0000daar' })).status).toBe(400);
    const { entries } = await balanceAndLedger(rt(), bob.userId);
    expect(entries.filter((e) => e.delta < 0)).toHaveLength(1);
  });

  test('too few credits: 402 with the catalogue message, nothing stored; the same client_id twice is one message and one charge', async () => {
    const anna = await chatMember(rt(), 'female');
    const tenant = brand(rt());
    const bob = await chatMember(rt(), 'male', tenant.message_credits - 1);
    const poor = await sendText(bob, { profile_id: anna.profileId });
    expect(poor.status).toBe(402);
    expect(apiError(poor)).toMatchObject({ code: 'not_enough_credits', message: 'Je hebt onvoldoende credits' });
    expect(await rt().db.db.selectFrom('messages').select('id').where('sender_profile_id', '=', bob.profileId).execute()).toEqual([]);
    // The refused first message started no conversation either.
    expect((await bob.client.get('/api/chats.php')).json().chats).toEqual([]);

    const rich = await chatMember(rt(), 'male', 50);
    const key = randomUUID();
    const a = (await sendText(rich, { profile_id: anna.profileId }, { client_id: key })).json();
    const b = (await sendText(rich, { profile_id: anna.profileId }, { client_id: key })).json();
    expect(b.message.id).toBe(a.message.id);
    expect(b.credits).toBe(50 - tenant.message_credits);
    const money = await balanceAndLedger(rt(), rich.userId);
    expect(money.credits).toBe(50 - tenant.message_credits);
    expect(money.sum).toBe(money.credits);
  });

  test('50 sends at once against a balance that pays for 7: exactly 7 are stored and charged', async () => {
    const anna = await chatMember(rt(), 'female');
    const cost = brand(rt()).message_credits;
    const bob = await chatMember(rt(), 'male', cost * 8 + cost - 1);
    const conversation = (await sendText(bob, { profile_id: anna.profileId })).json().conversation_id;
    // The first message leaves enough for exactly 7 more.
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => sendText(bob, { conversation_id: conversation }, { text: `bericht ${i}` })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 402)).toHaveLength(43);
    const money = await balanceAndLedger(rt(), bob.userId);
    expect(money.credits).toBe(cost - 1);
    expect(money.sum).toBe(money.credits);
    const stored = await rt().db.db.selectFrom('messages').select('id').where('sender_profile_id', '=', bob.profileId).execute();
    expect(stored).toHaveLength(8);
    expect(money.entries.filter((e) => e.reason === 'message').map((e) => Number(e.ref)).sort()).toEqual(stored.map((m) => m.id).sort());
    expect((await anna.client.get('/api/chats.php')).json().total_unread).toBe(8);
  });

  test.runIf(engine === 'postgres')('a message is one transaction: the lock, one read of what the send checks, the writes, and its events with the commit; no statement after it', async () => {
    const anna = await chatMember(rt(), 'female');
    const bob = await chatMember(rt(), 'male');
    const conversation = (await sendText(bob, { profile_id: anna.profileId })).json().conversation_id;
    // An account of a month: a new one's message also counts whom it wrote to (the burst rule, issue 22).
    await rt().db.db.updateTable('users').set({ signup_date: new Date(Date.now() - 30 * 86_400_000).toISOString() }).where('id', '=', bob.userId).execute();
    const annaTab = await openEvents(anna.client);
    await until('ready', async () => (annaTab.events.some((e) => e.type === 'ready') ? true : undefined));
    let sent = 0;
    const statements = await statementsOf(rt(), async () => {
      const res = await sendText(bob, { conversation_id: conversation }, { text: 'Nog een' });
      expect(res.status).toBe(200);
      sent = res.json().message.id;
    });
    const begin = statements.indexOf('begin');
    const commit = statements.indexOf('commit');
    const inside = statements.slice(begin + 1, commit);
    // The profiles' lock and one read, then the writes.
    expect(inside.findIndex((s) => /^(insert|update)\b/.test(s))).toBe(2);
    expect(inside[0]).toMatch(/^select "id" from "profiles"/);
    // The events go in the transaction's last statement, heard by the other processes at its commit.
    expect(inside.at(-1)).toMatch(/^select pg_notify/);
    expect(statements.slice(commit + 1).filter((s) => s.includes('pg_notify'))).toEqual([]);
    await until('the message on her tab', async () => annaTab.events.find((e) => e.type === 'message' && e.data.message_id === sent));
    annaTab.close();
  });

  test(`a free member starts at most ${FREE_CONVERSATIONS} conversations; replying is not starting one; premium starts more`, async () => {
    const bob = await chatMember(rt(), 'male');
    const women = [await chatMember(rt(), 'female'), await chatMember(rt(), 'female'), await chatMember(rt(), 'female')];
    for (const w of women.slice(0, FREE_CONVERSATIONS)) expect((await sendText(bob, { profile_id: w.profileId })).status).toBe(200);
    const third = await sendText(bob, { profile_id: women[2]!.profileId });
    expect(third.status).toBe(403);
    expect(apiError(third)).toMatchObject({ code: 'premium_only', message: 'Deze functie is alleen beschikbaar voor premium leden' });
    expect(third.json().premium_required).toBe(true);
    expect((await bob.client.get(`/api/chat.php?profile_id=${women[2]!.profileId}`)).json()).toMatchObject({ needs_premium: true, can_send: false });
    // Writing on in a conversation he started, and answering one a woman started, are fine.
    const chats = (await bob.client.get('/api/chats.php')).json().chats;
    expect((await sendText(bob, { conversation_id: chats[0].conversation.id })).status).toBe(200);
    const started = (await sendText(women[2]!, { profile_id: bob.profileId })).json();
    expect((await sendText(bob, { conversation_id: started.conversation_id })).status).toBe(200);
    // Removing a conversation from the list does not give a free one back.
    expect((await bob.client.delete('/api/chat.php', { conversation: { id: chats[0].conversation.id } })).status).toBe(200);
    const fresh = await chatMember(rt(), 'female');
    expect((await sendText(bob, { profile_id: fresh.profileId })).status).toBe(403);
    // Nor does blocking and unblocking the member he wrote to (a block deletes their conversation).
    const other = women[1]!;
    expect((await bob.client.post('/api/block.php', { profile_id: other.profileId })).status).toBe(200);
    expect((await bob.client.delete('/api/block.php', { profile_id: other.profileId })).status).toBe(200);
    expect((await sendText(bob, { profile_id: fresh.profileId })).status).toBe(403);
    // Premium (after a purchase) starts any number.
    await rt().db.db.updateTable('users').set({ paid_user: 1 }).where('id', '=', bob.userId).execute();
    expect((await sendText(bob, { profile_id: fresh.profileId })).status).toBe(200);
  });

  test('a member whose e-mail is unconfirmed cannot reply and is told to confirm; the other sees why no answer comes', async () => {
    const anna = await chatMember(rt(), 'female');
    const bob = await chatMember(rt(), 'male');
    const sent = (await sendText(bob, { profile_id: anna.profileId })).json();
    // Here an unconfirmed member's profile is hidden until activation, so the state arises for a
    // conversation that exists when the address becomes unconfirmed again.
    await rt().db.db.updateTable('users').set({ status: 'not_confirmed' }).where('id', '=', anna.userId).execute();
    expect((await bob.client.get(`/api/chat.php?id=${sent.conversation_id}`)).json()).toMatchObject({ can_send: true, reply_block: 'other_unconfirmed' });
    expect((await anna.client.get(`/api/chat.php?id=${sent.conversation_id}`)).json()).toMatchObject({ can_send: false, reply_block: 'confirm_email' });
    const reply = await sendText(anna, { conversation_id: sent.conversation_id });
    expect(reply.status).toBe(403);
    expect(apiError(reply).code).toBe('email_unconfirmed');
    expect((await balanceAndLedger(rt(), anna.userId)).credits).toBe(100);
  });

  test(`older messages are hidden beyond ${CHAT_HISTORY_LIMIT}, and the conversation says so`, async () => {
    const anna = await chatMember(rt(), 'female');
    const bob = await chatMember(rt(), 'male', 0);
    await rt().db.db.updateTable('users').set({ paid_user: 1 }).where('id', '=', bob.userId).execute();
    // Free messages for this brand's test: the prices are settings (0 is allowed).
    const first = (await sendText(anna, { profile_id: bob.profileId }, { text: 'bericht 0' })).json();
    const rows = Array.from({ length: CHAT_HISTORY_LIMIT }, (_, i) => ({ conversation_id: first.conversation_id, sender_profile_id: i % 2 ? anna.profileId : bob.profileId, kind: 'text' as const, body: `bericht ${i + 1}`, client_id: `seed-${i}-${randomUUID()}` }));
    await rt().db.db.insertInto('messages').values(rows).execute();
    const last = await rt().db.db.selectFrom('messages').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
    await rt().db.db.updateTable('conversations').set({ last_message_id: Number(last.id) }).where('id', '=', first.conversation_id).execute();
    const opened = (await anna.client.get(`/api/chat.php?id=${first.conversation_id}`)).json().conversation;
    expect(opened.older_hidden).toBe(true);
    expect(opened.messages).toHaveLength(CHAT_HISTORY_LIMIT);
    expect(opened.messages[0].text).toBe('bericht 1');
    expect(opened.messages.at(-1).text).toBe(`bericht ${CHAT_HISTORY_LIMIT}`);
  });

  test('removing a chat takes it off the member\'s list only; a new message brings it back with only what is new', async () => {
    const anna = await chatMember(rt(), 'female');
    const bob = await chatMember(rt(), 'male');
    const sent = (await sendText(bob, { profile_id: anna.profileId }, { text: 'eerste' })).json();
    expect((await anna.client.delete('/api/chat.php', { conversation: { id: sent.conversation_id } })).status).toBe(200);
    expect((await anna.client.get('/api/chats.php')).json()).toEqual({ chats: [], total_unread: 0 });
    expect((await bob.client.get('/api/chats.php')).json().chats).toHaveLength(1);
    // Someone else's conversation, or one that does not exist: 404, nothing changes.
    const eve = await chatMember(rt(), 'female');
    expect((await eve.client.delete('/api/chat.php', { conversation: { id: sent.conversation_id } })).status).toBe(404);
    expect((await eve.client.get(`/api/chat.php?id=${sent.conversation_id}`)).status).toBe(404);
    expect((await eve.client.post('/api/chat.php', { conversation_id: sent.conversation_id, kind: 'text', text: 'hoi', client_id: randomUUID() })).status).toBe(404);
    expect((await anna.client.delete('/api/chat.php', { conversation: { id: 99_999_999 } })).status).toBe(404);
    expect((await anna.client.delete('/api/chat.php', { conversation: {} })).status).toBe(400);

    (await sendText(bob, { conversation_id: sent.conversation_id }, { text: 'tweede' })).json();
    const back = (await anna.client.get('/api/chats.php')).json();
    expect(back).toMatchObject({ total_unread: 1, chats: [{ conversation: { id: sent.conversation_id }, num_unread_messages: 1, last_message: { text: 'tweede' } }] });
    const opened = (await anna.client.get(`/api/chat.php?id=${sent.conversation_id}`)).json();
    expect(opened.conversation.messages.map((m: { text: string }) => m.text)).toEqual(['tweede']);
  });

  test('a block deletes the conversation, and neither can write to the other any more', async () => {
    const anna = await chatMember(rt(), 'female');
    const bob = await chatMember(rt(), 'male');
    const sent = (await sendText(bob, { profile_id: anna.profileId })).json();
    const bobTab = await openEvents(bob.client);
    await until('the stream is ready', () => bobTab.events.some((e) => e.type === 'ready'));
    expect((await anna.client.post('/api/block.php', { profile_id: bob.profileId })).status).toBe(200);
    // The blocked member's open chat list is told at once.
    await until('a chats event for the blocked member', () => bobTab.events.some((e) => e.type === 'chats'));
    bobTab.close();
    expect((await anna.client.get('/api/chats.php')).json().chats).toEqual([]);
    expect((await bob.client.get('/api/chats.php')).json().chats).toEqual([]);
    expect(await rt().db.db.selectFrom('messages').select('id').where('conversation_id', '=', sent.conversation_id).execute()).toEqual([]);
    expect((await sendText(bob, { conversation_id: sent.conversation_id })).status).toBe(404);
    expect((await sendText(bob, { profile_id: anna.profileId })).status).toBe(404);
    expect((await sendText(anna, { profile_id: bob.profileId })).status).toBe(404);
    expect((await bob.client.get(`/api/chat.php?profile_id=${anna.profileId}`)).status).toBe(404);
  });

  test('gifts cost their catalogue price; GIFs are found by words and cost a message; unknown ones are refused', async () => {
    const anna = await chatMember(rt(), 'female');
    const bob = await chatMember(rt(), 'male', 200);
    const tenant = brand(rt());
    const gifts = (await bob.client.get('/api/gifts.php')).json().gifts;
    expect(gifts).toEqual(giftCatalogue(tenant));
    const diamond = gifts.find((g: { id: string }) => g.id === 'diamond');
    const gift = (await bob.client.post('/api/chat.php', { profile_id: anna.profileId, kind: 'gift', gift: 'diamond', client_id: randomUUID() })).json();
    expect(gift.message).toMatchObject({ kind: 'gift', gift: { id: 'diamond', credits: diamond.credits }, text: null });
    expect(gift.credits).toBe(200 - diamond.credits);
    const badGift = await bob.client.post('/api/chat.php', { conversation_id: gift.conversation_id, kind: 'gift', gift: 'yacht', client_id: randomUUID() });
    expect(apiError(badGift)).toMatchObject({ code: 'gift_unknown', field: 'gift' });

    const found = (await bob.client.get('/api/gifs.php?q=kus')).json().gifs;
    expect(found.map((g: { id: string }) => g.id)).toContain('kiss');
    expect((await bob.client.get('/api/gifs.php')).json().gifs.length).toBeGreaterThan(10);
    expect((await bob.client.get('/api/gifs.php?q=zzzzzz')).json().gifs).toEqual([]);
    const svg = await hostFetch(rt(), 'spetter', found[0].url);
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect((await hostFetch(rt(), 'spetter', '/gifs/nothing.svg')).status).toBe(404);
    const gif = (await bob.client.post('/api/chat.php', { conversation_id: gift.conversation_id, kind: 'gif', gif: 'kiss', client_id: randomUUID() })).json();
    expect(gif.message).toMatchObject({ kind: 'gif', gif: { id: 'kiss', url: '/gifs/kiss.svg' } });
    expect(gif.credits).toBe(200 - diamond.credits - tenant.message_credits);
    expect(apiError(await bob.client.post('/api/chat.php', { conversation_id: gift.conversation_id, kind: 'gif', gif: 'nope', client_id: randomUUID() })).code).toBe('gif_unknown');
    const money = await balanceAndLedger(rt(), bob.userId);
    expect(money.entries.slice(-2).map((e) => e.reason)).toEqual(['gift', 'message']);
    expect(money.sum).toBe(money.credits);
    // The chats list names the kind of the last message.
    expect((await anna.client.get('/api/chats.php')).json().chats[0].last_message).toMatchObject({ kind: 'gif', text: null });
  });

  test('a photo is re-encoded and costs photo_credits; a file that is no image costs nothing', async () => {
    const anna = await chatMember(rt(), 'female');
    const bob = await chatMember(rt(), 'male');
    const tenant = brand(rt());
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 40, b: 90 } } }).jpeg().withMetadata({ exif: { IFD0: { Make: 'Camera' } } }).toBuffer();
    const res = await photoUpload(bob, `profile_id=${anna.profileId}&client_id=${randomUUID()}`, jpeg);
    expect(res.status).toBe(200);
    const sent = res.json();
    expect(sent.message).toMatchObject({ kind: 'photo', photo: { url: expect.stringMatching(/^\/media\/spetter\/[a-f0-9]+\.webp$/), thumb_url: expect.stringMatching(/-t\.webp$/) } });
    expect(sent.credits).toBe(100 - tenant.photo_credits);
    // spetter screens photos before the recipient sees them (issue 22): a moderator approves it.
    await rt().services.moderation.decideChatPhoto({ id: 1, role: 'moderator' }, sent.message.id, { status: 'active' }, 'all');
    const file = await hostFetch(rt(), 'spetter', sent.message.photo.url);
    expect(file.status).toBe(200);
    const meta = await sharp(file.body).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    const bad = await photoUpload(bob, `conversation_id=${sent.conversation_id}&client_id=${randomUUID()}`, Buffer.from('not an image at all'));
    expect(bad.status).toBe(400);
    expect(apiError(bad).code).toBe('photo_type');
    expect((await balanceAndLedger(rt(), bob.userId)).credits).toBe(100 - tenant.photo_credits);
    expect((await anna.client.get(`/api/chat.php?id=${sent.conversation_id}`)).json().conversation.messages[0]).toMatchObject({ kind: 'photo', mine: false });
  });

  test('a visitor gets 401; a member cannot open a conversation of another brand', async () => {
    const anon = await hostFetch(rt(), 'spetter', '/api/chats.php');
    expect(anon.status).toBe(401);
    const anna = await chatMember(rt(), 'female');
    const bob = await chatMember(rt(), 'male');
    const sent = (await sendText(bob, { profile_id: anna.profileId })).json();
    const velvet = await chatMember(rt(), 'female', 100, { tenant: 'velvet' });
    expect((await velvet.client.get(`/api/chat.php?id=${sent.conversation_id}`)).status).toBe(404);
    expect((await sendText(velvet, { profile_id: bob.profileId })).status).toBe(404);
  });
});
