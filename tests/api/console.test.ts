/**
 * The operator console's foundations (issue 22): staff login with a TOTP second factor (right,
 * wrong and replayed codes, recovery codes used once, the lockout), enrolment at first login,
 * staff sessions ended by a role change and a removal, a member's suspension (logged out,
 * hidden, refused at login with the ban page; lifted again), credit moves within and over the
 * support limit, and the audit log: an entry for each action, and rows that refuse UPDATE and
 * DELETE.
 */
import { describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { SUPPORT_MAX_CREDITS } from '../../src/contract/console.ts';
import { STAFF_LOGIN_MAX_FAILURES } from '../../src/server/services/console.ts';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { Client, PASSWORD, activeMember, apiError, setCookies, takeMail, signUp, useRuntime } from '../support/accounts.ts';
import { addStaff, consoleClient, staffLogin, totpCode } from '../support/console.ts';

const auditOf = (rt: TestRuntime, action: string) => rt.db.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id', 'desc').execute();

describe.each(engines())('the operator console on %s', (engine) => {
  const rt = useRuntime(engine);

  test('login: email + password + TOTP code; a wrong code and a replayed code are refused; the cookie is HttpOnly, SameSite=Strict, 12 hours', async () => {
    const staff = await addStaff(rt(), 'support', ['spetter']);
    const client = consoleClient(rt());
    const wrong = await client.post('/api/console/login', { email: staff.email, password: PASSWORD, code: totpCode(staff.secret) === '000000' ? '111111' : '000000' });
    expect([wrong.status, apiError(wrong).code]).toEqual([401, 'console_code_wrong']);
    const missing = await client.post('/api/console/login', { email: staff.email, password: PASSWORD });
    expect([missing.status, apiError(missing).code]).toEqual([401, 'console_code_wrong']);
    const badPassword = await client.post('/api/console/login', { email: staff.email, password: 'niet-het-wachtwoord', code: totpCode(staff.secret) });
    expect([badPassword.status, apiError(badPassword).code]).toEqual([401, 'login_failed']);
    const code = totpCode(staff.secret);
    const ok = await client.post('/api/console/login', { email: staff.email.toUpperCase(), password: PASSWORD, code });
    expect(ok.status).toBe(200);
    expect(ok.json().staff).toEqual({ id: staff.id, email: staff.email, role: 'support', brands: ['spetter'] });
    const cookie = setCookies(ok).find((c) => c.name === 'staff')!;
    expect(cookie.attributes).toMatchObject({ httponly: true, samesite: 'Strict', 'max-age': String(12 * 3600) });
    expect((await client.get('/api/console/me')).json().staff.email).toBe(staff.email);
    // The same code a second time (another browser): refused.
    const replay = await consoleClient(rt()).post('/api/console/login', { email: staff.email, password: PASSWORD, code });
    expect([replay.status, apiError(replay).code]).toEqual([401, 'console_code_wrong']);
    expect((await auditOf(rt(), 'login')).some((e) => e.staff_id === staff.id)).toBe(true);
    // Logout ends the session.
    expect((await client.post('/api/console/logout')).status).toBe(204);
    expect((await client.get('/api/console/me')).status).toBe(401);
  });

  test('enrolment at first login: QR code and secret, confirmed by a first code; ten recovery codes, each used once', async () => {
    const added = await rt().services.console.addStaff({ email: `nieuw-${Date.now()}@example.com`, role: 'moderator', brands: null });
    expect(added.token).toMatch(/\./);
    const client = consoleClient(rt());
    // The enrolment link sets the password.
    expect((await client.post('/api/console/enrol/password', { token: added.token, password: 'kort' })).status).toBe(400);
    const set = await client.post('/api/console/enrol/password', { token: added.token, password: PASSWORD });
    expect(set.status).toBe(200);
    const email = set.json().email as string;
    expect((await client.post('/api/console/enrol/password', { token: added.token, password: PASSWORD })).status).toBe(400);
    // The first login answers what to enrol, and no session.
    const first = await client.post('/api/console/login', { email, password: PASSWORD });
    expect(first.status).toBe(200);
    const enrol = first.json();
    expect(enrol).toMatchObject({ enrol: true, secret: expect.stringMatching(/^[A-Z2-7]+$/), otpauth: expect.stringMatching(/^otpauth:\/\/totp\//) });
    expect(enrol.qr_svg).toContain('<svg');
    expect(setCookies(first)).toEqual([]);
    expect((await client.get('/api/console/me')).status).toBe(401);
    const wrong = await client.post('/api/console/enrol', { email, password: PASSWORD, code: totpCode(enrol.secret) === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(401);
    const done = await client.post('/api/console/enrol', { email, password: PASSWORD, code: totpCode(enrol.secret) });
    expect(done.status).toBe(200);
    const codes = done.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await client.get('/api/console/me')).json().staff.role).toBe('moderator');
    // Stored hashed.
    const stored = await rt().db.db.selectFrom('staff_recovery_codes').select('code_hash').where('staff_id', '=', added.id).execute();
    expect(stored.map((r) => r.code_hash)).not.toContain(codes[0]);
    // A recovery code logs in once; replayed it is refused.
    const other = consoleClient(rt());
    expect((await other.post('/api/console/login', { email, password: PASSWORD, code: codes[0] })).status).toBe(200);
    const again = await consoleClient(rt()).post('/api/console/login', { email, password: PASSWORD, code: codes[0] });
    expect([again.status, apiError(again).code]).toEqual([401, 'console_code_wrong']);
    expect((await consoleClient(rt()).post('/api/console/login', { email, password: PASSWORD, code: codes[1]!.toUpperCase() })).status).toBe(200);
    // Enrolled already: a second enrolment is refused.
    expect((await client.post('/api/console/enrol', { email, password: PASSWORD, code: totpCode(enrol.secret, 1) })).status).toBe(409);
  });

  test(`lockout: ${STAFF_LOGIN_MAX_FAILURES} wrong attempts lock the account, the right password and code included`, async () => {
    const staff = await addStaff(rt(), 'admin');
    const client = consoleClient(rt());
    const answers: number[] = [];
    for (let i = 0; i < STAFF_LOGIN_MAX_FAILURES; i++) answers.push((await client.post('/api/console/login', { email: staff.email, password: `fout-${i}-wachtwoord`, code: '123456' })).status);
    expect(answers).toEqual([...Array(STAFF_LOGIN_MAX_FAILURES - 1).fill(401), 429]);
    const locked = await client.post('/api/console/login', { email: staff.email, password: PASSWORD, code: totpCode(staff.secret) });
    expect([locked.status, apiError(locked).code]).toEqual([429, 'login_locked']);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  test('a staff session ends when the role changes and when the staff member is removed', async () => {
    const a = await staffLogin(rt(), 'admin');
    expect((await a.client.get('/api/console/me')).status).toBe(200);
    expect(await rt().services.console.setRole(a.email, 'support', ['spetter'])).toBe(true);
    expect((await a.client.get('/api/console/me')).status).toBe(401);
    const relogged = await a.client.post('/api/console/login', { email: a.email, password: PASSWORD, code: totpCode(a.secret, 1) });
    expect(relogged.json().staff).toMatchObject({ role: 'support', brands: ['spetter'] });
    expect(await rt().services.console.removeStaff(a.email)).toBe(true);
    expect((await a.client.get('/api/console/me')).status).toBe(401);
    const gone = await a.client.post('/api/console/login', { email: a.email, password: PASSWORD, code: totpCode(a.secret, 2) });
    expect(gone.status).toBe(401);
    expect((await auditOf(rt(), 'staff_role')).length).toBeGreaterThan(0);
    expect((await auditOf(rt(), 'staff_remove')).length).toBeGreaterThan(0);
  });

  test('suspend: the member is logged out, hidden from other members, refused at login with the ban page; unsuspend restores', async () => {
    const target = await activeMember(rt(), 'spetter', { gender: 'female', sexuality: 'hetero' });
    const viewer = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero' });
    const profileId = target.user.profile.id as number;
    const seen = async () => (await viewer.client.get(`/api/member.php?id=${profileId}`)).status;
    expect(await seen()).toBe(200);
    const moderator = await staffLogin(rt(), 'moderator', ['spetter']);
    expect((await moderator.client.get(`/api/console/members/${target.user.id}`)).json().sessions.count).toBe(1);
    // Bad input: no reason. 400 and nothing changes.
    const bad = await moderator.client.post(`/api/console/members/${target.user.id}/suspend`, { reason: '  ' });
    expect([bad.status, apiError(bad).field]).toEqual([400, 'reason']);
    expect((await target.client.get('/api/user.php')).json().user).not.toBeNull();
    const res = await moderator.client.post(`/api/console/members/${target.user.id}/suspend`, { reason: 'Vraagt om geld' });
    expect(res.status).toBe(200);
    expect((await moderator.client.post(`/api/console/members/${target.user.id}/suspend`, { reason: 'Nog eens' })).status).toBe(409);
    // Logged out everywhere (the session opens nothing and shows the ban page); hidden from everyone.
    const after = await target.client.get('/api/user.php');
    expect([after.status, apiError(after).code, after.json().location]).toEqual([403, 'account_suspended', '/pages/ban']);
    expect(await seen()).toBe(404);
    const login = await new Client(rt(), 'spetter').post('/api/user.php', { email: target.email, password: PASSWORD });
    expect([login.status, apiError(login).code, login.json().location]).toEqual([403, 'account_suspended', '/pages/ban']);
    expect(apiError(login).message).toContain('@');
    const page = (await moderator.client.get(`/api/console/members/${target.user.id}`)).json();
    expect(page.member.status).toBe('suspended');
    // Suspension ended the member's sessions: none is open (when they were last seen stays).
    expect(page.sessions).toMatchObject({ count: 0, last_seen: expect.any(String) });
    expect(page.payments).toBeNull(); // a moderator sees no payments
    const [entry] = await auditOf(rt(), 'member_suspend');
    expect(entry).toMatchObject({ staff_id: moderator.id, role: 'moderator', brand: 'spetter', object_type: 'member', object_id: String(target.user.id), reason: 'Vraagt om geld' });
    // Lifted: visible and able to log in again.
    expect((await moderator.client.post(`/api/console/members/${target.user.id}/unsuspend`, { reason: 'Bezwaar toegekend' })).status).toBe(200);
    expect(await seen()).toBe(200);
    expect((await target.client.get('/api/user.php')).json().user).toBeNull();
    expect((await new Client(rt(), 'spetter').post('/api/user.php', { email: target.email, password: PASSWORD })).status).toBe(200);
    expect((await auditOf(rt(), 'member_unsuspend'))[0]).toMatchObject({ staff_id: moderator.id, reason: 'Bezwaar toegekend' });
  });

  test(`credits: support grants and takes back up to ${SUPPORT_MAX_CREDITS} through the ledger, with a reason; over the limit 403; an admin has no limit`, async () => {
    const target = await signUp(rt(), 'spetter');
    const userId = target.user.id as number;
    const balance = async () => (await rt().db.db.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirstOrThrow()).credits;
    const start = await balance();
    const support = await staffLogin(rt(), 'support', ['spetter']);
    const granted = await support.client.post(`/api/console/members/${userId}/credits`, { credits: SUPPORT_MAX_CREDITS, reason: 'Excuses voor de storing' });
    expect([granted.status, granted.json().balance]).toEqual([200, start + SUPPORT_MAX_CREDITS]);
    const over = await support.client.post(`/api/console/members/${userId}/credits`, { credits: SUPPORT_MAX_CREDITS + 1, reason: 'Te veel' });
    expect([over.status, apiError(over).code]).toEqual([403, 'console_credits_limit']);
    expect(apiError(over).message).toContain(String(SUPPORT_MAX_CREDITS));
    expect((await support.client.post(`/api/console/members/${userId}/credits`, { credits: -(SUPPORT_MAX_CREDITS + 1), reason: 'Te veel' })).status).toBe(403);
    expect((await support.client.post(`/api/console/members/${userId}/credits`, { credits: 0, reason: 'Niets' })).status).toBe(400);
    expect((await support.client.post(`/api/console/members/${userId}/credits`, { credits: 5 })).status).toBe(400);
    expect((await support.client.post(`/api/console/members/${userId}/credits`, { credits: '5', reason: 'x' })).status).toBe(400);
    expect(await balance()).toBe(start + SUPPORT_MAX_CREDITS);
    const taken = await support.client.post(`/api/console/members/${userId}/credits`, { credits: -10, reason: 'Dubbel toegekend' });
    expect(taken.json().balance).toBe(start + SUPPORT_MAX_CREDITS - 10);
    // Never below 0.
    const tooMuch = await support.client.post(`/api/console/members/${userId}/credits`, { credits: -SUPPORT_MAX_CREDITS, reason: 'Alles' });
    expect(tooMuch.status).toBe(start + SUPPORT_MAX_CREDITS - 10 >= SUPPORT_MAX_CREDITS ? 200 : 402);
    const admin = await staffLogin(rt(), 'admin');
    expect((await admin.client.post(`/api/console/members/${userId}/credits`, { credits: 1000, reason: 'Compensatie' })).status).toBe(200);
    const ledger = await rt().db.db.selectFrom('credit_ledger').select(['delta', 'reason', 'note']).where('user_id', '=', userId).where('note', 'is not', null).orderBy('id').execute();
    expect(ledger[0]).toEqual({ delta: SUPPORT_MAX_CREDITS, reason: 'bonus', note: `Excuses voor de storing (${support.email})` });
    expect(ledger[1]).toEqual({ delta: -10, reason: 'refund', note: `Dubbel toegekend (${support.email})` });
    const entries = await auditOf(rt(), 'credits_grant');
    expect(entries.find((e) => e.staff_id === support.id)).toMatchObject({ reason: 'Excuses voor de storing', details: JSON.stringify({ credits: SUPPORT_MAX_CREDITS, balance: start + SUPPORT_MAX_CREDITS }) });
  });

  test('members: found by e-mail, name and id; the member page; resend activation and the direct-debit block, audited', async () => {
    const target = await signUp(rt(), 'spetter', { name: 'Zoekbaar' });
    const admin = await staffLogin(rt(), 'admin');
    const byEmail = (await admin.client.get(`/api/console/members?q=${encodeURIComponent(target.email)}`)).json().members;
    expect(byEmail.map((m: { id: number }) => m.id)).toEqual([target.user.id]);
    expect((await admin.client.get('/api/console/members?q=zoekb&brand=spetter')).json().members.map((m: { id: number }) => m.id)).toContain(target.user.id);
    // A start of the name in any case, of the address, taken literally (no wildcards).
    const ids = async (q: string) => (await admin.client.get(`/api/console/members?q=${encodeURIComponent(q)}`)).json().members.map((m: { id: number }) => m.id);
    expect(await ids('ZOEKBA')).toContain(target.user.id);
    expect(await ids(target.email.slice(0, target.email.indexOf('@') + 2))).toEqual([target.user.id]);
    expect(await ids('zoek%')).toEqual([]);
    expect(await ids('z_ekbaar')).toEqual([]);
    expect((await admin.client.get(`/api/console/members?q=${target.user.id}`)).json().members.map((m: { id: number }) => m.id)).toContain(target.user.id);
    expect((await admin.client.get('/api/console/members?status=not_confirmed&brand=spetter')).json().members.map((m: { id: number }) => m.id)).toContain(target.user.id);
    expect((await admin.client.get('/api/console/members?status=nonsense')).status).toBe(400);
    expect((await admin.client.get('/api/console/members?from=gisteren')).status).toBe(400);
    expect((await admin.client.get('/api/console/members/abc')).status).toBe(400);
    expect((await admin.client.get('/api/console/members/999999')).status).toBe(404);
    const page = (await admin.client.get(`/api/console/members/${target.user.id}`)).json();
    expect(page.member).toMatchObject({ id: target.user.id, brand: 'spetter', email: target.email, status: 'not_confirmed' });
    expect(page.profile.name).toBe('Zoekbaar');
    expect(page.payments).toEqual([]);
    expect(page.sessions.count).toBe(1);
    takeMail(rt(), target.email, 'mail_activate');
    expect((await admin.client.post(`/api/console/members/${target.user.id}/resend-activation`)).status).toBe(200);
    expect(takeMail(rt(), target.email, 'mail_activate').token).toBeTruthy();
    expect((await admin.client.post(`/api/console/members/${target.user.id}/directdebit-block`, { reason: 'Stornering' })).status).toBe(200);
    expect((await rt().db.db.selectFrom('users').select('directdebit_blocked').where('id', '=', target.user.id).executeTakeFirstOrThrow()).directdebit_blocked).toBe(1);
    // The audit log, newest first, filtered.
    const log = (await admin.client.get('/api/console/audit?brand=spetter')).json();
    expect(log.entries[0]).toMatchObject({ action: 'member_directdebit_block', reason: 'Stornering', staff_id: admin.id });
    expect(log.entries[1]).toMatchObject({ action: 'member_resend_activation' });
    const byAction = (await admin.client.get('/api/console/audit?action=member_resend_activation')).json().entries;
    expect(byAction.every((e: { action: string }) => e.action === 'member_resend_activation')).toBe(true);
    expect((await admin.client.get(`/api/console/audit?q=Stornering&staff=${admin.id}`)).json().entries).toHaveLength(1);
    expect((await admin.client.get('/api/console/audit?before=abc')).status).toBe(400);
    // Bad JSON: 400, never a 500.
    const broken = await admin.client.request('POST', `/api/console/members/${target.user.id}/suspend`, '{"reason":', { 'content-type': 'application/json' });
    expect(broken.status).toBe(400);
    expect(apiError(broken).message).toBeTruthy();
  });

  test('delete: the member is erased at once as their own deletion would be; the ledger stays without personal data; audited', async () => {
    const target = await activeMember(rt(), 'spetter');
    const userId = target.user.id as number;
    const admin = await staffLogin(rt(), 'admin', ['spetter']);
    expect((await admin.client.post(`/api/console/members/${userId}/credits`, { credits: 7, reason: 'Test' })).status).toBe(200);
    expect((await admin.client.post(`/api/console/members/${userId}/delete`, {})).status).toBe(400);
    const res = await admin.client.post(`/api/console/members/${userId}/delete`, { reason: 'Verzoek van het lid per mail' });
    expect(res.status).toBe(200);
    expect((await target.client.get('/api/user.php')).json().user).toBeNull();
    expect((await new Client(rt(), 'spetter').post('/api/user.php', { email: target.email, password: PASSWORD })).status).toBe(401);
    const row = await rt().db.db.selectFrom('users').select(['status', 'email', 'password_hash']).where('id', '=', userId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'deleted', email: `deleted-${userId}@invalid`, password_hash: '!' });
    expect(await rt().db.db.selectFrom('profiles').select('id').where('user_id', '=', userId).execute()).toEqual([]);
    expect((await rt().db.db.selectFrom('credit_ledger').select('delta').where('user_id', '=', userId).execute()).length).toBeGreaterThan(0);
    expect((await admin.client.get(`/api/console/members/${userId}`)).status).toBe(404);
    expect((await auditOf(rt(), 'member_delete'))[0]).toMatchObject({ staff_id: admin.id, brand: 'spetter', object_id: String(userId), reason: 'Verzoek van het lid per mail' });
  });

  test('the audit log is append-only: UPDATE and DELETE are refused by the database', async () => {
    const db = rt().db.db;
    await db.insertInto('audit_log').values({ action: 'test', reason: 'vast' }).execute();
    await expect(db.updateTable('audit_log').set({ reason: 'anders' }).where('action', '=', 'test').execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('audit_log').where('action', '=', 'test').execute()).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
    expect((await db.selectFrom('audit_log').select('reason').where('action', '=', 'test').executeTakeFirstOrThrow()).reason).toBe('vast');
  });
});
