/**
 * A logged-in member on the pages every visitor shares (prerendered: the home, landers, static
 * pages, the 404 page): the member's header from the first paint, filled in with the member, and
 * the language choice that keeps the member where they were.
 */
import { test, expect, brandUrl, confirmEntryWarning, signUpMember } from '../support/e2e.ts';

test('a logged-in member sees the member header on the home page, static pages and the 404 page', async ({ page }) => {
  await signUpMember(page, 'spetter', { name: 'Mirjam' });
  for (const path of ['/', '/pages/faq', '/no/such/page']) {
    await page.goto(brandUrl('spetter', path));
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Berichten' }), path).toBeVisible();
    await expect(header.getByRole('link', { name: 'Likes' }), path).toBeVisible();
    await expect(header.getByRole('link', { name: 'Word premium' }), path).toBeVisible();
    await expect(header.getByText('Mirjam'), path).toBeVisible();
    // The logo leads a member to the members search, as on every member page.
    await expect(header.getByRole('link', { name: 'Naar de startpagina van Spetter' }), path).toHaveAttribute('href', '/members');
    await expect(page.getByRole('link', { name: 'Inloggen' }), path).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Gratis aanmelden' }), path).toHaveCount(0);
  }

  // The home sends the member on to the search instead of the signup.
  await page.goto(brandUrl('spetter', '/'));
  await page.getByRole('main').getByRole('link', { name: 'Leden zoeken' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', '/members'));

  // The account menu works as on the member pages.
  await page.goto(brandUrl('spetter', '/pages/faq'));
  await page.getByRole('banner').getByLabel('Account').click();
  await page.getByRole('link', { name: 'Mijn profiel' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', '/profile'));
});

test('a logged-in member on a lander is offered the members search, not the login or signup', async ({ page }) => {
  await signUpMember(page, 'spetter', { name: 'Lotte' });
  await page.goto(brandUrl('spetter', '/landers/tinderswipe'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Leden zoeken' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Inloggen' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Gratis aanmelden' })).toHaveCount(0);
  await page.getByRole('main').getByRole('link', { name: 'Leden zoeken' }).first().click();
  await expect(page).toHaveURL(brandUrl('spetter', '/members'));
});

test('the member header is there from the first paint, before the member is loaded', async ({ page }) => {
  await signUpMember(page, 'velvet', { name: 'Harriet', country: 'GB' });
  // Did <html> say "member" by the time the header was parsed, before anything could be painted?
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('header')) return;
      (window as unknown as { memberAtHeader: boolean }).memberAtHeader = document.documentElement.classList.contains('signed-in');
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  // The member's data is held back: what shows meanwhile comes from the page alone.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/user.php', async (route) => {
    await held;
    await route.continue();
  });

  await page.goto(brandUrl('velvet', '/'));
  expect(await page.evaluate(() => (window as unknown as { memberAtHeader?: boolean }).memberAtHeader)).toBe(true);
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Messages' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log in' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Sign up for free' })).toHaveCount(0);
  await expect(header.getByText('Harriet')).toHaveCount(0);

  release();
  await expect(header.getByText('Harriet')).toBeVisible();
  await expect(header.getByRole('link', { name: 'Go premium' })).toBeVisible();
});

test('a browser that only thinks it is logged in gets the visitor header back', async ({ page, context }) => {
  // A signed_in cookie left over without a session (expired, or ended on another device).
  await context.addCookies([{ name: 'signed_in', value: '1', url: brandUrl('spetter', '/') }]);
  await page.goto(brandUrl('spetter', '/pages/faq'));
  await expect(page.getByRole('banner').getByRole('link', { name: 'Inloggen' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Berichten' })).toHaveCount(0);
  expect((await context.cookies(brandUrl('spetter', '/'))).find((c) => c.name === 'signed_in')).toBeUndefined();
  // The next page shows the visitor's header straight away.
  await page.goto(brandUrl('spetter', '/'));
  await confirmEntryWarning(page);
  await expect(page.getByRole('main').getByRole('link', { name: 'Gratis aanmelden' }).first()).toBeVisible();
});

test('a member switches language in the footer of a static page and stays there, still logged in', async ({ page }) => {
  await signUpMember(page, 'velvet', { name: 'Greta', country: 'DE' });
  await page.goto(brandUrl('velvet', '/pages/faq?from=help'));
  await expect(page.getByRole('banner').getByText('Greta')).toBeVisible();
  // A member's language menu is in the footer, at every width.
  await page.getByRole('contentinfo').getByRole('combobox', { name: 'Language' }).selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page).toHaveURL(brandUrl('velvet', '/pages/faq?from=help'));
  await expect(page.getByRole('banner').getByRole('link', { name: 'Nachrichten' })).toBeVisible();
  await expect(page.getByRole('banner').getByText('Greta')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Einloggen' })).toHaveCount(0);
});

test('saving a language on the language page takes a member to the members search in that language', async ({ page }) => {
  await signUpMember(page, 'velvet', { name: 'Agnes', country: 'DE' });
  await page.goto(brandUrl('velvet', '/lang-config'));
  await page.getByRole('radio', { name: 'Deutsch' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(brandUrl('velvet', '/members'));
  await expect(page.getByRole('heading', { level: 1, name: 'Mitglieder suchen' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Nachrichten' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Einloggen' })).toHaveCount(0);
  // The home page, prerendered, shows the member header in German too.
  await page.goto(brandUrl('velvet', '/'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('banner').getByText('Agnes')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Einloggen' })).toHaveCount(0);
});
