import { test, expect } from '../support/e2e.ts';
import { addConsoleStaff, consoleUrl, hydrated, logInToConsole } from '../support/console-e2e.ts';
import { PASSWORD } from '../support/accounts.ts';

/** Browser tests of the owner's staff page and the audit log in the operator console (issue 22). */

for (const viewport of [{ width: 1280, height: 900 }, { width: 768, height: 1024 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the owner adds a moderator for one brand, the link sets their password, then changes their role; the audit log shows both', async ({ page, browser }) => {
      const owner = await addConsoleStaff('owner');
      await logInToConsole(page, owner, '/console/staff');
      await hydrated(page);
      const email = `moderator-${viewport.width}-${process.pid}-${Date.now()}@example.com`;
      await page.getByLabel('E-mail address').fill(email);
      await page.getByLabel('Role').selectOption('moderator');
      await page.getByLabel('Every brand, also brands added later').uncheck();
      await page.getByLabel('Spetter').check();
      await page.getByRole('button', { name: 'Add and make an enrolment link' }).click();
      const link = (await page.getByTestId('enrol-link').textContent())!;
      expect(link).toMatch(/^http:\/\/console\.localhost:\d+\/console\/enrol\?token=/);
      const row = page.getByRole('row', { name: new RegExp(email) });
      await expect(row).toContainText('Moderator');
      await expect(row).toContainText('Spetter');
      await expect(row).toContainText('Not set up yet');
      await page.screenshot({ path: `test-results/console-staff-${viewport.width}.png`, fullPage: true });

      // The new moderator opens the link in a browser of their own and sets a password.
      const theirs = await (await browser.newContext()).newPage();
      await theirs.goto(link);
      await hydrated(theirs);
      await theirs.getByLabel('New password').fill(PASSWORD);
      await theirs.getByRole('button', { name: 'Save password' }).click();
      await expect(theirs.getByRole('status')).toContainText(email);
      await theirs.context().close();

      await row.getByRole('button', { name: `Change ${email}` }).click();
      const dialog = page.getByRole('dialog', { name: `Change ${email}` });
      await dialog.getByLabel('Role').selectOption('support');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('status').first()).toContainText(`${email} is changed`);
      await expect(row).toContainText('Support');

      // The owner's own row has no actions.
      await expect(page.getByRole('row', { name: new RegExp(owner.email) }).getByRole('button')).toHaveCount(0);

      // The sidebar at 1280 px; below the lg breakpoint the menu behind its button.
      if (viewport.width < 992) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Audit log' }).click();
      await expect(page).toHaveURL(consoleUrl('/console/audit'));
      await hydrated(page);
      await page.getByLabel('Action').fill('staff_role');
      await page.getByRole('button', { name: 'Search' }).click();
      const entry = page.getByRole('row').nth(1);
      await expect(entry).toContainText(owner.email);
      await expect(entry).toContainText('staff_role');
      await expect(entry).toContainText('Owner');
      await page.screenshot({ path: `test-results/console-audit-${viewport.width}.png`, fullPage: true });
    });
  });
}

test('a support agent’s navigation has neither the audit log nor the staff; their pages answer with the server’s refusal', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const support = await addConsoleStaff('support');
  await logInToConsole(page, support);
  await hydrated(page);
  const nav = page.getByRole('navigation', { name: 'Console sections' });
  await expect(nav.getByRole('link', { name: 'Members' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(0);
  await page.goto(consoleUrl('/console/staff'));
  await hydrated(page);
  await expect(page.getByRole('alert')).not.toBeEmpty();
});
