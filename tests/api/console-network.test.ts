/**
 * The console across the member network (issue 24, docs/API.md "The pool's members in the
 * console") on every engine: spetter and rijpedates share the pool `benelux`, velvet stays alone.
 * What staff scoped to one brand see of a member of the other brand of the pool (their profile and
 * what concerns their own brand's members: yes; e-mail, credits, ledger, payments, sessions, other
 * conversations: no), of a member of the pool not involved with theirs (nothing), and of velvet's
 * members (nothing, as any other brand's).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { activeMember, apiError, useRuntime, yearsAgo } from '../support/accounts.ts';
import { sendText, type ChatMember } from '../support/chat.ts';
import { staffLogin } from '../support/console.ts';
import { tenantsWith } from '../support/tenants.ts';
import { uploadPhoto } from '../support/moderation.ts';
import { grant } from '../../src/server/ledger.ts';

type Member = ChatMember & { brand: string };

async function member(rt: TestRuntime, brand: string, name: string, gender: 'male' | 'female', age: number): Promise<Member> {
  const where = brand === 'velvet' ? { country: 'DE', region: 'Berlin', city: 'Berlin' } : { country: 'NL', region: 'Noord-Holland' };
  const m = await activeMember(rt, brand, { name, gender, sexuality: 'hetero', date_of_birth: yearsAgo(age), ...where });
  const user = await m.client.user();
  await grant(rt.db.db, { userId: user.id, credits: 100, reason: 'bonus', ref: `console-network-${user.id}` });
  return { ...m, profileId: user.profile.id, userId: user.id, brand } as Member;
}

/** Keys a staff member of another brand must never read on a member's page. */
const ACCOUNT_KEYS = ['email', 'credits', 'paid_user', 'language', 'source', 'signup_date', 'locked_until', 'invisible', 'directdebit_blocked', 'suspended_at'];

/** What comes of a member's payments on their own brand: never in an answer about them to another brand's staff. */
const PAYMENT_KEYS = ['premium', 'paid_user', 'credits', 'credits_spent_fictional', 'balance', 'ledger', 'payments', 'spent', 'directdebit_blocked'];

/** The payment-derived keys anywhere in an answer (or a part of one), by their paths. */
function paymentKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => paymentKeys(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => [...(PAYMENT_KEYS.includes(key) ? [`${path}.${key}`] : []), ...paymentKeys(v, `${path}.${key}`)]);
}

describe.each(engines())('the console across a pool on %s', (engine) => {
  const rt = useRuntime(engine, () => ({ seed: false }));

  test("staff of one brand see a member of the pool's other brand through their members: profile and that conversation, not the account", async () => {
    const sam = await member(rt(), 'spetter', 'Sam', 'male', 45);
    const lies = await member(rt(), 'spetter', 'Lies', 'female', 40);
    const ria = await member(rt(), 'rijpedates', 'Ria', 'female', 50);
    const rob = await member(rt(), 'rijpedates', 'Rob', 'male', 50);
    const ruud = await member(rt(), 'rijpedates', 'Ruud', 'male', 55);
    const vera = await member(rt(), 'velvet', 'Vera', 'female', 50);
    // Sam (spetter) likes and writes to Ria (rijpedates); Ria also writes to Rob, of her own brand.
    expect((await sam.client.post('/api/like.php', { profile_id: ria.profileId })).status).toBe(200);
    const withSam = (await sendText(sam, { profile_id: ria.profileId }, { text: 'Hoi Ria!' })).json().conversation_id as number;
    expect((await sendText(ria, { conversation_id: withSam }, { text: 'Hoi Sam!' })).status).toBe(200);
    const withRob = (await sendText(ria, { profile_id: rob.profileId }, { text: 'Hoi Rosa!' })).json().conversation_id as number;
    expect(withRob).not.toBe(withSam);

    const onSpetter = await staffLogin(rt(), 'admin', ['spetter']);
    const onRijpedates = await staffLogin(rt(), 'admin', ['rijpedates']);
    const onVelvet = await staffLogin(rt(), 'admin', ['velvet']);
    const owner = await staffLogin(rt(), 'owner');

    // The console names the pool's other brand by its name and domain (GET me), never another brand.
    const me = (await onSpetter.client.get('/api/console/me')).json();
    expect(me.brands).toEqual([{ id: 'spetter', name: 'Spetter', domain: 'spetter.nl' }]);
    expect(me.pool_brands).toEqual([{ id: 'rijpedates', name: 'Rijpe Dates', domain: 'rijpedates.nl' }]);
    expect((await onVelvet.client.get('/api/console/me')).json().pool_brands).toEqual([]);
    expect((await owner.client.get('/api/console/me')).json().pool_brands).toEqual([]);

    // spetter's admin opens Ria from Sam's conversation: the pool view.
    const page = await onSpetter.client.get(`/api/console/members/${ria.userId}`);
    expect(page.status).toBe(200);
    const view = page.json();
    expect(view.view).toBe('pool');
    expect(view.member).toEqual({ id: ria.userId, brand: 'rijpedates', status: 'active' });
    expect(view.via.sort()).toEqual(['conversation', 'like']);
    expect(view.profile).toMatchObject({ id: ria.profileId, name: 'Ria' });
    for (const key of ['ledger', 'payments', 'sessions']) expect(view, key).not.toHaveProperty(key);
    for (const key of ACCOUNT_KEYS) expect(view.member, key).not.toHaveProperty(key);
    expect(paymentKeys(view)).toEqual([]);
    expect(page.text).not.toContain(ria.email);
    // Only the conversation with spetter's member, never Ria's with Rob.
    expect(view.conversations.map((c: { id: number }) => c.id)).toEqual([withSam]);
    expect(view.conversations[0]).toMatchObject({ other_profile_id: sam.profileId, other_brand: 'spetter', messages: 2 });
    // Reading it is in the audit log, under spetter, naming Ria's brand and why.
    const entry = await rt().db.db.selectFrom('audit_log').selectAll().where('action', '=', 'member_view_pool').where('staff_id', '=', onSpetter.id).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ brand: 'spetter', object_type: 'member', object_id: String(ria.userId) });
    expect(JSON.parse(entry.details!)).toMatchObject({ member_brand: 'rijpedates' });
    // Nothing can be done to her account from spetter: the actions answer as for any other brand's member.
    expect((await onSpetter.client.post(`/api/console/members/${ria.userId}/suspend`, { reason: 'test' })).status).toBe(404);
    expect((await onSpetter.client.post(`/api/console/members/${ria.userId}/credits`, { credits: 5, reason: 'test' })).status).toBe(404);
    // She is not in spetter's member search either.
    const search = (await onSpetter.client.get(`/api/console/members?q=${ria.userId}`)).json();
    expect(search.members).toEqual([]);

    // A member of the pool not involved with spetter's members, and velvet's members: nothing.
    expect((await onSpetter.client.get(`/api/console/members/${rob.userId}`)).status).toBe(404);
    expect((await onSpetter.client.get(`/api/console/members/${ruud.userId}`)).status).toBe(404);
    expect((await onSpetter.client.get(`/api/console/members/${vera.userId}`)).status).toBe(404);
    // rijpedates' admin sees Sam the same way, with the one conversation with their member.
    const samView = (await onRijpedates.client.get(`/api/console/members/${sam.userId}`)).json();
    expect(samView).toMatchObject({ view: 'pool', member: { id: sam.userId, brand: 'spetter' } });
    expect(samView.conversations.map((c: { id: number }) => c.id)).toEqual([withSam]);
    expect((await onRijpedates.client.get(`/api/console/members/${lies.userId}`)).status).toBe(404);
    // velvet's admin sees nobody of the pool.
    for (const m of [sam, lies, ria, rob]) expect((await onVelvet.client.get(`/api/console/members/${m.userId}`)).status).toBe(404);
    // Their own brand's members stay in full, and staff of every brand see everyone in full.
    const own = (await onRijpedates.client.get(`/api/console/members/${ria.userId}`)).json();
    expect(own).toMatchObject({ view: 'full', member: { email: ria.email } });
    expect(own.conversations.map((c: { id: number }) => c.id).sort()).toEqual([withSam, withRob].sort());
    // Each conversation's other side says its brand: Sam of spetter, Rob of her own.
    expect(Object.fromEntries(own.conversations.map((c: { id: number; other_brand: string }) => [c.id, c.other_brand]))).toEqual({ [withSam]: 'spetter', [withRob]: 'rijpedates' });
    expect((await owner.client.get(`/api/console/members/${ria.userId}`)).json().view).toBe('full');

    // A block is an involvement too: Lies blocks Ruud.
    expect((await lies.client.post('/api/block.php', { profile_id: ruud.profileId })).status).toBe(200);
    const ruudView = (await onSpetter.client.get(`/api/console/members/${ruud.userId}`)).json();
    expect(ruudView.via).toEqual(['block']);
    expect(ruudView.blocks.of).toMatchObject([{ profile_id: lies.profileId, brand: 'spetter' }]);
    expect(ruudView.conversations).toEqual([]);
  });

  test("a complaint about a member of the pool's other brand: both brands' staff see it, only the member's own brand acts on them", async () => {
    const lies = await member(rt(), 'spetter', 'Lies', 'female', 41);
    const ria = await member(rt(), 'rijpedates', 'Ria', 'female', 52);
    const filed = await lies.client.post('/api/complaint.php', { profile_id: ria.profileId, reason: 'fake_profile', subject: 'Nep', message: 'Dit profiel lijkt nep.' });
    expect(filed.status).toBe(200);
    const id = filed.json().id as number;

    const spetterMod = await staffLogin(rt(), 'moderator', ['spetter']);
    const rijpeMod = await staffLogin(rt(), 'moderator', ['rijpedates']);
    const velvetMod = await staffLogin(rt(), 'moderator', ['velvet']);
    const ids = async (staff: typeof spetterMod) => (await staff.client.get('/api/console/complaints')).json().complaints.map((c: { id: number }) => c.id);
    expect(await ids(spetterMod)).toContain(id);
    expect(await ids(rijpeMod)).toContain(id);
    expect(await ids(velvetMod)).not.toContain(id);
    expect((await velvetMod.client.get(`/api/console/complaints/${id}`)).status).toBe(404);
    // rijpedates counts it under its own brand, and names no count of spetter's.
    const counts = (await rijpeMod.client.get('/api/console/complaints')).json().counts;
    expect(counts).toEqual([{ brand: 'rijpedates', open: 1, in_review: 0 }]);

    // The reported member's card on spetter's page: no e-mail address.
    const page = await spetterMod.client.get(`/api/console/complaints/${id}`);
    expect(page.json().reported).toMatchObject({ profile_id: ria.profileId, brand: 'rijpedates' });
    expect(paymentKeys(page.json())).toEqual([]);
    // Nor her signup date: her account is her brand's. Lies, of spetter, shows hers; rijpedates sees Ria's.
    expect(page.json().reported).not.toHaveProperty('signup_date');
    expect(page.json().reporter).toHaveProperty('signup_date');
    expect((await rijpeMod.client.get(`/api/console/complaints/${id}`)).json()).toMatchObject({ reported: { signup_date: expect.any(String) }, reporter: { brand: 'spetter' } });
    expect((await rijpeMod.client.get(`/api/console/complaints/${id}`)).json().reporter).not.toHaveProperty('signup_date');
    expect(paymentKeys((await spetterMod.client.get('/api/console/complaints')).json().complaints.find((c: { id: number }) => c.id === id))).toEqual([]);
    expect(paymentKeys((await spetterMod.client.get(`/api/console/members/${ria.userId}`)).json())).toEqual([]);
    expect(page.text).not.toContain(ria.email);
    // spetter's moderator opens her page from the complaint.
    expect((await spetterMod.client.get(`/api/console/members/${ria.userId}`)).json()).toMatchObject({ view: 'pool', via: ['complaint'] });

    // spetter may take it in hand but not suspend a member of rijpedates.
    const refused = await spetterMod.client.post(`/api/console/complaints/${id}`, { action: 'suspend', reason: 'fake_profile' });
    expect(refused.status).toBe(403);
    expect(apiError(refused).code).toBe('complaint_other_brand');
    expect(apiError(refused).message).toContain('Rijpe Dates');
    expect((await rt().db.db.selectFrom('users').select('suspended_at').where('id', '=', ria.userId).executeTakeFirstOrThrow()).suspended_at).toBeNull();
    expect((await spetterMod.client.post(`/api/console/complaints/${id}`, { action: 'review' })).status).toBe(200);
    // rijpedates' moderator warns her: each member's statement is on their own brand.
    expect((await rijpeMod.client.post(`/api/console/complaints/${id}`, { action: 'warn', reason: 'fake_profile' })).status).toBe(200);
    const statements = await rt().db.db.selectFrom('statements').select(['user_id', 'tenant_id', 'party']).where('complaint_id', '=', id).orderBy('id').execute();
    expect(statements).toEqual([
      { user_id: lies.userId, tenant_id: 'spetter', party: 'reporter' },
      { user_id: ria.userId, tenant_id: 'rijpedates', party: 'reported' },
    ]);
    expect((await ria.client.get('/api/statements.php')).json().statements.map((s: { complaint_id: number }) => s.complaint_id)).toEqual([id]);
    const audited = await rt().db.db.selectFrom('audit_log').select(['brand', 'staff_id']).where('action', '=', 'complaint_warn').where('object_id', '=', String(id)).executeTakeFirstOrThrow();
    expect(audited).toEqual({ brand: 'rijpedates', staff_id: rijpeMod.id });
  });
});

/** Three photos of a member, screened by their own brand's moderator: one approved, one rejected, one still pending. */
async function screenedPhotos(m: Member, moderator: Awaited<ReturnType<typeof staffLogin>>): Promise<{ approved: PhotoRow; rejected: PhotoRow; pending: PhotoRow }> {
  for (let i = 0; i < 3; i++) expect((await uploadPhoto(m.client)).status).toBe(200);
  const [approved, rejected, pending] = (await m.client.get('/api/photos.php')).json().photos as PhotoRow[];
  expect((await moderator.client.post(`/api/console/photos/${approved!.id}`, { status: 'active' })).status).toBe(200);
  expect((await moderator.client.post(`/api/console/photos/${rejected!.id}`, { status: 'rejected', reason: 'copyright' })).status).toBe(200);
  return { approved: approved!, rejected: rejected!, pending: pending! };
}

type PhotoRow = { id: number };

/** The staff media path of a photo as a page lists it (`filename` on a member's page, `url` on a complaint). */
const mediaPath = (photo: { filename?: string; url?: string }) => photo.url ?? `/api/console/media/${photo.filename}`;

describe.each(engines())("photos of a member of the pool's other brand in the console on %s", (engine) => {
  const rt = useRuntime(engine, () => ({ seed: false }));

  test("the member's page shows other brands' staff the approved photos only, and they load; the member's own brand sees and loads all", async () => {
    const sam = await member(rt(), 'spetter', 'Sam', 'male', 45);
    const ria = await member(rt(), 'rijpedates', 'Ria', 'female', 50);
    const rijpeMod = await staffLogin(rt(), 'moderator', ['rijpedates']);
    const { approved, rejected, pending } = await screenedPhotos(ria, rijpeMod);
    expect((await sendText(sam, { profile_id: ria.profileId }, { text: 'Hoi Ria!' })).status).toBe(200);

    // A moderator (who screens photos) and a support agent (who does not) of spetter.
    for (const role of ['moderator', 'support'] as const) {
      const staff = await staffLogin(rt(), role, ['spetter']);
      const view = (await staff.client.get(`/api/console/members/${ria.userId}`)).json();
      expect(view.view).toBe('pool');
      expect(view.photos.map((p: { id: number }) => p.id), role).toEqual([approved.id]);
      const [photo] = view.photos as { filename: string; thumb_filename: string }[];
      for (const file of [photo!.filename, photo!.thumb_filename]) expect((await staff.client.get(`/api/console/media/${file}`)).status, `${role} ${file}`).toBe(200);
    }
    // The files of her other photos do not load for spetter's staff, whatever their role.
    const own = (await rijpeMod.client.get(`/api/console/members/${ria.userId}`)).json();
    expect(own.view).toBe('full');
    expect(own.photos.map((p: { id: number }) => p.id).sort()).toEqual([approved.id, rejected.id, pending.id].sort());
    const file = (id: number) => mediaPath(own.photos.find((p: { id: number }) => p.id === id));
    const spetterAdmin = await staffLogin(rt(), 'admin', ['spetter']);
    for (const id of [pending.id, rejected.id]) {
      expect((await spetterAdmin.client.get(file(id))).status).toBe(404);
      // rijpedates' moderator screens them: every one loads.
      expect((await rijpeMod.client.get(file(id))).status).toBe(200);
    }
    // velvet's staff, outside the pool, load none of them.
    const velvetAdmin = await staffLogin(rt(), 'admin', ['velvet']);
    expect((await velvetAdmin.client.get(file(approved.id))).status).toBe(404);
    // Shown on her own brand only: spetter's staff no longer load even her approved photo; her own brand does.
    expect((await spetterAdmin.client.get(file(approved.id))).status).toBe(200);
    expect((await ria.client.put('/api/user.php', { own_brand_only: true })).status).toBe(200);
    expect((await spetterAdmin.client.get(file(approved.id))).status).toBe(404);
    expect((await rijpeMod.client.get(file(approved.id))).status).toBe(200);
  });

  test("a complaint about a member of the pool's other brand shows the complaint's brand her approved photos only; her own brand all", async () => {
    const lies = await member(rt(), 'spetter', 'Lies', 'female', 41);
    const ria = await member(rt(), 'rijpedates', 'Ria', 'female', 52);
    const rijpeMod = await staffLogin(rt(), 'moderator', ['rijpedates']);
    const { approved, rejected, pending } = await screenedPhotos(ria, rijpeMod);
    const filed = await lies.client.post('/api/complaint.php', { profile_id: ria.profileId, reason: 'fake_profile', subject: 'Nep', message: 'Dit profiel lijkt nep.' });
    expect(filed.status).toBe(200);
    const id = filed.json().id as number;

    const spetterMod = await staffLogin(rt(), 'moderator', ['spetter']);
    const seen = (await spetterMod.client.get(`/api/console/complaints/${id}`)).json().reported.photos as { id: number; url: string; thumb_url: string }[];
    expect(seen.map((p) => p.id)).toEqual([approved.id]);
    for (const path of [seen[0]!.url, seen[0]!.thumb_url]) expect((await spetterMod.client.get(path)).status).toBe(200);
    const theirs = (await rijpeMod.client.get(`/api/console/complaints/${id}`)).json().reported.photos as { id: number }[];
    expect(theirs.map((p) => p.id).sort()).toEqual([approved.id, rejected.id, pending.id].sort());
  });
});

describe.each(engines())("a brand's shared fictional profile in the console's inbox on %s", (engine) => {
  const tenants = tenantsWith({});
  afterAll(() => tenants.remove());
  // The demo seed: each brand has fictional profiles.
  const rt = useRuntime(engine, () => ({ tenantsDir: tenants.dir }));

  test("a member of the pool's other brand writing to it waits in its own brand's inbox, without their account", async () => {
    const file = join(tenants.dir, 'spetter', 'tenant.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), network: { pool: 'benelux', share_fictional: true } }, null, 2));
    await new Promise((r) => setTimeout(r, 1_100));
    // A woman of 50 on rijpedates (whom its audience is for: every pair with her fits) writes to one of spetter's fictional profiles.
    const rob = await member(rt(), 'rijpedates', 'Rosa', 'female', 50);
    const fictional = await rt().db.db.selectFrom('profiles').select('id').where('tenant_id', '=', 'spetter').where('fictional', '=', 1).where('listed', '=', 1).where('status', '=', 'active').orderBy('id').executeTakeFirstOrThrow();
    const sent = await sendText(rob, { profile_id: fictional.id }, { text: 'Hallo daar' });
    expect(sent.status).toBe(200);
    const conversationId = sent.json().conversation_id as number;
    expect((await rt().db.db.selectFrom('conversations').select('tenant_id').where('id', '=', conversationId).executeTakeFirstOrThrow()).tenant_id).toBe('spetter');

    const spetterMod = await staffLogin(rt(), 'moderator', ['spetter']);
    const rijpeMod = await staffLogin(rt(), 'moderator', ['rijpedates']);
    const inbox = (await spetterMod.client.get('/api/console/inbox?brand=spetter')).json();
    expect(inbox.conversations.map((c: { id: number }) => c.id)).toContain(conversationId);
    // Rosa pays on rijpedates: spetter's staff see nothing that comes of it, not even what she spent with their profile.
    const listed = inbox.conversations.find((c: { id: number }) => c.id === conversationId);
    expect(listed.member).toMatchObject({ id: rob.profileId, brand: 'rijpedates' });
    expect(paymentKeys(listed)).toEqual([]);
    expect(listed.member).not.toHaveProperty('language');
    expect((await rijpeMod.client.get('/api/console/inbox')).json().conversations.map((c: { id: number }) => c.id)).not.toContain(conversationId);
    expect((await rijpeMod.client.get(`/api/console/inbox/${conversationId}`)).status).toBe(404);

    const opened = await spetterMod.client.get(`/api/console/inbox/${conversationId}`);
    expect(opened.status).toBe(200);
    expect(opened.text).not.toContain(rob.email);
    expect(opened.json().member).toMatchObject({ id: rob.profileId, brand: 'rijpedates' });
    expect(paymentKeys(opened.json())).toEqual([]);
    expect(opened.json().member).not.toHaveProperty('language');
    // Staff of every brand see her own brand's facts on the same card.
    const owner = await staffLogin(rt(), 'owner');
    expect((await owner.client.get(`/api/console/inbox/${conversationId}`)).json().member).toMatchObject({ id: rob.profileId, premium: false, language: 'nl', credits_spent_fictional: 6 });
    const entry = await rt().db.db.selectFrom('audit_log').selectAll().where('action', '=', 'inbox_read_pool').where('staff_id', '=', spetterMod.id).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ brand: 'spetter', object_type: 'conversation', object_id: String(conversationId) });
    // From there spetter's moderator opens Rob's page: the pool view through the conversation.
    expect((await spetterMod.client.get(`/api/console/members/${rob.userId}`)).json()).toMatchObject({ view: 'pool', via: ['conversation'] });
    // The answer goes out as spetter's fictional profile and reaches Rob on rijpedates.
    await spetterMod.client.post(`/api/console/inbox/${conversationId}/claim`);
    expect((await spetterMod.client.post(`/api/console/inbox/${conversationId}`, { text: 'Hoi Rosa!' })).status).toBe(200);
    const robView = (await rob.client.get(`/api/chat.php?id=${conversationId}`)).json();
    expect(robView.conversation.messages.map((m: { text: string }) => m.text)).toEqual(['Hallo daar', 'Hoi Rosa!']);
  });
});
