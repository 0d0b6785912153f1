import { test, expect, brandUrl, confirmEntryWarning, signUpMember } from '../support/e2e.ts';

/** The transactions page and a purchase's invoice, as a member finds them after buying (SPEC §2). */
test('after a purchase the member finds it on /transactions and opens its invoice with the company and the amount', async ({ page }) => {
  await signUpMember(page, 'spetter', { name: 'Factuur', gender: 'male' });
  await page.goto(brandUrl('spetter', '/credits'));
  await confirmEntryWarning(page);
  await page.locator('[data-package="value"]').click();
  await page.locator('[data-method="ideal"]').click();
  await page.locator('[data-pay]').click();
  await page.getByRole('button', { name: 'Betalen', exact: true }).click();
  await expect(page.locator('[data-payment="paid"]')).toContainText('300 credits zijn toegevoegd');

  await page.goto(brandUrl('spetter', '/credits'));
  await page.getByRole('link', { name: 'Je transacties en facturen' }).click();
  await expect(page.getByRole('heading', { name: 'Transacties' })).toBeVisible();
  const purchase = page.locator('[data-transactions] [data-reason="purchase"]');
  await expect(purchase).toContainText('300 credits gekocht');
  await expect(purchase).toContainText(/44,99/);
  await expect(purchase.locator('[data-credits]')).toHaveText('+300');
  await expect(page.locator('[data-transactions] [data-reason="signup"]')).toContainText('Welkomstcredits');

  await purchase.getByRole('link', { name: /^Factuur \d{4}-\d{6}$/ }).click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);
  const invoice = page.locator('[data-invoice]');
  await expect(invoice).toContainText('Spetter Media B.V.');
  await expect(invoice).toContainText('NL862345678B01');
  await expect(invoice).toContainText('Korting (TIMEBONUS25)');
  await expect(invoice.locator('[data-total]')).toHaveText(/44,99/);
  await expect(invoice).toContainText('Btw 21%');
  await expect(page.getByRole('button', { name: 'Afdrukken' })).toBeVisible();
  // Another id is the brand's 404.
  const missing = await page.goto(brandUrl('spetter', '/transactions/999999'));
  expect(missing?.status()).toBe(404);
});
