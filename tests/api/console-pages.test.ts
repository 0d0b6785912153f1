/**
 * The operator console's pages (issue 22): ONE build (dist/_console) served on CONSOLE_HOST under
 * /console/ like a brand's prerendered pages and assets: the shell of the staff member's language
 * (the switch's cookie, else Dutch for a browser preferring it, else English), the login for a
 * visit without a staff session, brotli copies, ETags and immutable hashed assets; nothing of it
 * on a brand's host.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CONSOLE_BUILD, consolePageFile } from '../../src/server/http/console-pages.ts';
import { CONSOLE_LOCALE_COOKIE } from '../../src/lib/console-locale.ts';
import { DIST_DIR, engines } from '../support/runtime.ts';
import { Client, useRuntime } from '../support/accounts.ts';
import { consoleClient, staffLogin } from '../support/console.ts';

const langOf = (html: string) => /<html lang="(\w+)"/.exec(html)?.[1];

test('a console path names its prerendered shell per language; a numeric last segment is its folder’s id page', () => {
  expect(consolePageFile('/console/members', 'nl')).toEqual({ page: 'members', file: 'nl/members/index.html' });
  expect(consolePageFile('/console/members/', 'en')).toEqual({ page: 'members', file: 'en/members/index.html' });
  expect(consolePageFile('/console/members/42', 'en')).toEqual({ page: 'members', file: 'en/members/id/index.html' });
  expect(consolePageFile('/console/../etc', 'en')).toBeNull();
  expect(consolePageFile('/console/_assets/x', 'en')).toBeNull();
  expect(consolePageFile('/console/', 'en')).toBeNull();
});

describe.each(engines())('the console pages on %s', (engine) => {
  const rt = useRuntime(engine);

  test('without a staff session a page goes to the login (coming back after); the login and the enrolment page open', async () => {
    const visitor = consoleClient(rt());
    const members = await visitor.get('/console/members?q=anna');
    expect([members.status, members.headers.location]).toEqual([303, `/console/login?next=${encodeURIComponent('/console/members?q=anna')}`]);
    expect((await visitor.get('/console/')).headers.location).toBe('/console/login');
    expect((await visitor.get('/')).headers.location).toBe('/console/');
    for (const page of ['/console/login', '/console/enrol?token=x']) {
      const res = await visitor.get(page);
      expect(res.status, page).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('private, no-cache');
    }
    expect((await visitor.get('/console/no-such-page')).status).toBe(404);
  });

  test('a member’s session cookie opens no console page', async () => {
    const visitor = consoleClient(rt());
    visitor.jar.set('session', 'v1.aaaa.bbbb');
    expect((await visitor.get('/console/members')).status).toBe(303);
  });

  test('logged in: the shell in English, Dutch for a browser preferring it, the switch’s choice above both', async () => {
    const { client } = await staffLogin(rt(), 'support');
    expect((await client.get('/console/')).headers.location).toBe('/console/members');
    const english = await client.get('/console/members', { 'accept-language': 'de-DE,de;q=0.9,nl;q=0.8' });
    expect([english.status, langOf(english.text), english.headers['content-language']]).toEqual([200, 'en', 'en']);
    expect(english.headers.vary).toMatch(/Cookie/);
    const dutch = await client.get('/console/members', { 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.8' });
    expect(langOf(dutch.text)).toBe('nl');
    client.jar.set(CONSOLE_LOCALE_COOKIE, 'en');
    expect(langOf((await client.get('/console/members', { 'accept-language': 'nl' })).text)).toBe('en');
    // The API answers in the chosen language too.
    client.jar.set(CONSOLE_LOCALE_COOKIE, 'nl');
    const dutchRefusal = await client.get('/api/console/members?status=nope');
    client.jar.set(CONSOLE_LOCALE_COOKIE, 'en');
    const englishRefusal = await client.get('/api/console/members?status=nope');
    expect([dutchRefusal.status, englishRefusal.status]).toEqual([400, 400]);
    expect(dutchRefusal.json().error.message).not.toBe(englishRefusal.json().error.message);
    client.jar.set(CONSOLE_LOCALE_COOKIE, 'nl');
    expect(langOf((await client.get('/console/members')).text)).toBe('nl');
  });

  test('pages and assets as the build compressed them: brotli, ETags (304), hashed assets immutable for a year', async () => {
    const { client } = await staffLogin(rt(), 'admin');
    const page = await client.get('/console/members', { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    const etag = page.headers.etag as string;
    expect(etag).toBeTruthy();
    expect((await client.get('/console/members', { 'accept-encoding': 'br', 'if-none-match': etag })).status).toBe(304);
    const script = readdirSync(join(DIST_DIR, CONSOLE_BUILD, '_assets')).find((f) => f.endsWith('.js') && !f.endsWith('.br'))!;
    const asset = await consoleClient(rt()).get(`/console/_assets/${script}`, { 'accept-encoding': 'br, gzip' });
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await consoleClient(rt()).get('/console/_assets/nothing.js')).status).toBe(404);
  });

  test('a brand’s host has no console pages; the console host has no brand pages', async () => {
    expect((await new Client(rt(), 'spetter').get('/console/login')).status).toBe(404);
    expect((await new Client(rt(), 'spetter').get('/console/_assets/x.js')).status).toBe(404);
    expect((await consoleClient(rt()).get('/search')).status).toBe(404);
  });
});
