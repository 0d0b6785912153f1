/**
 * The runtime foundation (issue: one contract, declared routes, one visibility rule, mail and
 * abuse limits, the brand's 404 page everywhere, surviving the database), on both engines.
 */
import { describe, expect, test } from 'vitest';
import { engines, hostFetch, type TestRuntime } from '../support/runtime.ts';
import { Client, PASSWORD, activeMember, apiError, signUp, signupBody, takeMail, useRuntime } from '../support/accounts.ts';
import { ABUSE_LIMITS } from '../../src/server/services/accounts.ts';

const NOT_FOUND_NL = 'This page could not be found';

async function invisibleMember(rt: TestRuntime) {
  // A woman looking for men, with an interest in the region every test member lives in.
  const hidden = await activeMember(rt, 'spetter', { gender: 'female', sexuality: 'hetero', name: 'Verstopt' });
  const profileId: number = (await hidden.client.user()).profile.id;
  const put = await hidden.client.put('/api/user.php', { invisible: true });
  expect(put.status).toBe(200);
  expect(put.json().user.invisible).toBe(true);
  return { ...hidden, profileId };
}

for (const engine of engines()) {
  describe(`foundation on ${engine}`, () => {
    const rt = useRuntime(engine);

    describe('one visibility rule', () => {
      test('an invisible member is in no listing and on no profile of another member or visitor', async () => {
        const hidden = await invisibleMember(rt());
        const viewer = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero' });
        const ids = (profiles: { id: number }[]) => profiles.map((p) => p.id);

        // Every endpoint that answers profiles, as a member who is looking for exactly her.
        const search: number[] = [];
        for (let page = 1; page <= 20; page++) {
          const res = await viewer.client.get(`/api/members.php?gender=female&page=${page}`);
          expect(res.status).toBe(200);
          search.push(...ids(res.json().profiles), ...ids(res.json().similar ?? []));
          if (res.json().profiles.length === 0) break;
        }
        expect(search.length).toBeGreaterThan(0);
        expect(search).not.toContain(hidden.profileId);
        const matches = await viewer.client.get('/api/signup-matches.php');
        expect(matches.status).toBe(200);
        expect(matches.json().profiles.length).toBeGreaterThan(0);
        expect(ids(matches.json().profiles)).not.toContain(hidden.profileId);
        const member = await viewer.client.get(`/api/member.php?id=${hidden.profileId}`);
        expect(member.status).toBe(404);
        const other = search[0]!;
        const related = await viewer.client.get(`/api/member.php?id=${other}`);
        expect(related.status).toBe(200);
        expect(ids(related.json().related)).not.toContain(hidden.profileId);
        expect((await new Client(rt(), 'spetter').get(`/api/member.php?id=${hidden.profileId}`)).status).toBe(404);

        // And the pages that show one member.
        for (const path of [`/members/${hidden.profileId}`, `/likes/m/${hidden.profileId}`, `/members/${hidden.profileId}/landing`, `/members/${hidden.profileId}/landing2`]) {
          const page = await viewer.client.get(path);
          expect(page.status, path).toBe(404);
          expect(page.text, path).toContain(NOT_FOUND_NL);
        }
        const signupMatchesPage = await viewer.client.get('/signup-matches');
        expect(signupMatchesPage.status).toBe(200);
        expect(signupMatchesPage.text).not.toContain('Verstopt');

        // She still sees her own profile, and once visible again she is found.
        expect((await hidden.client.get(`/api/member.php?id=${hidden.profileId}`)).status).toBe(200);
        await hidden.client.put('/api/user.php', { invisible: false });
        expect((await viewer.client.get(`/api/member.php?id=${hidden.profileId}`)).status).toBe(200);
      });

      test('a member of another brand is not found on this one', async () => {
        const velvet = await activeMember(rt(), 'velvet', { country: 'GB', region: null, city: null, gender: 'female' });
        const id = (await velvet.client.user()).profile.id;
        const viewer = await activeMember(rt(), 'spetter');
        expect((await viewer.client.get(`/api/member.php?id=${id}`)).status).toBe(404);
      });
    });

    describe('mail and abuse limits', () => {
      test('sending the activation mail again stops after 3 an hour, with 429 and Retry-After, and sends nothing more', async () => {
        const { client, email } = await signUp(rt());
        takeMail(rt(), email, 'mail_activate');
        for (let i = 0; i < ABUSE_LIMITS.activationResendsPerHour; i++) {
          expect((await client.post('/api/activate.php?resend=1', {})).status).toBe(200);
          takeMail(rt(), email, 'mail_activate');
        }
        const refused = await client.post('/api/activate.php?resend=1', {});
        expect(refused.status).toBe(429);
        expect(apiError(refused)).toEqual({ code: 'too_many_requests', message: 'Te veel verzoeken, probeer het later opnieuw.' });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
        expect(() => takeMail(rt(), email, 'mail_activate')).toThrow();
      });

      test('the activation resend limit also holds per address across accounts', async () => {
        const ip = '10.99.1.1';
        let sent = 0;
        let refused = 0;
        for (let i = 0; i < 5; i++) {
          const member = await signUp(rt());
          member.client.ip = ip;
          for (let j = 0; j < 3; j++) {
            const res = await member.client.post('/api/activate.php?resend=1', {});
            if (res.status === 200) sent++;
            else if (res.status === 429) refused++;
          }
        }
        expect(sent).toBe(ABUSE_LIMITS.activationResendsPerIpHour);
        expect(refused).toBe(15 - ABUSE_LIMITS.activationResendsPerIpHour);
      });

      test('asking for an e-mail change stops after 5 a day: no more mails to outside addresses', async () => {
        const { client } = await activeMember(rt());
        for (let i = 0; i < ABUSE_LIMITS.mailChangesPerDay; i++) {
          const res = await client.post('/api/mail-change.php', { email: `doel-${i}-${Date.now()}@example.org`, password: PASSWORD });
          expect(res.status).toBe(200);
        }
        const target = `doel-laatste-${Date.now()}@example.org`;
        const refused = await client.post('/api/mail-change.php', { email: target, password: PASSWORD });
        expect(refused.status).toBe(429);
        expect(refused.headers['retry-after']).toBeDefined();
        expect(() => takeMail(rt(), target)).toThrow();
        // A wrong password is still answered as such, and counts nothing here.
        expect((await client.post('/api/mail-change.php', { email: target, password: 'fout-wachtwoord-9' })).status).toBe(400);
      });

      test('password-reset look-ups are limited per address: 10 an hour', async () => {
        const client = new Client(rt(), 'spetter');
        const statuses: number[] = [];
        for (let i = 0; i < ABUSE_LIMITS.resetLookupsPerIpHour + 2; i++) {
          statuses.push((await client.post('/api/reset-password.php', { email: `niemand-${i}@example.org` })).status);
        }
        expect(statuses.slice(0, ABUSE_LIMITS.resetLookupsPerIpHour)).toEqual(Array(ABUSE_LIMITS.resetLookupsPerIpHour).fill(404));
        expect(statuses.slice(ABUSE_LIMITS.resetLookupsPerIpHour)).toEqual([429, 429]);
        // Another address is not affected.
        expect((await new Client(rt(), 'spetter').post('/api/reset-password.php', { email: 'niemand@example.org' })).status).toBe(404);
      });

      test('signups are limited per address: 5 an hour, then 429 and no account', async () => {
        const ip = '10.98.7.7';
        const statuses: number[] = [];
        for (let i = 0; i < ABUSE_LIMITS.signupsPerIpHour + 1; i++) {
          const client = new Client(rt(), 'spetter');
          client.ip = ip;
          statuses.push((await client.post('/api/signup.php', signupBody())).status);
        }
        expect(statuses).toEqual([...Array(ABUSE_LIMITS.signupsPerIpHour).fill(201), 429]);
      });
    });

    describe("the brand's own 404 page", () => {
      test('pages that name nothing show the brand 404 page in the member language, logged in', async () => {
        const { client } = await activeMember(rt());
        for (const path of ['/chats/999', '/likes/onbekend', '/members/abc/signup', '/members/0', '/members/99999999', '/bestaat-niet', '/pages/bestaat-niet']) {
          const res = await client.get(path, { accept: 'text/html' });
          expect(res.status, path).toBe(404);
          expect(res.headers['content-type'], path).toMatch(/^text\/html/);
          expect(res.text, path).toContain(NOT_FOUND_NL);
          expect(res.text, path).toContain('Spetter');
          expect(res.text, path).not.toContain('404: Not Found');
        }
        // The member's header on the server-rendered 404 page: no login button.
        const chats = await client.get('/chats/999');
        expect(chats.text).not.toMatch(/>\s*Inloggen\s*</);
      });

      test('in German on velvet for a German visitor', async () => {
        const res = await hostFetch(rt(), 'velvet', '/likes/unbekannt', { headers: { cookie: 'locale=de' } });
        // A visitor is sent to login first; the 404 of a public path shows the language.
        const page = await hostFetch(rt(), 'velvet', '/members/abc/signup', { headers: { cookie: 'locale=de', accept: 'text/html' } });
        expect(res.status).toBe(302);
        expect(page.status).toBe(404);
        expect(page.text).toContain('Diese Seite konnte nicht gefunden werden');
      });

      test('an unknown API address: the 404 page for a browser, JSON for a program', async () => {
        const browser = await hostFetch(rt(), 'spetter', '/api/bestaat-niet.php', { headers: { accept: 'text/html,application/xhtml+xml' } });
        expect(browser.status).toBe(404);
        expect(browser.text).toContain(NOT_FOUND_NL);
        const program = await hostFetch(rt(), 'spetter', '/api/bestaat-niet.php');
        expect(program.status).toBe(404);
        expect(program.json().error.code).toBe('not_found');
        const missing = await hostFetch(rt(), 'spetter', '/api/member.php?id=999999', { headers: { accept: 'text/html' } });
        expect(missing.status).toBe(404);
        expect(missing.text).toContain(NOT_FOUND_NL);
        const wrongMethod = await hostFetch(rt(), 'spetter', '/api/settings.php', { method: 'DELETE' });
        expect(wrongMethod.status).toBe(405);
        expect(wrongMethod.headers.allow).toContain('GET');
      });
    });

    describe('declared routes', () => {
      test('a member route refuses a visitor with 401 before reading the body', async () => {
        const res = await new Client(rt(), 'spetter').put('/api/profile.php', { name: 'x' });
        expect(res.status).toBe(401);
        expect(res.json()).toMatchObject({ error: { code: 'authentication_required' }, authentication_required: true });
      });

      test('static files cost no session look-up; a page or an API call with a session cookie costs one (a suspended member is shown the ban page at once), a visitor\'s prerendered page none', async () => {
        const { client } = await activeMember(rt());
        const visitor = new Client(rt(), 'spetter');
        const sessions = rt().services.sessions;
        const original = sessions.lookup;
        let lookUps = 0;
        sessions.lookup = (...args) => {
          lookUps += 1;
          return original.apply(sessions, args);
        };
        try {
          const count = async (who: Client, path: string, accept = 'text/html') => {
            lookUps = 0;
            const res = await who.get(path, { accept });
            return { status: res.status, lookUps };
          };
          // spetter speaks one language: a visitor's home page needs no session.
          expect(await count(visitor, '/')).toEqual({ status: 200, lookUps: 0 });
          expect(await count(visitor, '/landers/tinderswipe')).toEqual({ status: 200, lookUps: 0 });
          expect(await count(client, '/')).toEqual({ status: 200, lookUps: 1 });
          expect(await count(client, '/icons/tabler/heart.svg', '*/*')).toEqual({ status: 200, lookUps: 0 });
          expect(await count(client, '/members')).toEqual({ status: 200, lookUps: 1 });
          expect(await count(client, '/api/user.php', 'application/json')).toEqual({ status: 200, lookUps: 1 });
          expect(await count(client, '/chats/999')).toEqual({ status: 404, lookUps: 1 });
        } finally {
          sessions.lookup = original;
        }
      });

      test('a form body is refused where JSON is declared (415), the data unchanged', async () => {
        const { client, email } = await activeMember(rt());
        const res = await client.request('PUT', '/api/user.php', 'invisible=true', { 'content-type': 'application/x-www-form-urlencoded' });
        expect(res.status).toBe(415);
        expect((await client.user()).invisible).toBe(false);
        expect((await client.login(email)).status).toBe(200);
      });
    });
  });
}
