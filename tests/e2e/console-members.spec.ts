import { test, expect, signUpMember } from '../support/e2e.ts';
import { addConsoleStaff, consoleUrl, hydrated, logInToConsole, withConsole } from '../support/console-e2e.ts';
import { totpCode } from '../support/console.ts';
import { PASSWORD } from '../support/accounts.ts';

/** Browser tests of the operator console's login and members search (issue 22), at 1280 and 768 px. */

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('a support agent logs in with a TOTP code and finds a member by e-mail, with the filters in the address', async ({ page, browser }) => {
    const member = await browser.newContext();
    const { email } = await signUpMember(await member.newPage(), 'spetter', { name: 'Floortje' });
    await member.close();
    const staff = await addConsoleStaff('support', ['spetter']);

    await logInToConsole(page, staff);
    const identity = page.getByTestId('staff-identity');
    await expect(identity).toContainText(staff.email);
    await expect(identity).toContainText('Support');
    // The sidebar shows the sections of the role; support has no audit log.
    const nav = page.getByRole('navigation', { name: 'Console sections' });
    await expect(nav.getByRole('link', { name: 'Members' })).toHaveAttribute('aria-current', 'page');

    await hydrated(page);
    await page.getByRole('searchbox', { name: 'Find' }).fill(email);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('row', { name: new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Floortje');
    await expect(row).toContainText('Not confirmed');
    await expect(page.getByRole('row')).toHaveCount(2);
    expect(new URL(page.url()).searchParams.get('q')).toBe(email);
    await page.screenshot({ path: 'test-results/console-members-1280.png', fullPage: true });

    // A search nobody matches says so.
    await page.getByRole('searchbox', { name: 'Find' }).fill('nobody-at-all@example.invalid');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('No members match these filters.')).toBeVisible();

    // Logging out ends the session: the page goes to the login.
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/console\/login$/);
    await page.goto(consoleUrl('/console/members'));
    await expect(page).toHaveURL(/\/console\/login\?next=/);
  });

  test('a new staff member sets a password from the enrolment link, enrols by QR code and sees ten recovery codes once', async ({ page }) => {
    const email = `nieuw-${process.pid}-${Date.now()}@example.com`;
    const { token } = await withConsole((console) => console.addStaff({ email, role: 'moderator', brands: null }));
    await page.goto(consoleUrl(`/console/enrol?token=${token}`));
    await hydrated(page);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect(page.getByRole('status')).toContainText(email);
    await page.getByRole('link', { name: 'Log in' }).click();

    await hydrated(page);
    await page.getByLabel(/E-mail/).fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('heading', { name: 'Set up your second factor' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'QR code of your authenticator secret' }).locator('svg')).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.screenshot({ path: 'test-results/console-enrol-1280.png' });
    await page.getByLabel('Code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm and log in' }).click();

    const codes = page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    await page.getByRole('link', { name: 'I have stored them: continue' }).click();
    await expect(page).toHaveURL(consoleUrl('/console/members'));
    await expect(page.getByTestId('staff-identity')).toContainText('Moderator');
    await expect(page.getByTestId('staff-identity')).toContainText('all brands');
  });

  test('a wrong code is refused with the server’s message', async ({ page }) => {
    const staff = await addConsoleStaff('admin');
    await page.goto(consoleUrl('/console/login'));
    await hydrated(page);
    await page.getByLabel(/E-mail/).fill(staff.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel(/^Code$/).fill(totpCode(staff.secret) === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).not.toBeEmpty();
    await expect(page).toHaveURL(/\/console\/login/);
  });
});

test.describe('at 768 px', () => {
  test.use({ viewport: { width: 768, height: 1024 } });

  test('the navigation is a menu behind a button, and the language switch shows the console in Dutch from then on', async ({ page }) => {
    const staff = await addConsoleStaff('admin');
    await logInToConsole(page, staff);
    await hydrated(page);
    const nav = page.getByRole('navigation', { name: 'Console sections' });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(nav.getByRole('link', { name: 'Members' })).toBeVisible();
    await page.screenshot({ path: 'test-results/console-members-768.png', fullPage: true });

    await page.getByLabel('Language').selectOption('nl');
    await expect(page.getByRole('heading', { name: 'Leden' })).toBeVisible();
    await expect(page).toHaveURL(consoleUrl('/console/members'));
    await page.goto(consoleUrl('/console/members'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
    await expect(page.getByRole('button', { name: 'Uitloggen' })).toBeVisible();
  });
});
