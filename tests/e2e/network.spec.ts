import { test, expect, brandUrl, callApi, confirmEntryWarning, signUpMember } from '../support/e2e.ts';

/**
 * Browser tests of the member network (issue 24): spetter shares the pool benelux with Rijpe
 * Dates; velvet is alone. What a member and a visitor of spetter are told, and the setting.
 */

test('a member of spetter finds the setting that names Rijpe Dates and chooses to be shown on Spetter only', async ({ page }) => {
  await signUpMember(page, 'spetter', { name: 'Noor' });
  await page.goto(brandUrl('spetter', '/profile#account'));
  await confirmEntryWarning(page);
  const account = page.locator('#account');
  const own = account.getByRole('switch', { name: 'Alleen op Spetter tonen' });
  await expect(own).not.toBeChecked();
  await expect(own).toHaveAccessibleDescription('Je profiel wordt ook getoond op Rijpe Dates, de andere sites van ons netwerk. Zet dit aan om alleen op Spetter gevonden te worden.');
  await own.check();
  await expect(account.getByText('Opgeslagen.')).toBeVisible();
  // The choice is the member's, kept on the server.
  expect((await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user.own_brand_only).toBe(true);
  await page.reload();
  await expect(page.locator('#account').getByRole('switch', { name: 'Alleen op Spetter tonen' })).toBeChecked();
});

test('a member of a brand alone is offered no such setting', async ({ page }) => {
  await signUpMember(page, 'velvet', { name: 'Olive', country: 'GB' });
  await page.goto(brandUrl('velvet', '/profile#account'));
  await confirmEntryWarning(page);
  await expect(page.locator('#account').getByRole('switch', { name: 'Invisible mode' })).toBeVisible();
  await expect(page.locator('#account').getByRole('switch')).toHaveCount(1);
});

test("the privacy page names the pool's other brand", async ({ page }) => {
  await page.goto(brandUrl('spetter', '/pages/privacy'));
  await confirmEntryWarning(page);
  await expect(page.getByText('Je profiel wordt ook getoond op de andere sites van ons netwerk: Rijpe Dates. In je instellingen kun je kiezen om alleen op Spetter getoond te worden.')).toBeVisible();
  await page.goto(brandUrl('rijpedates', '/pages/privacy'));
  await confirmEntryWarning(page);
  await expect(page.getByText('Je profiel wordt ook getoond op de andere sites van ons netwerk: Spetter. In je instellingen kun je kiezen om alleen op Rijpe Dates getoond te worden.')).toBeVisible();
});
