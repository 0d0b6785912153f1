/**
 * The public site as a visitor uses it in Chromium: two brands that look like themselves, the age
 * warning, a lander's swipe cards, the 404 page, choosing a language (staying on the page), titles
 * in the language shown, clean consoles, and the way to /login.
 */
import { test, expect, brandUrl, confirmEntryWarning, signUpMember } from '../support/e2e.ts';
import { say, literally, rgbOf, rgbOfHex } from '../support/site.ts';

const BRANDS = [
  { id: 'spetter', name: 'Spetter', locale: 'nl', primary: '#6f2da8' },
  { id: 'velvet', name: 'Velvet Nights', locale: 'en', primary: '#8c1c3a' },
] as const;

const entryWarning = (page: import('@playwright/test').Page, locale: string) =>
  page.getByRole('dialog', { name: say(locale, 'entry_title') });

for (const brand of BRANDS) {
  test(`${brand.name} shows its own name and primary colour`, async ({ page }) => {
    await page.goto(brandUrl(brand.id, '/'));
    await expect(page).toHaveTitle(literally(brand.name));
    const confirm = entryWarning(page, brand.locale).getByRole('button', { name: say(brand.locale, 'entry_confirm') });
    // The age warning's confirm button is a primary button in the brand's colour.
    const background = await confirm.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(rgbOf(background)).toEqual(rgbOfHex(brand.primary));
    await confirm.click();

    const home = page.getByRole('link', { name: say(brand.locale, 'nav_home', { brand: brand.name }) }).first();
    await expect(home).toBeVisible();
    await expect(page.getByRole('banner').getByText(brand.name, { exact: true })).toBeVisible();
    const other = BRANDS.find((b) => b.id !== brand.id)!;
    await expect(page.getByText(other.name)).toHaveCount(0);

    // The login form's submit button is a primary button too.
    await page.goto(brandUrl(brand.id, '/login'));
    const submit = page.getByRole('button', { name: say(brand.locale, 'login_submit'), exact: true });
    expect(rgbOf(await submit.evaluate((el) => getComputedStyle(el).backgroundColor))).toEqual(rgbOfHex(brand.primary));
  });
}

test.describe('the age warning', () => {
  test('appears to a new visitor, keeps focus, ignores Escape and stays away once confirmed', async ({ page }) => {
    await page.goto(brandUrl('spetter', '/'));
    const dialog = entryWarning(page, 'nl');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(say('nl', 'entry_text', { brand: 'Spetter' }));
    const confirm = dialog.getByRole('button', { name: say('nl', 'entry_confirm') });
    await expect(confirm).toBeFocused();

    // Tab and Shift+Tab cycle inside the dialog.
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog#entry-warning')))).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog#entry-warning')))).toBe(true);
    }

    // The visitor must answer: Escape does nothing.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    // It is modal: the page behind cannot be used meanwhile.
    expect(await page.evaluate(() => document.querySelector('dialog#entry-warning')?.matches(':modal'))).toBe(true);

    await confirm.click();
    await expect(dialog).toBeHidden();

    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(entryWarning(page, 'nl')).toBeHidden();
    await page.goto(brandUrl('spetter', '/pages/faq'));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(entryWarning(page, 'nl')).toBeHidden();
  });

  test('each new visitor sees it again; it never shows on the password reset page', async ({ browser }) => {
    const first = await browser.newPage();
    await first.goto(brandUrl('velvet', '/'));
    await confirmEntryWarning(first);
    await first.close();
    const second = await browser.newPage();
    await second.goto(brandUrl('velvet', '/'));
    await expect(entryWarning(second, 'en')).toBeVisible();
    await second.goto(brandUrl('velvet', '/reset-password'));
    await expect(second.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(entryWarning(second, 'en')).toBeHidden();
    await second.close();
  });

  test('on a lander it shows only to visitors from NL and DE', async ({ browser }) => {
    const unknown = await browser.newPage();
    await unknown.goto(brandUrl('spetter', '/landers/tinderswipe'));
    await expect(unknown.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(entryWarning(unknown, 'nl')).toBeHidden();
    await unknown.close();

    const context = await browser.newContext();
    await context.addCookies([{ name: 'country', value: 'NL', url: brandUrl('spetter', '/') }]);
    const dutch = await context.newPage();
    await dutch.goto(brandUrl('spetter', '/landers/tinderswipe'));
    await expect(entryWarning(dutch, 'nl')).toBeVisible();
    await context.close();
  });
});

test('a lander\'s swipe buttons move through the cards to the signup call', async ({ page }) => {
  await page.goto(brandUrl('spetter', '/landers/tinderswipe'));
  await confirmEntryWarning(page);
  const like = page.getByRole('button', { name: literally(say('nl', 'lander_swipe_like')) });
  const pass = page.getByRole('button', { name: literally(say('nl', 'lander_swipe_pass')) });
  const cards = page.locator('[data-card]');
  await expect(cards).toHaveCount(4);
  const done = page.getByText(say('nl', 'lander_swipe_done'));
  await expect(done).toBeHidden();
  expect(await cards.first().evaluate((el) => getComputedStyle(el).transform)).toBe('none');

  await like.click();
  // The liked card flies off to the right.
  await expect.poll(() => cards.first().evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).m41)).toBeGreaterThan(100);
  await pass.click();
  await expect.poll(() => cards.nth(1).evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).m41)).toBeLessThan(-100);
  await like.click();
  await expect(done).toBeHidden();
  await pass.click();
  await expect(done).toBeVisible();
});

test('an unknown page shows the 404 page with a way home', async ({ page }) => {
  const response = await page.goto(brandUrl('velvet', '/no/such/page'));
  expect(response?.status()).toBe(404);
  await confirmEntryWarning(page);
  await expect(page.getByRole('heading', { name: say('en', 'error_not_found') })).toBeVisible();
  const home = page.getByRole('link', { name: say('en', 'error_back_home') });
  await expect(home).toBeVisible();
  await home.click();
  await expect(page).toHaveURL(brandUrl('velvet', '/'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('choosing Deutsch in the language menu on velvet sets the cookie and shows German', async ({ page, context }) => {
  await page.goto(brandUrl('velvet', '/pages/faq'));
  await confirmEntryWarning(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // The visible menu: in the top bar on a desktop (the footer one is for phones).
  const menu = page.getByRole('combobox', { name: say('en', 'nav_language'), exact: true });
  await expect(menu).toHaveValue('en');
  await menu.selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  // The same page, now in German.
  await expect(page).toHaveURL(brandUrl('velvet', '/pages/faq'));
  await expect(page.getByRole('link', { name: say('de', 'nav_login'), exact: true }).first()).toBeVisible();
  await expect(page.getByRole('combobox', { name: say('de', 'nav_language'), exact: true })).toHaveValue('de');
  const cookie = (await context.cookies(brandUrl('velvet', '/'))).find((c) => c.name === 'locale');
  expect(cookie?.value).toBe('de');
  // 365 days (SPEC §9), give or take the seconds this test took.
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(365 * 86400 - 120);
  // Another page keeps the language.
  await page.goto(brandUrl('velvet', '/'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});

test('choosing a language on a lander stays on that lander with its query', async ({ page }) => {
  await page.goto(brandUrl('velvet', '/landers/tinderswipe?ref=partner7&sub1=spring'));
  await confirmEntryWarning(page);
  await page.getByRole('banner').getByRole('combobox', { name: say('en', 'nav_language'), exact: true }).selectOption('fr');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page).toHaveURL(brandUrl('velvet', '/landers/tinderswipe?ref=partner7&sub1=spring'));
  await expect(page.getByRole('banner').getByRole('link', { name: say('fr', 'nav_login'), exact: true })).toBeVisible();
});

test('the home page and a static page in German keep their place when French is chosen', async ({ page }) => {
  await page.context().addCookies([{ name: 'locale', value: 'de', url: brandUrl('velvet', '/') }]);
  for (const path of ['/', '/pages/terms']) {
    await page.goto(brandUrl('velvet', path));
    await confirmEntryWarning(page);
    await page.getByRole('combobox', { name: say('de', 'nav_language'), exact: true }).selectOption('fr');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page).toHaveURL(brandUrl('velvet', path));
    await page.context().addCookies([{ name: 'locale', value: 'de', url: brandUrl('velvet', '/') }]);
  }
});

test('on a prerendered page the language menu offers the languages of the visitor\'s country', async ({ page, context }) => {
  // Austria speaks German (SPEC §1): of velvet's en, de and fr only German is offered beside the page's own.
  await context.addCookies([{ name: 'country', value: 'AT', url: brandUrl('velvet', '/') }]);
  await page.goto(brandUrl('velvet', '/pages/faq'));
  await confirmEntryWarning(page);
  const menu = page.getByRole('combobox', { name: say('en', 'nav_language'), exact: true });
  await expect(menu.locator('option')).toHaveText(['English', 'Deutsch']);
  await expect(menu).toHaveValue('en');

  // In German, for an Austrian visitor, nothing is left to choose: no menu.
  await context.addCookies([{ name: 'locale', value: 'de', url: brandUrl('velvet', '/') }]);
  await page.goto(brandUrl('velvet', '/pages/faq'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.locator('footer')).toBeVisible();
  await expect(page.getByRole('combobox', { name: say('de', 'nav_language'), exact: true })).toHaveCount(0);

  // Swiss visitors may read all three.
  await context.addCookies([{ name: 'country', value: 'CH', url: brandUrl('velvet', '/') }]);
  await page.goto(brandUrl('velvet', '/pages/faq'));
  await expect(page.getByRole('combobox', { name: say('de', 'nav_language'), exact: true }).locator('option')).toHaveCount(3);
});

test('on a phone the language select sits in the footer (the top bar has the compact menu)', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(brandUrl('velvet', '/pricing'));
  await confirmEntryWarning(page);
  const menu = page.getByRole('combobox', { name: say('en', 'nav_language'), exact: true });
  await expect(menu).toHaveCount(1);
  await expect(page.getByRole('contentinfo').getByRole('combobox', { name: say('en', 'nav_language'), exact: true })).toBeVisible();
  await menu.selectOption('fr');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page).toHaveURL(brandUrl('velvet', '/pricing'));
});

test('velvet\'s home page is titled in the language it is shown in', async ({ page }) => {
  const titles = { en: 'Velvet Nights - mature dating and chat', de: 'Velvet Nights - Dating und Chat für reife Singles', fr: 'Velvet Nights - rencontres et chat pour célibataires matures' };
  for (const [locale, title] of Object.entries(titles)) {
    await page.context().addCookies([{ name: 'locale', value: locale, url: brandUrl('velvet', '/') }]);
    await page.goto(brandUrl('velvet', '/'));
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await expect(page).toHaveTitle(title);
  }
  // The description search engines show is in French too.
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^Rencontre des femmes matures/);
});

test('prerendered pages load without console errors, for visitors and members', async ({ page }) => {
  const errors: string[] = [];
  const notFound = brandUrl('velvet', '/no/such/page');
  page.on('console', (message) => {
    // The 404 page's own status is what it is for; anything else is a fault.
    if (message.location().url === notFound && message.text().includes('status of 404')) return;
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  const pages = ['/', '/pages/faq', '/landers/tinderswipe', '/milf-eng'];
  for (const path of pages) {
    const response = await page.goto(brandUrl('velvet', path));
    // Framing stays forbidden: by the header, the only place a browser reads frame-ancestors.
    expect(response?.headers()['content-security-policy'], path).toContain("frame-ancestors 'none'");
    await confirmEntryWarning(page);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  await page.goto(notFound);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(errors).toEqual([]);
  // A member's header on the same pages runs its own scripts.
  await signUpMember(page, 'velvet', { name: 'Rosalind', country: 'GB' });
  for (const path of pages) {
    await page.goto(brandUrl('velvet', path));
    await expect(page.getByRole('banner').getByRole('link', { name: say('en', 'nav_search') })).toBeVisible();
  }
  await page.goto(brandUrl('velvet', '/'));
  await expect(page.getByRole('banner').getByText('Rosalind')).toBeVisible();
  expect(errors).toEqual([]);
});

test('a member reading velvet in French finds the match finder under its French name', async ({ page }) => {
  await page.context().addCookies([{ name: 'locale', value: 'fr', url: brandUrl('velvet', '/') }]);
  await signUpMember(page, 'velvet', { name: 'Amélie', country: 'FR' });
  await page.goto(brandUrl('velvet', '/match-finder'));
  await expect(page.getByRole('heading', { level: 1, name: 'Recherche de matchs' })).toBeVisible();
  await expect(page).toHaveTitle(/^Recherche de matchs \| Velvet Nights$/);
});

test('spetter, Dutch only, shows no language menu', async ({ page }) => {
  await page.goto(brandUrl('spetter', '/'));
  await confirmEntryWarning(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByLabel(say('nl', 'nav_language'), { exact: true })).toHaveCount(0);
});

test('a logged-out visitor opening a member page lands on the login page', async ({ page }) => {
  await page.goto(brandUrl('spetter', '/chats'));
  await expect(page).toHaveURL(brandUrl('spetter', '/login?next=%2Fchats'));
  await confirmEntryWarning(page);
  await expect(page.getByRole('heading', { name: say('nl', 'login_title', { brand: 'Spetter' }) })).toBeVisible();
  await expect(page.getByLabel(say('nl', 'login_email'), { exact: true })).toBeVisible();
  await expect(page.getByLabel(say('nl', 'login_password'), { exact: true })).toBeVisible();
});

test('velvet lets logged-out visitors search members; spetter sends them to login', async ({ page }) => {
  await page.goto(brandUrl('velvet', '/members'));
  await expect(page).toHaveURL(brandUrl('velvet', '/members'));
  await page.goto(brandUrl('spetter', '/members'));
  await expect(page).toHaveURL(/\/login\?next=%2Fmembers$/);
});
