import sharp from 'sharp';
import type { Browser, Page } from '@playwright/test';
import { test, expect, brandUrl, callApi, confirmEntryWarning, withDatabase, approvePhotosOf } from '../support/e2e.ts';
import { linkIn, mailTo } from '../support/mail.ts';

/** Browser tests of the members search (/members) and the member profile (/members/{id}, /likes/m/{id}). */

const PASSWORD = 'geheim-wachtwoord-1';
let counter = 0;

/** A birth date that makes a member `age` today (a few days past the birthday). */
function bornYearsAgo(age: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - 5);
  d.setUTCFullYear(d.getUTCFullYear() - age);
  return d.toISOString().slice(0, 10);
}

/** Signs a member up on Spetter through the API; the session cookie lands in the page's browser context. */
async function signUp(page: Page, member: { name: string; gender: 'male' | 'female'; age?: number; region?: string }): Promise<{ email: string }> {
  counter += 1;
  const email = `leden-${process.pid}-${Date.now().toString(36)}-${counter}@example.nl`;
  const res = await callApi(page, 'spetter', 'POST', '/api/signup.php', {
    email,
    password: PASSWORD,
    name: member.name,
    date_of_birth: bornYearsAgo(member.age ?? 35),
    gender: member.gender,
    sexuality: 'hetero',
    country: 'NL',
    region: member.region ?? 'Noord-Holland',
    city: 'Almere',
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return { email };
}

/** A member others can find: signed up in a browser of its own, profile filled in, photos uploaded, e-mail confirmed. */
async function visibleMember(browser: Browser, name: string): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { email } = await signUp(page, { name, gender: 'female', age: 41, region: 'Flevoland' });
  const saved = await callApi(page, 'spetter', 'PUT', '/api/profile.php', {
    hair_color: 'red',
    body_type: 'athletic',
    about: 'Houdt van zeilen op het Markermeer en lange avonden op het terras.',
    interests: ['beach', 'wine'],
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  for (const background of ['#c0587a', '#3a6ea5']) {
    const jpeg = (await sharp({ create: { width: 480, height: 600, channels: 3, background } }).jpeg().toBuffer()).toString('base64');
    const status = await page.evaluate(async (data) => {
      const form = new FormData();
      form.append('photo', new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type: 'image/jpeg' }), 'foto.jpg');
      return (await fetch('/api/photos.php', { method: 'POST', body: form })).status;
    }, jpeg);
    expect(status).toBeLessThan(300);
  }
  await approvePhotosOf(email); // spetter screens photos before others see them (issue 22)
  await expect.poll(() => linkIn(mailTo(email), /\/api\/activate\.php$/), { timeout: 10_000 }).toBeTruthy();
  await page.goto(brandUrl('spetter', linkIn(mailTo(email), /\/api\/activate\.php$/)!));
  await expect(page).toHaveURL(/\/activate\/done/);
  await context.close();
}

/** The search has answered: no skeletons, a result count in the status line. */
async function resultsShown(page: Page, count: RegExp): Promise<void> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: count })).toBeVisible();
}

test('a member searches with filters, the URL keeps them, and a card opens the profile', async ({ page, browser }) => {
  const name = `Fenna${Date.now().toString(36).slice(-5)}`;
  await visibleMember(browser, name);
  await signUp(page, { name: 'Bram', gender: 'male' });

  await page.goto(brandUrl('spetter', '/members'));
  await confirmEntryWarning(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Leden zoeken' })).toBeVisible();
  await resultsShown(page, /leden? gevonden|lid gevonden/);

  const filters = page.getByRole('search', { name: 'Filters' });
  await filters.getByText('Vrouw', { exact: true }).click();
  await filters.getByLabel('Land').selectOption({ label: 'Nederland' });
  // The region is labelled with what the country calls it.
  await filters.getByLabel('Provincie').selectOption({ label: 'Flevoland' });
  await filters.getByLabel('Minimale leeftijd').selectOption('40');
  await filters.getByLabel('Maximale leeftijd').selectOption('42');
  await filters.getByRole('button', { name: 'Zoeken' }).click();

  await expect(page).toHaveURL(/\/members\?gender=female&country=NL&region=\w+&min_age=40&max_age=42$/);
  await resultsShown(page, /gevonden/);
  const card = page.getByRole('link', { name: new RegExp(`${name}, 41 jaar`) });
  await expect(card).toBeVisible();

  // A reload shows the same search.
  await page.reload();
  await resultsShown(page, /gevonden/);
  await expect(filters.getByRole('radio', { name: 'Vrouw' })).toBeChecked();
  await expect(filters.getByLabel('Land')).toHaveValue('NL');
  await expect(filters.getByLabel('Provincie')).toHaveValue(/\w+/);
  await expect(filters.getByLabel('Minimale leeftijd')).toHaveValue('40');
  await expect(filters.getByLabel('Maximale leeftijd')).toHaveValue('42');

  await card.click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${name}, 41 jaar`);
  await expect(page).toHaveTitle(`${name} | Spetter`);
  await expect(page.getByText('Almere, Flevoland, Nederland')).toBeVisible();
  await expect(page.getByText("2 foto's")).toBeVisible();
  await expect(page.getByText('Houdt van zeilen op het Markermeer en lange avonden op het terras.')).toBeVisible();
  const details = page.getByRole('region', { name: 'Kenmerken' });
  await expect(details.getByText('Haarkleur')).toBeVisible();
  await expect(details.getByText('Rood')).toBeVisible();
  await expect(details.getByText('Sportief')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Interesses' }).getByText('Strand')).toBeVisible();
  // A free member sees the main photo; the others are locked behind premium (SPEC §1, §6).
  await expect(page.getByRole('figure').getByRole('img', { name: `Foto 1 van ${name}` })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Vergrendelde foto/ })).toHaveCount(1);
  await expect(page.getByRole('link', { name: "Word premium om alle foto's te zien", exact: true })).toHaveAttribute('href', '/premium');
  // What a member can do here: like, report, block (chat and gifts arrive with their issues).
  const actions = page.locator('[data-profile-actions]');
  await expect(actions.getByRole('button', { name: 'Like', exact: true })).toBeVisible();
  await expect(actions.getByRole('link', { name: 'Melden' })).toHaveAttribute('href', /^\/complaints\?profile=\d+$/);
  await expect(actions.getByRole('button', { name: 'Blokkeren' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('button')).toHaveCount(2);

  // Back returns to the search as it was.
  await page.goBack();
  await expect(page).toHaveURL(/gender=female&country=NL&region=\w+&min_age=40&max_age=42$/);
  await expect(card).toBeVisible();

  // The same screen under the likes.
  const id = /\/members\/(\d+)/.exec((await card.getAttribute('href'))!)![1];
  await page.goto(brandUrl('spetter', `/likes/m/${id}`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${name}, 41 jaar`);
});

test('"Iedereen" in the gender filter finds men and women for a woman looking for men, more than "Man" finds', async ({ page }) => {
  await signUp(page, { name: 'Ilse', gender: 'female' });
  await page.goto(brandUrl('spetter', '/members'));
  await confirmEntryWarning(page);
  const filters = page.getByRole('search', { name: 'Filters' });
  const count = async () => Number(/(\d+)/.exec((await page.getByRole('status').filter({ hasText: /gevonden/ }).innerText()) ?? '')?.[1]);

  await filters.getByText('Man', { exact: true }).click();
  await filters.getByRole('button', { name: 'Zoeken' }).click();
  await expect(page).toHaveURL(/\/members\?gender=male$/);
  await resultsShown(page, /gevonden/);
  const men = await count();

  await filters.getByText('Iedereen', { exact: true }).click();
  await filters.getByRole('button', { name: 'Zoeken' }).click();
  await expect(page).toHaveURL(/\/members\?gender=all$/);
  await resultsShown(page, /gevonden/);
  await expect(filters.getByRole('radio', { name: 'Iedereen' })).toBeChecked();
  const everyone = await count();
  expect(everyone).toBeGreaterThan(men);
  const both = (await callApi(page, 'spetter', 'GET', '/api/members.php?gender=all')).json;
  expect(everyone).toBe(both.total);
  const women = (await callApi(page, 'spetter', 'GET', '/api/members.php?gender=female')).json.total as number;
  expect(everyone).toBe(men + women);
});

test('a page past the last of the search shows the last page, and says so', async ({ page }) => {
  await signUp(page, { name: 'Joris', gender: 'male' });
  const { total, pages, per_page: perPage } = (await callApi(page, 'spetter', 'GET', '/api/members.php')).json;
  expect(total).toBeGreaterThan(0);
  const last = Math.max(1, pages);

  await page.goto(brandUrl('spetter', '/members?page=99'));
  await confirmEntryWarning(page);
  await resultsShown(page, new RegExp(`^${total} leden gevonden$`));
  // The last page's members, no "nothing found", and the address of what is shown.
  await expect(page.getByText('Geen leden gevonden met deze filters.')).toHaveCount(0);
  await expect(page.locator('main a[href^="/members/"]')).toHaveCount(total - (last - 1) * perPage);
  await expect(page).toHaveURL(brandUrl('spetter', last > 1 ? `/members?page=${last}` : '/members'));
  if (last > 1) await expect(page.getByText(`Pagina ${last} van ${last}`)).toBeVisible();
  await expect(page.getByText('Pagina 99')).toHaveCount(0);

  // With filters nothing matches, a later page is the first (empty) one with its suggestions.
  await page.goto(brandUrl('spetter', '/members?gender=female&min_age=99&max_age=99&page=4'));
  await resultsShown(page, /^0 leden gevonden$/);
  await expect(page.getByText('Geen leden gevonden met deze filters.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Paginering' })).toHaveCount(0);
  await expect(page).toHaveURL(brandUrl('spetter', '/members?gender=female&min_age=99&max_age=99'));
});

test('a visitor on Velvet can search members', async ({ page }) => {
  await page.goto(brandUrl('velvet', '/members'));
  await confirmEntryWarning(page);
  await expect(page).toHaveURL(brandUrl('velvet', '/members'));
  await expect(page.getByRole('heading', { level: 1, name: 'Search members' })).toBeVisible();
  await resultsShown(page, /members? found/);

  await page.getByRole('search', { name: 'Filters' }).getByText('Woman', { exact: true }).click();
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/members\?gender=female$/);
  await resultsShown(page, /found/);
  await expect(page.locator('main a[href^="/members/"]').first()).toBeVisible();
});

test('a visitor on Spetter is sent to the login page', async ({ page }) => {
  await page.goto(brandUrl('spetter', '/members?gender=female'));
  await expect(page).toHaveURL(brandUrl('spetter', `/login?next=${encodeURIComponent('/members?gender=female')}`));
});

test('the search and a profile show the member their own header and banners; a dismissed banner stays away', async ({ page }) => {
  await signUp(page, { name: 'Hidde', gender: 'male' });
  await page.goto(brandUrl('spetter', '/members'));
  await confirmEntryWarning(page);
  const header = page.getByRole('banner');
  await expect(header.getByText('Hidde', { exact: true })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Word premium' })).toBeVisible();
  const alerts = page.getByRole('region', { name: 'Meldingen' });
  await expect(alerts.getByText('Je hebt nog geen profielfoto.')).toBeVisible();
  await expect(alerts.getByText('Activeer je account via de link in de e-mail')).toBeVisible();
  await alerts.locator('[data-banner="profile-photo"]').getByRole('button').click();
  await expect(page.getByText('Je hebt nog geen profielfoto.')).toHaveCount(0);

  await resultsShown(page, /gevonden/);
  await page.locator('a[href^="/members/"]').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(header.getByText('Hidde', { exact: true })).toBeVisible();
  await expect(page.getByText('Activeer je account via de link in de e-mail')).toBeVisible();
  await expect(page.getByText('Je hebt nog geen profielfoto.')).toHaveCount(0);
});

test('a member never meets the entry warning on the search, also without the signed-in hint; after logging out elsewhere the page leads to the login', async ({ page }) => {
  await signUp(page, { name: 'Jelte', gender: 'male' });
  // The readable hint cookie gone (cleared by hand): the session still makes the member known.
  await page.context().clearCookies({ name: 'signed_in' });
  await page.goto(brandUrl('spetter', '/members'));
  await expect(page.getByRole('banner').getByText('Jelte', { exact: true })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Logged out in another tab: the search page, shown again from the history, goes to the login.
  const other = await page.context().newPage();
  await other.goto(brandUrl('spetter', '/pricing'));
  await other.evaluate(() => fetch('/api/logout.php'));
  await other.close();
  await page.reload();
  await expect(page).toHaveURL(/\/login\?next=%2Fmembers$/);
});

test('the next page shows the member at once from what the tab knows, before the server answers; a logout forgets it', async ({ page }) => {
  await signUp(page, { name: 'Kees', gender: 'male' });
  await page.goto(brandUrl('spetter', '/members'));
  await confirmEntryWarning(page);
  await expect(page.getByRole('banner').getByText('Kees', { exact: true })).toBeVisible();
  await resultsShown(page, /gevonden/);
  const href = await page.locator('a[href^="/members/"]').first().getAttribute('href');

  // The server keeps GET /api/user.php waiting: the header, the banners and the time bonus come from the tab.
  let held = 0;
  await page.route('**/api/user.php', () => void (held += 1));
  await page.goto(brandUrl('spetter', href!));
  await expect(page.getByRole('banner').getByText('Kees', { exact: true })).toBeVisible();
  await expect(page.getByText('Je hebt nog geen profielfoto.')).toBeVisible();
  await expect(page.locator('[data-time-bonus]')).toBeVisible();
  expect(held).toBeGreaterThan(0);

  // Kees logs out in another tab and someone else signs up there: this tab's copy is not theirs.
  const other = await page.context().newPage();
  await other.goto(brandUrl('spetter', '/pricing'));
  expect((await callApi(other, 'spetter', 'POST', '/api/logout.php')).status).toBeLessThan(400);
  await signUp(other, { name: 'Lotte', gender: 'female' });
  await other.close();
  await page.goto(brandUrl('spetter', '/members'));
  await expect(page.locator('[data-member-nav]')).toBeVisible();
  await expect(page.getByRole('banner').getByText('Kees', { exact: true })).toHaveCount(0);
  // The server answers again: the member of this session.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.reload();
  await expect(page.getByRole('banner').getByText('Lotte', { exact: true })).toBeVisible();

  await page.getByRole('banner').getByLabel('Account').click();
  await page.getByRole('link', { name: 'Uitloggen' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', '/'));
  await expect(page.getByRole('banner').getByRole('link', { name: 'Inloggen' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('member'))).toBeNull();
});

test('a fictional profile says so in words on its card, on its profile and in the chat (DESIGN §10)', async ({ page }) => {
  await signUp(page, { name: 'Tijn', gender: 'male' });
  const fiction = await withDatabase((db) =>
    db.selectFrom('profiles').select(['id', 'name', 'gender', 'country', 'birth_date']).where('tenant_id', '=', 'spetter').where('fictional', '=', 1).where('status', '=', 'active').where('listed', '=', 1).orderBy('id').executeTakeFirstOrThrow(),
  );
  const born = new Date(fiction.birth_date);
  const today = new Date();
  const age = today.getUTCFullYear() - born.getUTCFullYear() - (today < new Date(Date.UTC(today.getUTCFullYear(), born.getUTCMonth(), born.getUTCDate())) ? 1 : 0);
  const warning = 'Dit profiel is fictief. Fysiek contact met dit profiel is niet mogelijk.';

  await page.goto(brandUrl('spetter', `/members?gender=${fiction.gender}&country=${fiction.country}&min_age=${age}&max_age=${age}`));
  await confirmEntryWarning(page);
  await resultsShown(page, /gevonden/);
  const card = page.locator(`a[href="/members/${fiction.id}"]`);
  await expect(card.locator('[data-fictional]')).toBeVisible();
  await expect(card.locator('[data-fictional]')).toContainText('Fictief profiel');

  await card.click();
  await expect(page).toHaveURL(new RegExp(`/members/${fiction.id}$`));
  await expect(page.getByText(warning).first()).toBeVisible();
  await page.goto(brandUrl('spetter', `/members/${fiction.id}/chat`));
  await expect(page.getByRole('note').filter({ hasText: warning })).toBeVisible();
});

test('an unknown member id gives the 404 page', async ({ page }) => {
  await signUp(page, { name: 'Sem', gender: 'male' });
  for (const path of ['/members/999999999', '/likes/m/999999999', '/members/abc']) {
    const response = await page.goto(brandUrl('spetter', path));
    expect(response?.status(), path).toBe(404);
    await confirmEntryWarning(page);
    await expect(page.getByRole('heading', { level: 1, name: 'This page could not be found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to the home page' })).toBeVisible();
  }
});

test('a new member finds no conversations and no likes yet, each with the way to the search', async ({ page }) => {
  await signUp(page, { name: 'Noor', gender: 'female' });
  await page.goto(brandUrl('spetter', '/members'));
  await confirmEntryWarning(page);

  await page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link', { name: 'Berichten' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', '/chats'));
  await expect(page.getByRole('heading', { level: 1, name: 'Berichten' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Nog geen gesprekken' })).toBeVisible();
  await page.getByRole('link', { name: 'Terug naar leden zoeken' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', '/members'));

  await page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link', { name: 'Likes' }).click();
  const tabs = page.getByRole('navigation', { name: 'Likes' });
  await expect(tabs.getByRole('link', { name: 'Ontvangen' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('Nog niemand heeft je geliket.', { exact: false })).toBeVisible();
  await tabs.getByRole('link', { name: 'Matches' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', '/likes/matches'));
  await expect(tabs.getByRole('link', { name: 'Matches' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('Nog geen matches.', { exact: false })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Leden zoeken' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', '/members'));

  for (const path of ['/likes/nope', '/chats/12']) {
    const response = await page.goto(brandUrl('spetter', path));
    expect(response?.status(), path).toBe(404);
  }
});

test('a free member compares free and premium and finds the credit bundles', async ({ page }) => {
  await signUp(page, { name: 'Fenna', gender: 'female' });
  await page.goto(brandUrl('spetter', '/members'));
  await confirmEntryWarning(page);
  await page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link', { name: 'Word premium' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', '/premium'));
  const table = page.getByRole('table');
  await expect(table.getByRole('row', { name: /Eigen foto's plaatsen/ })).toContainText(/3.*25/);
  await expect(table.getByRole('row', { name: /Gesprekken beginnen/ })).toContainText(/2.*Onbeperkt/);
  await expect(table.getByRole('row', { name: /Kans op een match/ })).toContainText('46% hoger');
  await page.getByRole('link', { name: 'Bekijk de creditbundels' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', '/pricing'));
  await expect(page.getByRole('heading', { level: 1, name: 'Prijzen' })).toBeVisible();
});

test('on a phone the member navigation fits beside a long brand name, in German too', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.context().addCookies([{ name: 'locale', value: 'de', url: brandUrl('velvet', '/') }]);
  const res = await callApi(page, 'velvet', 'POST', '/api/signup.php', {
    email: `telefoon-${Date.now()}@example.de`,
    password: PASSWORD,
    name: 'Jürgen',
    date_of_birth: bornYearsAgo(44),
    gender: 'male',
    sexuality: 'hetero',
    country: 'DE',
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  for (const brand of ['velvet', 'spetter']) {
    if (brand === 'spetter') await signUp(page, { name: 'Tijn', gender: 'male' });
    await page.goto(brandUrl(brand, '/members'));
    await confirmEntryWarning(page);
    const account = page.locator('summary[aria-label]');
    await expect(account).toBeVisible();
    const box = (await account.boundingBox())!;
    expect(box.x + box.width, `${brand}: the account menu ends inside the screen`).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${brand}: no sideways scrolling`).toBeLessThanOrEqual(375);
    // The brand stays named: visibly where it fits, else by the logo's accessible name.
    await expect(page.getByRole('link', { name: brand === 'velvet' ? /Velvet Nights/ : /Spetter/ }).first()).toBeVisible();
  }
  await expect(page.getByText('Spetter', { exact: true }).first()).toBeVisible();
});
