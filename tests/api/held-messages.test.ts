/**
 * The brands' safety rules and held messages (issue 22, "Safety rules"; docs/API.md "Held messages"),
 * on every engine: contact details masked or held as the brand chooses, a word of the brand's list
 * and a new account's burst hold a message; a held message is charged, looks sent to its sender and
 * reaches nobody else until a moderator releases it (live, with its mail) or rejects it (credits
 * back through the ledger, the sender told why). Disposable addresses are refused at signup. And on
 * two runtimes of one PostgreSQL database, a release on one reaches the recipient's stream on the other.
 *
 * spetter masks contact details (the default) and lists scam words in its tenant.json; this file's
 * copy of velvet holds contact details and lists words of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { engines, startTestRuntime, type TestRuntime } from '../support/runtime.ts';
import { tenantsWith } from '../support/tenants.ts';
import { Client, apiError, mailsTo, signupBody, snapshot, useRuntime } from '../support/accounts.ts';
import { balanceAndLedger, chatMember, sendText, type ChatMember } from '../support/chat.ts';
import { staffLogin } from '../support/console.ts';
import { openEvents, until } from '../support/sse.ts';
import { serveProcess } from '../support/serve-process.ts';

const WORDS = ['western union', 'gift card'];
const tenants = tenantsWith({ velvet: { safety: { contacts: 'hold', words: WORDS } } });
const tenantsDir = tenants.dir;
afterAll(() => tenants.remove());

const PHONE_TEXT = 'Call me on +49 30 12345678 tonight';
/** What a text message costs on a brand. */
const cost = (rt: TestRuntime, tenant = 'velvet') => rt.services.tenants().find((t) => t.id === tenant)!.message_credits;

/** A pair on a brand: Bob (a new account) writes to Anna. */
async function pair(rt: TestRuntime, tenant = 'velvet') {
  const anna = await chatMember(rt, 'female', 100, { tenant });
  const bob = await chatMember(rt, 'male', 100, { tenant });
  return { anna, bob };
}

/** Bob's message to Anna, sent and answered 200; its id and the credits it cost. */
async function sent(bob: ChatMember, anna: ChatMember, text: string) {
  const res = await sendText(bob, { profile_id: anna.profileId }, { text });
  expect(res.status, res.text).toBe(200);
  return res.json() as { conversation_id: number; message: { id: number; text: string; mine: boolean; not_delivered?: unknown }; credits: number };
}

const holdOf = (rt: TestRuntime, id: number) => rt.db.db.selectFrom('messages').select(['hold_status', 'hold_reasons', 'hold_note', 'body']).where('id', '=', id).executeTakeFirstOrThrow();

/** Everything the recipient could learn of a message: the conversation, the list, the counts. */
async function recipientSees(member: ChatMember, from: ChatMember, messageId: number) {
  const chats = (await member.client.get('/api/chats.php')).json();
  const open = (await member.client.get(`/api/chat.php?profile_id=${from.profileId}&read=0`)).json();
  const inList = chats.chats.find((c: { profile: { id: number } }) => c.profile.id === from.profileId);
  return {
    inConversation: (open.conversation?.messages ?? []).some((m: { id: number }) => m.id === messageId),
    inList: inList !== undefined,
    preview: inList?.last_message?.id === messageId,
    unread: chats.total_unread as number,
  };
}

describe.each(engines())('safety rules and held messages on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ tenantsDir }));

  test('a brand that masks: a phone number and an address are replaced in the stored and shown text; the message arrives', async () => {
    const { anna, bob } = await pair(rt(), 'spetter');
    const message = await sent(bob, anna, 'Bel me op 06 12345678 of mail bob@gmail.com');
    expect(message.message.text).toBe('Bel me op ••• of mail •••');
    expect(await holdOf(rt(), message.message.id)).toMatchObject({ hold_status: null, body: 'Bel me op ••• of mail •••' });
    const seen = (await anna.client.get(`/api/chat.php?id=${message.conversation_id}`)).json();
    expect(seen.conversation.messages.map((m: { text: string }) => m.text)).toEqual(['Bel me op ••• of mail •••']);
  });

  test('a brand that holds: the message is charged, looks sent to its sender, and reaches the recipient nowhere', async () => {
    const { anna, bob } = await pair(rt());
    const annaTab = await openEvents(anna.client);
    await until('the stream is ready', () => annaTab.events.some((e) => e.type === 'ready'));
    const held = await sent(bob, anna, PHONE_TEXT);
    // The sender sees it as any sent message: nothing says it was held.
    expect(held.message).toMatchObject({ mine: true, text: PHONE_TEXT });
    expect(held.message.not_delivered).toBeUndefined();
    expect(held.credits).toBe(100 - cost(rt()));
    const money = await balanceAndLedger(rt(), bob.userId);
    expect(money.entries.at(-1)).toEqual({ delta: -cost(rt()), reason: 'message', ref: String(held.message.id) });
    const bobView = (await bob.client.get(`/api/chat.php?id=${held.conversation_id}`)).json();
    expect(bobView.conversation.messages).toEqual([expect.objectContaining({ id: held.message.id, text: PHONE_TEXT })]);
    expect(JSON.stringify(bobView)).not.toContain('held');
    const bobList = (await bob.client.get('/api/chats.php')).json();
    expect(bobList.chats[0]).toMatchObject({ profile: { id: anna.profileId }, last_message: { id: held.message.id, mine: true } });
    expect(JSON.parse((await holdOf(rt(), held.message.id)).hold_reasons!)).toEqual({ reasons: ['contacts'], contacts: ['phone'] });

    // The recipient: not in the conversation, not in the list, not counted.
    expect(await recipientSees(anna, bob, held.message.id)).toEqual({ inConversation: false, inList: false, preview: false, unread: 0 });
    // Nor an empty conversation where she looks for one: with Bob there is none yet, and by its id it does not exist.
    const annaOpens = (await anna.client.get(`/api/chat.php?profile_id=${bob.profileId}&read=0`)).json();
    expect(annaOpens).toMatchObject({ conversation: null, can_send: true });
    expect((await anna.client.get(`/api/chat.php?id=${held.conversation_id}`)).status).toBe(404);
    // A message after it is delivered as usual: the recipient's stream hears that one and never the held one.
    const next = await sent(bob, anna, 'How was your day?');
    await until('the delivered message', () => annaTab.events.some((e) => e.data?.message_id === next.message.id));
    expect(annaTab.events.some((e) => e.data?.message_id === held.message.id)).toBe(false);
    expect(await recipientSees(anna, bob, held.message.id)).toEqual({ inConversation: false, inList: true, preview: false, unread: 1 });
    // A reconnecting stream asking for what it missed is not given it either.
    const again = await openEvents(anna.client, { lastEventId: String(held.message.id - 1) });
    await until('the stream is ready', () => again.events.some((e) => e.type === 'ready'));
    expect(again.events.filter((e) => e.type === 'message').map((e) => e.data.message_id)).toEqual([next.message.id]);
    annaTab.close();
    again.close();
    // No push or mail for it: marked notified without one, so the sweep passes it by.
    await rt().services.notifier.sweep();
    expect(mailsTo(rt(), anna.email).filter((m) => m.text.includes(PHONE_TEXT))).toEqual([]);
  });

  test('a word of the brand list holds the message (case-insensitive, whole words)', async () => {
    const { anna, bob } = await pair(rt());
    const held = await sent(bob, anna, 'Please pay me by Western Union first');
    expect(JSON.parse((await holdOf(rt(), held.message.id)).hold_reasons!)).toEqual({ reasons: ['words'], word: 'Western Union' });
    const fine = await sent(bob, anna, 'I love gift cardigans');
    expect((await holdOf(rt(), fine.message.id)).hold_status).toBeNull();
  });

  test('the burst rule: a new account writing to a sixth member has that and its further messages held', async () => {
    const bob = await chatMember(rt(), 'male', 200, { tenant: 'spetter' });
    // A premium member: a free one starts two conversations at most (SPEC §9).
    await rt().db.db.updateTable('users').set({ paid_user: 1 }).where('id', '=', bob.userId).execute();
    const women = [];
    for (let i = 0; i < 6; i++) women.push(await chatMember(rt(), 'female', 0, { tenant: 'spetter' }));
    const ids = [];
    for (const woman of women) ids.push((await sent(bob, woman, 'Hallo daar')).message.id);
    const states = await Promise.all(ids.map((id) => holdOf(rt(), id)));
    expect(states.map((s) => s.hold_status)).toEqual([null, null, null, null, null, 'held']);
    expect(JSON.parse(states[5]!.hold_reasons!)).toEqual({ reasons: ['burst'], recipients: 6, max_recipients: 5 });
    // Further messages, to a member written to before too, are held while the account is new.
    const further = await sent(bob, women[0]!, 'Nog een berichtje');
    expect((await holdOf(rt(), further.message.id)).hold_status).toBe('held');
    // An account older than new_account_hours (24) is past the rule.
    await rt().db.db.updateTable('users').set({ signup_date: new Date(Date.now() - 25 * 3_600_000).toISOString() }).where('id', '=', bob.userId).execute();
    const later = await sent(bob, women[1]!, 'En nu?');
    expect((await holdOf(rt(), later.message.id)).hold_status).toBeNull();
  });

  test("a moderator's queue: oldest first, why, the sender's card and recent sends, never an e-mail address; release delivers live with its mail", async () => {
    const { anna, bob } = await pair(rt());
    const first = await sent(bob, anna, PHONE_TEXT);
    const second = await sent(bob, anna, 'Or by gift card');
    const moderator = await staffLogin(rt(), 'moderator', ['velvet']);
    const queue = await moderator.client.get('/api/console/held?brand=velvet');
    expect(queue.status).toBe(200);
    const mine = queue.json().messages.filter((m: { sender: { user_id: number } }) => m.sender.user_id === bob.userId);
    expect(mine.map((m: { id: number }) => m.id)).toEqual([first.message.id, second.message.id]);
    expect(mine[0]).toMatchObject({
      brand: 'velvet',
      kind: 'text',
      text: PHONE_TEXT,
      credits: cost(rt()),
      why: { reasons: ['contacts'], contacts: ['phone'] },
      conversation_id: first.conversation_id,
      sender: { user_id: bob.userId, card: { id: bob.profileId }, suspended: false, recent_sends: 2, recent_recipients: 1 },
      recipient: { id: anna.profileId },
    });
    expect(mine[1].why).toEqual({ reasons: ['words'], word: 'gift card' });
    for (const email of [anna.email, bob.email]) expect(queue.text).not.toContain(email);

    const annaTab = await openEvents(anna.client);
    await until('the stream is ready', () => annaTab.events.some((e) => e.type === 'ready'));
    const released = await moderator.client.post(`/api/console/held/${first.message.id}`, { action: 'release', reason: 'A landline of a business, fine' });
    expect(released.status, released.text).toBe(200);
    expect(released.json()).toEqual({ id: first.message.id, status: 'released' });
    await until('the released message arrives live', () => annaTab.events.some((e) => e.type === 'message' && e.data.message_id === first.message.id));
    annaTab.close();
    expect(await recipientSees(anna, bob, first.message.id)).toEqual({ inConversation: true, inList: true, preview: true, unread: 1 });
    // The mail a first message sends, by the member's preference, now.
    await until('the mail of the released message', () => mailsTo(rt(), anna.email, 'mail_new_conversation').length === 1);
    // Released once: the queue has it no more, and a second decision is refused.
    const after = (await moderator.client.get('/api/console/held?brand=velvet')).json().messages.map((m: { id: number }) => m.id);
    expect(after).not.toContain(first.message.id);
    expect(after).toContain(second.message.id);
    const twice = await moderator.client.post(`/api/console/held/${first.message.id}`, { action: 'reject', reason: 'Changed my mind' });
    expect(twice.status).toBe(409);
    expect(apiError(twice).code).toBe('console_already');
    expect((await holdOf(rt(), first.message.id)).hold_status).toBe('released');
    const audit = await rt().db.db.selectFrom('audit_log').selectAll().where('object_type', '=', 'message').where('object_id', '=', String(first.message.id)).execute();
    expect(audit).toEqual([expect.objectContaining({ staff_id: moderator.id, role: 'moderator', action: 'held_release', brand: 'velvet', reason: 'A landline of a business, fine' })]);
  });

  test('a held message released while its recipient was away is replayed to their reconnecting stream, though newer ones reached them first', async () => {
    const { anna, bob } = await pair(rt());
    const held = await sent(bob, anna, PHONE_TEXT);
    const next = await sent(bob, anna, 'How was your day?');
    // Anna's tab saw Bob's second message, then lost its connection.
    const annaTab = await openEvents(anna.client);
    const ready = await until('the stream is ready', () => annaTab.events.find((e) => e.type === 'ready'));
    expect(ready.id).toBe(String(next.message.id));
    annaTab.close();
    const moderator = await staffLogin(rt(), 'moderator', ['velvet']);
    expect((await moderator.client.post(`/api/console/held/${held.message.id}`, { action: 'release', reason: 'Fine' })).status).toBe(200);
    // Reconnecting from the last event it saw, the stream gives her the released (older) message.
    const again = await openEvents(anna.client, { lastEventId: ready.id });
    await until('the stream is ready', () => again.events.some((e) => e.type === 'ready'));
    again.close();
    expect(again.events.filter((e) => e.type === 'message').map((e) => e.data.message_id)).toEqual([held.message.id]);
    // And the conversation read from the message before it (the page's catch-up) shows it.
    const caughtUp = (await anna.client.get(`/api/chat.php?id=${held.conversation_id}&after=${held.message.id - 1}&read=0`)).json();
    expect(caughtUp.conversation.messages.map((m: { id: number }) => m.id)).toEqual([held.message.id, next.message.id]);
  });

  test('a rejection gives back exactly the message’s credits through the ledger, and its sender sees it not delivered with the reason', async () => {
    const { anna, bob } = await pair(rt());
    const held = await sent(bob, anna, 'Send me a gift card code');
    const before = await balanceAndLedger(rt(), bob.userId);
    const admin = await staffLogin(rt(), 'admin');
    const res = await admin.client.post(`/api/console/held/${held.message.id}`, { action: 'reject', reason: 'Asks for money' });
    expect(res.status, res.text).toBe(200);
    const money = await balanceAndLedger(rt(), bob.userId);
    expect(money.credits).toBe(before.credits + cost(rt()));
    expect(money.entries.slice(before.entries.length)).toEqual([{ delta: cost(rt()), reason: 'not_delivered', ref: String(held.message.id) }]);
    expect(money.sum).toBe(money.credits);
    const note = await rt().db.db.selectFrom('credit_ledger').select('note').where('reason', '=', 'not_delivered').where('ref', '=', String(held.message.id)).executeTakeFirstOrThrow();
    expect(note.note).toBe('Asks for money');
    const bobView = (await bob.client.get(`/api/chat.php?id=${held.conversation_id}`)).json();
    expect(bobView.conversation.messages.find((m: { id: number }) => m.id === held.message.id)).toMatchObject({ not_delivered: { reason: 'Asks for money' } });
    expect(await recipientSees(anna, bob, held.message.id)).toEqual({ inConversation: false, inList: false, preview: false, unread: 0 });
    expect(await rt().db.db.selectFrom('audit_log').select(['action', 'reason']).where('object_id', '=', String(held.message.id)).execute()).toEqual([{ action: 'held_reject', reason: 'Asks for money' }]);
  });

  test('bad input to the queue is a 4xx with a message and changes nothing', async () => {
    const { anna, bob } = await pair(rt());
    const held = await sent(bob, anna, PHONE_TEXT);
    const moderator = await staffLogin(rt(), 'moderator');
    const cases: Array<[string, unknown, number]> = [
      [`/api/console/held/${held.message.id}`, { action: 'delete', reason: 'x' }, 400],
      [`/api/console/held/${held.message.id}`, { action: 'release' }, 400],
      [`/api/console/held/${held.message.id}`, { action: 'release', reason: '   ' }, 400],
      [`/api/console/held/${held.message.id}`, { action: 'release', reason: 'x'.repeat(1001) }, 400],
      [`/api/console/held/${held.message.id}`, 'not json', 400],
      ['/api/console/held/abc', { action: 'release', reason: 'x' }, 400],
      ['/api/console/held/0', { action: 'release', reason: 'x' }, 400],
      ['/api/console/held/99999999', { action: 'release', reason: 'x' }, 404],
      // A message that was never held is no held message.
      [`/api/console/held/${(await sent(anna, bob, 'Fine, thanks')).message.id}`, { action: 'reject', reason: 'x' }, 404],
    ];
    const ledger = await balanceAndLedger(rt(), bob.userId);
    const audits = async () => (await rt().db.db.selectFrom('audit_log').select('id').where('staff_id', '=', moderator.id).execute()).length;
    const audited = await audits();
    for (const [path, body, status] of cases) {
      const res = await moderator.client.post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}: ${res.text}`).toBe(status);
      expect(apiError(res).message.length).toBeGreaterThan(0);
    }
    for (const query of ['brand=NOT%20A%20BRAND', 'after=-1', 'after=x']) expect((await moderator.client.get(`/api/console/held?${query}`)).status, query).toBe(400);
    expect((await holdOf(rt(), held.message.id)).hold_status).toBe('held');
    expect(await balanceAndLedger(rt(), bob.userId)).toEqual(ledger);
    expect(await audits()).toBe(audited);
  });

  test("scope: a staff member of one brand sees nothing of another's held messages or rules", async () => {
    const { anna, bob } = await pair(rt());
    const held = await sent(bob, anna, PHONE_TEXT);
    const spetterOnly = await staffLogin(rt(), 'moderator', ['spetter']);
    const all = (await spetterOnly.client.get('/api/console/held')).json().messages;
    expect(all.every((m: { brand: string }) => m.brand === 'spetter')).toBe(true);
    expect((await spetterOnly.client.get('/api/console/held?brand=velvet')).status).toBe(404);
    expect((await spetterOnly.client.post(`/api/console/held/${held.message.id}`, { action: 'release', reason: 'x' })).status).toBe(404);
    expect((await holdOf(rt(), held.message.id)).hold_status).toBe('held');
    expect((await spetterOnly.client.get('/api/console/safety')).json().brands.map((b: { id: string }) => b.id)).toEqual(['spetter']);
    expect((await spetterOnly.client.get('/api/console/safety?brand=velvet')).status).toBe(404);
  });

  test("the brands' effective rules for the console's settings card", async () => {
    const { client } = await staffLogin(rt(), 'support');
    const res = await client.get('/api/console/safety');
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.json().brands.map((b: { id: string; safety: unknown }) => [b.id, b.safety]));
    // spetter's own tenant.json lists scam words; the rest are the defaults.
    expect(byId.spetter).toEqual({ burst: { new_account_hours: 24, max_recipients: 5 }, contacts: 'mask', words: ['western union', 'moneygram', 'gift card', 'cadeaukaart', 'bitcoin'], disposable_email: true });
    expect(byId.velvet).toEqual({ burst: { new_account_hours: 24, max_recipients: 5 }, contacts: 'hold', words: WORDS, disposable_email: true });
    expect((await client.get('/api/console/safety?brand=velvet')).json().brands).toHaveLength(1);
  });

  test('a disposable address is refused at signup and as a new address, in the member’s language, and nothing changes', async () => {
    const before = await snapshot(rt());
    const nl = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody({ email: 'anna@mailinator.com' }));
    expect(nl.status).toBe(400);
    expect(apiError(nl)).toEqual({ code: 'email_disposable', message: 'Adressen van wegwerp-e-maildiensten kun je hier niet gebruiken. Gebruik je eigen e-mailadres.', field: 'email' });
    const en = await new Client(rt(), 'velvet').post('/api/signup.php', signupBody({ email: 'anna@sub.yopmail.com', country: 'GB', region: null, city: 'London' }));
    expect(en.status).toBe(400);
    expect(apiError(en)).toEqual({ code: 'email_disposable', message: 'Addresses of disposable e-mail services cannot be used here. Please use your own e-mail address.', field: 'email' });
    expect(await snapshot(rt())).toEqual(before);
    const { anna } = await pair(rt(), 'spetter');
    const change = await anna.client.post('/api/mail-change.php', { email: 'anna@mailinator.com', password: 'geheim-wachtwoord-1' });
    expect(change.status).toBe(400);
    expect(apiError(change).code).toBe('email_disposable');
  });
});

describe.skipIf(!process.env.DATABASE_URL)('held messages on two runtimes of one PostgreSQL database', () => {
  let a: TestRuntime;
  let b: Awaited<ReturnType<typeof serveProcess>>;
  const dir = mkdtempSync(join(tmpdir(), 'sitegen-held-'));
  beforeAll(async () => {
    a = await startTestRuntime('postgres', { tenantsDir });
    b = await serveProcess(a.schema!, dir);
  }, 120_000);
  afterAll(async () => {
    b?.child.kill('SIGTERM');
    await a?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a release on one runtime reaches the recipient's stream on the other at once", async () => {
    const { anna, bob } = await pair(a);
    const held = await sent(bob, anna, PHONE_TEXT);
    const onB = await openEvents(anna.client, { port: b.port });
    await until('the stream on B is ready', () => onB.events.some((e) => e.type === 'ready'));
    const { client } = await staffLogin(a, 'moderator');
    expect((await client.post(`/api/console/held/${held.message.id}`, { action: 'release', reason: 'Fine' })).status).toBe(200);
    await until('the release reaches B', () => onB.events.some((e) => e.type === 'message' && e.data.message_id === held.message.id));
    onB.close();
  });
});
