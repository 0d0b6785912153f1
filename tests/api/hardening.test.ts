/**
 * What an attacker or a clumsy client tries: forged hosts in mail links, cut-off uploads, odd
 * redirect targets and paths, object-property API names, other brands' settings, password
 * guessing with a stolen session, and long tracking values from ad links.
 */
import { describe, expect, test } from 'vitest';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import pg from 'pg';
import { adminQuery, engines, hostFetch } from '../support/runtime.ts';
import { sitegen } from '../support/cli.ts';
import { Client, PASSWORD, activeMember, signUp, signupBody, takeMail, useRuntime, userRow } from '../support/accounts.ts';

describe.each(engines())('hardening on %s', (engine) => {
  const rt = useRuntime(engine);

  test('a reset mail asked for through a forged Host links to the brand, never to that host', async () => {
    const { email } = await activeMember(rt(), 'spetter');
    const res = await hostFetch(rt(), 'spetter', '/api/reset-password.php', {
      method: 'POST',
      headers: { host: 'evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(200);
    const mail = takeMail(rt(), email, 'mail_reset');
    expect(mail.link).toMatch(/^http:\/\/spetter\.nl\/reset-password\/do\?token=/);
    expect(mail.text).not.toContain('evil.example');
  });

  test('a mail asked for on the brand\'s own host links to that host', async () => {
    const { email } = await activeMember(rt(), 'spetter');
    await new Client(rt(), 'spetter').post('/api/reset-password.php', { email });
    expect(takeMail(rt(), email, 'mail_reset').link).toMatch(new RegExp(`^http://spetter\\.localhost:${rt().port}/reset-password/do\\?token=`));
  });

  test('a multipart upload cut off in the middle of the file is refused and the runtime keeps serving', async () => {
    const { client } = await activeMember(rt(), 'spetter');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: rt().port,
          path: '/api/photos.php',
          method: 'POST',
          headers: { host: `spetter.localhost:${rt().port}`, cookie: client.cookieHeader(), 'content-type': 'multipart/form-data; boundary=xyz' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('--xyz\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nabc');
    });
    expect(status).toBe(400);
    expect((await hostFetch(rt(), 'spetter', '/api/settings.php')).status).toBe(200);
  });

  test('redirect targets with characters a header cannot carry still redirect, encoded', async () => {
    const logout = await hostFetch(rt(), 'spetter', '/api/logout.php?next=/%E2%80%A8x', { method: 'POST' });
    expect(logout.status).toBe(303);
    expect(logout.headers.location).toBe('/%E2%80%A8x');
    const lang = await hostFetch(rt(), 'velvet', '/lang-config?locale=de&next=/pages/faq%C3%A9');
    expect(lang.status).toBe(303);
    expect(lang.headers.location).toBe('/pages/faq%C3%A9');
  });

  test('a path with broken %-encoding is a 404 page, not an error', async () => {
    for (const path of ['/members/%', '/pages/%ZZ', '/%E0%A4%A']) {
      const res = await hostFetch(rt(), 'spetter', path);
      expect(res.status, path).toBe(404);
      expect(res.text).toContain('This page could not be found');
    }
  });

  test('API names that are object properties are unknown endpoints', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await hostFetch(rt(), 'spetter', `/api/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });

  test('the forced domain of settings.php names a brand by its domain; any other domain is the host\'s brand', async () => {
    expect((await hostFetch(rt(), 'spetter', '/api/settings.php?domain=www.velvetnights.com')).json().settings.name).toBe('Velvet Nights');
    expect((await hostFetch(rt(), 'spetter', '/api/settings.php?domain=evil.example')).json().settings.name).toBe('Spetter');
    expect((await hostFetch(rt(), 'velvet', '/api/settings.php?domain=spetter.localhost')).json().settings.name).toBe('Velvet Nights');
  });

  test('with a session, guessing the password is limited too', async () => {
    const { client, email } = await activeMember(rt(), 'spetter');
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await client.post('/api/password.php', { old_password: `fout-${i}-wachtwoord`, password: 'nieuw-wachtwoord-1', password_repeat: 'nieuw-wachtwoord-1' });
      answers.push(res.status);
    }
    expect(answers.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(answers[10]).toBe(429);
    // Past the limit no guess is checked, a right one neither (else a right guess would still pass).
    const right = await client.post('/api/password.php', { old_password: PASSWORD, password: 'nieuw-wachtwoord-1', password_repeat: 'nieuw-wachtwoord-1' });
    expect(right.status).toBe(429);
    // The right password was never guessed: the member's own still works.
    expect((await new Client(rt(), 'spetter').login(email, PASSWORD)).status).toBe(200);
  });

  test('a mail change checks the password before it tells whether an address has an account', async () => {
    const other = await activeMember(rt(), 'spetter');
    const { client } = await activeMember(rt(), 'spetter');
    const res = await client.post('/api/mail-change.php', { email: other.email, password: 'niet-mijn-wachtwoord' });
    expect(res.status).toBe(400);
    expect(res.json().error.message).toBe('Controleer je oude wachtwoord.');
  });

  test('a long click id from an ad link is kept, cut to 200 characters, and the signup succeeds', async () => {
    const body = signupBody({ tracking: { sub1: 'a'.repeat(500), network: 'adnet' } });
    const res = await new Client(rt(), 'spetter').post('/api/signup.php', body);
    expect(res.status).toBe(201);
    const row = await userRow(rt(), 'spetter', body.email);
    expect(JSON.parse(row!.tracking!)).toEqual({ sub1: 'a'.repeat(200), network: 'adnet' });
  });

  test('addresses with quotes, brackets or control characters are not e-mail addresses', async () => {
    for (const email of ['a"<b>@x.nl', 'a\u0000@b.com', 'a b@c.nl', 'x@localhost']) {
      const res = await new Client(rt(), 'spetter').post('/api/signup.php', signupBody({ email }));
      expect(res.status, JSON.stringify(email)).toBe(400);
      expect(res.json().error.message).toBe('Ongeldige e-mail');
    }
    expect((await signUp(rt(), 'spetter', { email: `o'brien+dating-${Date.now()}@example.co.uk` })).res.status).toBe(201);
  });

  test("a payment's webhook posted to another brand's host is a 404 and changes nothing", async () => {
    const { client } = await activeMember(rt(), 'spetter');
    const started = await client.post('/api/payment.php', { package_id: 'starter', method: 'ideal' });
    expect(started.status).toBe(200);
    const paymentId = started.json().payment.payment_id as number;
    const providerId = new URL(started.json().checkout_url, 'http://x').searchParams.get('id')!;
    // The provider has it paid; its webhook comes to velvet's host.
    await rt().services.testProvider.decide(providerId, 'paid');
    const credits = (await client.user()).credits as number;
    const webhook = (tenant: string) =>
      hostFetch(rt(), tenant, '/api/payment-webhook.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${providerId}` });
    const elsewhere = await webhook('velvet');
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json().error.code).toBe('not_found');
    const status = async () => (await rt().db.db.selectFrom('payments').select('status').where('id', '=', paymentId).executeTakeFirstOrThrow()).status;
    expect(await status()).toBe('open');
    expect((await client.user()).credits).toBe(credits);
    // On its own brand's host it settles.
    expect((await webhook('spetter')).status).toBe(200);
    expect(await status()).toBe('paid');
    expect((await client.user()).credits).toBe(credits + 50);
  });
});

describe('when the runtime itself fails', () => {
  const rt = useRuntime('sqlite');

  test('a page answers with the brand\'s error page, status 500, in the visitor\'s language', async () => {
    const sessions = rt().services.sessions;
    const working = sessions.lookup;
    sessions.lookup = async () => {
      throw new Error('the database is gone');
    };
    try {
      const nl = await hostFetch(rt(), 'spetter', '/profile');
      expect(nl.status).toBe(500);
      expect(nl.headers['content-type']).toMatch(/^text\/html/);
      expect(nl.text).toContain('Spetter');
      expect(nl.text).toMatch(/<h1[^>]*>[^<]*Error/);
      const de = await hostFetch(rt(), 'velvet', '/members', { headers: { cookie: 'locale=de' } });
      expect(de.status).toBe(500);
      expect(de.text).toContain('lang="de"');
      // An API call gets JSON it can show, not a page.
      const api = await hostFetch(rt(), 'spetter', '/api/user.php');
      expect(api.status).toBe(500);
      expect(api.json()).toEqual({ error: { code: 'server_error', message: 'Er is een fout opgetreden, probeer het later opnieuw.' } });
    } finally {
      sessions.lookup = working;
    }
    expect((await hostFetch(rt(), 'spetter', '/login')).status).toBe(200);
  });

  test.each(['/404', '/error', '/404//', '/error//', '/%2F404', '/error%2F'])('%s is no page of its own: it is the 404 page', async (path) => {
    const r = await hostFetch(rt(), 'spetter', path);
    expect(r.status).toBe(404);
    expect(r.text).toContain('This page could not be found');
  });
});

describe.skipIf(!process.env.DATABASE_URL)('DATABASE_SCHEMA on PostgreSQL', () => {
  test('sitegen db migrate makes a schema that does not exist yet and migrates it', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    try {
      const run = await sitegen(['db', 'migrate'], { DATABASE_URL: process.env.DATABASE_URL!, DATABASE_SCHEMA: schema });
      expect(run.stderr).not.toMatch(/schema has been selected/);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^sitegen: postgres: ran /m);
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>(`select count(*) as n from information_schema.tables where table_schema = $1 and table_name in ('users', 'payments', 'kysely_migration')`, [schema]);
        expect(Number(rows[0]!.n)).toBe(3);
      } finally {
        await client.end();
      }
      const again = await sitegen(['db', 'migrate'], { DATABASE_URL: process.env.DATABASE_URL!, DATABASE_SCHEMA: schema });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('up to date');
    } finally {
      await adminQuery(`drop schema if exists ${schema} cascade`);
    }
  });
});
