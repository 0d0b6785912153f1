/**
 * Notifications of members who are not looking (SPEC §3 e-mail types and push, docs/API.md
 * "Notifications"): web pushes to a stand-in push service, e-mails by preference and batched,
 * one-click unsubscribe per type, and the mail provider's bounce and spam events.
 */
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import webpush from 'web-push';
// @ts-expect-error http_ece ships no types
import ece from 'http_ece';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { engines, hostFetch, startTestRuntime, type TestRuntime } from '../support/runtime.ts';
import { activeMember, mailsTo, yearsAgo } from '../support/accounts.ts';
import { pushService } from '../support/push-stand-in.ts';
import { grant } from '../../src/server/ledger.ts';
import { REMINDER_AFTER_H } from '../../src/server/services/notify.ts';

/** A browser's push subscription: our own keys, so the test can read what the server encrypted. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, p256dh: ecdh.getPublicKey().toString('base64url'), authText: auth.toString('base64url') };
}

const until = async <T,>(what: string, fn: () => T | undefined | false, ms = 5000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe.each(engines())('notifications on %s', (engine) => {
  const push = pushService();
  let base = '';
  let rt: TestRuntime;
  beforeAll(async () => {
    base = await push.start();
    rt = await startTestRuntime(engine, { config: { vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@example.nl' }, pushAgent: push.agent, mailWebhookSecret: 'geheim-webhook' } });
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
    push.close();
  });

  async function member(gender: 'female' | 'male', credits = 100) {
    const m = await activeMember(rt, 'spetter', { gender, sexuality: 'hetero' });
    const user = await m.client.user();
    if (credits) await grant(rt.db.db, { userId: user.id, credits, reason: 'bonus', ref: randomUUID() });
    return { ...m, userId: user.id as number, profileId: user.profile.id as number };
  }
  const send = (from: Awaited<ReturnType<typeof member>>, to: Record<string, number>, text = 'Hoi!') =>
    from.client.post('/api/chat.php', { ...to, kind: 'text', text, client_id: randomUUID() });

  test('a new message leaves the server as a web push to each browser of an offline member; a subscription the push service forgot is dropped', async () => {
    const anna = await member('female');
    const bob = await member('male');
    const keys = browserKeys();
    const id = randomUUID();
    // Stored as POST /api/user.php?push=1 stores it (that route accepts only public push services).
    await rt.db.db.insertInto('push_subscriptions').values([
      { user_id: anna.userId, endpoint: `${base}/push/${id}`, p256dh: keys.p256dh, auth: keys.authText },
      { user_id: anna.userId, endpoint: `${base}/gone/${id}`, p256dh: keys.p256dh, auth: keys.authText },
    ]).execute();
    await rt.db.db.updateTable('users').set({ push_enabled: 1 }).where('id', '=', anna.userId).execute();

    const sent = (await send(bob, { profile_id: anna.profileId }, 'Zin in een drankje?')).json();
    const arrived = await until('the push', () => push.received.find((r) => r.path === `/push/${id}`));
    expect(arrived.headers['content-encoding']).toBe('aes128gcm');
    expect(String(arrived.headers.authorization)).toMatch(/^vapid t=/);
    expect(Number(arrived.headers.ttl)).toBeGreaterThan(0);
    const payload = JSON.parse(ece.decrypt(arrived.body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth }).toString());
    expect(payload).toEqual({ type: 'message', title: `${bob.body.name} stuurde je een bericht op Spetter`, body: 'Zin in een drankje?', url: `http://spetter.nl/chats/${sent.conversation_id}`, tag: `chat-${sent.conversation_id}` });
    // The push service answered 410 for the other: it is gone; the message is marked notified.
    await until('the dropped subscription', async () => true);
    await expect.poll(async () => (await rt.db.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', anna.userId).execute()).map((s) => s.endpoint)).toEqual([`${base}/push/${id}`]);
    await expect.poll(async () => (await rt.db.db.selectFrom('messages').select('notified_at').where('id', '=', sent.message.id).executeTakeFirstOrThrow()).notified_at).not.toBeNull();
    // A member who switched push off gets none.
    await rt.db.db.updateTable('users').set({ push_enabled: 0 }).where('id', '=', anna.userId).execute();
    const before = push.received.length;
    await send(bob, { conversation_id: sent.conversation_id });
    await new Promise((r) => setTimeout(r, 300));
    expect(push.received.length).toBe(before);
  });

  test("a conversation across the pool: each member's push comes from, names and links to their own brand", async () => {
    // spetter and rijpedates share the pool benelux: Sam (spetter) writes to Ria (rijpedates), she answers.
    const sam = await activeMember(rt, 'spetter', { name: 'Sam', gender: 'male', sexuality: 'hetero', date_of_birth: yearsAgo(45), country: 'NL', region: 'Noord-Holland' });
    const ria = await activeMember(rt, 'rijpedates', { name: 'Ria', gender: 'female', sexuality: 'hetero', date_of_birth: yearsAgo(50), country: 'NL', region: 'Noord-Holland' });
    const [samUser, riaUser] = [await sam.client.user(), await ria.client.user()];
    const subscriptions = new Map<number, { keys: ReturnType<typeof browserKeys>; id: string }>();
    for (const user of [samUser, riaUser]) {
      await grant(rt.db.db, { userId: user.id, credits: 100, reason: 'bonus', ref: randomUUID() });
      const keys = browserKeys();
      const id = randomUUID();
      subscriptions.set(user.id, { keys, id });
      await rt.db.db.insertInto('push_subscriptions').values({ user_id: user.id, endpoint: `${base}/push/${id}`, p256dh: keys.p256dh, auth: keys.authText }).execute();
      await rt.db.db.updateTable('users').set({ push_enabled: 1 }).where('id', '=', user.id).execute();
    }
    const pushOf = async (userId: number) => {
      const { keys, id } = subscriptions.get(userId)!;
      const arrived = await until('the push', () => push.received.find((r) => r.path === `/push/${id}`));
      return JSON.parse(ece.decrypt(arrived.body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth }).toString());
    };

    const sent = await sam.client.post('/api/chat.php', { profile_id: riaUser.profile.id, kind: 'text', text: 'Hoi Ria!', client_id: randomUUID() });
    expect(sent.status).toBe(200);
    const id = sent.json().conversation_id as number;
    expect(await pushOf(riaUser.id)).toEqual({ type: 'message', title: 'Sam stuurde je een bericht op Rijpe Dates', body: 'Hoi Ria!', url: `http://rijpedates.nl/chats/${id}`, tag: `chat-${id}` });
    expect((await ria.client.post('/api/chat.php', { conversation_id: id, kind: 'text', text: 'Hoi Sam!', client_id: randomUUID() })).status).toBe(200);
    expect(await pushOf(samUser.id)).toEqual({ type: 'message', title: 'Ria stuurde je een bericht op Spetter', body: 'Hoi Sam!', url: `http://spetter.nl/chats/${id}`, tag: `chat-${id}` });
  });

  test('e-mails by preference, batched: one for the new conversation, one for new messages until read, a like mail, and a reminder for everything unread', async () => {
    const anna = await member('female');
    const bob = await member('male');
    const first = (await send(bob, { profile_id: anna.profileId }, 'Eerste')).json();
    await until('the new-conversation mail', () => mailsTo(rt, anna.email, 'mail_new_conversation').length === 1);
    const mail = mailsTo(rt, anna.email, 'mail_new_conversation')[0]!;
    expect(mail.subject).toContain(bob.body.name);
    expect(mail.link).toMatch(new RegExp(`/chats/${first.conversation_id}$`));
    expect(mail.headers['list-unsubscribe']).toMatch(/type=new_conversations/);

    // More messages while Anna has not read the first: the mail she has says it all.
    for (const text of ['Twee', 'Drie']) await send(bob, { conversation_id: first.conversation_id }, text);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(rt, anna.email, 'mail_new_message')).toHaveLength(0);
    // She reads; the next message is news again, once, however many follow.
    await anna.client.get(`/api/chat.php?id=${first.conversation_id}`);
    for (const text of ['Vier', 'Vijf', 'Zes']) await send(bob, { conversation_id: first.conversation_id }, text);
    await until('the new-message mail', () => mailsTo(rt, anna.email, 'mail_new_message').length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(rt, anna.email, 'mail_new_message')).toHaveLength(1);
    expect(mailsTo(rt, anna.email, 'mail_new_message')[0]!.subject).toBe(`Nieuw bericht van ${bob.body.name}`);

    // Likes: one mail, then none for a while.
    const carl = await member('male', 0);
    await bob.client.post('/api/like.php', { profile_id: anna.profileId });
    await until('the like mail', () => mailsTo(rt, anna.email, 'mail_like').length === 1);
    await carl.client.post('/api/like.php', { profile_id: anna.profileId });
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(rt, anna.email, 'mail_like')).toHaveLength(1);

    // Unread for longer than the reminder's wait: one reminder counting them all, then not again.
    await rt.db.db.updateTable('conversation_members').set({ last_message_at: new Date(Date.now() - (REMINDER_AFTER_H + 1) * 3_600_000).toISOString() }).where('profile_id', '=', anna.profileId).execute();
    await rt.services.notifier.remindUnread();
    const reminders = mailsTo(rt, anna.email, 'mail_unread_reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.subject).toContain('3 ongelezen');
    await rt.services.notifier.remindUnread();
    expect(mailsTo(rt, anna.email, 'mail_unread_reminder')).toHaveLength(1);
  });

  test('the one-click unsubscribe of a notification mail switches off that type only; a switched-off type sends nothing', async () => {
    const anna = await member('female');
    const bob = await member('male');
    const first = (await send(bob, { profile_id: anna.profileId })).json();
    await until('the mail', () => mailsTo(rt, anna.email, 'mail_new_conversation').length === 1);
    await anna.client.get(`/api/chat.php?id=${first.conversation_id}`);
    await send(bob, { conversation_id: first.conversation_id });
    const mail = await until('the new-message mail', () => mailsTo(rt, anna.email, 'mail_new_message')[0]);
    const unsubscribe = new URL(/<([^>]+)>/.exec(mail.headers['list-unsubscribe']!)![1]!);
    expect(unsubscribe.searchParams.get('type')).toBe('new_messages');
    const res = await hostFetch(rt, 'spetter', `${unsubscribe.pathname}${unsubscribe.search}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(res.status).toBe(200);
    const settings = (await anna.client.get('/api/notifications.php')).json();
    expect(settings, res.text + unsubscribe.search).toMatchObject({ email: { new_messages: false } });
    expect(settings.email.new_conversations).toBe(true);
    expect(settings.disabled).toEqual([{ type: 'new_messages', reason: 'listunsubscribe' }]);
    // Read, then a new message: no mail now.
    await anna.client.get(`/api/chat.php?id=${first.conversation_id}`);
    await send(bob, { conversation_id: first.conversation_id });
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(rt, anna.email, 'mail_new_message')).toHaveLength(1);
  });

  test('the sweep sends what was left behind, and a message to a fictional profile (nobody to tell) is done all the same', async () => {
    const anna = await member('female', 0);
    const bob = await member('male');
    const fictional = await rt.db.db.selectFrom('profiles').select('id').where('tenant_id', '=', 'spetter').where('fictional', '=', 1).where('listed', '=', 1).executeTakeFirstOrThrow();
    const toFiction = (await send(bob, { profile_id: fictional.id })).json();
    const toAnna = (await send(bob, { profile_id: anna.profileId })).json();
    await until('the mail', () => mailsTo(rt, anna.email, 'mail_new_conversation').length === 1);
    // As if the process had died before notifying: both unmarked and old.
    const old = new Date(Date.now() - 120_000).toISOString();
    await rt.db.db.updateTable('messages').set({ notified_at: null, created_at: old as never }).where('id', 'in', [toFiction.message.id, toAnna.message.id]).execute();
    await rt.db.db.updateTable('conversation_members').set({ mailed_id: 0 }).where('conversation_id', '=', toAnna.conversation_id).execute();
    expect(await rt.services.notifier.sweep()).toBe(2);
    expect(mailsTo(rt, anna.email, 'mail_new_conversation')).toHaveLength(2);
    const left = await rt.db.db.selectFrom('messages').select('id').where('id', 'in', [toFiction.message.id, toAnna.message.id]).where('notified_at', 'is', null).execute();
    expect(left).toEqual([]);
    expect(await rt.services.notifier.sweep()).toBe(0);

    // A mail that fails (the mail server down) neither stops the sweep nor comes back every minute.
    const carla = await member('female', 0);
    const dave = await member('male');
    const toCarla = (await send(dave, { profile_id: carla.profileId })).json();
    await until('the mail', () => mailsTo(rt, carla.email, 'mail_new_conversation').length === 1);
    await rt.db.db.updateTable('messages').set({ notified_at: null, created_at: old as never }).where('id', 'in', [toAnna.message.id, toCarla.message.id]).execute();
    await rt.db.db.updateTable('conversation_members').set({ mailed_id: 0 }).where('conversation_id', 'in', [toAnna.conversation_id, toCarla.conversation_id]).execute();
    const { mail } = rt.services;
    const realSend = mail.send;
    let attempts = 0;
    mail.send = async (m) => {
      attempts += 1;
      if (m.to === anna.email) throw new Error('smtp down');
      return realSend.call(mail, m);
    };
    try {
      expect(await rt.services.notifier.sweep()).toBe(2);
      expect(mailsTo(rt, carla.email, 'mail_new_conversation')).toHaveLength(2);
      expect(await rt.services.notifier.sweep()).toBe(0);
      expect(attempts).toBe(2);
    } finally {
      mail.send = realSend;
    }
  });

  test('the mail provider\'s bounce and spam events switch e-mail off with their reason; without the secret the webhook is not there', async () => {
    const anna = await member('female', 0);
    const post = (body: string, headers: Record<string, string> = {}) =>
      hostFetch(rt, 'spetter', '/api/mail-events.php', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect((await post(JSON.stringify({ event: 'bounce', email: anna.email }))).status).toBe(404);
    expect((await post(JSON.stringify({ event: 'bounce', email: anna.email }), { authorization: 'Bearer fout' })).status).toBe(404);
    const bounced = await post(JSON.stringify({ event: 'bounce', email: anna.email.toUpperCase() }), { authorization: 'Bearer geheim-webhook' });
    expect(bounced.status).toBe(200);
    expect(bounced.json()).toEqual({ ok: true, members: 1 });
    const settings = (await anna.client.get('/api/notifications.php')).json();
    expect(Object.values(settings.email).every((on) => on === false)).toBe(true);
    expect(new Set(settings.disabled.map((d: { reason: string }) => d.reason))).toEqual(new Set(['bounce']));
    expect((await anna.client.user()).notifications_disabled[0]).toEqual({ type: 'new_conversations', reason: 'bounce' });
    // A spam report as a form post with the key in the query: reason fbl.
    const spam = await hostFetch(rt, 'spetter', '/api/mail-events.php?key=geheim-webhook', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `event=spam&email=${encodeURIComponent(anna.email)}` });
    expect(spam.status).toBe(200);
    expect((await anna.client.get('/api/notifications.php')).json().disabled[0].reason).toBe('fbl');
    expect((await post(JSON.stringify({ event: 'party', email: anna.email }), { authorization: 'Bearer geheim-webhook' })).status).toBe(400);
  });
});
