import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { test, expect, brandUrl, confirmEntryWarning } from '../support/e2e.ts';
import { linkIn, mailTo } from '../support/mail.ts';

/**
 * One member's whole account life on the Dutch brand, in one browser, as issue 4 walks it:
 * signup → activation mail → login → profile edit → photo upload → logout → password reset →
 * delete and reactivate.
 */

/** Opens a page and waits until its islands are interactive (Astro drops `ssr` when hydrated); those that load when scrolled into view (client:visible) count once they are in view. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(brandUrl('spetter', path));
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0);
}

async function logInWith(page: Page, email: string, password: string): Promise<void> {
  await open(page, '/login');
  // The first page in the default layout asks a logged-out visitor's age once (SPEC §2).
  await confirmEntryWarning(page);
  await page.getByRole('textbox', { name: 'E-mailadres' }).fill(email);
  await page.getByLabel('Wachtwoord', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole('banner').getByLabel('Account').click();
  await page.getByRole('link', { name: 'Uitloggen' }).click();
  await expect(page).toHaveURL(brandUrl('spetter', '/'));
}

test('a member signs up, activates, edits the profile, uploads a photo, resets the password, deletes and reactivates', async ({ page }) => {
  test.setTimeout(120_000);
  const email = `journey-${Date.now()}@example.com`;
  const first = 'lente-in-utrecht';
  const second = 'herfst-in-haarlem';

  // Signup in the modal, every step.
  await open(page, '/signup');
  await confirmEntryWarning(page);
  const modal = page.getByRole('dialog');
  await modal.getByRole('radio', { name: 'Vrouw' }).check();
  await modal.getByRole('radio', { name: 'Bi', exact: true }).check();
  await modal.getByRole('button', { name: 'Volgende' }).click();
  await modal.getByRole('combobox', { name: 'Dag' }).selectOption('2');
  await modal.getByRole('combobox', { name: 'Maand' }).selectOption({ label: 'juni' });
  await modal.getByRole('combobox', { name: 'Jaar' }).selectOption('1988');
  await modal.getByRole('button', { name: 'Volgende' }).click();
  await modal.getByRole('combobox', { name: 'Land' }).selectOption({ label: 'Nederland' });
  await modal.getByRole('combobox', { name: 'Provincie' }).selectOption({ label: 'Utrecht' });
  await modal.getByRole('button', { name: 'Volgende' }).click();
  await modal.getByRole('textbox', { name: 'E-mailadres' }).fill(email);
  await modal.getByLabel('Wachtwoord', { exact: true }).fill(first);
  await modal.getByRole('button', { name: 'Volgende' }).click();
  await modal.getByRole('textbox', { name: 'Profielnaam' }).fill('Lotte');
  await modal.getByRole('checkbox', { name: /ga akkoord met de algemene voorwaarden/ }).check();
  await modal.getByRole('button', { name: 'Gratis account aanmaken' }).click();
  await expect(modal.getByRole('heading', { name: 'Welkom, Lotte!' })).toBeVisible();

  // Until the e-mail is confirmed the activate reminder shows (SPEC §2).
  await open(page, '/members');
  await expect(page.getByText('Activeer je account via de link in de e-mail')).toBeVisible();

  // The activation mail's link.
  await expect.poll(() => linkIn(mailTo(email), /\/api\/activate\.php$/), { timeout: 10_000 }).toBeTruthy();
  await page.goto(brandUrl('spetter', linkIn(mailTo(email), /\/api\/activate\.php$/)!));
  await expect(page.getByRole('heading', { name: 'Account geactiveerd' })).toBeVisible();
  await open(page, '/members');
  await expect(page.getByText('Activeer je account via de link in de e-mail')).toHaveCount(0);

  // Log out and in again.
  await logOut(page);
  await logInWith(page, email, first);
  await expect(page).toHaveURL(/\/members$/);

  // Edit the profile.
  await open(page, '/profile#profile');
  const profile = page.locator('#profile');
  await page.getByLabel('Over mij').fill('Fietsen langs de Vecht en daarna een goed glas wijn.');
  await profile.getByRole('button', { name: 'Wijn' }).click();
  await profile.getByRole('button', { name: 'Opslaan' }).click();
  await expect(profile.getByText('Opgeslagen')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Over mij')).toHaveValue('Fietsen langs de Vecht en daarna een goed glas wijn.');
  await expect(page.locator('#profile').getByRole('button', { name: 'Wijn' })).toHaveAttribute('aria-pressed', 'true');

  // Upload a photo: it becomes the main image, shown in the top bar, and the photo alert goes.
  await expect(page.getByText('Je hebt nog geen profielfoto.')).toHaveCount(0); // hidden on /profile (SPEC §2)
  const jpeg = await sharp({ create: { width: 640, height: 800, channels: 3, background: '#b0306a' } }).jpeg().toBuffer();
  await page.getByLabel('Foto toevoegen').setInputFiles({ name: 'zomer.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await expect(page.locator('#photos').getByRole('img', { name: 'Foto 1' })).toBeVisible();
  await open(page, '/members');
  await expect(page.getByRole('banner').locator('img[src^="/media/"]')).toBeVisible();
  await expect(page.getByText('Je hebt nog geen profielfoto.')).toHaveCount(0);

  // Log out, forget the password, reset it from the mail.
  await logOut(page);
  await open(page, '/reset-password');
  await page.getByRole('textbox', { name: 'E-mailadres' }).fill(email);
  await page.getByRole('button', { name: /versturen|Stuur/i }).click();
  await expect.poll(() => linkIn(mailTo(email), /\/reset-password\/do$/), { timeout: 10_000 }).toBeTruthy();
  await open(page, linkIn(mailTo(email), /\/reset-password\/do$/)!);
  await page.getByLabel('Nieuw wachtwoord', { exact: true }).fill(second);
  await page.getByLabel(/Herhaal/).fill(second);
  await page.getByRole('button', { name: /opslaan|instellen|wijzigen/i }).click();
  await logInWith(page, email, first);
  await expect(page.getByText('Login mislukt, probeer opnieuw')).toBeVisible();
  await logInWith(page, email, second);
  await expect(page).toHaveURL(/\/members$/);

  // Delete the account, then bring it back with the mail's link.
  await open(page, '/profile#delete');
  const del = page.locator('#delete');
  // The deletion form loads when it comes into view (the #delete anchor scrolls to it).
  await del.scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await del.getByRole('radio', { name: 'Ik heb iemand gevonden' }).check();
  await del.getByRole('button', { name: 'Volgende' }).click();
  await del.getByRole('button', { name: 'Toch verwijderen' }).click();
  await del.getByLabel('Wachtwoord', { exact: true }).fill(second);
  await del.getByRole('button', { name: 'Account verwijderen' }).click();
  await expect(page).toHaveURL(/\/account-deleted$/);
  await logInWith(page, email, second);
  await expect(page).toHaveURL(/\/login/);
  await expect.poll(() => linkIn(mailTo(email), /\/account-deleted$/), { timeout: 10_000 }).toBeTruthy();
  await open(page, linkIn(mailTo(email), /\/account-deleted$/)!);
  await page.getByRole('button', { name: 'Mijn account heractiveren' }).click();
  await expect(page).toHaveURL(/\/members/);
  await open(page, '/profile#profile');
  await expect(page.getByLabel('Over mij')).toHaveValue('Fietsen langs de Vecht en daarna een goed glas wijn.');
});
