import type { Page } from '@playwright/test';
import { test, expect, brandUrl, confirmEntryWarning } from '../support/e2e.ts';
import { mailTo } from '../support/mail.ts';

/** Signup, activation, login and password reset in Dutch on the demo brand (issue 4). */

const PASSWORD = 'zomer-in-amsterdam';

function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** Opens a page of the brand and waits until its islands are interactive (Astro drops `ssr` once hydrated). */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(brandUrl('spetter', path));
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/** Walks the signup modal from step 0 up to and including the login details. */
async function fillSignupUpToAccount(page: Page, email: string): Promise<void> {
  await open(page, '/signup');
  await confirmEntryWarning(page);
  const modal = page.getByRole('dialog');
  await expect(modal.getByRole('heading', { name: 'Meld je gratis aan bij Spetter' })).toBeVisible();

  // Step 0: who you are. Nothing chosen yet: the step says what is missing.
  await expect(modal.getByText('Stap 1 van 5')).toBeVisible();
  await modal.getByRole('button', { name: 'Volgende' }).click();
  await expect(modal.getByText('Kies of je een man of een vrouw bent.')).toBeVisible();
  await modal.getByRole('radio', { name: 'Vrouw' }).check();
  await modal.getByRole('radio', { name: 'Hetero' }).check();
  await modal.getByRole('button', { name: 'Volgende' }).click();

  // Step 1: the date-of-birth picker.
  await expect(modal.getByText('Stap 2 van 5')).toBeVisible();
  await modal.getByRole('combobox', { name: 'Dag' }).selectOption('14');
  await modal.getByRole('combobox', { name: 'Maand' }).selectOption({ label: 'maart' });
  await modal.getByRole('combobox', { name: 'Jaar' }).selectOption('1990');
  await modal.getByRole('button', { name: 'Volgende' }).click();

  // Step 2: location, the region under the name the Netherlands gives it.
  await expect(modal.getByText('Stap 3 van 5')).toBeVisible();
  await modal.getByRole('combobox', { name: 'Land' }).selectOption({ label: 'Nederland' });
  await modal.getByRole('combobox', { name: 'Provincie' }).selectOption({ label: 'Noord-Holland' });
  await modal.getByRole('textbox', { name: /Woonplaats/ }).fill('Amsterdam');
  await modal.getByRole('button', { name: 'Volgende' }).click();

  // Step 3: e-mail and password.
  await expect(modal.getByText('Stap 4 van 5')).toBeVisible();
  await modal.getByRole('textbox', { name: 'E-mailadres' }).fill(email);
  await modal.getByLabel('Wachtwoord', { exact: true }).fill(PASSWORD);
  await modal.getByRole('button', { name: 'Volgende' }).click();
  await expect(modal.getByText('Stap 5 van 5')).toBeVisible();
}

test('a visitor signs up in Dutch through every step and activates the account from the mail', async ({ page }) => {
  const email = uniqueEmail('signup');
  const name = `Sanne${Math.floor(Math.random() * 1e5)}`;
  await fillSignupUpToAccount(page, email);
  const modal = page.getByRole('dialog');

  // Step 4: the name rules are checked at once, and consent is required.
  await modal.getByRole('textbox', { name: 'Profielnaam' }).fill('@sanne');
  await modal.getByRole('button', { name: 'Gratis account aanmaken' }).click();
  await expect(modal.getByText('Je profielnaam mag niet beginnen met een @')).toBeVisible();
  await expect(modal.getByRole('textbox', { name: 'Profielnaam' })).toHaveAttribute('aria-invalid', 'true');
  await expect(modal.getByText('Ga akkoord met de algemene voorwaarden en het privacybeleid om je aan te melden.')).toBeVisible();
  await modal.getByRole('textbox', { name: 'Profielnaam' }).fill('sanne@example.nl');
  await modal.getByRole('button', { name: 'Gratis account aanmaken' }).click();
  await expect(modal.getByText('Je profielnaam moet anders zijn dan je e-mailadres')).toBeVisible();

  await modal.getByRole('textbox', { name: 'Profielnaam' }).fill(name);
  await modal.getByRole('textbox', { name: /Een eerste zin over jezelf/ }).fill('Spontaan en altijd in voor een goed gesprek.');
  await modal.getByRole('checkbox', { name: /ga akkoord met de algemene voorwaarden/ }).check();
  await modal.getByRole('button', { name: 'Gratis account aanmaken' }).click();

  // The complete step, then the e-mail activation step.
  await expect(modal.getByRole('heading', { name: `Welkom, ${name}!` })).toBeVisible();
  await expect(modal.getByText(/gratis credits gekregen/)).toBeVisible();
  await modal.getByRole('button', { name: 'Verder' }).click();
  await expect(modal.getByRole('heading', { name: 'Bevestig je e-mailadres' })).toBeVisible();
  await expect(modal.getByText(email)).toBeVisible();
  await expect(modal.getByRole('link', { name: 'Ga verder met je profiel' })).toHaveAttribute('href', '/complete-signup');
  await modal.getByRole('button', { name: 'Mail opnieuw versturen' }).click();
  await expect(modal.getByText('We hebben de e-mail opnieuw verstuurd.')).toBeVisible();

  // The activation mail's link leads to /activate/done.
  await expect.poll(() => mailTo(email), { timeout: 10_000 }).toContain('/api/activate.php?token=');
  const link = /https?:\/\/[^\s"<>]+\/api\/activate\.php\?token=[^\s"<>]+/.exec(mailTo(email)!)![0];
  const { pathname, search } = new URL(link);
  await page.goto(brandUrl('spetter', pathname + search));
  await expect(page).toHaveURL(/\/activate\/done$/);
  await expect(page.getByRole('heading', { name: 'Account geactiveerd' })).toBeVisible();
  const cards = page.getByRole('main');
  await expect(cards.getByRole('link', { name: /^Maak je profiel af/ })).toHaveAttribute('href', '/profile');
  await expect(cards.getByRole('link', { name: /^Word premium/ })).toHaveAttribute('href', '/premium');
  await expect(cards.getByRole('link', { name: /^Zoek leden/ })).toHaveAttribute('href', '/members');
  await expect(cards.getByRole('link', { name: /^Alle leden/ })).toHaveAttribute('href', '/members?all=1');

  // Logged out, the member logs in again and lands where the login was asked for.
  await page.context().clearCookies();
  await open(page, '/login?next=%2Fsignup-matches');
  await confirmEntryWarning(page);
  await page.getByRole('textbox', { name: 'E-mailadres' }).fill(email);
  await page.getByLabel('Wachtwoord', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
  await expect(page).toHaveURL(/\/signup-matches$/);
  await expect(page.getByRole('heading', { name: 'Leden voor jou' })).toBeVisible();

  // The same link a second time (mail scanners open links first) still says the account is active;
  // a link that was tampered with does not.
  await page.goto(brandUrl('spetter', pathname + search));
  await expect(page).toHaveURL(/\/activate\/done$/);
  await expect(page.getByRole('heading', { name: 'Account geactiveerd' })).toBeVisible();
  await page.goto(brandUrl('spetter', `${pathname}${search.slice(0, -2)}xx`));
  await expect(page).toHaveURL(/\/activate\/error$/);
  await expect(page.getByRole('heading', { name: 'Activeren mislukt' })).toBeVisible();
});

test('the signup modal takes focus on opening and keeps Tab and Shift+Tab inside', async ({ page }) => {
  await open(page, '/signup');
  await confirmEntryWarning(page);
  const modal = page.getByRole('dialog', { name: 'Meld je gratis aan bij Spetter' });
  await expect(modal).toBeVisible();
  await expect(modal).toBeFocused();
  // The form's controls are the island's: count them once it has hydrated (slow machines are slow).
  await expect.poll(() => modal.locator('astro-island[ssr]').count()).toBe(0);
  const inside = () => page.evaluate(() => Boolean(document.activeElement?.closest('dialog#signup-modal')));
  // Shift+Tab straight from the dialog itself stays inside too.
  await page.keyboard.press('Shift+Tab');
  expect(await inside()).toBe(true);
  await modal.focus();
  // Every control once and round again: past the last one focus must come back to the first.
  const controls = await modal.evaluate((dialog) => [...dialog.querySelectorAll('a[href], button:not([disabled]), input:not([disabled]), select, textarea')].filter((el) => (el as HTMLElement).getClientRects().length > 0).length);
  expect(controls).toBeGreaterThan(3);
  const seen = new Set<string>();
  for (let i = 0; i < controls + 3; i++) {
    await page.keyboard.press('Tab');
    expect(await inside(), `Tab ${i + 1} left the modal`).toBe(true);
    seen.add(await page.evaluate(() => document.activeElement?.textContent?.trim() || (document.activeElement as HTMLInputElement | null)?.value || ''));
  }
  expect(seen.size).toBeGreaterThanOrEqual(4);
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await inside(), `Shift+Tab ${i + 1} left the modal`).toBe(true);
  }
});

test('once signup has begun the signup modal cannot be closed with Escape', async ({ page }) => {
  await open(page, '/signup');
  await confirmEntryWarning(page);
  const modal = page.getByRole('dialog');
  await expect(modal.getByRole('button', { name: 'Sluiten' })).toBeVisible();
  await modal.getByRole('radio', { name: 'Man' }).check();
  await expect(modal.getByRole('button', { name: 'Sluiten' })).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(modal).toBeVisible();
});

test('signing up again with a taken e-mail points to login and password reset', async ({ page }) => {
  const email = uniqueEmail('twice');
  await fillSignupUpToAccount(page, email);
  const modal = page.getByRole('dialog');
  await modal.getByRole('textbox', { name: 'Profielnaam' }).fill(`Eerste${Math.floor(Math.random() * 1e5)}`);
  await modal.getByRole('checkbox', { name: /ga akkoord/ }).check();
  await modal.getByRole('button', { name: 'Gratis account aanmaken' }).click();
  await expect(modal.getByRole('heading', { name: /Welkom/ })).toBeVisible();

  await page.context().clearCookies();
  await page.evaluate(() => sessionStorage.clear());
  await fillSignupUpToAccount(page, email);
  await modal.getByRole('textbox', { name: 'Profielnaam' }).fill(`Tweede${Math.floor(Math.random() * 1e5)}`);
  await modal.getByRole('checkbox', { name: /ga akkoord/ }).check();
  await modal.getByRole('button', { name: 'Gratis account aanmaken' }).click();
  const alert = modal.getByRole('alert');
  await expect(alert).toContainText('Er is al een account met dit e-mailadres');
  await expect(alert.getByRole('link', { name: 'Inloggen' })).toHaveAttribute('href', '/login');
  await expect(alert.getByRole('link', { name: 'Wachtwoord vergeten?' })).toHaveAttribute('href', '/reset-password');
  await expect(modal.getByText('Stap 4 van 5')).toBeVisible();
});

test('logging in with a wrong password shows "Login mislukt, probeer opnieuw"', async ({ page }) => {
  await open(page, '/login');
  await confirmEntryWarning(page);
  await page.getByRole('textbox', { name: 'E-mailadres' }).fill(uniqueEmail('nobody'));
  await page.getByLabel('Wachtwoord', { exact: true }).fill('verkeerd-wachtwoord');
  await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Login mislukt, probeer opnieuw');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('link', { name: 'Wachtwoord vergeten?' })).toHaveAttribute('href', '/reset-password');
});

test('a password reset for an unknown e-mail shows "E-mailadres niet gevonden"', async ({ page }) => {
  await open(page, '/reset-password');
  await confirmEntryWarning(page);
  await page.getByRole('textbox', { name: 'E-mailadres' }).fill(uniqueEmail('unknown'));
  await page.getByRole('button', { name: 'Stuur de link' }).click();
  await expect(page.getByText('E-mailadres niet gevonden')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'E-mailadres' })).toHaveAttribute('aria-invalid', 'true');
});

test('a new password must be typed twice the same, and a forged link asks for a new mail', async ({ page }) => {
  await open(page, '/reset-password/do?token=forged.token');
  await page.getByLabel('Nieuw wachtwoord', { exact: true }).fill('nieuw-wachtwoord-1');
  await page.getByLabel('Herhaal nieuw wachtwoord').fill('nieuw-wachtwoord-2');
  await page.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
  await expect(page.getByText('De opgegeven wachtwoorden zijn niet gelijk.')).toBeVisible();
  await page.getByLabel('Herhaal nieuw wachtwoord').fill('nieuw-wachtwoord-1');
  await page.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
  await expect(page.getByRole('alert')).toHaveText('Link verlopen of invalide, vraag een nieuwe e-mail aan');
  await expect(page.getByRole('link', { name: 'Vraag een nieuwe link aan' })).toHaveAttribute('href', '/reset-password');
});

test('when signups need a traffic source, a visitor without one sees the invite-only notice', async ({ page }) => {
  // The demo brands sign up everybody; the brand setting is swapped in the settings answer.
  await page.route('**/api/settings.php*', async (route) => {
    // Node does not resolve *.localhost: fetch the real answer by IP with the brand's Host header.
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `http://127.0.0.1:${url.port}${url.pathname}${url.search}`, headers: { ...route.request().headers(), host: url.host } });
    const body = await response.json();
    await route.fulfill({ response, json: { settings: { ...body.settings, signups: 'with_trafficsource' } } });
  });
  await open(page, '/signup');
  await confirmEntryWarning(page);
  const modal = page.getByRole('dialog');
  await expect(modal.getByText('Aanmelden is op dit moment alleen mogelijk op uitnodiging.')).toBeVisible();
  await expect(modal.getByRole('radio', { name: 'Man' })).toHaveCount(0);

  // With a traffic source in the URL the form is there; the source is kept in the tab only once
  // the visitor allowed it on a lander's consent bar (issue 23, docs/API.md "Consent").
  await open(page, '/signup?network=partner&sub1=banner');
  await expect(modal.getByRole('radio', { name: 'Man' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('tracking'))).toBeNull();
  await page.context().addCookies([{ name: 'src_consent', value: 'accept', url: brandUrl('spetter', '/') }]);
  await open(page, '/signup?network=partner&sub1=banner');
  await expect(modal.getByRole('radio', { name: 'Man' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('tracking'))).toContain('partner');
  await open(page, '/signup');
  await expect(modal.getByRole('radio', { name: 'Man' })).toBeVisible();
});

test('after deletion the goodbye page explains the 14 days, and a forged reactivation link is refused', async ({ page }) => {
  await open(page, '/account-deleted');
  await confirmEntryWarning(page);
  await expect(page.getByRole('heading', { name: 'Account verwijderd' })).toBeVisible();
  await expect(page.getByText(/binnen 14 dagen weer activeren/)).toBeVisible();

  await open(page, '/account-deleted?token=forged.token');
  await page.getByRole('button', { name: 'Mijn account heractiveren' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/account-deleted\?token=/);
});

test("the last signup step names the pool's other brand, where the profile is shown too (issue 24)", async ({ page }) => {
  await fillSignupUpToAccount(page, uniqueEmail('network'));
  await expect(page.getByRole('dialog').getByText('Je profiel wordt ook getoond op de andere sites van ons netwerk: Rijpe Dates. In je instellingen kun je kiezen om alleen op Spetter getoond te worden.')).toBeVisible();
});
