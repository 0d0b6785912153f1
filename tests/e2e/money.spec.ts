import { test, expect, brandUrl, confirmEntryWarning, signUpMember, callApi } from '../support/e2e.ts';
import { bundlePrice, savingPercent } from '../../src/lib/bundle-price.ts';
import { TIME_BONUS } from '../../src/lib/discounts.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Money on the screen (SPEC §2 credit packages, §3 payment country, §4 payment order): every price
 * a member sees before paying is the one the checkout charges, in the member's currency; a
 * checkout left unpaid does not lock the discount code.
 */

/** velvet's bundles as its tenant file sets them. */
type Bundle = { id: string; credits: number; price: number; currency: string; prices?: Record<string, number> };
const velvetFile = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'tenants', 'velvet', 'tenant.json'), 'utf8')) as { packages: Bundle[] };
const bundles = Object.fromEntries(velvetFile.packages.map((p) => [p.id, p])) as Record<'taste' | 'evening' | 'weekend', Bundle>;

test('a member in the United Kingdom sees pounds on velvet, each badge the saving of the prices beside it, and pays exactly what the button said', async ({ page }) => {
  await signUpMember(page, 'velvet', { name: 'Harriet', country: 'GB' });
  // The saving each badge must state, reckoned from the brand's prices by the rule the page uses.
  const list = (id: keyof typeof bundles) => ({ credits: bundles[id].credits, list: bundlePrice(bundles[id], { country: 'GB', method: 'visa' })!.list });
  const code = { code: TIME_BONUS.code, percentage: TIME_BONUS.percentage, value: null, currency: null, minimum_order_value: 0, country: null, user_id: null, expires: null, status: 'active' as const, validity: null, expired: false, paymentmethods: null, kind: 'time_bonus' as const };
  const evening = bundlePrice(bundles.evening, { country: 'GB', method: 'visa' }, code)!;
  expect(evening).toMatchObject({ currency: 'GBP', list: 2599, amount: 1949 });

  await page.goto(brandUrl('velvet', '/credits'));
  await confirmEntryWarning(page);
  const card = page.locator('[data-package="evening"]');
  // The new member's time bonus is on: £25.99 less 25%, and the per-credit price after it.
  await expect(card).toContainText('£25.99');
  await expect(card.locator('[data-discounted]')).toHaveText('£19.49');
  await expect(card.locator('[data-per-credit]')).toHaveText('£0.16 per credit');
  await expect(page.locator('[data-buy-credits] fieldset').first()).not.toContainText('€');
  await expect(page.locator('[data-pay]')).toHaveText('Pay £19.49');
  // The badges state what a credit saves against the smallest bundle, in pounds.
  for (const id of ['evening', 'weekend'] as const) {
    const saving = savingPercent(list(id), list('taste'));
    await expect(page.locator(`[data-package="${id}"] [data-saving]`)).toHaveText(`${saving}% off`);
  }
  await expect(page.locator('[data-package="evening"] [data-saving]')).toHaveText('21% off');
  await expect(page.locator('[data-package="weekend"] [data-saving]')).toHaveText('37% off');

  if (process.env.MONEY_SCREENSHOTS) {
    await page.screenshot({ path: `${process.env.MONEY_SCREENSHOTS}/credits-velvet-gb-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: `${process.env.MONEY_SCREENSHOTS}/credits-velvet-gb-375.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  // The checkout charges what the button showed, and the invoice says it.
  await page.locator('[data-method="visa"]').click();
  await expect(page.locator('[data-pay]')).toHaveText('Pay £19.49');
  await page.locator('[data-pay]').click();
  await expect(page.getByRole('heading', { name: /Test payment/i })).toBeVisible();
  await expect(page.locator('.amount')).toHaveText('£19.49');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.locator('[data-payment="paid"]')).toContainText('120 credits');
  await page.locator('[data-payment="paid"]').getByRole('link', { name: 'Invoice' }).click();
  await expect(page.locator('[data-invoice] [data-total]')).toContainText('£19.49');

  // The pricing page: the same pounds, the per-credit price and the saving.
  await page.goto(brandUrl('velvet', '/pricing'));
  const priced = page.locator('li[data-package="evening"]');
  await expect(priced).toContainText('£25.99');
  await expect(priced).toContainText('£0.22 per credit');
  await expect(priced.locator('[data-saving]')).toHaveText('21% off');
  await expect(page.locator('li[data-package="weekend"] [data-saving]')).toHaveText('37% off');
  // The premium sentence once.
  await expect(page.getByText(/premium member/)).toHaveCount(1);
});

test('back from a checkout left unpaid, the member pays with the time bonus at once', async ({ page }) => {
  await signUpMember(page, 'spetter', { name: 'Terug', gender: 'male' });
  await page.goto(brandUrl('spetter', '/credits'));
  await confirmEntryWarning(page);
  await page.locator('[data-package="starter"]').click();
  await page.locator('[data-method="ideal"]').click();
  await expect(page.locator('[data-pay]')).toHaveText(/Betaal €\s?11,24/);
  await page.locator('[data-pay]').click();
  await expect(page.getByRole('heading', { name: 'Testbetaling' })).toBeVisible();
  // Back without paying, and paying again with the same code.
  await page.goBack();
  await expect(page.locator('[data-discount="TIMEBONUS25"]')).toBeVisible();
  await page.locator('[data-package="starter"]').click();
  await expect(page.locator('[data-pay]')).toHaveText(/Betaal €\s?11,24/);
  await page.locator('[data-pay]').click();
  await expect(page.getByRole('heading', { name: 'Testbetaling' })).toBeVisible();
  await expect(page.locator('.amount')).toHaveText(/€\s?11,24/);
  await page.getByRole('button', { name: 'Betalen', exact: true }).click();
  await expect(page.locator('[data-payment="paid"]')).toContainText('50 credits zijn toegevoegd');
  // Used once now.
  expect((await callApi(page, 'spetter', 'GET', '/api/discountcode.php?code=TIMEBONUS25')).json.error.message).toBe('Code reeds gebruikt');
});
