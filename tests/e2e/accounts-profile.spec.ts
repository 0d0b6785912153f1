import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { test, expect, brandUrl, callApi, confirmEntryWarning } from '../support/e2e.ts';

/** Browser tests of issue 4 on /profile and /notifications, in Dutch on the Spetter demo brand. */

const BRAND = 'spetter';
const PASSWORD = 'geheim-wachtwoord-1';
let counter = 0;

/** Signs a new member up through the API; the session cookie lands in the page's browser context. */
async function signUp(page: Page, name = 'Anna'): Promise<{ email: string }> {
  counter += 1;
  const email = `profiel-${process.pid}-${Date.now().toString(36)}-${counter}@example.nl`;
  const res = await callApi(page, BRAND, 'POST', '/api/signup.php', {
    email, password: PASSWORD, name, date_of_birth: '1990-05-17', gender: 'female', sexuality: 'hetero', country: 'NL', region: 'Noord-Holland', city: 'Amsterdam',
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return { email };
}

async function openProfile(page: Page, hash = ''): Promise<void> {
  await page.goto(brandUrl(BRAND, `/profile${hash}`));
  await confirmEntryWarning(page);
  // The forms appear once the profile is loaded.
  await expect(page.getByLabel('Profielnaam')).toBeVisible();
}

/** The text part of the newest mail of a kind to an address in the runtime's outbox. */
function newestMail(to: string, kind: string): string {
  const dir = process.env.E2E_OUTBOX!;
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml') && f.includes(`-${kind}-`)).sort().reverse() : [];
  for (const file of files) {
    const raw = readFileSync(join(dir, file), 'utf8');
    if (new RegExp(`^To: ${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'mi').test(raw)) return raw;
  }
  throw new Error(`no ${kind} mail to ${to} in ${dir}`);
}

test('a member cannot save a profile name starting with @, and a valid edit stays after a reload', async ({ page }) => {
  await signUp(page);
  await openProfile(page);
  const profile = page.locator('#profile');
  const name = page.getByLabel('Profielnaam');

  await name.fill('@anna');
  await profile.getByRole('button', { name: 'Opslaan' }).click();
  await expect(profile.getByText('Je profielnaam mag niet beginnen met een @')).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription('Je profielnaam mag niet beginnen met een @');

  await name.fill('Annabel');
  await page.getByLabel('Haarkleur').selectOption({ label: 'Rood' });
  await page.getByLabel('Over mij').fill('Spontaan en altijd in voor een goed gesprek.');
  await expect(page.getByText('44 van 2000 tekens')).toBeVisible();
  await profile.getByRole('button', { name: 'Opslaan' }).click();
  await expect(profile.getByText('Je profiel is opgeslagen.')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Profielnaam')).toHaveValue('Annabel');
  await expect(page.getByLabel('Haarkleur')).toHaveValue('red');
  await expect(page.getByLabel('Over mij')).toHaveValue('Spontaan en altijd in voor een goed gesprek.');
});

test('a member toggles interests on and off', async ({ page }) => {
  await signUp(page);
  const coffeeIcon = page.waitForResponse((r) => r.url().endsWith('/icons/tabler/coffee.svg'));
  await openProfile(page);
  const profile = page.locator('#profile');
  const coffee = profile.getByRole('button', { name: 'Koffie' });
  const travel = profile.getByRole('button', { name: 'Reizen' });

  // Each interest shows its icon, drawn from an SVG file: no emoji font is needed.
  await expect(coffee.locator('.icon-mask')).toHaveCSS('mask-image', /\/icons\/tabler\/coffee\.svg/);
  expect((await coffeeIcon).status()).toBe(200);

  await expect(coffee).toHaveAttribute('aria-pressed', 'false');
  await coffee.click();
  await travel.click();
  await expect(coffee).toHaveAttribute('aria-pressed', 'true');
  await profile.getByRole('button', { name: 'Opslaan' }).click();
  await expect(profile.getByText('Je profiel is opgeslagen.')).toBeVisible();

  await page.reload();
  await expect(page.locator('#profile').getByRole('button', { name: 'Koffie' })).toHaveAttribute('aria-pressed', 'true');
  await page.locator('#profile').getByRole('button', { name: 'Koffie' }).click();
  await page.locator('#profile').getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.locator('#profile').getByText('Je profiel is opgeslagen.')).toBeVisible();

  await page.reload();
  await expect(page.locator('#profile').getByRole('button', { name: 'Koffie' })).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator('#profile').getByRole('button', { name: 'Reizen' })).toHaveAttribute('aria-pressed', 'true');
});

test('a member uploads a photo and sees it as the main image', async ({ page }) => {
  await signUp(page);
  await openProfile(page, '#photos');
  const photos = page.locator('#photos');
  await expect(photos.getByText('0 van 3 foto\'s')).toBeVisible();

  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 180, g: 60, b: 120 } } }).jpeg().toBuffer();
  await page.getByLabel('Foto toevoegen').setInputFiles({ name: 'vakantie.jpg', mimeType: 'image/jpeg', buffer: jpeg });

  await expect(photos.getByText('Je foto is toegevoegd.')).toBeVisible();
  await expect(photos.getByText('1 van 3 foto\'s')).toBeVisible();
  await expect(photos.getByRole('img', { name: 'Foto 1' })).toBeVisible();
  await expect(photos.getByText('Hoofdfoto', { exact: true })).toBeVisible();
  const { json } = await callApi(page, BRAND, 'GET', '/api/user.php');
  expect(json.user.profile.main_image).not.toBeNull();

  // A second photo can become the main image; deleting asks first.
  const blue = await sharp({ create: { width: 400, height: 400, channels: 3, background: { r: 40, g: 90, b: 200 } } }).png().toBuffer();
  await page.getByLabel('Foto toevoegen').setInputFiles({ name: 'strand.png', mimeType: 'image/png', buffer: blue });
  await expect(photos.getByText('2 van 3 foto\'s')).toBeVisible();
  const second = await photos.getByRole('img', { name: 'Foto 2' }).getAttribute('src');
  await photos.getByRole('button', { name: 'Maak hoofdfoto: Foto 2' }).click();
  // The main image comes first.
  await expect(photos.getByRole('img', { name: 'Foto 1' })).toHaveAttribute('src', second!);
  await expect(photos.getByRole('button', { name: 'Maak hoofdfoto: Foto 2' })).toBeVisible();
  await photos.getByRole('button', { name: 'Verwijderen: Foto 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Foto verwijderen?' });
  await dialog.getByRole('button', { name: 'Verwijderen' }).click();
  await expect(dialog).toBeHidden();
  await expect(photos.getByText('1 van 3 foto\'s')).toBeVisible();
  await expect(photos.getByRole('img', { name: 'Foto 1' })).toHaveAttribute('src', second!);

  // A file that is no image gets the server's clear message.
  await page.getByLabel('Foto toevoegen').setInputFiles({ name: 'notities.txt', mimeType: 'text/plain', buffer: Buffer.from('geen foto') });
  await expect(photos.getByRole('alert')).toContainText('Dit bestandstype wordt niet ondersteund');
});

test.describe('location settings', () => {
  // Rotterdam; the runtime reverse-geocodes from its offline data set.
  test.use({ geolocation: { latitude: 51.92, longitude: 4.48 }, permissions: ['geolocation'] });

  test('a member fills the location from the browser and saves it', async ({ page }) => {
    await signUp(page);
    await openProfile(page, '#location');
    const location = page.locator('#location');
    await location.getByRole('button', { name: 'Gebruik mijn huidige locatie' }).click();
    await expect(location.getByText(/Gevonden: Rotterdam, Zuid-Holland/)).toBeVisible();
    await expect(location.getByLabel('Provincie')).toHaveValue('ZH');
    await location.getByRole('button', { name: 'Opslaan' }).click();
    await expect(location.getByText('Je locatie is opgeslagen.')).toBeVisible();

    await page.reload();
    await expect(page.locator('#location').getByLabel('Woonplaats')).toHaveValue('Rotterdam');
    await expect(page.locator('#location').getByLabel('Provincie')).toHaveValue('ZH');
  });
});

test('without permission to locate, the member is told how to choose a place', async ({ page }) => {
  await signUp(page);
  await openProfile(page, '#location');
  await page.locator('#location').getByRole('button', { name: 'Gebruik mijn huidige locatie' }).click();
  await expect(page.locator('#location').getByText(/geeft geen toestemming om je locatie te gebruiken/)).toBeVisible();
});

test('changing the password with two different new passwords is refused', async ({ page }) => {
  await signUp(page);
  await openProfile(page, '#account');
  const account = page.locator('#account');

  await account.getByLabel('Oud wachtwoord').fill(PASSWORD);
  await account.getByLabel('Nieuw wachtwoord', { exact: true }).fill('een-nieuw-wachtwoord');
  await account.getByLabel('Herhaal nieuw wachtwoord').fill('een-ander-wachtwoord');
  await account.getByRole('button', { name: 'Wachtwoord wijzigen' }).click();
  await expect(account.getByText('De opgegeven wachtwoorden zijn niet gelijk.')).toBeVisible();

  await account.getByLabel('Oud wachtwoord').fill('niet-mijn-wachtwoord');
  await account.getByLabel('Herhaal nieuw wachtwoord').fill('een-nieuw-wachtwoord');
  await account.getByRole('button', { name: 'Wachtwoord wijzigen' }).click();
  await expect(account.getByText('Controleer je oude wachtwoord.')).toBeVisible();
});

test('a member changes the e-mail address with the link from the mail', async ({ page }) => {
  const { email: taken } = await signUp(page, 'Bea');
  await page.context().clearCookies();
  await signUp(page);
  await openProfile(page, '#account');
  const account = page.locator('#account');
  const newEmail = `nieuw-${process.pid}-${Date.now().toString(36)}@example.nl`;

  await account.getByLabel('Nieuw e-mailadres').fill(taken);
  await account.getByLabel('Huidig wachtwoord').fill(PASSWORD);
  await account.getByRole('button', { name: 'E-mailadres wijzigen' }).click();
  await expect(account.getByText('Dit e-mailadres heeft al een account op deze site.')).toBeVisible();

  await account.getByLabel('Nieuw e-mailadres').fill(newEmail);
  await account.getByRole('button', { name: 'E-mailadres wijzigen' }).click();
  await expect(account.getByText(`We hebben een bevestigingslink gestuurd naar ${newEmail}.`)).toBeVisible();

  const link = /https?:\/\/\S*\/mail-change\/do\?token=[^\s"<]+/.exec(newestMail(newEmail, 'mail_change'))?.[0];
  expect(link).toBeTruthy();
  await page.goto(link!);
  // Click once the island is interactive (Astro drops `ssr` when hydrated).
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Bevestig je nieuwe e-mailadres' }).click();
  await expect(page.getByText('Je nieuwe e-mailadres is bevestigd.')).toBeVisible();
  await page.getByRole('link', { name: 'Naar mijn profiel' }).click();
  await expect(page.locator('#account').getByText(`Je huidige e-mailadres is ${newEmail}.`)).toBeVisible();
});

test('a notification switch stays as the member left it', async ({ page }) => {
  await signUp(page);
  await page.goto(brandUrl(BRAND, '/notifications'));
  await confirmEntryWarning(page);
  const promotions = page.getByRole('switch', { name: 'Aanbiedingen' });
  await expect(promotions).toBeChecked();
  await promotions.uncheck();
  await expect(page.getByText('Je voorkeuren zijn opgeslagen.')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Aanbiedingen' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Nieuwe berichten' })).toBeChecked();
});

test('a member deletes the account and the link in the mail brings it back', async ({ page }) => {
  const { email } = await signUp(page);
  await openProfile(page, '#delete');
  const del = page.locator('#delete');

  await del.getByRole('radio', { name: 'Het is te duur' }).check();
  await del.getByRole('button', { name: 'Volgende' }).click();
  // The retention offer: the company's delete_discount (50% for Spetter).
  await expect(del.getByText('50% korting op je volgende aankoop')).toBeVisible();
  await del.getByRole('button', { name: 'Toch verwijderen' }).click();

  // A wrong password: the catalogue's password_wrong, on the password field, not the password change's text.
  const password = del.getByLabel('Wachtwoord', { exact: true });
  await password.fill('niet-mijn-wachtwoord');
  await del.getByRole('button', { name: 'Account verwijderen' }).click();
  await expect(del.getByText('Dit wachtwoord klopt niet.')).toBeVisible();
  await expect(password).toHaveAccessibleDescription('Dit wachtwoord klopt niet.');
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toBeFocused();
  await expect(page.getByText('Controleer je oude wachtwoord.')).toHaveCount(0);

  await password.fill(PASSWORD);
  await del.getByRole('button', { name: 'Account verwijderen' }).click();
  await expect(page).toHaveURL(/\/account-deleted$/);
  expect((await callApi(page, BRAND, 'GET', '/api/user.php')).json.user).toBeNull();

  const link = /https?:\/\/\S*account-deleted\?token=[^\s"<]+/.exec(newestMail(email, 'mail_reactivate'))?.[0];
  expect(link).toBeTruthy();
  await page.goto(link!);
  // Logged out now, the member is a visitor again: the entry warning asks once.
  await confirmEntryWarning(page);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Mijn account heractiveren' }).click();
  await expect(page).toHaveURL(/\/members/);
  const back = (await callApi(page, BRAND, 'GET', '/api/user.php')).json.user;
  expect(back?.email).toBe(email);
  expect(back?.status).not.toBe('deletion_requested');
});
