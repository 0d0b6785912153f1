import { test, expect, brandUrl, confirmEntryWarning, signUpMember, callApi, withDatabase } from '../support/e2e.ts';
import { spend } from '../../src/server/ledger.ts';

/**
 * Discounts as a member meets them (SPEC §4 welcome time bonus and time-bonus modal, §5 discount
 * codes): the browser's clock is Playwright's, moved by the test, never waited for.
 */

/** Spends a new member's signup credits: the modal is for members with 0 credits. */
async function spendAll(page: import('@playwright/test').Page) {
  const user = (await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user;
  await withDatabase((db) => spend(db, { userId: user.id, credits: user.credits, reason: 'message', ref: `e2e-spend-${user.id}` }));
}

test('the time bonus counts down on the members pages, offers itself once in a modal after 40 s at 0 credits, and takes 25% off the first bundle', async ({ page }) => {
  await page.clock.install();
  await signUpMember(page, 'spetter', { name: 'Bonus', gender: 'male' });
  await spendAll(page);
  await page.goto(brandUrl('spetter', '/members'));
  await confirmEntryWarning(page);

  const banner = page.locator('[data-time-bonus]');
  await expect(banner).toContainText('Je 25% welkomstbonus verloopt over');
  const countdown = banner.locator('[data-countdown]');
  await expect(countdown).toHaveText(/^03:59:[0-5]\d$/);
  const first = await countdown.textContent();
  await page.clock.fastForward(61_000);
  await expect(countdown).toHaveText(/^03:5[78]:[0-5]\d$/);
  expect(await countdown.textContent()).not.toBe(first);

  // 40 s after entering the members area (already passed above): the modal, once.
  const modal = page.locator('[data-time-bonus-modal]');
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('heading', { name: '25% welkomstbonus' })).toBeVisible();
  await modal.getByRole('button', { name: 'Nee, bedankt' }).click();
  await expect(modal).toBeHidden();
  await page.reload();
  await page.clock.fastForward(45_000);
  await expect(page.locator('[data-time-bonus] [data-countdown]')).toBeVisible();
  await expect(page.locator('[data-time-bonus-modal]')).toBeHidden();

  // The banner leads to the credits with TIMEBONUS25 active: 25% off, counting down.
  await page.locator('[data-time-bonus] a').click();
  await expect(page).toHaveURL(/\/credits\?code=TIMEBONUS25$/);
  const active = page.locator('[data-discount="TIMEBONUS25"]');
  await expect(active).toContainText('TIMEBONUS25: 25% korting');
  await expect(active.locator('[data-countdown]')).toHaveText(/^Nog 03:5\d:[0-5]\d$/);
  await page.locator('[data-package="popular"]').click();
  await expect(page.locator('[data-package="popular"] [data-discounted]')).toHaveText(/22,49/);
  await expect(page.locator('[data-pay]')).toHaveText(/Betaal €\s?22,49/);
  await page.locator('[data-method="ideal"]').click();
  await page.locator('[data-pay]').click();
  await expect(page.getByRole('heading', { name: 'Testbetaling' })).toBeVisible();
  await expect(page.locator('.amount')).toHaveText(/€\s?22,49/);
  await page.getByRole('button', { name: 'Betalen', exact: true }).click();
  await expect(page.locator('[data-payment="paid"]')).toContainText('125 credits zijn toegevoegd');
  const user = (await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user;
  expect(user).toMatchObject({ credits: 125, paid_user: true });
  // Paid: no time bonus any more.
  await page.goto(brandUrl('spetter', '/members'));
  await expect(page.getByRole('navigation', { name: 'Hoofdmenu' })).toBeVisible();
  await expect(page.locator('[data-time-bonus]')).toHaveCount(0);
});

test('the time bonus is gone at zero', async ({ page }) => {
  await page.clock.install();
  await signUpMember(page, 'spetter', { name: 'Laat', gender: 'male' });
  await page.goto(brandUrl('spetter', '/members'));
  await confirmEntryWarning(page);
  await expect(page.locator('[data-time-bonus] [data-countdown]')).toHaveText(/^03:59:[0-5]\d$/);
  await page.clock.fastForward('03:59:00');
  await expect(page.locator('[data-time-bonus] [data-countdown]')).toHaveText(/^00:00:[0-5]\d$/);
  await page.clock.fastForward(60_000);
  await expect(page.locator('[data-time-bonus]')).toHaveCount(0);
});

test('a typed discount code: unknown is refused, a real one lowers the price; a cancelled payment is retried with the code kept', async ({ page }) => {
  const code = `HERFST${Date.now().toString(36).toUpperCase()}`;
  await withDatabase((db) => db.insertInto('discount_codes').values({ tenant_id: 'spetter', code, percentage: 10 }).execute());
  await signUpMember(page, 'spetter', { name: 'Korting', gender: 'male' });
  const before = (await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user;
  await page.goto(brandUrl('spetter', '/credits'));
  await confirmEntryWarning(page);

  // A new member starts with the time bonus; the member chooses another code.
  await page.locator('[data-discount="TIMEBONUS25"]').getByRole('button', { name: 'Code verwijderen' }).click();
  const form = page.locator('[data-discount-form]');
  await form.getByText('Kortingscode').first().click();
  await form.getByRole('textbox', { name: 'Kortingscode' }).fill('NEPCODE');
  await form.getByRole('button', { name: 'Toepassen' }).click();
  await expect(form.getByRole('alert')).toHaveText('Code niet gevonden');
  await form.getByRole('textbox', { name: 'Kortingscode' }).fill(code.toLowerCase());
  await form.getByRole('button', { name: 'Toepassen' }).click();
  await expect(page.locator(`[data-discount="${code}"]`)).toContainText(`${code}: 10% korting`);

  await page.locator('[data-package="starter"]').click();
  await expect(page.locator('[data-pay]')).toHaveText(/Betaal €\s?13,49/);
  await page.locator('[data-pay]').click();
  await page.getByRole('button', { name: 'Annuleren' }).click();
  // Headed as what happened: cancelled, not failed; SPEC's sentence beneath it.
  await expect(page.locator('[data-payment="canceled"]').getByRole('heading')).toHaveText('Betaling geannuleerd');
  await expect(page.locator('[data-payment="canceled"]')).toContainText('De betaling is mislukt of geannuleeerd.');
  await page.getByRole('link', { name: 'Probeer een andere betaalmethode' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', `/credits/starter?code=${code}`));
  await expect(page.locator(`[data-discount="${code}"]`)).toBeVisible();
  await page.locator('[data-method="creditcard"]').click();
  await page.locator('[data-pay]').click();
  await expect(page.getByRole('heading', { name: 'Testbetaling' })).toBeVisible();
  await expect(page.locator('.amount')).toHaveText(/€\s?13,49/);
  await page.getByRole('button', { name: 'Betalen', exact: true }).click();
  await expect(page.locator('[data-payment="paid"]')).toContainText('50 credits zijn toegevoegd');
  expect((await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user.credits).toBe(before.credits + 50);
  // Used once: the code is refused now.
  expect((await callApi(page, 'spetter', 'GET', `/api/discountcode.php?code=${code}`)).json.error.message).toBe('Code reeds gebruikt');
});
