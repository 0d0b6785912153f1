/**
 * The own profile, the settings and the end of an account (docs/API.md "Profile, photos,
 * settings" and "Accounts"): profile fields with the SPEC §5 rules, the option labels,
 * notification settings and one-click unsubscribe, language and invisible mode, deletion,
 * reactivation within 14 days and the final purge.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { engines } from '../support/runtime.ts';
import { Client, PASSWORD, activeMember, apiError, mailsTo, setCookies, signUp, signupBody, snapshot, takeMail, useRuntime, userRow, profileRow, yearsAgo } from '../support/accounts.ts';
import deCatalogue from '../../locales/de.json' with { type: 'json' };

const EMAIL_TYPES = ['new_conversations', 'new_messages', 'like', 'unread_message_reminders', 'promotions', 'weekly_updates', 'news', 'reminders'];
const allEmail = (on: boolean) => Object.fromEntries(EMAIL_TYPES.map((t) => [t, on]));

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe.each(engines())('profile and settings API on %s', (engine) => {
  const rt = useRuntime(engine);

  describe('GET and PUT /api/profile.php', () => {
    test('needs a session: 401 with authentication_required', async () => {
      const res = await new Client(rt(), 'spetter').get('/api/profile.php');
      expect(res.status).toBe(401);
      expect(res.json()).toEqual({ error: { code: 'authentication_required', message: 'Log in om verder te gaan.' }, authentication_required: true });
      const put = await new Client(rt(), 'spetter').put('/api/profile.php', { city: 'Utrecht' });
      expect(put.status).toBe(401);
    });

    test('answers the own profile as entered at signup', async () => {
      const { client, body } = await signUp(rt(), 'spetter', { gender: 'female', sexuality: 'bi', date_of_birth: yearsAgo(30) });
      const res = await client.get('/api/profile.php');
      expect(res.status).toBe(200);
      expect(res.json().profile).toMatchObject({
        name: body.name,
        gender: 'female',
        sexuality: 'bi',
        birth_date: yearsAgo(30),
        age: 30,
        country: 'NL',
        region: 'Noord-Holland',
        city: 'Amsterdam',
        hair_color: null,
        about: null,
        interests: [],
        status: 'disabled',
        main_image: null,
      });
    });

    test('saves the descriptive fields and answers the new profile', async () => {
      const { client, user } = await activeMember(rt(), 'spetter');
      const changes = {
        name: '  Zonnestraal  ',
        hair_color: 'blond',
        eye_color: 'green',
        body_type: 'athletic',
        relationship_status: 'single',
        tattoos: 'one',
        reason: 'dating',
        about: '  Houd van fietsen langs de Amstel.  ',
        city: 'Haarlem',
        interests: ['art', 'astrology', 'art'],
      };
      const res = await client.put('/api/profile.php', changes);
      expect(res.status).toBe(200);
      expect(res.json().profile).toMatchObject({
        name: 'Zonnestraal',
        hair_color: 'blond',
        eye_color: 'green',
        body_type: 'athletic',
        relationship_status: 'single',
        tattoos: 'one',
        reason: 'dating',
        about: 'Houd van fietsen langs de Amstel.',
        city: 'Haarlem',
        interests: ['art', 'astrology'],
        status: 'active',
      });
      expect((await client.get('/api/profile.php')).json().profile.name).toBe('Zonnestraal');
      expect((await client.user()).profile.name).toBe('Zonnestraal');
      const row = await profileRow(rt(), user.id);
      expect(JSON.parse(row!.interests)).toEqual(['art', 'astrology']);

      const cleared = await client.put('/api/profile.php', { hair_color: null, about: '   ' });
      expect(cleared.status).toBe(200);
      expect(cleared.json().profile).toMatchObject({ hair_color: null, about: null, eye_color: 'green' });
    });

    test.each([
      ['a name starting with @', (email: string) => ({ name: '@zon' }), 'name_no_at', 'Je profielnaam mag niet beginnen met een @', 'name'],
      ['a name equal to the own e-mail', (email: string) => ({ name: ` ${email.toUpperCase()} ` }), 'name_not_email', 'Je profielnaam moet anders zijn dan je e-mailadres', 'name'],
      ['a name of 31 characters', () => ({ name: 'x'.repeat(31) }), 'name_length', 'Je profielnaam moet 2 tot 30 tekens lang zijn.', 'name'],
      ['a birth date one day short of 18', () => ({ birth_date: yearsAgo(18, 1) }), 'birth_date_required', 'Vul uw geboortedatum in (18+ jaar)', 'birth_date'],
      ['the impossible date 2001-02-29', () => ({ birth_date: '2001-02-29' }), 'birth_date_invalid', 'Ongeldige geboortedatum.', 'birth_date'],
      ['a birth date in the future', () => ({ birth_date: yearsAgo(-2) }), 'birth_date_invalid', 'Ongeldige geboortedatum.', 'birth_date'],
      ['a birth date over 100 years ago', () => ({ birth_date: yearsAgo(101) }), 'birth_date_invalid', 'Ongeldige geboortedatum.', 'birth_date'],
      ['a region of another country', () => ({ region: 'Bayern' }), 'invalid_input', 'De gegevens zijn niet geldig.', 'region'],
      ['a Dutch region with Belgium', () => ({ country: 'BE', region: 'Noord-Holland' }), 'invalid_input', 'De gegevens zijn niet geldig.', 'region'],
      ['a country the brand does not serve', () => ({ country: 'DE' }), 'invalid_input', 'De gegevens zijn niet geldig.', 'country'],
      ['an unknown interest', () => ({ interests: ['art', 'breien-op-maat'] }), 'invalid_input', 'De gegevens zijn niet geldig.', 'interests'],
      ['an unknown hair colour', () => ({ hair_color: 'paars' }), 'invalid_input', 'De gegevens zijn niet geldig.', 'hair_color'],
      ['a column that is not a profile field (status)', () => ({ status: 'active' }), 'invalid_input', 'De gegevens zijn niet geldig.', undefined],
      ['a column that is not a profile field (fictional)', () => ({ fictional: 1 }), 'invalid_input', 'De gegevens zijn niet geldig.', undefined],
      ['an about text over 2000 characters', () => ({ about: 'x'.repeat(2001) }), 'invalid_input', 'De gegevens zijn niet geldig.', 'about'],
    ])('refuses %s and changes nothing', async (_label, change, code, message, field) => {
      const { client, email, user } = await signUp(rt(), 'spetter');
      const before = await profileRow(rt(), user.id);
      const res = await client.put('/api/profile.php', change(email));
      expect(res.status).toBe(400);
      const error = apiError(res);
      expect(error).toMatchObject({ code, message });
      if (field) expect(error.field).toBe(field);
      expect(await profileRow(rt(), user.id)).toEqual(before);
    });

    test('regions are checked against the country and saved under their name', async () => {
      const { client } = await signUp(rt(), 'spetter');
      expect((await client.put('/api/profile.php', { region: 'UT' })).json().profile.region).toBe('Utrecht');
      expect((await client.put('/api/profile.php', { region: 'Noord-Holland' })).json().profile.region).toBe('Noord-Holland');
      const belgium = await client.put('/api/profile.php', { country: 'BE', region: 'Antwerpen' });
      expect(belgium.status).toBe(200);
      expect(belgium.json().profile).toMatchObject({ country: 'BE', region: 'Antwerpen' });
      // Moving country without a region drops the old one: it means nothing in the new country.
      const moved = await client.put('/api/profile.php', { country: 'NL' });
      expect(moved.json().profile).toMatchObject({ country: 'NL', region: null });
      expect((await client.user()).profile.country).toBe('NL');
    });

    test('an empty region is no region', async () => {
      const { client } = await signUp(rt(), 'spetter');
      const res = await client.put('/api/profile.php', { region: '' });
      expect(res.status).toBe(200);
      expect(res.json().profile.region).toBeNull();
    });

    test('a valid birth date is saved with the age; 18 today is old enough', async () => {
      const { client } = await signUp(rt(), 'spetter');
      const res = await client.put('/api/profile.php', { birth_date: yearsAgo(18) });
      expect(res.status).toBe(200);
      expect(res.json().profile).toMatchObject({ birth_date: yearsAgo(18), age: 18 });
    });

    test('a field the brand hides cannot be set', async () => {
      const tenant = rt().services.tenants().find((t) => t.id === 'spetter')!;
      const previous = tenant.visible_profile_fields;
      tenant.visible_profile_fields = previous.filter((f) => f !== 'hair_color' && f !== 'interests');
      try {
        const { client, user } = await signUp(rt(), 'spetter');
        const before = await profileRow(rt(), user.id);
        for (const change of [{ hair_color: 'blond' }, { interests: ['art'] }, { city: 'Delft', hair_color: 'red' }]) {
          const res = await client.put('/api/profile.php', change);
          expect(res.status).toBe(400);
          expect(apiError(res)).toMatchObject({ code: 'invalid_input', message: 'De gegevens zijn niet geldig.' });
        }
        expect(await profileRow(rt(), user.id)).toEqual(before);
        expect((await client.put('/api/profile.php', { city: 'Delft' })).status).toBe(200);
        const options = (await client.get('/api/profile-options.php')).json();
        expect(options.visible_profile_fields).not.toContain('hair_color');
      } finally {
        tenant.visible_profile_fields = previous;
      }
    });
  });

  describe('GET /api/profile-options.php', () => {
    test('answers every option with its Dutch label and the visible fields', async () => {
      const res = await new Client(rt(), 'spetter').get('/api/profile-options.php');
      expect(res.status).toBe(200);
      const { fields, labels, visible_profile_fields } = res.json();
      expect(fields.gender.map((o: { key: string }) => o.key)).toEqual(['male', 'female']);
      expect(fields.sexuality.map((o: { key: string }) => o.key)).toEqual(['hetero', 'gay', 'lesbian', 'bi']);
      expect(fields.hair_color.map((o: { key: string }) => o.key)).toEqual(['blond', 'brown', 'black', 'red', 'grey']);
      expect(fields.hair_color).toContainEqual({ key: 'blond', label: 'Blond' });
      expect(Object.keys(fields).sort()).toEqual(['body_type', 'eye_color', 'gender', 'hair_color', 'reason', 'relationship_status', 'sexuality', 'tattoos']);
      for (const options of Object.values(fields) as { key: string; label: string }[][]) {
        for (const o of options) expect(o.label, o.key).toMatch(/\S/);
      }
      expect(labels.hair_color).toBe('Haarkleur');
      expect(visible_profile_fields).toEqual(rt().services.tenants().find((t) => t.id === 'spetter')!.visible_profile_fields);
    });
  });

  describe('POST /api/user.php?push=1', () => {
    const subscription = (endpoint = `https://push.example.net/send/${Math.random().toString(36).slice(2)}`) => ({
      endpoint,
      expirationTime: null,
      keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' },
    });

    test('keeps the browser\'s subscription and switches push on', async () => {
      const { client, user } = await activeMember(rt(), 'spetter');
      const sub = subscription();
      const res = await client.post('/api/user.php?push=1', { subscription: sub });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect((await client.get('/api/notifications.php')).json().push).toBe(true);
      expect(await rt().services.notifications.pushSubscriptions(user.id)).toEqual([{ endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth }]);

      // The same browser subscribing for another member moves the endpoint to that member.
      const other = await activeMember(rt(), 'spetter');
      expect((await other.client.post('/api/user.php?push=1', { subscription: sub })).status).toBe(200);
      expect(await rt().services.notifications.pushSubscriptions(user.id)).toEqual([]);
      expect(await rt().services.notifications.pushSubscriptions(other.user.id)).toHaveLength(1);

      // Someone who learnt the endpoint cannot claim it with keys of their own.
      const thief = await activeMember(rt(), 'spetter');
      const stolen = await thief.client.post('/api/user.php?push=1', { subscription: { ...sub, keys: { p256dh: 'BAttackerKey', auth: 'attackerAuth' } } });
      expect(stolen.status).toBe(400);
      expect(await rt().services.notifications.pushSubscriptions(thief.user.id)).toEqual([]);
      expect(await rt().services.notifications.pushSubscriptions(other.user.id)).toEqual([{ endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth }]);
    });

    test.each([
      ['no subscription', {}],
      ['an http endpoint', { subscription: subscription('http://push.example.net/x') }],
      ['a script for an endpoint', { subscription: subscription('javascript:alert(1)') }],
      ['an address inside the network', { subscription: subscription('https://10.0.0.5/push') }],
      ['the runtime itself', { subscription: subscription('https://localhost:4321/api/user.php') }],
      ['a local name', { subscription: subscription('https://db.internal/x') }],
      ['keys that are not base64url', { subscription: { ...subscription(), keys: { p256dh: 'a b', auth: 'x' } } }],
      ['missing keys', { subscription: { endpoint: 'https://push.example.net/x' } }],
    ])('refuses %s with a 400 and stores nothing', async (_label, body) => {
      const { client, user } = await activeMember(rt(), 'spetter');
      const res = await client.post('/api/user.php?push=1', body);
      expect(res.status).toBe(400);
      expect(apiError(res).message).toBe('De gegevens zijn niet geldig.');
      expect(await rt().services.notifications.pushSubscriptions(user.id)).toEqual([]);
      expect((await client.get('/api/notifications.php')).json().push).toBe(false);
    });

    test('asks a visitor to log in', async () => {
      const res = await new Client(rt(), 'spetter').post('/api/user.php?push=1', { subscription: subscription() });
      expect(res.status).toBe(401);
    });
  });

  describe('/api/notifications.php and /api/unsubscribe.php', () => {
    test('eight e-mail types, all on at first; a switch persists', async () => {
      const { client, user } = await signUp(rt(), 'spetter');
      const first = await client.get('/api/notifications.php');
      expect(first.status).toBe(200);
      expect(first.json()).toEqual({ email: allEmail(true), push: false, disabled: [] });

      const off = await client.put('/api/notifications.php', { email: { like: false, promotions: false }, push: true });
      expect(off.status).toBe(200);
      expect(off.json()).toEqual({ email: { ...allEmail(true), like: false, promotions: false }, push: true, disabled: [] });
      expect((await client.get('/api/notifications.php')).json()).toEqual(off.json());
      const row = await rt().db.db.selectFrom('users').select(['email_preferences', 'push_enabled']).where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(JSON.parse(row.email_preferences)).toMatchObject({ like: false, promotions: false });
      expect(row.push_enabled).toBe(1);

      const on = await client.put('/api/notifications.php', { email: { like: true } });
      expect(on.json().email).toEqual({ ...allEmail(true), promotions: false });
    });

    test('refuses unknown types and values, changing nothing', async () => {
      const { client } = await signUp(rt(), 'spetter');
      for (const body of [{ email: { sms: false } }, { email: { like: 'nee' } }, { push: 'ja' }, { reenable: false }, { colour: 'red' }]) {
        const res = await client.put('/api/notifications.php', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(apiError(res)).toMatchObject({ code: 'invalid_input', message: 'De gegevens zijn niet geldig.' });
      }
      expect((await client.get('/api/notifications.php')).json()).toEqual({ email: allEmail(true), push: false, disabled: [] });
      expect((await new Client(rt(), 'spetter').get('/api/notifications.php')).status).toBe(401);
    });

    test('one-click unsubscribe (POST, no session) switches every type off; reenable clears notifications_disabled', async () => {
      const { client, user } = await signUp(rt(), 'spetter');
      const token = await rt().services.notifications.unsubscribeToken({ id: user.id, tenant_id: 'spetter' });

      const forged = await new Client(rt(), 'spetter').post(`/api/unsubscribe.php?u=aaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbb`, '');
      expect(forged.status).toBe(400);
      expect(apiError(forged)).toEqual({ code: 'reset_link_invalid', message: 'Link verlopen of invalide, vraag een nieuwe e-mail aan' });
      const elsewhere = await new Client(rt(), 'velvet').post(`/api/unsubscribe.php?u=${token}`, '');
      expect(elsewhere.status).toBe(400);
      expect((await client.user()).notifications_disabled).toEqual([]);

      // What a mail program sends for List-Unsubscribe-Post: a form body, no Origin, no cookie.
      const res = await new Client(rt(), 'spetter').post(`/api/unsubscribe.php?u=${token}`, '', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      const disabled = EMAIL_TYPES.map((type) => ({ type, reason: 'listunsubscribe' }));
      expect((await client.get('/api/notifications.php')).json()).toEqual({ email: allEmail(false), push: false, disabled });
      expect((await client.user()).notifications_disabled).toEqual(disabled);

      const back = await client.put('/api/notifications.php', { reenable: true });
      expect(back.status).toBe(200);
      expect(back.json()).toEqual({ email: allEmail(true), push: false, disabled: [] });
      expect((await client.user()).notifications_disabled).toEqual([]);
    });

    test('GET of the unsubscribe link only leads to a confirmation; it does not unsubscribe', async () => {
      const { client, user } = await signUp(rt(), 'spetter');
      const token = await rt().services.notifications.unsubscribeToken({ id: user.id, tenant_id: 'spetter' });
      const page = await new Client(rt(), 'spetter').get(`/api/unsubscribe.php?u=${token}`);
      expect(page.status).toBeLessThan(400);
      expect((await client.user()).notifications_disabled).toEqual([]);
    });

    test('reenable lifts the automatic switch-offs but keeps the member’s own choices', async () => {
      const { client, user } = await signUp(rt(), 'spetter');
      await client.put('/api/notifications.php', { email: { promotions: false } });
      const token = await rt().services.notifications.unsubscribeToken({ id: user.id, tenant_id: 'spetter' });
      await new Client(rt(), 'spetter').post(`/api/unsubscribe.php?u=${token}`, '');
      const res = await client.put('/api/notifications.php', { reenable: true });
      expect(res.json().disabled).toEqual([]);
      expect(res.json().email).toEqual({ ...allEmail(true), promotions: false });
    });

    test('switching one type back on lifts only that type’s automatic switch-off', async () => {
      const { client, user } = await signUp(rt(), 'spetter');
      const token = await rt().services.notifications.unsubscribeToken({ id: user.id, tenant_id: 'spetter' });
      await new Client(rt(), 'spetter').post(`/api/unsubscribe.php?u=${token}`, '');
      const res = await client.put('/api/notifications.php', { email: { new_messages: true } });
      expect(res.json().email).toEqual({ ...allEmail(false), new_messages: true });
      expect(res.json().disabled).toHaveLength(7);
    });
  });

  describe('PUT /api/user.php', () => {
    test('saves a language of the brand: de on velvet, and answers in it afterwards', async () => {
      const { client, email } = await signUp(rt(), 'velvet', { country: 'DE', region: null });
      const res = await client.put('/api/user.php', { language: 'de' });
      expect(res.status).toBe(200);
      expect(res.json().user.language).toBe('de');
      expect((await userRow(rt(), 'velvet', email))!.language).toBe('de');
      expect((await client.user()).language).toBe('de');
      const refusal = await client.put('/api/profile.php', { name: '@nacht' });
      expect(apiError(refusal).message).toBe(deCatalogue.name_no_at);
    });

    test('refuses a language the brand does not offer: de on spetter', async () => {
      const { client, email } = await signUp(rt(), 'spetter');
      for (const language of ['de', 'xx']) {
        const res = await client.put('/api/user.php', { language });
        expect(res.status).toBe(400);
        expect(apiError(res)).toEqual({ code: 'invalid_input', message: 'De gegevens zijn niet geldig.', field: 'language' });
      }
      expect((await userRow(rt(), 'spetter', email))!.language).toBe('nl');
    });

    test('toggles invisible mode', async () => {
      const { client, email } = await signUp(rt(), 'spetter');
      expect((await client.user()).invisible).toBe(false);
      const on = await client.put('/api/user.php', { invisible: true });
      expect(on.status).toBe(200);
      expect(on.json().user.invisible).toBe(true);
      expect((await userRow(rt(), 'spetter', email))!.invisible).toBe(1);
      const off = await client.put('/api/user.php', { invisible: false });
      expect(off.json().user.invisible).toBe(false);
      expect((await userRow(rt(), 'spetter', email))!.invisible).toBe(0);
    });

    test('refuses anything else, such as credits or status', async () => {
      const { client, email } = await signUp(rt(), 'spetter');
      for (const body of [{ credits: 1000 }, { status: 'active' }, { paid_user: true }, { invisible: 'ja' }]) {
        const res = await client.put('/api/user.php', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect(await userRow(rt(), 'spetter', email)).toMatchObject({ credits: 10, status: 'not_confirmed', paid_user: 0, invisible: 0 });
    });
  });

  describe('deleting, reactivating and purging an account', () => {
    test('GET /api/account.php?reasons=1 offers the reasons with a solution each and the delete discount', async () => {
      const { client } = await signUp(rt(), 'spetter');
      const res = await client.get('/api/account.php?reasons=1');
      expect(res.status).toBe(200);
      const body = res.json();
      expect(body.delete_discount).toBe(50);
      expect(body.reasons.map((r: { key: string }) => r.key)).toEqual(['expensive', 'found_someone', 'too_many_mails', 'privacy', 'no_matches', 'other']);
      for (const r of body.reasons) {
        expect(r.label).toMatch(/\S/);
        expect(r.solution.label).toMatch(/\S/);
        expect(r.solution.href).toMatch(/^\//);
      }
    });

    test('a wrong password or no reason keeps the account', async () => {
      const { client, email } = await activeMember(rt(), 'spetter');
      const before = await snapshot(rt());
      const wrong = await client.delete('/api/account.php', { reason: 'privacy', password: 'niet-mijn-wachtwoord' });
      expect(wrong.status).toBe(400);
      expect(apiError(wrong)).toEqual({ code: 'password_wrong', message: 'Dit wachtwoord klopt niet.', field: 'password' });
      const noReason = await client.delete('/api/account.php', { reason: 'verveling', password: PASSWORD });
      expect(noReason.status).toBe(400);
      expect(apiError(noReason)).toEqual({ code: 'choose_reason', message: 'Kies een reden.', field: 'reason' });
      expect(await snapshot(rt())).toEqual(before);
      expect((await userRow(rt(), 'spetter', email))!.status).toBe('active');
      expect(await client.user()).not.toBeNull();
      expect((await new Client(rt(), 'spetter').delete('/api/account.php', { reason: 'privacy', password: PASSWORD })).status).toBe(401);
    });

    test('deletion logs out, marks deletion_requested and refuses login and signup; the mailed link reactivates within 14 days', async () => {
      const { client, email, user } = await activeMember(rt(), 'spetter');
      const other = new Client(rt(), 'spetter');
      expect((await other.login(email)).status).toBe(200);
      const oldCopy = client.clone();

      const res = await client.delete('/api/account.php', { reason: 'found_someone', password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect(client.session).toBeUndefined();
      expect(await oldCopy.user()).toBeNull();
      expect(await other.user()).toBeNull();
      const row = await userRow(rt(), 'spetter', email);
      expect(row).toMatchObject({ status: 'deletion_requested', deletion_reason: 'found_someone' });
      expect(row!.deletion_requested_at).toBeTruthy();
      expect((await profileRow(rt(), user.id))!.status).toBe('disabled');

      const login = await new Client(rt(), 'spetter').login(email);
      expect(login.status).toBe(403);
      expect(apiError(login)).toEqual({
        code: 'signup_deleted',
        message: 'Dit account wordt binnenkort verwijderd. Heractiveer het via de link in de e-mail die we je stuurden, of neem contact op met de klantenservice.',
      });
      expect(setCookies(login)).toEqual([]);
      const signup = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody({ email }));
      expect(signup.status).toBe(409);
      expect(apiError(signup)).toMatchObject({ code: 'signup_deleted', field: 'email' });
      const reset = await new Client(rt(), 'spetter').post('/api/reset-password.php', { email });
      expect(reset.status).toBe(404);

      const mail = takeMail(rt(), email, 'mail_reactivate');
      expect(mail.link).toBe(`${rt().tenantUrl('spetter')}/account-deleted?token=${mail.token}`);

      const forged = await new Client(rt(), 'spetter').post('/api/account.php?reactivate=1', { token: 'aaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbb' });
      expect(forged.status).toBe(400);
      expect(apiError(forged)).toEqual({
        code: 'reactivate_failed',
        message: 'Deze link om je account te heractiveren is verlopen of ongeldig. Neem contact op met de klantenservice.',
      });

      const back = new Client(rt(), 'spetter');
      const reactivated = await back.post('/api/account.php?reactivate=1', { token: mail.token });
      expect(reactivated.status).toBe(200);
      expect(reactivated.json().user).toMatchObject({ id: user.id, status: 'active' });
      expect(back.session).toBeTruthy();
      expect(await back.user()).toMatchObject({ id: user.id, status: 'active', profile: { status: 'active' } });
      expect(await userRow(rt(), 'spetter', email)).toMatchObject({ status: 'active', deletion_requested_at: null, deletion_reason: null });
      expect((await new Client(rt(), 'spetter').login(email)).status).toBe(200);

      const reused = await new Client(rt(), 'spetter').post('/api/account.php?reactivate=1', { token: mail.token });
      expect(reused.status).toBe(400);
      expect(apiError(reused).code).toBe('reactivate_failed');
    });

    test('a member who never confirmed comes back not confirmed', async () => {
      const { client, email } = await signUp(rt(), 'spetter');
      await client.delete('/api/account.php', { reason: 'other', password: PASSWORD });
      const mail = takeMail(rt(), email, 'mail_reactivate');
      const res = await new Client(rt(), 'spetter').post('/api/account.php?reactivate=1', { token: mail.token });
      expect(res.status).toBe(200);
      expect(res.json().user.status).toBe('not_confirmed');
    });

    test('after 14 days the account is purged: profile and photos erased, user anonymised, the e-mail free again', async () => {
      const { client, email, user, body } = await activeMember(rt(), 'spetter', { tracking: { network: 'daisycon' } });
      const profileId = (await profileRow(rt(), user.id))!.id;
      const png = await sharp({ create: { width: 320, height: 320, channels: 3, background: '#a33' } }).png().toBuffer();
      await rt().services.photos.upload({ id: user.id, paid_user: false, tenant_id: 'spetter' }, profileId, { bytes: png, declaredType: 'image/png' });
      const photoFiles = (await rt().db.db.selectFrom('photos').select(['filename', 'thumb_filename']).where('profile_id', '=', profileId).execute()).flatMap((p) => [p.filename, p.thumb_filename]);
      expect(photoFiles).toHaveLength(2);
      for (const f of photoFiles) expect(existsSync(join(rt().services.mediaDir, f))).toBe(true);
      expect((await client.user()).profile.main_image).not.toBeNull();
      const push = { endpoint: 'https://push.example.net/send/purge-me', keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2', auth: 'tBHItJI5svbpez7KI4CCXg' } };
      expect((await client.post('/api/user.php?push=1', { subscription: push })).status).toBe(200);

      expect((await client.delete('/api/account.php', { reason: 'privacy', password: PASSWORD })).status).toBe(200);
      const erase = (id: number) => rt().services.photos.eraseAll(id);

      // Within the window nothing happens.
      await rt().services.accounts.purgeExpired(erase, new Date(Date.now() + 13 * 86_400_000));
      expect((await userRow(rt(), 'spetter', email))!.status).toBe('deletion_requested');
      expect(await profileRow(rt(), user.id)).toBeDefined();

      const purged = await rt().services.accounts.purgeExpired(erase, new Date(Date.now() + 15 * 86_400_000));
      expect(purged).toBeGreaterThanOrEqual(1);
      expect(await userRow(rt(), 'spetter', email)).toBeUndefined();
      const row = await rt().db.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'deleted', email: `deleted-${user.id}@invalid`, password_hash: '!', tracking: null, deletion_reason: null });
      expect(await profileRow(rt(), user.id)).toBeUndefined();
      expect(await rt().db.db.selectFrom('photos').selectAll().where('profile_id', '=', profileId).execute()).toEqual([]);
      for (const f of photoFiles) expect(existsSync(join(rt().services.mediaDir, f))).toBe(false);
      expect(await rt().db.db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
      expect(await rt().db.db.selectFrom('tokens').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
      expect(await rt().services.notifications.pushSubscriptions(user.id)).toEqual([]);
      // The ledger is append-only: its rows stay, without a person behind them.
      expect(await rt().db.db.selectFrom('credit_ledger').select(['reason', 'delta']).where('user_id', '=', user.id).execute()).toEqual([{ reason: 'signup', delta: 10 }]);
      expect(filesUnder(rt().services.mediaDir).some((f) => photoFiles.some((p) => f.endsWith(p)))).toBe(false);

      const login = await new Client(rt(), 'spetter').login(email);
      expect(login.status).toBe(401);
      const again = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody({ email, name: body.name }));
      expect(again.status).toBe(201);
      expect(again.json().user.id).not.toBe(user.id);
      expect(mailsTo(rt(), email, 'mail_activate')).toHaveLength(2);
    });
  });

  describe('GET /api/member.php', () => {
    test('a visitor sees the card of an active member; a member sees details, photos (free: the first only) and related profiles', async () => {
      const anna = await activeMember(rt(), 'spetter', { gender: 'female', sexuality: 'hetero', name: 'Annemiek' });
      await anna.client.put('/api/profile.php', { about: 'Dol op zeilen.', interests: ['wine'] });
      const jpeg = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#a33' } }).jpeg().toBuffer();
      const id = (await anna.client.get('/api/profile.php')).json().profile.id;
      // Photos as the upload endpoint stores them (the upload itself is tested in photos.test.ts).
      for (let i = 0; i < 2; i++) await rt().services.photos.upload({ id: anna.user.id, paid_user: false, tenant_id: 'spetter' }, id, { bytes: jpeg });
      // spetter screens photos before others see them (issue 22): a moderator approves them.
      const waiting = await rt().db.db.selectFrom('photos').select('id').where('profile_id', '=', id).execute();
      await rt().services.moderation.bulkApprove({ id: 1, role: 'moderator' }, waiting.map((p) => p.id), 'all');

      const visitor = await new Client(rt(), 'spetter').get(`/api/member.php?id=${id}`);
      expect(visitor.status).toBe(200);
      expect(visitor.json().profile).toMatchObject({ id, name: 'Annemiek', country: 'NL', fictional: false });
      expect(visitor.json().profile.about).toBeUndefined();
      expect(visitor.json().photos).toEqual([]);
      expect(visitor.json().profile.main_image.thumb_filename).toMatch(/^\/media\/spetter\/[0-9a-f]+-t\.webp$/);

      const bob = await activeMember(rt(), 'spetter', { gender: 'male', sexuality: 'hetero' });
      const seen = (await bob.client.get(`/api/member.php?id=${id}`)).json();
      expect(seen.profile).toMatchObject({ about: 'Dol op zeilen.', interests: ['wine'], photo_count: 2 });
      expect(seen.photos.map((p: { locked: boolean }) => p.locked)).toEqual([false, true]);
      expect(seen.photos[1].url).toBeNull();
      expect(seen.related.length).toBeGreaterThan(0);
      expect(seen.related.every((r: { id: number }) => r.id !== id)).toBe(true);
    });

    test('an invisible member, another brand\'s member and a bad id are not found', async () => {
      const eva = await activeMember(rt(), 'spetter', { name: 'Evaline' });
      const id = (await eva.client.get('/api/profile.php')).json().profile.id;
      const visitor = new Client(rt(), 'spetter');
      expect((await visitor.get(`/api/member.php?id=${id}`)).status).toBe(200);
      expect((await new Client(rt(), 'velvet').get(`/api/member.php?id=${id}`)).status).toBe(404);
      await eva.client.put('/api/user.php', { invisible: true });
      const hidden = await visitor.get(`/api/member.php?id=${id}`);
      expect(hidden.status).toBe(404);
      expect(hidden.json().error.message).toBe('Niet gevonden.');
      expect((await eva.client.get(`/api/member.php?id=${id}`)).status).toBe(200);
      const bad = await visitor.get('/api/member.php?id=abc');
      expect(bad.status).toBe(400);
      expect(bad.json().error.field).toBe('id');
    });
  });
});
