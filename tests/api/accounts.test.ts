/**
 * The accounts API of docs/API.md on the Dutch brand (spetter) and the multilingual one (velvet):
 * signup, activation, login and sessions, lockout, request hygiene, password reset, password and
 * e-mail change. Every refusal is checked with its status, code and the exact Dutch catalogue
 * text (SPEC §5, §8), and with the database left as it was.
 */
import { describe, expect, test } from 'vitest';
import { engines } from '../support/runtime.ts';
import {
  Client,
  PASSWORD,
  activeMember,
  apiError,
  freshEmail,
  mailsTo,
  setCookies,
  signUp,
  signupBody,
  snapshot,
  takeMail,
  useRuntime,
  userRow,
  profileRow,
  yearsAgo,
  type SignupBody,
} from '../support/accounts.ts';

const NEW_PASSWORD = 'nieuw-wachtwoord-2';

describe.each(engines())('accounts API on %s', (engine) => {
  /** What a browser sends with a click on a link of the brand's own page. */
const SAME_ORIGIN_NAVIGATION = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' };

describe('signup', () => {
    const rt = useRuntime(engine);

    test('creates a not-confirmed member with the signup credits once, logged in with a 30-day HttpOnly cookie', async () => {
      const body = signupBody();
      const client = new Client(rt(), 'spetter');
      const res = await client.post('/api/signup.php', body);
      expect(res.status).toBe(201);
      const { user } = res.json();
      expect(user).toMatchObject({
        email: body.email,
        status: 'not_confirmed',
        credits: 10,
        paid_user: false,
        language: 'nl',
        notifications_disabled: [],
        profile: { name: body.name, country: 'NL', status: 'disabled', main_image: null },
      });

      const cookies = setCookies(res);
      const session = cookies.find((c) => c.name === 'session');
      expect(session?.value).toMatch(/^[a-z2-7]+\.[a-z2-7]+$/);
      expect(session?.attributes).toMatchObject({ httponly: true, samesite: 'Lax', 'max-age': '2592000', path: '/' });
      const signedIn = cookies.find((c) => c.name === 'signed_in');
      expect(signedIn?.value).toMatch(/^[A-Za-z0-9_-]{12}$/); // the session's tag, nothing secret
      expect(signedIn?.attributes['max-age']).toBe('2592000');
      expect(signedIn?.attributes.httponly).toBeUndefined(); // readable by prerendered pages

      const row = await userRow(rt(), 'spetter', body.email);
      expect(row).toMatchObject({ status: 'not_confirmed', credits: 10, language: 'nl', tracking: null });
      expect(row!.password_hash).toMatch(/^\$argon2id\$/);
      const ledger = await rt().db.db.selectFrom('credit_ledger').selectAll().where('user_id', '=', row!.id).execute();
      expect(ledger.map((l) => [l.reason, l.delta])).toEqual([['signup', 10]]);
      expect(await profileRow(rt(), row!.id)).toMatchObject({ name: body.name, birth_date: '1990-05-17', region: 'Noord-Holland', city: 'Amsterdam', status: 'disabled' });

      expect(await client.user()).toMatchObject({ id: user.id, status: 'not_confirmed' });
      expect(mailsTo(rt(), body.email, 'mail_activate')).toHaveLength(1);
    });

    test('stores the e-mail lower-cased and trims the name', async () => {
      const email = freshEmail('Hoofd').replace('hoofd', 'HOOFD');
      const res = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody({ email, name: '  Sanne  ' }));
      expect(res.status).toBe(201);
      expect(res.json().user).toMatchObject({ email: email.toLowerCase(), profile: { name: 'Sanne' } });
    });

    test('stores the tracking parameters with the member', async () => {
      const tracking = { network: 'daisycon', ref: 'r-77', sub1: 'banner', sub2: 'mobiel', sub3: 'zomer' };
      const { email } = await signUp(rt(), 'spetter', { tracking });
      const row = await userRow(rt(), 'spetter', email);
      expect(JSON.parse(row!.tracking!)).toEqual(tracking);
    });

    const refusals: [string, (email: string) => Partial<SignupBody>, number, string, string, string | undefined][] = [
      ['a bad e-mail', () => ({ email: 'geen-email' }), 400, 'signup_email_invalid', 'Ongeldige e-mail', 'email'],
      ['an e-mail without a domain', () => ({ email: 'jan@localhost' }), 400, 'signup_email_invalid', 'Ongeldige e-mail', 'email'],
      ['a name starting with @', () => ({ name: '@sanne' }), 400, 'name_no_at', 'Je profielnaam mag niet beginnen met een @', 'name'],
      ['a name equal to the e-mail', (email) => ({ email, name: email.toUpperCase() }), 400, 'name_not_email', 'Je profielnaam moet anders zijn dan je e-mailadres', 'name'],
      ['a one-letter name', () => ({ name: 'S' }), 400, 'name_length', 'Je profielnaam moet 2 tot 30 tekens lang zijn.', 'name'],
      ['a member one day short of 18', () => ({ date_of_birth: yearsAgo(18, 1) }), 400, 'birth_date_required', 'Vul uw geboortedatum in (18+ jaar)', 'date_of_birth'],
      ['an empty birth date', () => ({ date_of_birth: '' }), 400, 'birth_date_required', 'Vul uw geboortedatum in (18+ jaar)', 'date_of_birth'],
      ['the impossible date 1990-02-31', () => ({ date_of_birth: '1990-02-31' }), 400, 'birth_date_invalid', 'Ongeldige geboortedatum.', 'date_of_birth'],
      ['a birth date in the future', () => ({ date_of_birth: yearsAgo(-1) }), 400, 'birth_date_invalid', 'Ongeldige geboortedatum.', 'date_of_birth'],
      ['a birth date in another format', () => ({ date_of_birth: '17-05-1990' }), 400, 'birth_date_invalid', 'Ongeldige geboortedatum.', 'date_of_birth'],
      ['a short password', () => ({ password: 'kort123' }), 400, 'password_too_short', 'Je wachtwoord moet minstens 8 tekens lang zijn.', 'password'],
      ['an unknown gender', () => ({ gender: 'other' as never }), 400, 'invalid_input', 'De gegevens zijn niet geldig.', 'gender'],
    ];

    test.each(refusals)('refuses %s and changes nothing', async (_label, overrides, status, code, message, field) => {
      const before = await snapshot(rt());
      const res = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody(overrides(freshEmail())));
      expect(res.status).toBe(status);
      expect(apiError(res)).toEqual({ code, message, field });
      expect(setCookies(res)).toEqual([]);
      expect(await snapshot(rt())).toEqual(before);
    });

    test('refuses a missing birth date with the required message and changes nothing', async () => {
      const before = await snapshot(rt());
      const { date_of_birth: _dob, ...body } = signupBody();
      const res = await new Client(rt(), 'spetter').post('/api/signup.php', body);
      expect(res.status).toBe(400);
      expect(apiError(res)).toEqual({ code: 'birth_date_required', message: 'Vul uw geboortedatum in (18+ jaar)', field: 'date_of_birth' });
      expect(await snapshot(rt())).toEqual(before);
    });

    test('refuses a country the brand does not serve with a 400 and changes nothing', async () => {
      const before = await snapshot(rt());
      const res = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody({ country: 'DE', region: null }));
      expect(res.status).toBe(400);
      expect(apiError(res)).toEqual({ code: 'invalid_input', message: 'De gegevens zijn niet geldig.', field: 'country' });
      expect(await snapshot(rt())).toEqual(before);
    });

    test('refuses a region that is not one of the country and changes nothing', async () => {
      const before = await snapshot(rt());
      const res = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody({ country: 'NL', region: 'Bayern' }));
      expect(res.status).toBe(400);
      expect(apiError(res)).toMatchObject({ code: 'invalid_input', field: 'region' });
      expect(await snapshot(rt())).toEqual(before);
    });

    test('refuses a second signup with the e-mail on the same brand (409), in any case', async () => {
      const { email } = await signUp(rt(), 'spetter');
      for (const again of [email, email.toUpperCase()]) {
        const before = await snapshot(rt());
        const res = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody({ email: again }));
        expect(res.status).toBe(409);
        expect(apiError(res)).toEqual({
          code: 'signup_exists',
          message: 'Er is al een account met dit e-mailadres op deze site. Log in of vraag een nieuw wachtwoord aan.',
          field: 'email',
        });
        expect(await snapshot(rt())).toEqual(before);
      }
    });

    test('the same e-mail on the other brand is a separate account with that brand’s credits', async () => {
      const nl = await signUp(rt(), 'spetter');
      const res = await new Client(rt(), 'velvet').post('/api/signup.php', signupBody({ email: nl.email, country: 'GB', region: null, city: 'London' }));
      expect(res.status).toBe(201);
      const { user } = res.json();
      expect(user.id).not.toBe(nl.user.id);
      expect(user).toMatchObject({ email: nl.email, credits: 15, status: 'not_confirmed', language: 'en' });
      const rows = await rt().db.db.selectFrom('users').select(['id', 'tenant_id', 'credits']).where('email', '=', nl.email).orderBy('id').execute();
      expect(rows.map((r) => [r.tenant_id, r.credits])).toEqual([
        ['spetter', 10],
        ['velvet', 15],
      ]);
      const ledger = await rt().db.db.selectFrom('credit_ledger').select(['delta', 'reason']).where('user_id', '=', user.id).execute();
      expect(ledger).toEqual([{ delta: 15, reason: 'signup' }]);
    });

    test('a velvet member may not use a Dutch-only country list: BE yes, NL no', async () => {
      const ok = await new Client(rt(), 'velvet').post('/api/signup.php', signupBody({ country: 'BE', region: null }));
      expect(ok.status).toBe(201);
      const no = await new Client(rt(), 'velvet').post('/api/signup.php', signupBody({ country: 'NL', region: null }));
      expect(no.status).toBe(400); // 500 today: see the country test above
    });

    test('signups with_trafficsource are invite-only without a tracking parameter (403)', async () => {
      const tenant = rt().services.tenants().find((t) => t.id === 'spetter')!;
      const previous = tenant.signups;
      tenant.signups = 'with_trafficsource';
      try {
        const before = await snapshot(rt());
        const closed = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody());
        expect(closed.status).toBe(403);
        expect(apiError(closed)).toEqual({ code: 'signup_invite_only', message: 'Aanmelden is op dit moment alleen mogelijk op uitnodiging.' });
        expect(await snapshot(rt())).toEqual(before);
        const open = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody({ tracking: { network: 'daisycon' } }));
        expect(open.status).toBe(201);
      } finally {
        tenant.signups = previous;
      }
    });
  });

  describe('activation', () => {
    const rt = useRuntime(engine);

    test('the mailed link activates the member and the profile; a second click still says done', async () => {
      const { client, email, user } = await signUp(rt(), 'spetter');
      const mail = takeMail(rt(), email, 'mail_activate');
      expect(mail.link).toBe(`${rt().tenantUrl('spetter')}/api/activate.php?token=${mail.token}`);
      expect(mail.headers.from).toContain('no-reply@spetter.nl');

      // The link is opened from the mail program, with or without the session.
      const first = await new Client(rt(), 'spetter').get(`/api/activate.php?token=${mail.token}`);
      expect(first.status).toBe(303);
      expect(first.headers.location).toBe('/activate/done');
      expect((await userRow(rt(), 'spetter', email))!.status).toBe('active');
      expect((await profileRow(rt(), user.id))!.status).toBe('active');
      expect(await client.user()).toMatchObject({ status: 'active', profile: { status: 'active' } });

      // Mail scanners open links before the member does: the member's own click must not fail.
      const again = await client.get(`/api/activate.php?token=${mail.token}`);
      expect(again.status).toBe(303);
      expect(again.headers.location).toBe('/activate/done');
      const token = mail.token!;
      const bent = await client.get(`/api/activate.php?token=${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`);
      expect(bent.headers.location).toBe('/activate/error');
    });

    test('the link opened many times at once (a mail scanner and the member, a browser retrying) says done to every one', async () => {
      for (let round = 0; round < 5; round += 1) {
        const { email, user } = await signUp(rt(), 'spetter');
        const mail = takeMail(rt(), email, 'mail_activate');
        const answers = await Promise.all(Array.from({ length: 8 }, () => new Client(rt(), 'spetter').get(`/api/activate.php?token=${mail.token}`)));
        expect(answers.map((a) => a.headers.location)).toEqual(Array(8).fill('/activate/done'));
        expect((await userRow(rt(), 'spetter', email))!.status).toBe('active');
        expect((await profileRow(rt(), user.id))!.status).toBe('active');
      }
    });

    test('a used link answers the JSON call with "Activeren mislukt": only the mail link\'s redirect forgives a second click', async () => {
      const { email } = await signUp(rt(), 'spetter');
      const mail = takeMail(rt(), email, 'mail_activate');
      expect((await new Client(rt(), 'spetter').post('/api/activate.php', { token: mail.token })).status).toBe(200);
      const again = await new Client(rt(), 'spetter').post('/api/activate.php', { token: mail.token });
      expect(again.status).toBe(400);
      expect(again.json()).not.toHaveProperty('user');
      expect(apiError(again)).toMatchObject({ code: 'activate_failed', message: 'Activeren mislukt' });
      expect((await new Client(rt(), 'spetter').get(`/api/activate.php?token=${mail.token}`)).headers.location).toBe('/activate/done');
    });

    test('POST with the token answers the active user', async () => {
      const { email } = await signUp(rt(), 'spetter');
      const mail = takeMail(rt(), email, 'mail_activate');
      const res = await new Client(rt(), 'spetter').post('/api/activate.php', { token: mail.token });
      expect(res.status).toBe(200);
      expect(res.json().user).toMatchObject({ email, status: 'active' });
    });

    test.each([
      ['a forged token', { token: 'aaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' }],
      ['a token of another shape', { token: 'niet-echt' }],
      ['no token', {}],
    ])('refuses %s with "Activeren mislukt"', async (_label, body) => {
      const before = await snapshot(rt());
      const res = await new Client(rt(), 'spetter').post('/api/activate.php', body);
      expect(res.status).toBe(400);
      expect(apiError(res)).toMatchObject({ code: 'activate_failed', message: 'Activeren mislukt' });
      expect(await snapshot(rt())).toEqual(before);
    });

    test('a GET with a forged token lands on /activate/error', async () => {
      const res = await new Client(rt(), 'spetter').get('/api/activate.php?token=aaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbb');
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/activate/error');
    });

    test('a velvet token does not work on spetter, and still works on velvet', async () => {
      const { email } = await signUp(rt(), 'velvet', { country: 'GB', region: null });
      const mail = takeMail(rt(), email, 'mail_activate');
      expect(mail.link!.startsWith(`${rt().tenantUrl('velvet')}/api/activate.php?token=`)).toBe(true);
      const wrong = await new Client(rt(), 'spetter').post('/api/activate.php', { token: mail.token });
      expect(wrong.status).toBe(400);
      expect(apiError(wrong).message).toBe('Activeren mislukt');
      const right = await new Client(rt(), 'velvet').get(`/api/activate.php?token=${mail.token}`);
      expect(right.headers.location).toBe('/activate/done');
    });

    test('the mail can be sent again while not confirmed, not after', async () => {
      const { client, email } = await signUp(rt(), 'spetter');
      const first = takeMail(rt(), email, 'mail_activate');
      const resend = await client.post('/api/activate.php?resend=1', {});
      expect(resend.status).toBe(200);
      expect(resend.json()).toEqual({ ok: true });
      const second = takeMail(rt(), email, 'mail_activate');
      expect(second.token).not.toBe(first.token);
      await client.get(`/api/activate.php?token=${second.token}`);
      const late = await client.post('/api/activate.php?resend=1', {});
      expect(late.status).toBe(409);
      expect(apiError(late)).toMatchObject({ code: 'activate_already', message: 'Je account is al geactiveerd.' });
    });
  });

  describe('login, sessions and logout', () => {
    const rt = useRuntime(engine);

    test('a wrong password and an unknown e-mail get the same 401 "Login mislukt, probeer opnieuw"', async () => {
      const { email } = await signUp(rt(), 'spetter');
      const wrong = await new Client(rt(), 'spetter').login(email, 'fout-wachtwoord');
      const unknown = await new Client(rt(), 'spetter').login(freshEmail('onbekend'), PASSWORD);
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(apiError(res)).toEqual({ code: 'login_failed', message: 'Login mislukt, probeer opnieuw' });
        expect(setCookies(res)).toEqual([]);
      }
    });

    test('login answers the user and rotates the session cookie', async () => {
      const { client, email, user } = await signUp(rt(), 'spetter');
      const before = client.session;
      const old = client.clone();
      const res = await client.login(email.toUpperCase());
      expect(res.status).toBe(200);
      expect(res.json().user).toMatchObject({ id: user.id, email });
      const session = setCookies(res).find((c) => c.name === 'session');
      expect(session?.attributes).toMatchObject({ httponly: true, samesite: 'Lax', 'max-age': '2592000' });
      expect(client.session).toBeTruthy();
      expect(client.session).not.toBe(before);
      expect((await client.user()).id).toBe(user.id);
      // The cookie from before the login (signup's session) no longer opens the account.
      expect((await old.get('/api/user.php')).json()).toEqual({ user: null });
    });

    test('GET /api/user.php answers the user of SPEC §3 and never the password hash', async () => {
      const anonymous = await new Client(rt(), 'spetter').get('/api/user.php');
      expect(anonymous.status).toBe(200);
      expect(anonymous.json()).toEqual({ user: null });

      const { client, body } = await signUp(rt(), 'spetter');
      const res = await client.get('/api/user.php');
      expect(res.status).toBe(200);
      const { user } = res.json();
      expect(user).toMatchObject({ status: 'not_confirmed', credits: 10, paid_user: false, language: 'nl', notifications_disabled: [] });
      expect(new Date(user.signup_date).getTime()).toBeGreaterThan(Date.now() - 60_000);
      expect(Object.keys(user.profile).sort()).toEqual(['country', 'id', 'main_image', 'name', 'status']);
      expect(user.profile).toMatchObject({ name: body.name, country: 'NL', status: 'disabled', main_image: null });
      expect(user).not.toHaveProperty('password_hash');
      expect(res.text).not.toContain('password_hash');
      expect(res.text).not.toContain('$argon2');
      expect(res.headers['cache-control']).toBe('no-store');
    });

    test('logout answers {ok:true}, clears the cookies and ends the session for good', async () => {
      const { client } = await signUp(rt(), 'spetter');
      const stolen = client.clone();
      const res = await client.post('/api/logout.php', {});
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      const cleared = setCookies(res);
      expect(cleared.find((c) => c.name === 'session')?.attributes['max-age']).toBe('0');
      expect(cleared.find((c) => c.name === 'signed_in')?.attributes['max-age']).toBe('0');
      expect(client.session).toBeUndefined();
      expect(await client.user()).toBeNull();
      expect(await stolen.user()).toBeNull();
      const put = await stolen.put('/api/user.php', { invisible: true });
      expect(put.status).toBe(401);
      expect(put.json()).toMatchObject({ error: { code: 'authentication_required', message: 'Log in om verder te gaan.' }, authentication_required: true });
    });

    test('logout with next redirects only within the site', async () => {
      const { client } = await signUp(rt(), 'spetter');
      const res = await client.request('GET', '/api/logout.php?next=%2Fmembers', undefined, SAME_ORIGIN_NAVIGATION);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/members');
      expect(await client.user()).toBeNull();
      const evil = await new Client(rt(), 'spetter').request('GET', '/api/logout.php?next=https%3A%2F%2Fevil.example%2F', undefined, SAME_ORIGIN_NAVIGATION);
      expect(evil.status).toBe(303);
      expect(evil.headers.location).toBe('/');
    });

    test('a link from another site does not log the member out', async () => {
      const { client } = await signUp(rt(), 'spetter');
      const crossSite = await client.request('GET', '/api/logout.php?next=%2F', undefined, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' });
      expect(crossSite.status).toBe(303);
      expect(crossSite.headers.location).toBe('/');
      expect(await client.user()).not.toBeNull();
      // A GET that does not say where it comes from changes nothing either.
      const unknown = await client.get('/api/logout.php');
      expect(unknown.status).toBe(403);
      expect(unknown.json()).toMatchObject({ error: { code: 'forbidden_origin' } });
      expect(await client.user()).not.toBeNull();
      // A POST from another site's page is refused by the Origin check.
      const forged = await client.request('POST', '/api/logout.php', {}, { origin: 'http://evil.example' });
      expect(forged.status).toBe(403);
      expect(await client.user()).not.toBeNull();
      // The page's own logout: a same-origin GET (the menu link) or POST.
      expect((await client.request('GET', '/api/logout.php', undefined, { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
      expect(await client.user()).toBeNull();
    });

    test('a spetter session cookie is refused on velvet', async () => {
      const { client } = await signUp(rt(), 'spetter');
      const onVelvet = client.clone('velvet');
      expect(await onVelvet.user()).toBeNull();
      const res = await onVelvet.get('/api/profile.php');
      expect(res.status).toBe(401);
      expect(await client.user()).not.toBeNull();
    });

    test('a tampered session cookie is no session', async () => {
      const { client } = await signUp(rt(), 'spetter');
      const forged = client.clone();
      const [id, secret] = client.session!.split('.');
      forged.jar.set('session', `${id}.${secret!.slice(0, -4)}aaaa`);
      expect(await forged.user()).toBeNull();
    });

    test('the 5th wrong password locks the account for 15 minutes (429 + Retry-After), even for the right password', async () => {
      const { email } = await signUp(rt(), 'spetter');
      const client = new Client(rt(), 'spetter');
      for (let i = 1; i <= 4; i++) {
        const res = await client.login(email, `fout-${i}-wachtwoord`);
        expect(res.status).toBe(401);
        expect(apiError(res).message).toBe('Login mislukt, probeer opnieuw');
      }
      const fifth = await client.login(email, 'fout-5-wachtwoord');
      expect(fifth.status).toBe(429);
      expect(apiError(fifth)).toEqual({ code: 'login_locked', message: 'Te veel foute pogingen, account voor 15 min geblokkeerd.' });
      expect(fifth.headers['retry-after']).toBe('900');

      const right = await client.login(email, PASSWORD);
      expect(right.status).toBe(429);
      expect(apiError(right)).toEqual({ code: 'login_locked', message: 'Te veel foute pogingen, account voor 15 min geblokkeerd.' });
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(right.headers['retry-after'])).toBeLessThanOrEqual(900);
      expect(setCookies(right)).toEqual([]);

      const row = await userRow(rt(), 'spetter', email);
      expect(Date.parse(row!.locked_until!)).toBeGreaterThan(Date.now() + 14 * 60_000);

      // Fifteen minutes later (the lock moved into the past), the right password works again.
      await rt().db.db.updateTable('users').set({ locked_until: new Date(Date.now() - 1000).toISOString() }).where('id', '=', row!.id).execute();
      const later = await client.login(email, PASSWORD);
      expect(later.status).toBe(200);
      expect(later.json().user.email).toBe(email);
      expect((await userRow(rt(), 'spetter', email))!.failed_logins).toBe(0);
    });

    test('a state-changing call from a foreign Origin is refused (403 forbidden_origin), the own origin passes', async () => {
      const { email } = await signUp(rt(), 'spetter');
      const before = await snapshot(rt());
      const evil = await new Client(rt(), 'spetter').post('/api/user.php', { email, password: PASSWORD }, { origin: 'http://evil.example' });
      expect(evil.status).toBe(403);
      expect(apiError(evil)).toEqual({ code: 'forbidden_origin', message: 'Dit verzoek komt niet van deze site.' });
      const evilSignup = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody(), { origin: 'http://evil.example' });
      expect(evilSignup.status).toBe(403);
      const crossSite = await new Client(rt(), 'spetter').post('/api/user.php', { email, password: PASSWORD }, { 'sec-fetch-site': 'cross-site' });
      expect(crossSite.status).toBe(403);
      const otherBrand = await new Client(rt(), 'spetter').post('/api/user.php', { email, password: PASSWORD }, { origin: rt().tenantUrl('velvet') });
      expect(otherBrand.status).toBe(403);
      // The same host on another port or scheme is another origin (another server, or a page
      // that was not served over the same connection security).
      const otherPort = await new Client(rt(), 'spetter').post('/api/user.php', { email, password: PASSWORD }, { origin: `http://spetter.localhost:${rt().port + 1}` });
      expect(otherPort.status).toBe(403);
      const otherScheme = await new Client(rt(), 'spetter').post('/api/user.php', { email, password: PASSWORD }, { origin: `https://spetter.localhost:${rt().port}` });
      expect(otherScheme.status).toBe(403);
      const opaque = await new Client(rt(), 'spetter').post('/api/user.php', { email, password: PASSWORD }, { origin: 'null' });
      expect(opaque.status).toBe(403);
      const put = await new Client(rt(), 'spetter').request('PUT', '/api/user.php', { invisible: true }, { origin: `http://spetter.localhost:9999` });
      expect(put.status).toBe(403);
      expect(await snapshot(rt())).toEqual(before);

      const own = await new Client(rt(), 'spetter').post('/api/user.php', { email, password: PASSWORD }, { origin: rt().tenantUrl('spetter'), 'sec-fetch-site': 'same-origin' });
      expect(own.status).toBe(200);
      expect(own.json().user.email).toBe(email);
    });

    test('malformed JSON is a 400, not a 500', async () => {
      const res = await new Client(rt(), 'spetter').post('/api/user.php', '{"email": "a@b.nl", "password": ');
      expect(res.status).toBe(400);
      expect(apiError(res)).toEqual({ code: 'invalid_json', message: 'De gegevens zijn niet geldig.' });
      const signup = await new Client(rt(), 'spetter').post('/api/signup.php', 'null');
      expect(signup.status).toBe(400);
      const array = await new Client(rt(), 'spetter').post('/api/signup.php', '[1,2]');
      expect(array.status).toBe(400);
    });

    test('a body that is not JSON is a 415', async () => {
      const res = await new Client(rt(), 'spetter').post('/api/user.php', 'email=a@b.nl&password=x', { 'content-type': 'text/plain' });
      expect(res.status).toBe(415);
      expect(apiError(res)).toMatchObject({ code: 'unsupported_media_type', message: 'De gegevens zijn niet geldig.' });
    });

    test('a 100 KB body is a 413', async () => {
      const before = await snapshot(rt());
      const res = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody({ signup_message: 'x'.repeat(100 * 1024) }));
      expect(res.status).toBe(413);
      expect(apiError(res)).toEqual({ code: 'payload_too_large', message: 'Het verzoek is te groot.' });
      expect(await snapshot(rt())).toEqual(before);
    });
  });

  describe('login throttle per IP', () => {
    const rt = useRuntime(engine);

    test('after 20 attempts from one address the 21st is refused with 429 and Retry-After', async () => {
      const client = new Client(rt(), 'spetter');
      for (let i = 0; i < 20; i++) {
        const res = await client.login(freshEmail('gok'), PASSWORD);
        expect(res.status).toBe(401);
      }
      const res = await client.login(freshEmail('gok'), PASSWORD);
      expect(res.status).toBe(429);
      expect(apiError(res)).toEqual({ code: 'too_many_requests', message: 'Te veel verzoeken, probeer het later opnieuw.' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('password reset, password change and e-mail change', () => {
    const rt = useRuntime(engine);

    test('an unknown e-mail gets 404 "E-mailadres niet gevonden", an invalid one "Ongeldige e-mail"', async () => {
      const before = await snapshot(rt());
      const res = await new Client(rt(), 'spetter').post('/api/reset-password.php', { email: freshEmail('onbekend') });
      expect(res.status).toBe(404);
      expect(apiError(res)).toEqual({ code: 'reset_not_found', message: 'E-mailadres niet gevonden', field: 'email' });
      const invalid = await new Client(rt(), 'spetter').post('/api/reset-password.php', { email: 'geen-email' });
      expect(invalid.status).toBe(400);
      expect(apiError(invalid)).toEqual({ code: 'signup_email_invalid', message: 'Ongeldige e-mail', field: 'email' });
      expect(await snapshot(rt())).toEqual(before);
    });

    test('an e-mail of the other brand is unknown here', async () => {
      const { email } = await signUp(rt(), 'velvet', { country: 'GB', region: null });
      const res = await new Client(rt(), 'spetter').post('/api/reset-password.php', { email });
      expect(res.status).toBe(404);
    });

    test('three reset mails a day, the 4th is a 429 "Te veel wachtwoordherstel mails verstuurd, …"', async () => {
      const { email } = await signUp(rt(), 'spetter');
      for (let i = 0; i < 3; i++) {
        const res = await new Client(rt(), 'spetter').post('/api/reset-password.php', { email });
        expect(res.status).toBe(200);
        expect(res.json()).toEqual({ ok: true });
      }
      const mails = mailsTo(rt(), email, 'mail_reset');
      expect(mails).toHaveLength(3);
      for (const m of mails) expect(m.link).toBe(`${rt().tenantUrl('spetter')}/reset-password/do?token=${m.token}`);
      const before = await snapshot(rt());
      const fourth = await new Client(rt(), 'spetter').post('/api/reset-password.php', { email: email.toUpperCase() });
      expect(fourth.status).toBe(429);
      expect(apiError(fourth)).toEqual({ code: 'reset_too_many', message: 'Te veel wachtwoordherstel mails verstuurd, probeer het morgen nog eens.' });
      expect(fourth.headers['retry-after']).toBeDefined();
      expect(await snapshot(rt())).toEqual(before);
    });

    test('the mailed token sets the new password, ends every session and works once', async () => {
      const { client, email } = await signUp(rt(), 'spetter');
      const other = new Client(rt(), 'spetter');
      expect((await other.login(email)).status).toBe(200);
      expect((await new Client(rt(), 'spetter').post('/api/reset-password.php', { email })).status).toBe(200);
      const mail = takeMail(rt(), email, 'mail_reset');

      // A password that is too short does not use up the link.
      const short = await new Client(rt(), 'spetter').post('/api/reset-password.php', { token: mail.token, password: 'kort' });
      expect(short.status).toBe(400);
      expect(apiError(short)).toEqual({ code: 'password_too_short', message: 'Je wachtwoord moet minstens 8 tekens lang zijn.', field: 'password' });

      // The token is for spetter only.
      const elsewhere = await new Client(rt(), 'velvet').post('/api/reset-password.php', { token: mail.token, password: NEW_PASSWORD });
      expect(elsewhere.status).toBe(400);

      const res = await new Client(rt(), 'spetter').post('/api/reset-password.php', { token: mail.token, password: NEW_PASSWORD });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect(await client.user()).toBeNull();
      expect(await other.user()).toBeNull();
      expect((await new Client(rt(), 'spetter').login(email, PASSWORD)).status).toBe(401);
      expect((await new Client(rt(), 'spetter').login(email, NEW_PASSWORD)).status).toBe(200);

      const reused = await new Client(rt(), 'spetter').post('/api/reset-password.php', { token: mail.token, password: 'nog-een-wachtwoord' });
      expect(reused.status).toBe(400);
      expect(apiError(reused)).toEqual({ code: 'reset_link_invalid', message: 'Link verlopen of invalide, vraag een nieuwe e-mail aan' });
    });

    test('a successful reset ends the other reset links still pending', async () => {
      const { email } = await signUp(rt(), 'spetter');
      await new Client(rt(), 'spetter').post('/api/reset-password.php', { email });
      const first = takeMail(rt(), email, 'mail_reset');
      await new Client(rt(), 'spetter').post('/api/reset-password.php', { email });
      const second = takeMail(rt(), email, 'mail_reset');
      expect((await new Client(rt(), 'spetter').post('/api/reset-password.php', { token: second.token, password: NEW_PASSWORD })).status).toBe(200);
      const stale = await new Client(rt(), 'spetter').post('/api/reset-password.php', { token: first.token, password: 'overgenomen-wachtwoord' });
      expect(stale.status).toBe(400);
      expect(apiError(stale)).toEqual({ code: 'reset_link_invalid', message: 'Link verlopen of invalide, vraag een nieuwe e-mail aan' });
    });

    test('a forged or expired reset token is refused with "Link verlopen of invalide, …"', async () => {
      const forged = await new Client(rt(), 'spetter').post('/api/reset-password.php', { token: 'aaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbb', password: NEW_PASSWORD });
      expect(forged.status).toBe(400);
      expect(apiError(forged)).toEqual({ code: 'reset_link_invalid', message: 'Link verlopen of invalide, vraag een nieuwe e-mail aan' });

      const { email, user } = await signUp(rt(), 'spetter');
      await new Client(rt(), 'spetter').post('/api/reset-password.php', { email });
      const mail = takeMail(rt(), email, 'mail_reset');
      await rt().db.db.updateTable('tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', user.id).where('kind', '=', 'reset').execute();
      const expired = await new Client(rt(), 'spetter').post('/api/reset-password.php', { token: mail.token, password: NEW_PASSWORD });
      expect(expired.status).toBe(400);
      expect(apiError(expired).message).toBe('Link verlopen of invalide, vraag een nieuwe e-mail aan');
    });

    test('password change refuses a mismatch, a wrong old password and a short one, changing nothing', async () => {
      const { client, email } = await signUp(rt(), 'spetter');
      const anonymous = await new Client(rt(), 'spetter').post('/api/password.php', { old_password: PASSWORD, password: NEW_PASSWORD, password_repeat: NEW_PASSWORD });
      expect(anonymous.status).toBe(401);
      expect(anonymous.json().authentication_required).toBe(true);

      const hash = (await userRow(rt(), 'spetter', email))!.password_hash;
      const session = client.session;
      const mismatch = await client.post('/api/password.php', { old_password: PASSWORD, password: NEW_PASSWORD, password_repeat: 'iets-anders-123' });
      expect(mismatch.status).toBe(400);
      expect(apiError(mismatch)).toEqual({ code: 'password_mismatch', message: 'De opgegeven wachtwoorden zijn niet gelijk.', field: 'password_repeat' });
      const wrongOld = await client.post('/api/password.php', { old_password: 'niet-mijn-wachtwoord', password: NEW_PASSWORD, password_repeat: NEW_PASSWORD });
      expect(wrongOld.status).toBe(400);
      expect(apiError(wrongOld)).toEqual({ code: 'password_old_wrong', message: 'Controleer je oude wachtwoord.', field: 'old_password' });
      const short = await client.post('/api/password.php', { old_password: PASSWORD, password: 'kort', password_repeat: 'kort' });
      expect(short.status).toBe(400);
      expect(apiError(short)).toMatchObject({ code: 'password_too_short', message: 'Je wachtwoord moet minstens 8 tekens lang zijn.' });
      expect((await userRow(rt(), 'spetter', email))!.password_hash).toBe(hash);
      expect(client.session).toBe(session);
      expect(await client.user()).not.toBeNull();
    });

    test('password change revokes the other sessions; the current one goes on with a new cookie', async () => {
      const { client, email } = await signUp(rt(), 'spetter');
      const other = new Client(rt(), 'spetter');
      expect((await other.login(email)).status).toBe(200);
      const oldCopy = client.clone();
      const res = await client.post('/api/password.php', { old_password: PASSWORD, password: NEW_PASSWORD, password_repeat: NEW_PASSWORD });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect(client.session).not.toBe(oldCopy.session);
      expect((await client.user())?.email).toBe(email);
      expect(await other.user()).toBeNull();
      expect(await oldCopy.user()).toBeNull();
      expect((await new Client(rt(), 'spetter').login(email, PASSWORD)).status).toBe(401);
      expect((await new Client(rt(), 'spetter').login(email, NEW_PASSWORD)).status).toBe(200);
    });

    test('e-mail change refuses an invalid address, the own one, one in use here and a wrong password', async () => {
      const { client, email } = await signUp(rt(), 'spetter');
      const taken = await signUp(rt(), 'spetter');
      const before = await snapshot(rt());
      const invalid = await client.post('/api/mail-change.php', { email: 'geen-email', password: PASSWORD });
      expect(invalid.status).toBe(400);
      expect(apiError(invalid)).toEqual({ code: 'mail_new_invalid', message: 'Nieuw e-mailadres invalide.', field: 'email' });
      const same = await client.post('/api/mail-change.php', { email: email.toUpperCase(), password: PASSWORD });
      expect(same.status).toBe(400);
      expect(apiError(same).message).toBe('Nieuw e-mailadres invalide.');
      const inUse = await client.post('/api/mail-change.php', { email: taken.email, password: PASSWORD });
      expect(inUse.status).toBe(409);
      expect(apiError(inUse)).toEqual({ code: 'mail_in_use', message: 'Dit e-mailadres heeft al een account op deze site.', field: 'email' });
      const wrong = await client.post('/api/mail-change.php', { email: freshEmail('nieuw'), password: 'niet-mijn-wachtwoord' });
      expect(wrong.status).toBe(400);
      expect(apiError(wrong)).toEqual({ code: 'password_old_wrong', message: 'Controleer je oude wachtwoord.', field: 'password' });
      const anonymous = await new Client(rt(), 'spetter').post('/api/mail-change.php', { email: freshEmail('nieuw'), password: PASSWORD });
      expect(anonymous.status).toBe(401);
      expect(await snapshot(rt())).toEqual(before);
    });

    test('e-mail change mails a link to the new address; confirming makes it the login', async () => {
      const { client, email } = await signUp(rt(), 'spetter');
      const onVelvet = await signUp(rt(), 'velvet', { country: 'GB', region: null });
      // In use on the other brand only: allowed here.
      const next = onVelvet.email;
      const res = await client.post('/api/mail-change.php', { email: next, password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect(mailsTo(rt(), email, 'mail_change')).toHaveLength(0);
      const mail = takeMail(rt(), next, 'mail_change');
      expect(mail.link).toBe(`${rt().tenantUrl('spetter')}/mail-change/do?token=${mail.token}`);
      expect((await new Client(rt(), 'spetter').login(next)).status).toBe(401); // not yet

      const confirm = await new Client(rt(), 'spetter').post('/api/mail-change.php', { token: mail.token });
      expect(confirm.status).toBe(200);
      expect(confirm.json()).toEqual({ ok: true });
      expect((await new Client(rt(), 'spetter').login(next)).status).toBe(200);
      expect((await new Client(rt(), 'spetter').login(email)).status).toBe(401);
      expect((await client.user()).email).toBe(next);
      // The velvet account with that address is untouched.
      expect((await userRow(rt(), 'velvet', next))!.id).toBe(onVelvet.user.id);

      const reused = await new Client(rt(), 'spetter').post('/api/mail-change.php', { token: mail.token });
      expect(reused.status).toBe(400);
      expect(apiError(reused).message).toBe('Link verlopen of invalide, vraag een nieuwe e-mail aan');
    });

    test('a not-confirmed member who confirms a new address is active with a visible profile; old activation links stop', async () => {
      const { client, email, user } = await signUp(rt(), 'spetter');
      const oldLink = takeMail(rt(), email, 'mail_activate');
      const next = freshEmail('bevestigd');
      await client.post('/api/mail-change.php', { email: next, password: PASSWORD });
      const mail = takeMail(rt(), next, 'mail_change');
      expect((await new Client(rt(), 'spetter').post('/api/mail-change.php', { token: mail.token })).status).toBe(200);
      expect(await client.user()).toMatchObject({ email: next, status: 'active', profile: { status: 'active' } });
      expect((await profileRow(rt(), user.id))!.status).toBe('active');
      // The link sent to the old address gives nothing away and changes nothing.
      const old = await new Client(rt(), 'spetter').post('/api/activate.php', { token: oldLink.token });
      expect(old.status).toBe(400);
      expect(apiError(old).message).toBe('Activeren mislukt');
    });

    test('an activated member stays active; the address is free again on this brand', async () => {
      const { client, email } = await activeMember(rt(), 'spetter');
      const next = freshEmail('verhuisd');
      await client.post('/api/mail-change.php', { email: next, password: PASSWORD });
      const mail = takeMail(rt(), next, 'mail_change');
      await new Client(rt(), 'spetter').post('/api/mail-change.php', { token: mail.token });
      expect((await client.user()).status).toBe('active');
      const again = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody({ email }));
      expect(again.status).toBe(201);
    });
  });
});

