import { test, expect, brandUrl, confirmEntryWarning, signUpMember, callApi } from '../support/e2e.ts';
import { smsCodeTo } from '../support/mail.ts';

/**
 * Direct debit and the repeat order as a member does them (SPEC §5 direct debit, §1 repeat
 * orders, §2 saved-card page): the SMS code comes from the runtime's SMS outbox.
 */

test('a bundle by direct debit: the form, a wrong SMS code, then the right one; the credits arrive', async ({ page }) => {
  await signUpMember(page, 'spetter', { name: 'Incasso', gender: 'male' });
  const before = (await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user;
  // A unique number per run: the code is read from the outbox by number.
  const local = `61${String(Date.now()).slice(-7)}`;
  await page.goto(brandUrl('spetter', '/credits'));
  await confirmEntryWarning(page);
  await page.locator('[data-discount="TIMEBONUS25"]').getByRole('button', { name: 'Code verwijderen' }).click();
  await page.locator('[data-package="starter"]').click();
  await page.locator('[data-method="sdd"]').click();
  await page.locator('[data-pay]').click();
  await expect(page).toHaveURL(/\/directdebit\?package=starter$/);
  await expect(page.getByRole('heading', { name: 'Automatische incasso' })).toBeVisible();

  const form = page.locator('[data-directdebit-form]');
  await form.getByLabel('Rekeninghouder').fill('Jan de Vries');
  await form.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 01');
  await form.getByLabel('Straat').fill('Keizersgracht');
  await form.getByLabel('Huisnummer').fill('12');
  await form.getByLabel('Postcode').fill('1015 CX');
  await form.getByLabel('Woonplaats').fill('Amsterdam');
  await form.getByLabel('Mobiel nummer').fill(`0${local}`);
  await form.getByRole('button', { name: 'Stuur mij de sms-code' }).click();
  await expect(form.getByText('Ongeldig IBAN, controleer het rekeningnummer')).toBeVisible();
  await form.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 00');
  await form.getByRole('button', { name: 'Stuur mij de sms-code' }).click();
  await expect(form.getByText('Geef toestemming voor de automatische incasso')).toBeVisible();
  await form.getByRole('checkbox').check();
  await form.getByRole('button', { name: 'Stuur mij de sms-code' }).click();

  const codeForm = page.locator('[data-directdebit-code]');
  await expect(codeForm).toContainText(`${local.slice(-4)}`);
  await expect(codeForm).toContainText(/14,99/);
  const code = smsCodeTo(`+31${local}`)!;
  expect(code).toMatch(/^\d{6}$/);
  await codeForm.getByLabel('Sms-code').fill(code === '000000' ? '111111' : '000000');
  await codeForm.getByRole('button', { name: 'Bevestigen en betalen' }).click();
  await expect(codeForm.getByText('Code ongeldig')).toBeVisible();
  await expect(codeForm.getByText('Nog 4 pogingen')).toBeVisible();
  await codeForm.getByLabel('Sms-code').fill(code);
  await codeForm.getByRole('button', { name: 'Bevestigen en betalen' }).click();
  await expect(page).toHaveURL(/\/credits\/starter\/sdd\?payment=\d+$/);
  await expect(page.locator('[data-payment="paid"]')).toContainText('50 credits zijn toegevoegd');
  expect((await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user).toMatchObject({ credits: before.credits + 50, paid_user: true });

  // The next time the form starts from these details.
  await page.goto(brandUrl('spetter', '/directdebit?package=starter'));
  await expect(page.locator('[data-directdebit-form]').getByLabel('IBAN')).toHaveValue('NL91ABNA0417164300');
});

test('a repeat order on the saved card of a card purchase, in one step; the card can be removed', async ({ page }) => {
  await signUpMember(page, 'spetter', { name: 'Herhaal', gender: 'male' });
  await page.goto(brandUrl('spetter', '/credits/repeat-order'));
  await confirmEntryWarning(page);
  await expect(page.getByText('Je hebt nog geen credits gekocht.')).toBeVisible();

  await page.goto(brandUrl('spetter', '/credits'));
  // Click once the islands are interactive (Astro drops `ssr` when hydrated): a click before is lost.
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0);
  await page.locator('[data-package="popular"]').click();
  await page.locator('[data-method="visa"]').click();
  await page.locator('[data-pay]').click();
  await page.getByRole('button', { name: 'Betalen', exact: true }).click();
  await expect(page.locator('[data-payment="paid"]')).toContainText('125 credits zijn toegevoegd');
  const before = (await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user.credits;

  await page.goto(brandUrl('spetter', '/credits'));
  await page.locator('[data-repeat-link]').click();
  await expect(page).toHaveURL(brandUrl('spetter', '/credits/repeat-order'));
  await expect(page.locator('[data-card-label]')).toHaveText(/^Visa •••• 4242, 12\/\d{4}$/);
  await page.locator('[data-repeat]').click();
  await expect(page).toHaveURL(/\/credits\/popular\/visa\?payment=\d+$/);
  await expect(page.locator('[data-payment="paid"]')).toContainText('125 credits zijn toegevoegd');
  expect((await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user.credits).toBe(before + 125);

  await page.goto(brandUrl('spetter', '/credits/repeat-order'));
  await page.getByRole('button', { name: 'Kaart verwijderen' }).click();
  await expect(page.getByText('Je kaart is verwijderd.')).toBeVisible();
  await expect(page.locator('[data-saved-card="no"]')).toBeVisible();
  await expect(page.locator('[data-repeat]')).toHaveText(/Nogmaals kopen voor/);
});
