/**
 * Photo screening and complaints in the console (issue 22), on every engine, through the console's
 * JSON API as staff call it: the queues, decisions with reasons from the declared lists, brand
 * scope, the audit log, a rejected chat photo's credits coming back, the statements both members
 * get in their own language, and a suspension that takes effect at once. Bad input is a 4xx with
 * a message and changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { Client, PASSWORD, apiError, mailsTo, useRuntime } from '../support/accounts.ts';
import { staffLogin } from '../support/console.ts';
import { screeningMember, sendChatPhoto, uploadPhoto, type Member } from '../support/moderation.ts';
import { openEvents, until } from '../support/sse.ts';
import { grant } from '../../src/server/ledger.ts';

/** The audit entries of an action, newest first. */
const auditOf = (rt: TestRuntime, action: string) => rt.db.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id', 'desc').execute();
const photoRow = (rt: TestRuntime, id: number) => rt.db.db.selectFrom('photos').select(['status', 'reject_reason', 'reviewed_by']).where('id', '=', id).executeTakeFirstOrThrow();
const complaintRow = (rt: TestRuntime, id: number) => rt.db.db.selectFrom('complaints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** The newest photo of a member's own list. */
const newest = (res: { json(): any }) => (res.json().photos as { id: number }[]).reduce((a, b) => (a.id > b.id ? a : b));

async function credit(rt: TestRuntime, m: Member, credits: number) {
  await grant(rt.db.db, { userId: m.userId, credits, reason: 'bonus', ref: `moderation-${randomUUID()}` });
}

describe.each(engines())('photo screening in the console on %s', (engine) => {
  const rt = useRuntime(engine);

  test('a moderator reads the queue oldest first, sees a pending photo, approves and rejects with a reason from the list; the owner is told why; every decision audited', async () => {
    const anna = await screeningMember(rt(), 'female');
    const bob = await screeningMember(rt(), 'male');
    const first = newest(await uploadPhoto(anna.client));
    const second = newest(await uploadPhoto(anna.client));
    const mod = await staffLogin(rt(), 'moderator', ['spetter']);

    const queue = await mod.client.get('/api/console/photos?brand=spetter&limit=200');
    expect(queue.status).toBe(200);
    const ids = (queue.json().photos as { id: number }[]).map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    const item = queue.json().photos.find((p: { id: number }) => p.id === first.id);
    expect(item).toMatchObject({ kind: 'profile', status: 'pending', member: { user_id: anna.userId, profile_id: anna.profileId, brand: 'spetter', fictional: false } });
    expect(queue.text).not.toContain(anna.email);
    expect(queue.json().counts).toEqual([expect.objectContaining({ brand: 'spetter', photos: expect.any(Number) })]);

    // The pending photo, for staff only: the image at the staff media path, never kept by a cache.
    const image = await mod.client.get(item.url);
    expect([image.status, image.headers['content-type'], image.headers['cache-control']]).toEqual([200, 'image/webp', 'private, no-store']);
    expect(image.body.subarray(8, 12).toString()).toBe('WEBP');
    expect((await mod.client.get(item.thumb_url)).status).toBe(200);

    // Bad input: 400 with a message, and the photo still waits with no entry in the audit log.
    for (const [body, field] of [
      [{ status: 'rejected' }, 'reason'],
      [{ status: 'rejected', reason: 'ugly' }, 'reason'],
      [{ status: 'maybe' }, 'status'],
      [{}, 'status'],
    ] as const) {
      const bad = await mod.client.post(`/api/console/photos/${second.id}`, body);
      expect([bad.status, apiError(bad).field], JSON.stringify(body)).toEqual([400, field]);
      expect(apiError(bad).message).toBeTruthy();
    }
    expect(apiError(await mod.client.post(`/api/console/photos/${second.id}`, { status: 'rejected' })).message).toBe('Choose a reason to reject this photo.');
    expect((await mod.client.post('/api/console/photos/abc', { status: 'active' })).status).toBe(400);
    expect((await photoRow(rt(), second.id)).status).toBe('pending');
    expect((await auditOf(rt(), 'photo_reject')).filter((e) => e.staff_id === mod.id)).toEqual([]);

    const approved = await mod.client.post(`/api/console/photos/${first.id}`, { status: 'active' });
    expect(approved.json()).toEqual({ id: first.id, status: 'active' });
    expect((await bob.client.get(`/api/member.php?id=${anna.profileId}`)).json().profile.photo_count).toBe(1);
    const rejected = await mod.client.post(`/api/console/photos/${second.id}`, { status: 'rejected', reason: 'contact_details' });
    expect(rejected.json()).toEqual({ id: second.id, status: 'rejected' });
    const again = await mod.client.post(`/api/console/photos/${second.id}`, { status: 'active' });
    expect([again.status, apiError(again).code]).toEqual([409, 'photo_already_decided']);

    // The owner is told why: by mail in her language (Dutch), and beside the photo on /profile.
    const mail = await until('the statement of reasons is mailed', () => mailsTo(rt(), anna.email, 'mail_photo_rejected')[0]);
    expect(mail.text).toContain('de foto bevat contactgegevens');
    expect((await anna.client.get('/api/photos.php')).json().photos.find((p: { id: number }) => p.id === second.id)).toMatchObject({ status: 'rejected', reason: 'contact_details' });

    const [approveEntry] = (await auditOf(rt(), 'photo_approve')).filter((e) => e.staff_id === mod.id);
    expect(approveEntry).toMatchObject({ role: 'moderator', brand: 'spetter', object_type: 'photo', object_id: String(first.id), reason: null, details: JSON.stringify({ member_id: anna.userId }) });
    const [rejectEntry] = (await auditOf(rt(), 'photo_reject')).filter((e) => e.staff_id === mod.id);
    expect(rejectEntry).toMatchObject({ role: 'moderator', brand: 'spetter', object_type: 'photo', object_id: String(second.id), reason: 'contact_details' });
  });

  test('brand scope: another brand\'s photo is not found for a scoped moderator, and nothing changes', async () => {
    const anna = await screeningMember(rt(), 'female');
    const photo = newest(await uploadPhoto(anna.client));
    const velvetOnly = await staffLogin(rt(), 'moderator', ['velvet']);
    expect((await velvetOnly.client.post(`/api/console/photos/${photo.id}`, { status: 'active' })).status).toBe(404);
    expect((await velvetOnly.client.post('/api/console/photos/approve', { ids: [photo.id] })).status).toBe(404);
    const queue = (await velvetOnly.client.get('/api/console/photos')).json();
    expect(queue.photos.every((p: { member: { brand: string } }) => p.member.brand === 'velvet')).toBe(true);
    expect(queue.counts.every((c: { brand: string }) => c.brand === 'velvet')).toBe(true);
    const path = (await rt().services.moderation.photoQueue({ brands: ['spetter'], status: 'pending', limit: 200 })).photos.find((p) => p.id === photo.id)!.url;
    expect((await velvetOnly.client.get(path)).status).toBe(404);
    expect((await photoRow(rt(), photo.id)).status).toBe('pending');
    // A member's own session on the brand never reaches a staff path.
    expect((await hostFetch(rt(), 'spetter', path, { headers: { cookie: anna.client.cookieHeader() } })).status).toBe(404);
  });

  test('bulk approve of the photos on screen: each approved and audited; one decided meanwhile skipped; bad input 400', async () => {
    const anna = await screeningMember(rt(), 'female');
    const a = newest(await uploadPhoto(anna.client));
    const b = newest(await uploadPhoto(anna.client));
    const admin = await staffLogin(rt(), 'admin');
    for (const body of [{ ids: [] }, { ids: ['1'] }, { ids: [0] }, {}]) expect((await admin.client.post('/api/console/photos/approve', body)).status, JSON.stringify(body)).toBe(400);
    const res = await admin.client.post('/api/console/photos/approve', { ids: [a.id, b.id] });
    expect(res.json()).toEqual({ approved: [a.id, b.id], skipped: [] });
    expect((await admin.client.post('/api/console/photos/approve', { ids: [a.id] })).json()).toEqual({ approved: [], skipped: [a.id] });
    const entries = (await auditOf(rt(), 'photo_approve')).filter((e) => e.staff_id === admin.id).map((e) => e.object_id);
    expect(entries.sort()).toEqual([String(a.id), String(b.id)].sort());
  });

  test('the chat photo queue: a rejected chat photo gives its credits back through the ledger, with the reason, audited', async () => {
    const anna = await screeningMember(rt(), 'female');
    const bob = await screeningMember(rt(), 'male');
    await credit(rt(), bob, 100);
    const before = (await bob.client.user()).credits as number;
    const sent = await sendChatPhoto(bob.client, anna.profileId);
    expect(sent.status).toBe(200);
    const messageId = sent.json().message.id as number;
    const paid = before - ((await bob.client.user()).credits as number);
    expect(paid).toBeGreaterThan(0);

    const mod = await staffLogin(rt(), 'moderator', ['spetter']);
    const queue = (await mod.client.get('/api/console/chat-photos?brand=spetter&limit=200')).json();
    const item = queue.photos.find((p: { id: number }) => p.id === messageId);
    expect(item).toMatchObject({ kind: 'chat', status: 'pending', conversation_id: sent.json().conversation_id, member: { user_id: bob.userId, brand: 'spetter' } });
    expect((await mod.client.get(item.url)).status).toBe(200);
    expect((await mod.client.post(`/api/console/chat-photos/${messageId}`, { status: 'rejected' })).status).toBe(400);
    expect((await bob.client.user()).credits).toBe(before - paid);

    expect((await mod.client.post(`/api/console/chat-photos/${messageId}`, { status: 'rejected', reason: 'nudity_in_profile' })).json()).toEqual({ id: messageId, status: 'rejected' });
    expect((await bob.client.user()).credits).toBe(before);
    const ledger = await rt().db.db.selectFrom('credit_ledger').select(['delta', 'reason']).where('user_id', '=', bob.userId).where('ref', '=', String(messageId)).orderBy('id').execute();
    expect(ledger).toEqual([
      { delta: -paid, reason: 'photo' },
      { delta: paid, reason: 'not_delivered' },
    ]);
    // The member's transactions list it.
    expect((await bob.client.get('/api/transactions.php')).json().transactions.some((t: { reason: string; credits: number }) => t.reason === 'not_delivered' && t.credits === paid)).toBe(true);
    expect((await auditOf(rt(), 'chat_photo_reject'))[0]).toMatchObject({ staff_id: mod.id, object_type: 'chat_photo', object_id: String(messageId), reason: 'nudity_in_profile' });
    // Decided once: no second refund.
    expect((await mod.client.post(`/api/console/chat-photos/${messageId}`, { status: 'rejected', reason: 'other' })).status).toBe(409);
    expect((await bob.client.user()).credits).toBe(before);
  });
});

describe.each(engines())('complaints in the console on %s', (engine) => {
  const rt = useRuntime(engine);

  /** Rita (German) reports Mark (English), who asked her for money in a chat, on velvet. */
  async function reported() {
    const rita = await screeningMember(rt(), 'female', 'velvet');
    const mark = await screeningMember(rt(), 'male', 'velvet');
    expect((await rita.client.put('/api/user.php', { language: 'de' })).status).toBe(200);
    expect((await mark.client.put('/api/user.php', { language: 'en' })).status).toBe(200);
    await credit(rt(), mark, 50);
    const text = `Send me a gift card ${randomUUID().slice(0, 8)}`;
    expect((await mark.client.post('/api/chat.php', { profile_id: rita.profileId, kind: 'text', text, client_id: randomUUID() })).status).toBe(200);
    const filed = await rita.client.post('/api/complaint.php', { profile_id: mark.profileId, reason: 'scam', subject: 'Asks for money', message: 'He wants a gift card before we meet.' });
    expect(filed.status).toBe(200);
    return { rita, mark, text, id: filed.json().id as number };
  }

  test('support reads the queue and one complaint with both members and their conversation (audited), no e-mail addresses', async () => {
    const { rita, mark, text, id } = await reported();
    const support = await staffLogin(rt(), 'support', ['velvet']);
    const queue = await support.client.get('/api/console/complaints?brand=velvet');
    expect(queue.status).toBe(200);
    const ids = (queue.json().complaints as { id: number }[]).map((c) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(queue.json().complaints.find((c: { id: number }) => c.id === id)).toMatchObject({
      status: 'open',
      brand: 'velvet',
      reason: 'scam',
      reporter: { user_id: rita.userId, profile_id: rita.profileId },
      reported: { user_id: mark.userId, profile_id: mark.profileId, fictional: false },
    });
    expect(queue.json().counts).toEqual([expect.objectContaining({ brand: 'velvet', open: expect.any(Number) })]);

    const page = await support.client.get(`/api/console/complaints/${id}`);
    expect(page.status).toBe(200);
    const body = page.json();
    expect(body.complaint).toMatchObject({ id, status: 'open', message: 'He wants a gift card before we meet.', decision: null });
    expect(body.reporter).toMatchObject({ profile_id: rita.profileId, brand: 'velvet', status: 'active' });
    expect(body.reported).toMatchObject({ profile_id: mark.profileId, user_id: mark.userId, status: 'active' });
    expect(body.conversation.messages).toEqual([expect.objectContaining({ from: 'reported', kind: 'text', body: text })]);
    for (const email of [rita.email, mark.email]) expect(page.text).not.toContain(email);
    expect((await auditOf(rt(), 'complaint_conversation_read'))[0]).toMatchObject({ staff_id: support.id, role: 'support', brand: 'velvet', object_type: 'complaint', object_id: String(id) });

    // Another brand's staff: not found.
    const spetterOnly = await staffLogin(rt(), 'moderator', ['spetter']);
    expect((await spetterOnly.client.get(`/api/console/complaints/${id}`)).status).toBe(404);
    expect((await spetterOnly.client.post(`/api/console/complaints/${id}`, { action: 'review' })).status).toBe(404);
    expect((await spetterOnly.client.get('/api/console/complaints?brand=velvet')).status).toBe(404);
    expect((await complaintRow(rt(), id)).status).toBe('open');
  });

  test('a warning: bad input changes nothing; review, then the decision with its ground; each member gets the statement in their language; audited', async () => {
    const { rita, mark, id } = await reported();
    const mod = await staffLogin(rt(), 'moderator', ['velvet']);
    for (const [body, field, message] of [
      [{ action: 'warn' }, 'reason', 'Choose the ground of this decision.'],
      [{ action: 'dismiss', reason: 'scam' }, 'reason', 'Choose the ground of this decision.'],
      [{ action: 'warn', reason: 'no_breach' }, 'reason', 'Choose the ground of this decision.'],
      [{ action: 'remove_photo', reason: 'offensive' }, 'photo_id', 'Choose a photo of the member concerned.'],
      [{ action: 'explode', reason: 'scam' }, 'action', undefined],
      [{ action: 'warn', reason: 'because' }, 'reason', undefined],
    ] as const) {
      const bad = await mod.client.post(`/api/console/complaints/${id}`, body);
      expect([bad.status, apiError(bad).field], JSON.stringify(body)).toEqual([400, field]);
      if (message) expect(apiError(bad).message).toBe(message);
    }
    expect(await complaintRow(rt(), id)).toMatchObject({ status: 'open', decision: null });
    expect(await rt().db.db.selectFrom('statements').selectAll().where('complaint_id', '=', id).execute()).toEqual([]);

    expect((await mod.client.post(`/api/console/complaints/${id}`, { action: 'review' })).json()).toMatchObject({ id, status: 'in_review', decision: null });
    expect((await mod.client.post(`/api/console/complaints/${id}`, { action: 'review' })).status).toBe(409);
    const tab = await openEvents(mark.client);
    await until('the stream is ready', () => tab.events.some((e) => e.type === 'ready'));
    const warned = await mod.client.post(`/api/console/complaints/${id}`, { action: 'warn', reason: 'scam', note: 'First time' });
    expect(warned.json()).toEqual({ id, status: 'handled', decision: 'warned', decision_reason: 'scam' });
    const again = await mod.client.post(`/api/console/complaints/${id}`, { action: 'dismiss', reason: 'no_breach' });
    expect([again.status, apiError(again).code]).toEqual([409, 'complaint_handled']);
    expect(await complaintRow(rt(), id)).toMatchObject({ status: 'handled', decision: 'warned', decision_reason: 'scam', decided_by: mod.id });
    await until('Mark\'s tab hears the statement', () => tab.events.find((e) => e.type === 'statement' && e.data.complaint_id === id));
    tab.close();

    // The statements: what was decided, on which ground, how to object; each in the member's language.
    const toRita = await until('Rita\'s statement', () => mailsTo(rt(), rita.email, 'mail_complaint_decided')[0]);
    expect(toRita.subject).toBe(`Entscheidung zur Meldung #${id}`);
    expect(toRita.text).toContain(`Wir haben deine Meldung #${id} geprüft und das Mitglied verwarnt. Begründung: Betrug oder Mitglieder um Geld bitten.`);
    expect(toRita.text).toContain('help@velvetnights.com');
    expect(toRita.headers['reply-to']).toBe('help@velvetnights.com');
    const toMark = await until('Mark\'s statement', () => mailsTo(rt(), mark.email, 'mail_complaint_decided')[0]);
    expect(toMark.text).toContain(`A report about you (#${id}) was upheld: this is a warning.`);
    expect(toMark.text).toContain('Ground: a scam or asking members for money. Do you disagree with this decision? Reply to this e-mail or write to help@velvetnights.com');
    // And in the product.
    const ritaSees = (await rita.client.get('/api/statements.php')).json().statements;
    expect(ritaSees).toEqual([expect.objectContaining({ complaint_id: id, party: 'reporter', decision: 'warned', reason: 'scam', text: expect.stringContaining('Begründung') })]);
    const markSees = (await mark.client.get('/api/statements.php')).json().statements[0];
    expect(markSees).toMatchObject({ complaint_id: id, party: 'reported', text: expect.stringContaining('this is a warning') });
    // On the page, how to object there: no e-mail to reply to.
    expect(markSees.text).toContain('Do you disagree with this decision? Tell us on the complaints page or write to help@velvetnights.com');
    expect(markSees.text).not.toContain('e-mail');
    expect(ritaSees[0].text).toContain('Schreib uns über die Beschwerdeseite');
    expect(ritaSees[0].text).not.toContain('E-Mail');
    expect((await new Client(rt(), 'velvet').get('/api/statements.php')).status).toBe(401);

    expect((await auditOf(rt(), 'complaint_review'))[0]).toMatchObject({ staff_id: mod.id, object_id: String(id) });
    expect((await auditOf(rt(), 'complaint_warn'))[0]).toMatchObject({ staff_id: mod.id, role: 'moderator', brand: 'velvet', object_type: 'complaint', object_id: String(id), reason: 'scam', details: JSON.stringify({ member_id: mark.userId, note: 'First time' }) });
  });

  test('a dismissal tells the reporter only; removing a photo takes the member\'s photo away with the reason on their profile', async () => {
    const first = await reported();
    const support = await staffLogin(rt(), 'support', ['velvet']);
    expect((await support.client.post(`/api/console/complaints/${first.id}`, { action: 'dismiss', reason: 'no_breach' })).json()).toMatchObject({ decision: 'dismissed' });
    await until('the reporter\'s statement', () => mailsTo(rt(), first.rita.email, 'mail_complaint_decided')[0]);
    expect((await first.mark.client.get('/api/statements.php')).json().statements).toEqual([]);
    expect(mailsTo(rt(), first.mark.email, 'mail_complaint_decided')).toEqual([]);

    const { rita, mark, id } = await reported();
    const photo = newest(await uploadPhoto(mark.client));
    await rt().services.moderation.decidePhoto({ id: 1, role: 'admin' }, photo.id, { status: 'active' }, 'all');
    const ritaPhoto = newest(await uploadPhoto(rita.client));
    const wrong = await support.client.post(`/api/console/complaints/${id}`, { action: 'remove_photo', reason: 'offensive', photo_id: ritaPhoto.id });
    expect([wrong.status, apiError(wrong).code]).toEqual([400, 'complaint_photo']);
    expect((await photoRow(rt(), photo.id)).status).toBe('active');
    expect((await support.client.post(`/api/console/complaints/${id}`, { action: 'remove_photo', reason: 'offensive', photo_id: photo.id })).json()).toMatchObject({ decision: 'photo_removed' });
    expect(await photoRow(rt(), photo.id)).toMatchObject({ status: 'rejected', reject_reason: 'nudity_in_profile', reviewed_by: support.id });
    expect((await mark.client.get('/api/photos.php')).json().photos.find((p: { id: number }) => p.id === photo.id)).toMatchObject({ status: 'rejected', reason: 'nudity_in_profile' });
    expect((await rita.client.get(`/api/member.php?id=${mark.profileId}`)).json().profile.photo_count).toBe(0);
    const toMark = await until('Mark\'s statement', () => mailsTo(rt(), mark.email, 'mail_complaint_decided')[0]);
    expect(toMark.text).toContain('we removed one of your photos');
    expect((await auditOf(rt(), 'complaint_remove_photo'))[0]).toMatchObject({ staff_id: support.id, details: JSON.stringify({ member_id: mark.userId, photo_id: photo.id }) });
  });

  test('a suspension takes effect at once: the member\'s stream closes, every request shows the ban page, hidden from everyone; lifting restores them', async () => {
    const { rita, mark, id } = await reported();
    const tab = await openEvents(mark.client);
    await until('the stream is ready', () => tab.events.some((e) => e.type === 'ready'));
    const ended = new Promise<void>((resolve) => tab.res.on('end', () => resolve()));
    expect((await rita.client.get(`/api/member.php?id=${mark.profileId}`)).status).toBe(200);

    const mod = await staffLogin(rt(), 'moderator', ['velvet']);
    expect((await mod.client.post(`/api/console/complaints/${id}`, { action: 'suspend', reason: 'scam' })).json()).toMatchObject({ decision: 'suspended' });
    await until('the tab hears it', () => tab.events.some((e) => e.type === 'suspended'));
    await ended;

    // Every request of the member now: the ban page, with the brand's support address.
    for (const path of ['/api/user.php', '/api/chats.php', '/api/statements.php']) {
      const res = await mark.client.get(path);
      expect([res.status, apiError(res).code, res.json().location], path).toEqual([403, 'account_suspended', '/pages/ban']);
      expect(apiError(res).message).toContain('help@velvetnights.com');
    }
    expect((await mark.client.post('/api/chat.php', { profile_id: rita.profileId, kind: 'text', text: 'Still there?', client_id: randomUUID() })).status).toBe(403);
    for (const page of ['/members', '/profile', '/']) {
      const res = await mark.client.get(page);
      expect([res.status, res.headers.location], page).toEqual([303, '/pages/ban']);
    }
    expect((await mark.client.get('/pages/ban')).status).toBe(200);
    const stream = await openEvents(mark.client);
    await until('the stream is refused', () => stream.res.statusCode === 403);
    // Hidden from everyone, refused at login.
    expect((await rita.client.get(`/api/member.php?id=${mark.profileId}`)).status).toBe(404);
    const login = await new Client(rt(), 'velvet').post('/api/user.php', { email: mark.email, password: PASSWORD });
    expect([login.status, apiError(login).code]).toEqual([403, 'account_suspended']);
    const toMark = await until('Mark\'s statement', () => mailsTo(rt(), mark.email, 'mail_complaint_decided')[0]);
    expect(toMark.text).toContain('we suspended your account');

    // Lifted: listed again; the stopped session is gone, a new login works.
    expect((await mod.client.post(`/api/console/members/${mark.userId}/unsuspend`, { reason: 'Objection granted' })).status).toBe(200);
    const old = await mark.client.get('/api/user.php');
    expect([old.status, old.json().user]).toEqual([200, null]);
    expect((await new Client(rt(), 'velvet').post('/api/user.php', { email: mark.email, password: PASSWORD })).status).toBe(200);
    expect((await rita.client.get(`/api/member.php?id=${mark.profileId}`)).status).toBe(200);
  });
});
