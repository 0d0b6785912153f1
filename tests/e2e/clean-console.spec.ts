import type { Page } from '@playwright/test';
import { test, expect, brandUrl, callApi, confirmEntryWarning, MEMBER_PASSWORD } from '../support/e2e.ts';
import { linkIn, mailTo } from '../support/mail.ts';

/**
 * A new member's walk through every page of a brand (SPEC §2 route table, src/lib/routes.ts) in
 * the production build, on both demo brands at phone and desktop width: no page error and no
 * console error on any of them. React reports a page whose browser render differs from the
 * server's (a countdown, a date formatted in the runtime's time zone) as error #418 on the console.
 */

// The browser is in another time zone than the server (UTC), as a member's phone is: a date or
// time formatted in the runtime's zone would differ. Velvet walks in each of its languages.
const WALKS = [
  { id: 'spetter', locale: 'nl', width: 375, bundle: 'starter', method: 'ideal', country: 'NL', timezoneId: 'Europe/Amsterdam' },
  { id: 'spetter', locale: 'nl', width: 1280, bundle: 'starter', method: 'ideal', country: 'NL', timezoneId: 'Europe/Amsterdam' },
  { id: 'velvet', locale: 'en', width: 375, bundle: 'taste', method: 'creditcard', country: 'GB', timezoneId: 'Europe/London' },
  { id: 'velvet', locale: 'de', width: 1280, bundle: 'taste', method: 'creditcard', country: 'DE', timezoneId: 'Europe/Berlin' },
  { id: 'velvet', locale: 'fr', width: 375, bundle: 'taste', method: 'creditcard', country: 'FR', timezoneId: 'America/Montreal' },
] as const;

/** Console errors and page errors while `page` lives, each with the address it was on. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${page.url()}: page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: console error: ${message.text()}`);
  });
  return errors;
}

/**
 * Opens a page and waits until its islands have hydrated (Astro drops `ssr` then); an island
 * that hydrates when visible and is hidden at this width (a closed menu) has nothing to compare.
 */
async function visit(page: Page, brand: string, path: string): Promise<void> {
  const response = await page.goto(brandUrl(brand, path));
  expect(response?.status(), `${brand} ${path}`).toBeLessThan(400);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect.poll(() => page.evaluate(() => document.querySelectorAll('astro-island[ssr]:not([client="visible"])').length), { message: `${brand} ${path}: islands hydrate` }).toBe(0);
  // A render that differs is reported right after hydration; a moment for the islands' first fetches.
  await page.waitForTimeout(400);
}

let counter = 0;

for (const brand of WALKS) {
  const { width } = brand;
  test(`a new member's walk through ${brand.id} in ${brand.locale} at ${width} px has no page or console error`, async ({ browser }) => {
    test.setTimeout(240_000);
    const context = await browser.newContext({ viewport: { width, height: width < 500 ? 740 : 900 }, timezoneId: brand.timezoneId });
    await context.addCookies([{ name: 'locale', value: brand.locale, url: brandUrl(brand.id, '/') }]);
    const page = await context.newPage();
    const errors = watchErrors(page);

    // As a visitor: home (with the entry warning), a lander, pricing, login and signup.
    await visit(page, brand.id, '/');
    await confirmEntryWarning(page);
    for (const path of ['/landers/tinderswipe', '/landers/gallery', '/pricing', '/login', '/signup']) await visit(page, brand.id, path);

    // Signs up as the signup island does, and confirms the address from the mail.
    counter += 1;
    const email = `schoon-${process.pid}-${Date.now().toString(36)}-${counter}@example.nl`;
    const signup = await callApi(page, brand.id, 'POST', '/api/signup.php', { email, password: MEMBER_PASSWORD, name: `Nieuw${counter}`, date_of_birth: '1984-03-12', gender: 'male', sexuality: 'hetero', country: brand.country });
    expect(signup.status, JSON.stringify(signup.json)).toBe(201);
    await visit(page, brand.id, '/complete-signup');
    await visit(page, brand.id, '/signup-matches');
    await expect.poll(() => linkIn(mailTo(email), /\/api\/activate\.php$/), { timeout: 10_000 }).toBeTruthy();
    await page.goto(brandUrl(brand.id, linkIn(mailTo(email), /\/api\/activate\.php$/)!));

    // The member's pages; a conversation with the first profile of the search.
    const profiles = (await callApi(page, brand.id, 'GET', '/api/members.php')).json.profiles as { id: number }[];
    const other = profiles[0]!.id;
    for (const path of ['/members', `/members/${other}`, '/likes', '/likes/received', '/likes/given', '/likes/matches', '/swipe-game', '/match-finder', '/chats', `/members/${other}/chat`]) await visit(page, brand.id, path);
    const sent = await callApi(page, brand.id, 'POST', '/api/chat.php', { profile_id: other, text: 'Hallo!', client_id: `schoon-${Date.now()}-${counter}` });
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    await callApi(page, brand.id, 'POST', '/api/like.php', { profile_id: other });
    for (const path of ['/chats', `/chats/${sent.json.conversation_id}`, `/likes/m/${other}`, '/profile', '/notifications', '/credits', '/pricing', `/credits/${brand.bundle}`, `/credits/${brand.bundle}/${brand.method}`, '/transactions', '/directdebit', '/premium', '/lang-config', '/complaints', '/pages/terms']) {
      await visit(page, brand.id, path);
    }
    // A second load of the profile page: the first was not the only one to hydrate cleanly.
    await visit(page, brand.id, '/profile');

    expect(errors).toEqual([]);
    await context.close();
  });
}
