/**
 * Fictional profiles and the fictional inbox of the console (issue 22, DESIGN §10, §11), on every
 * engine: an admin creates, edits, retires fictional profiles and uploads their photos (screened);
 * members' conversations with them wait in the inbox longest first; one claim per conversation
 * (many claims at once: exactly one wins; a claim runs out); a staff reply is the fictional
 * profile's chat message, free for the member and live on the member's stream; replies with
 * contact details or meeting words are refused and nothing is stored; no e-mail address or payment
 * data in any inbox answer; brand scope; the audit log; the console's event stream.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { INBOX_CLAIM_MINUTES } from '../../src/contract/inbox.ts';
import { initialPhotoStatus } from '../../src/lib/photo-screening.ts';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { apiError, PASSWORD, takeMail, useRuntime, type Client } from '../support/accounts.ts';
import { consoleClient, staffLogin, totpCode } from '../support/console.ts';
import { chatMember, sendText, type ChatMember } from '../support/chat.ts';
import { openEvents, until } from '../support/sse.ts';
import { sitegen } from '../support/cli.ts';

const IN = 'spetter';
const OUT = 'velvet';

const auditOf = (rt: TestRuntime, action: string, objectId: number | string) =>
  rt.db.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('object_id', '=', String(objectId)).orderBy('id').execute();

/** A new fictional profile made through the console by an admin of its brand. */
async function fictional(admin: Client, brand = IN, fields: Record<string, unknown> = {}): Promise<{ id: number; name: string }> {
  const name = `Lotte${Math.random().toString(36).slice(2, 7)}`;
  const res = await admin.post(`/api/console/fictional?brand=${brand}`, {
    name,
    gender: 'female',
    sexuality: 'hetero',
    birth_date: '1994-04-02',
    country: brand === OUT ? 'DE' : 'NL',
    city: 'Utrecht',
    about: 'Houdt van fietsen en lange gesprekken.',
    ...fields,
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${res.text}`);
  return { id: res.json().profile.id, name };
}

/** A member who wrote to a fictional profile: the conversation waits in the inbox. */
async function writes(rt: TestRuntime, profileId: number, text = 'Hoi, hoe is het?', tenant = IN): Promise<ChatMember & { conversationId: number }> {
  const m = await chatMember(rt, 'male', 100, { tenant });
  const res = await sendText(m, { profile_id: profileId }, { text });
  if (res.status !== 200) throw new Error(`send answered ${res.status}: ${res.text}`);
  return { ...m, conversationId: res.json().conversation_id };
}

const messagesIn = async (rt: TestRuntime, conversationId: number) =>
  rt.db.db.selectFrom('messages').select(['id', 'sender_profile_id', 'kind', 'body', 'credits']).where('conversation_id', '=', conversationId).orderBy('id').execute();

describe.each(engines())('fictional profiles and the fictional inbox on %s', (engine) => {
  const rt = useRuntime(engine);

  test('an admin creates, edits and retires a fictional profile: always fictional, listed, then not; its conversation stays readable and closed; all audited', async () => {
    const { client: admin } = await staffLogin(rt(), 'admin', [IN]);
    // Bad input: a clear 400, nothing made.
    const count = async () => Number((await rt().db.db.selectFrom('profiles').select((eb) => eb.fn.countAll<number>().as('n')).where('fictional', '=', 1).executeTakeFirstOrThrow()).n);
    const before = await count();
    const noName = await admin.post(`/api/console/fictional?brand=${IN}`, { gender: 'female', sexuality: 'hetero', birth_date: '1994-04-02', country: 'NL' });
    expect([noName.status, apiError(noName).field]).toEqual([400, 'name']);
    const young = await admin.post(`/api/console/fictional?brand=${IN}`, { name: 'Jong', gender: 'female', sexuality: 'hetero', birth_date: '2020-01-01', country: 'NL' });
    expect([young.status, apiError(young).field]).toEqual([400, 'birth_date']);
    expect(apiError(young).message).toMatch(/\S/);
    const noBrand = await admin.post('/api/console/fictional', { name: 'Zonder', gender: 'female', sexuality: 'hetero', birth_date: '1994-04-02', country: 'NL' });
    expect(noBrand.status).toBe(400);
    expect(await count()).toBe(before);

    const made = await fictional(admin);
    expect((await auditOf(rt(), 'fictional_create', made.id)).length).toBe(1);
    const row = await rt().db.db.selectFrom('profiles').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ fictional: 1, user_id: null, listed: 1, status: 'active', tenant_id: IN, retired_at: null });

    // Members see it, marked fictional, and write to it.
    const member = await writes(rt(), made.id);
    const seen = await member.client.get(`/api/member.php?id=${made.id}`);
    expect(seen.status).toBe(200);
    expect(seen.json().profile).toMatchObject({ id: made.id, fictional: true });

    // Listed with its conversation counts.
    const list = (await admin.get(`/api/console/fictional?brand=${IN}`)).json();
    expect(list.profiles.find((p: { id: number }) => p.id === made.id)).toMatchObject({ fictional: true, conversations: 1, waiting: 1, brand: IN });

    // Edited: every field a member's profile has, by the same rules.
    const edited = await admin.post(`/api/console/fictional/${made.id}`, { about: 'Nieuw verhaal.', hair_color: 'blond', interests: ['biking'] });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json().profile).toMatchObject({ about: 'Nieuw verhaal.', hair_color: 'blond', fictional: true });
    expect((await admin.post(`/api/console/fictional/${made.id}`, { hair_color: 'paars' })).status).toBe(400);
    expect((await admin.post(`/api/console/fictional/${made.id}`, { fictional: false })).status).toBe(400);
    expect((await auditOf(rt(), 'fictional_edit', made.id)).length).toBe(1);

    // Retired: a reason is needed; then gone from listings and the profile page, the conversation readable and closed.
    expect((await admin.post(`/api/console/fictional/${made.id}/retire`, {})).status).toBe(400);
    const retired = await admin.post(`/api/console/fictional/${made.id}/retire`, { reason: 'Persona loopt af' });
    expect(retired.status, retired.text).toBe(200);
    expect(retired.json().profile.retired_at).not.toBeNull();
    expect((await admin.post(`/api/console/fictional/${made.id}/retire`, { reason: 'Nog eens' })).status).toBe(409);
    expect((await member.client.get(`/api/member.php?id=${made.id}`)).status).toBe(404);
    const chat = (await member.client.get(`/api/chat.php?id=${member.conversationId}`)).json();
    expect(chat).toMatchObject({ can_send: false, reply_block: 'retired', profile: { id: made.id, fictional: true } });
    expect(chat.conversation.messages).toHaveLength(1);
    const closed = await sendText(member, { conversation_id: member.conversationId });
    expect([closed.status, apiError(closed).code]).toEqual([409, 'profile_retired']);
    expect(await messagesIn(rt(), member.conversationId)).toHaveLength(1);
    expect((await member.client.get('/api/chats.php')).json().chats.map((c: { conversation: { id: number } }) => c.conversation.id)).toContain(member.conversationId);
    // Out of the inbox and the active list; in the retired list.
    const inbox = (await admin.get(`/api/console/inbox?brand=${IN}`)).json();
    expect(inbox.conversations.map((c: { id: number }) => c.id)).not.toContain(member.conversationId);
    expect((await admin.get(`/api/console/fictional?brand=${IN}`)).json().profiles.map((p: { id: number }) => p.id)).not.toContain(made.id);
    expect((await admin.get(`/api/console/fictional?brand=${IN}&retired=1`)).json().profiles.map((p: { id: number }) => p.id)).toContain(made.id);
    expect((await auditOf(rt(), 'fictional_retire', made.id))[0]).toMatchObject({ reason: 'Persona loopt af', brand: IN });
  });

  test("a fictional profile's photos go through the brand's screening like a member's; main and delete; a moderator may not", async () => {
    const { client: admin } = await staffLogin(rt(), 'admin', [IN]);
    const made = await fictional(admin);
    const jpeg = await sharp({ create: { width: 320, height: 320, channels: 3, background: { r: 200, g: 90, b: 140 } } }).jpeg().toBuffer();
    const up = await admin.upload(`/api/console/fictional/${made.id}/photos`, jpeg);
    expect(up.status, up.text).toBe(200);
    const tenant = rt().services.tenants().find((t) => t.id === IN)!;
    const [photo] = up.json().photos;
    expect(photo).toMatchObject({ status: initialPhotoStatus(tenant.photo_moderation), main: true });
    // In the brand's photo queue like any photo waiting for review.
    const waiting = await rt().db.db.selectFrom('photos').select(['status', 'reviewed_at']).where('id', '=', photo.id).executeTakeFirstOrThrow();
    expect(waiting.reviewed_at).toBeNull();
    // Not a photo: refused, nothing stored.
    const bad = await admin.upload(`/api/console/fictional/${made.id}/photos`, Buffer.from('geen foto'), 'photo', 'text/plain');
    expect(bad.status).toBe(400);
    const json = await admin.post(`/api/console/fictional/${made.id}/photos`, { photo: 'x' });
    expect(json.status).toBe(415);
    const second = (await admin.upload(`/api/console/fictional/${made.id}/photos`, await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 9, g: 9, b: 200 } } }).jpeg().toBuffer())).json().photos;
    expect(second).toHaveLength(2);
    const other = second.find((p: { id: number }) => p.id !== photo.id);
    const main = await admin.post(`/api/console/fictional/${made.id}/photos/${other.id}`, { action: 'main' });
    expect(main.json().photos.find((p: { id: number }) => p.id === other.id).main).toBe(true);
    const deleted = await admin.post(`/api/console/fictional/${made.id}/photos/${photo.id}`, { action: 'delete' });
    expect(deleted.json().photos.map((p: { id: number }) => p.id)).toEqual([other.id]);
    expect((await auditOf(rt(), 'fictional_photo_upload', made.id)).length).toBe(2);
    // A member's profile is not a fictional one: 404.
    const m = await chatMember(rt(), 'female', 0);
    expect((await admin.upload(`/api/console/fictional/${m.profileId}/photos`, jpeg)).status).toBe(404);
    const { client: moderator } = await staffLogin(rt(), 'moderator', [IN]);
    expect((await moderator.upload(`/api/console/fictional/${made.id}/photos`, jpeg)).status).toBe(403);
  });

  test('the inbox: waiting longest first with keyset paging; a second message keeps the wait; an answered conversation leaves it', async () => {
    const { client: admin } = await staffLogin(rt(), 'admin', [IN]);
    const { client: moderator } = await staffLogin(rt(), 'moderator', [IN]);
    const persona = await fictional(admin);
    const first = await writes(rt(), persona.id, 'Eerste');
    const second = await writes(rt(), persona.id, 'Tweede');
    const third = await writes(rt(), persona.id, 'Derde');
    // The first member writes again: their conversation still waits since their first message.
    await sendText(first, { conversation_id: first.conversationId }, { text: 'Ben je er nog?' });
    const ids = [first, second, third].map((m) => m.conversationId);

    const page = (await moderator.get(`/api/console/inbox?brand=${IN}`)).json();
    const mine = page.conversations.filter((c: { id: number }) => ids.includes(c.id));
    expect(mine.map((c: { id: number }) => c.id)).toEqual(ids);
    const waits = page.conversations.map((c: { waiting_since: string }) => c.waiting_since);
    expect([...waits].sort()).toEqual(waits);
    expect(mine[0]).toMatchObject({ brand: IN, unanswered: 2, last_message: { kind: 'text', text: 'Ben je er nog?' }, fictional: { id: persona.id, fictional: true }, member: { id: first.profileId, fictional: false, premium: false }, claim: null });
    expect(mine[0].member.credits_spent_fictional).toBe(2 * rt().services.tenants().find((t) => t.id === IN)!.message_credits);
    // Keyset: the page after the first conversation starts with the second.
    const at = mine[0];
    const after = (await moderator.get(`/api/console/inbox?brand=${IN}&after=${encodeURIComponent(`${at.waiting_since}.${at.id}`)}`)).json();
    expect(after.conversations.map((c: { id: number }) => c.id)).not.toContain(first.conversationId);
    expect(after.conversations.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([second.conversationId, third.conversationId]));
    expect((await moderator.get(`/api/console/inbox?after=gisteren`)).status).toBe(400);

    // Answered: out of the inbox; the member writes again: back in, waiting since the new message.
    expect((await moderator.post(`/api/console/inbox/${second.conversationId}/claim`)).status).toBe(200);
    expect((await moderator.post(`/api/console/inbox/${second.conversationId}`, { text: 'Hoi! Leuk dat je schrijft.' })).status).toBe(200);
    const without = (await moderator.get(`/api/console/inbox?brand=${IN}`)).json().conversations.map((c: { id: number }) => c.id);
    expect(without).not.toContain(second.conversationId);
    await sendText(second, { conversation_id: second.conversationId }, { text: 'Wat leuk!' });
    const back = (await moderator.get(`/api/console/inbox?brand=${IN}`)).json().conversations.map((c: { id: number }) => c.id);
    expect(back.indexOf(second.conversationId)).toBeGreaterThan(back.indexOf(third.conversationId));

    // The header's figures: waiting count and a time to first answer.
    const stats = (await moderator.get(`/api/console/inbox/stats?brand=${IN}`)).json();
    expect(stats.brands).toHaveLength(1);
    expect(stats.brands[0]).toMatchObject({ brand: IN });
    expect(stats.brands[0].waiting).toBeGreaterThanOrEqual(3);
    expect(stats.brands[0].first_answer_median_seconds).toEqual(expect.any(Number));
    expect(stats.brands[0].answered_sample).toBeGreaterThanOrEqual(1);
  });

  test('claims: of many claims at once exactly one wins; the others get 409; release; a claim past its minutes is free again; all audited', async () => {
    const { client: admin } = await staffLogin(rt(), 'admin', [IN]);
    const persona = await fictional(admin);
    const m = await writes(rt(), persona.id);
    const staff = await Promise.all(Array.from({ length: 6 }, () => staffLogin(rt(), 'moderator', [IN])));
    const answers = await Promise.all(staff.map((s) => s.client.post(`/api/console/inbox/${m.conversationId}/claim`)));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a) => apiError(a).code)).toEqual(Array(5).fill('inbox_claimed'));
    const winner = staff[answers.indexOf(won[0]!)]!;
    const loser = staff.find((s) => s !== winner)!;
    expect(won[0]!.json().claim).toMatchObject({ by: { id: winner.id, email: winner.email } });
    const minutes = (Date.parse(won[0]!.json().claim.until) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(INBOX_CLAIM_MINUTES - 1);
    expect(minutes).toBeLessThanOrEqual(INBOX_CLAIM_MINUTES);
    expect((await auditOf(rt(), 'inbox_claim', m.conversationId)).map((e) => e.staff_id)).toEqual([winner.id]);

    // The list and the conversation show who holds it; the holder renews; another is refused the reply and the release.
    const item = (await loser.client.get(`/api/console/inbox?brand=${IN}`)).json().conversations.find((c: { id: number }) => c.id === m.conversationId);
    expect(item.claim).toMatchObject({ by: { id: winner.id } });
    expect((await winner.client.post(`/api/console/inbox/${m.conversationId}/claim`)).status).toBe(200);
    const refused = await loser.client.post(`/api/console/inbox/${m.conversationId}`, { text: 'Hallo daar' });
    expect([refused.status, apiError(refused).code]).toEqual([409, 'inbox_claimed']);
    expect((await loser.client.post(`/api/console/inbox/${m.conversationId}/release`)).status).toBe(409);
    expect(await messagesIn(rt(), m.conversationId)).toHaveLength(1);

    // Released: free for another; audited.
    expect((await winner.client.post(`/api/console/inbox/${m.conversationId}/release`)).status).toBe(200);
    expect((await auditOf(rt(), 'inbox_release', m.conversationId)).map((e) => e.staff_id)).toEqual([winner.id]);
    const noClaim = await winner.client.post(`/api/console/inbox/${m.conversationId}`, { text: 'Hallo daar' });
    expect([noClaim.status, apiError(noClaim).code]).toEqual([409, 'inbox_claim_needed']);
    expect((await loser.client.post(`/api/console/inbox/${m.conversationId}/claim`)).status).toBe(200);

    // A claim whose time has run out (the holder went away) is nobody's: another takes it, the old holder cannot reply.
    await rt().db.db.updateTable('conversations').set({ claimed_until: new Date(Date.now() - 1000).toISOString() }).where('id', '=', m.conversationId).execute();
    expect((await loser.client.get(`/api/console/inbox/${m.conversationId}`)).json().claim).toBeNull();
    const late = await loser.client.post(`/api/console/inbox/${m.conversationId}`, { text: 'Sorry, ik was even weg' });
    expect([late.status, apiError(late).code]).toEqual([409, 'inbox_claim_needed']);
    expect((await winner.client.post(`/api/console/inbox/${m.conversationId}/claim`)).status).toBe(200);
    expect(await messagesIn(rt(), m.conversationId)).toHaveLength(1);
  });

  test("a staff reply is the fictional profile's message: free for the member, live on the member's stream, mailed by preference; gifts and screened photos too", async () => {
    const { client: admin } = await staffLogin(rt(), 'admin', [IN]);
    const moderator = await staffLogin(rt(), 'moderator', [IN]);
    const persona = await fictional(admin);
    const m = await writes(rt(), persona.id);
    const credits = async () => (await rt().db.db.selectFrom('users').select('credits').where('id', '=', m.userId).executeTakeFirstOrThrow()).credits;
    const ledger = async () => (await rt().db.db.selectFrom('credit_ledger').select('id').where('user_id', '=', m.userId).execute()).length;
    const [creditsBefore, ledgerBefore] = [await credits(), await ledger()];
    const tab = await openEvents(m.client);
    await until('the member stream is ready', () => tab.events.some((e) => e.type === 'ready'));

    expect((await moderator.client.post(`/api/console/inbox/${m.conversationId}/claim`)).status).toBe(200);
    const res = await moderator.client.post(`/api/console/inbox/${m.conversationId}`, { text: '  Hoi! Wat leuk dat je schrijft.  ', client_id: randomUUID() });
    expect(res.status, res.text).toBe(200);
    const reply = res.json().message;
    expect(reply).toMatchObject({ from: 'fictional', kind: 'text', text: 'Hoi! Wat leuk dat je schrijft.' });
    const stored = (await messagesIn(rt(), m.conversationId)).at(-1)!;
    expect(stored).toMatchObject({ id: reply.id, sender_profile_id: persona.id, credits: 0 });
    await until('the reply on the member stream', () => tab.events.some((e) => e.type === 'message' && e.data.message_id === reply.id));
    tab.close();
    expect([await credits(), await ledger()]).toEqual([creditsBefore, ledgerBefore]);
    // The member's chat shows it from the fictional profile, marked fictional.
    const chat = (await m.client.get(`/api/chat.php?id=${m.conversationId}`)).json();
    expect(chat.profile).toMatchObject({ id: persona.id, fictional: true });
    expect(chat.conversation.messages.at(-1)).toMatchObject({ id: reply.id, mine: false, text: 'Hoi! Wat leuk dat je schrijft.' });
    // Mailed as a member's message would be (the member's new_messages preference).
    await until('the new-message mail', () => {
      try {
        return takeMail(rt(), m.email, 'mail_new_message');
      } catch {
        return undefined;
      }
    });
    expect((await auditOf(rt(), 'inbox_reply', m.conversationId))[0]).toMatchObject({ staff_id: moderator.id, brand: IN });

    // A gift, and one of the profile's own approved photos: free as well.
    const gifts = (await moderator.client.get(`/api/console/inbox/${m.conversationId}`)).json().reply.gifts as string[];
    const gift = await moderator.client.post(`/api/console/inbox/${m.conversationId}`, { gift: gifts[0] });
    expect(gift.status, gift.text).toBe(200);
    expect(gift.json().message).toMatchObject({ kind: 'gift', gift: { id: gifts[0], credits: 0 } });
    expect((await moderator.client.post(`/api/console/inbox/${m.conversationId}`, { gift: 'diamant-xxl' })).status).toBe(400);
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 1, g: 120, b: 50 } } }).jpeg().toBuffer();
    const photo = (await admin.upload(`/api/console/fictional/${persona.id}/photos`, jpeg)).json().photos[0];
    if (photo.status !== 'active') {
      // Waiting for screening: not sendable yet.
      expect((await moderator.client.post(`/api/console/inbox/${m.conversationId}`, { photo: photo.id })).status).toBe(400);
      await rt().db.db.updateTable('photos').set({ status: 'active', reviewed_at: new Date().toISOString() }).where('id', '=', photo.id).execute();
    }
    const sent = await moderator.client.post(`/api/console/inbox/${m.conversationId}`, { photo: photo.id });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json().message).toMatchObject({ kind: 'photo', photo: { url: expect.stringContaining('/media/') } });
    expect([await credits(), await ledger()]).toEqual([creditsBefore, ledgerBefore]);
    // Nothing waits any more.
    expect((await rt().db.db.selectFrom('conversations').select(['waiting_since', 'first_answer_at']).where('id', '=', m.conversationId).executeTakeFirstOrThrow()).waiting_since).toBeNull();
  });

  test.each([
    ['a phone number', 'Bel me op 06 12345678', '06 12345678'],
    ['an e-mail address', 'Mail me: lotte@example.com', 'lotte@example.com'],
    ['a link', 'Kijk op https://example.com/lotte', 'https://example.com/lotte'],
    ['a meeting word', 'Zullen we morgen afspreken?', 'afspreken'],
  ])('a reply with %s is refused with what was found, and nothing is stored', async (_what, text, found) => {
    const { client: admin } = await staffLogin(rt(), 'admin', [IN]);
    const moderator = await staffLogin(rt(), 'moderator', [IN]);
    const persona = await fictional(admin);
    const m = await writes(rt(), persona.id);
    await moderator.client.post(`/api/console/inbox/${m.conversationId}/claim`);
    const res = await moderator.client.post(`/api/console/inbox/${m.conversationId}`, { text }, { 'accept-language': 'nl' });
    expect(res.status).toBe(400);
    expect(apiError(res)).toMatchObject({ code: 'inbox_reply_refused', field: 'text' });
    expect(apiError(res).message).toContain(found);
    expect(apiError(res).message).toMatch(/niet verstuurd/);
    expect(res.json().found.text).toBe(found);
    expect(await messagesIn(rt(), m.conversationId)).toHaveLength(1);
    expect(await auditOf(rt(), 'inbox_reply', m.conversationId)).toEqual([]);
    // Bad bodies: 400, nothing stored.
    for (const body of [{}, { text: '' }, { text: 'x', gift: 'rose' }, { text: 5 }, { photo: 'abc' }]) {
      expect((await moderator.client.post(`/api/console/inbox/${m.conversationId}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await messagesIn(rt(), m.conversationId)).toHaveLength(1);
  });

  test('no e-mail address and no payment data in any inbox answer', async () => {
    const { client: admin } = await staffLogin(rt(), 'admin', [IN]);
    const owner = await staffLogin(rt(), 'owner');
    const persona = await fictional(admin);
    const m = await writes(rt(), persona.id);
    await rt().db.db.updateTable('users').set({ paid_user: 1 }).where('id', '=', m.userId).execute();
    const answers = [
      await owner.client.get(`/api/console/inbox?brand=${IN}`),
      await owner.client.get(`/api/console/inbox`),
      await owner.client.get(`/api/console/inbox/${m.conversationId}`),
      await owner.client.post(`/api/console/inbox/${m.conversationId}/claim`),
      await owner.client.post(`/api/console/inbox/${m.conversationId}`, { text: 'Hoi daar!' }),
      await owner.client.get(`/api/console/fictional/${persona.id}`),
    ];
    for (const res of answers) {
      expect(res.status, res.text).toBe(200);
      expect(res.text).not.toContain(m.email);
      expect(res.text).not.toMatch(/payment|amount|iban|mandate|invoice/i);
    }
    const card = answers[2]!.json().member;
    expect(card).toMatchObject({ id: m.profileId, premium: true });
    expect(Object.keys(card)).not.toContain('email');
  });

  test("brand scope: another brand's conversation and profile are 404, its waiting conversations are not listed", async () => {
    const { client: adminOut } = await staffLogin(rt(), 'admin', [OUT]);
    const persona = await fictional(adminOut, OUT);
    const m = await writes(rt(), persona.id, 'Hallo', OUT);
    const { client: moderator } = await staffLogin(rt(), 'moderator', [IN]);
    expect((await moderator.get(`/api/console/inbox/${m.conversationId}`)).status).toBe(404);
    expect((await moderator.post(`/api/console/inbox/${m.conversationId}/claim`)).status).toBe(404);
    expect((await moderator.post(`/api/console/inbox/${m.conversationId}`, { text: 'Hoi' })).status).toBe(404);
    expect((await moderator.get(`/api/console/fictional/${persona.id}`)).status).toBe(404);
    expect((await moderator.get(`/api/console/inbox?brand=${OUT}`)).status).toBe(404);
    const listed = (await moderator.get('/api/console/inbox')).json().conversations;
    expect(listed.every((c: { brand: string }) => c.brand === IN)).toBe(true);
    expect((await moderator.get('/api/console/inbox/stats')).json().brands.map((b: { brand: string }) => b.brand)).toEqual([IN]);
    // A member's own conversation (no fictional profile) is not an inbox conversation.
    const a = await chatMember(rt(), 'female');
    const b = await chatMember(rt(), 'male');
    const between = (await sendText(b, { profile_id: a.profileId })).json().conversation_id;
    const { client: owner } = await staffLogin(rt(), 'owner');
    expect((await owner.get(`/api/console/inbox/${between}`)).status).toBe(404);
    expect((await owner.post(`/api/console/inbox/${between}/claim`)).status).toBe(404);
  });

  test("the console's event stream tells of a member's message, a claim, a release and a reply, within the staff member's brands", async () => {
    const { client: admin } = await staffLogin(rt(), 'admin', [IN]);
    const moderator = await staffLogin(rt(), 'moderator', [IN]);
    const other = await staffLogin(rt(), 'moderator', [OUT]);
    const support = await staffLogin(rt(), 'support', [IN]);
    const persona = await fictional(admin);
    const streams = await Promise.all([moderator, other, support].map((s) => openEvents(s.client, { path: '/api/console/events' })));
    await until('the console streams are ready', () => streams.every((s) => s.events.some((e) => e.type === 'ready')));
    const [mine, theirs, supports] = streams as [Awaited<ReturnType<typeof openEvents>>, Awaited<ReturnType<typeof openEvents>>, Awaited<ReturnType<typeof openEvents>>];
    const m = await writes(rt(), persona.id);
    const seen = (type: string) => () => mine.events.some((e) => e.type === type && e.data.conversation_id === m.conversationId);
    await until('the member message', seen('inbox_message'));
    await moderator.client.post(`/api/console/inbox/${m.conversationId}/claim`);
    await until('the claim', seen('inbox_claim'));
    await moderator.client.post(`/api/console/inbox/${m.conversationId}/release`);
    await until('the release', seen('inbox_release'));
    await moderator.client.post(`/api/console/inbox/${m.conversationId}/claim`);
    await moderator.client.post(`/api/console/inbox/${m.conversationId}`, { text: 'Hoi!' });
    await until('the reply', seen('inbox_reply'));
    // Ids only.
    expect(mine.events.find((e) => e.type === 'inbox_reply')!.data).toEqual({ type: 'inbox_reply', brand: IN, conversation_id: m.conversationId });
    // Another brand's staff and a role without the inbox hear none of it.
    expect(theirs.events.filter((e) => e.type.startsWith('inbox_'))).toEqual([]);
    expect(supports.events.filter((e) => e.type.startsWith('inbox_'))).toEqual([]);
    for (const s of streams) s.close();
    // No staff session: no stream.
    const { res } = await openEvents(consoleClient(rt()), { path: '/api/console/events' });
    expect(res.statusCode).toBe(401);
  });

  test("a staff member's console stream ends with their session: a logout (that session only), a role changed, a removal", async () => {
    const { client: owner } = await staffLogin(rt(), 'owner');
    const loggingOut = await staffLogin(rt(), 'moderator', [IN]);
    const changed = await staffLogin(rt(), 'moderator', [IN]);
    const removed = await staffLogin(rt(), 'moderator', [IN]);
    // The first one's second session, in another browser (the next code: a code is used once).
    const elsewhere = consoleClient(rt());
    expect((await elsewhere.post('/api/console/login', { email: loggingOut.email, password: PASSWORD, code: totpCode(loggingOut.secret, 1) })).status).toBe(200);
    const [out, kept, role, gone] = await Promise.all([loggingOut.client, elsewhere, changed.client, removed.client].map((c) => openEvents(c, { path: '/api/console/events' })));
    const streams = [out!, kept!, role!, gone!];
    await until('the console streams are ready', () => streams.every((s) => s.events.some((e) => e.type === 'ready')));
    const ended = (s: (typeof streams)[number]) => until('the stream to end', () => s.res.complete && s.events.some((e) => e.type === 'session_ended'));

    expect((await loggingOut.client.post('/api/console/logout')).status).toBeLessThan(300);
    await ended(out!);
    expect((await owner.post(`/api/console/staff/${changed.id}/role`, { role: 'support', brands: [IN] })).status).toBe(200);
    await ended(role!);
    expect((await owner.post(`/api/console/staff/${removed.id}/remove`)).status).toBe(200);
    await ended(gone!);
    // The other session of the member who logged out hears on.
    expect(kept!.res.complete).toBe(false);
    expect(kept!.events.map((e) => e.type)).toEqual(['ready']);
    for (const s of streams) s.close();
    // Reconnecting, an ended session gets no stream.
    for (const c of [loggingOut.client, changed.client, removed.client]) expect((await openEvents(c, { path: '/api/console/events' })).res.statusCode).toBe(401);
  });

  test("`sitegen staff role|remove` from the command line ends that staff member's open console streams", async () => {
    const { client: admin } = await staffLogin(rt(), 'admin', [IN]);
    const lotte = await fictional(admin);
    const changed = await staffLogin(rt(), 'moderator', [IN]);
    const removed = await staffLogin(rt(), 'moderator', [IN]);
    const watching = await staffLogin(rt(), 'moderator', [IN]);
    const [role, gone, kept] = await Promise.all([changed.client, removed.client, watching.client].map((c) => openEvents(c, { path: '/api/console/events' })));
    const streams = [role!, gone!, kept!];
    await until('the console streams are ready', () => streams.every((s) => s.events.some((e) => e.type === 'ready')));
    const cli = async (...args: string[]) => {
      const run = await sitegen(['staff', ...args], rt().cliEnv);
      expect(run.code, run.stderr).toBe(0);
    };
    await cli('role', changed.email, 'support', '--brands', IN);
    await cli('remove', removed.email);
    // On PostgreSQL the command's NOTIFY ends them at once; on SQLite (no bus between processes) the
    // stream finds out before it passes on its next event: a member's message to the inbox, here.
    if (engine === 'sqlite') await writes(rt(), lotte.id);
    for (const s of [role!, gone!]) await until('the stream to end', () => s.res.complete && s.events.some((e) => e.type === 'session_ended'), 15_000);
    // The others hear on.
    await writes(rt(), lotte.id);
    await until('the watching moderator hears the inbox', () => kept!.events.some((e) => e.type === 'inbox_message'));
    expect(kept!.res.complete).toBe(false);
    for (const s of streams) s.close();
    for (const c of [changed.client, removed.client]) expect((await openEvents(c, { path: '/api/console/events' })).res.statusCode).toBe(401);
  });
});
