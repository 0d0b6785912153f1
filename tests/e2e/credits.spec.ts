import { test, expect, brandUrl, confirmEntryWarning, signUpMember, callApi } from '../support/e2e.ts';

/**
 * Buying credits with the built-in test provider (SPEC §4 payment order): completed, failed then
 * retried with another method, pending then completed, as a member does it in the browser.
 */

test('a member buys a bundle at the test checkout: the credits arrive and the member is premium; a failed payment is retried with another method', async ({ page }) => {
  await signUpMember(page, 'spetter', { name: 'Koper', gender: 'male' });
  const before = (await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user;
  expect(before.paid_user).toBe(false);
  await page.goto(brandUrl('spetter', '/credits'));
  await confirmEntryWarning(page);

  // A failure first.
  await page.locator('[data-package="starter"]').click();
  await page.locator('[data-method="ideal"]').click();
  await page.locator('[data-pay]').click();
  await expect(page.getByRole('heading', { name: 'Testbetaling' })).toBeVisible();
  await page.getByRole('button', { name: 'Laten mislukken' }).click();
  await expect(page).toHaveURL(/\/credits\/starter\/ideal\?payment=\d+$/);
  await expect(page.locator('[data-payment="failed"]')).toContainText('Betaling mislukt');
  await expect(page.locator('[data-payment="failed"]')).toContainText('De betaling is mislukt of geannuleeerd.');
  expect((await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user.credits).toBe(before.credits);

  // Retried through another method, pending, then paid: the page turns by itself.
  await page.getByRole('link', { name: 'Probeer een andere betaalmethode' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', '/credits/starter?code=TIMEBONUS25'));
  await page.locator('[data-method="creditcard"]').click();
  await page.locator('[data-pay]').click();
  await page.getByRole('button', { name: /In behandeling/ }).click();
  await expect(page.locator('[data-payment="pending"]')).toContainText('Je betaling wordt verwerkt');
  await expect(page.locator('[data-payment="paid"]')).toContainText('50 credits zijn toegevoegd', { timeout: 20_000 });
  await expect(page.locator('[data-balance]')).toContainText(String(before.credits + 50));
  const after = (await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user;
  expect(after).toMatchObject({ credits: before.credits + 50, paid_user: true });
  // Premium now: the top bar shows credits instead of get-premium.
  await page.goto(brandUrl('spetter', '/members'));
  await expect(page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link', { name: /Credits/ })).toBeVisible();
});
