/**
 * Accessibility of the operator console's pages (issue 22) at 768 and 1280 px, in English and
 * Dutch: no serious or critical axe-core violation on the login and on each section an owner sees.
 */
import { test, expect, signUpMember } from '../support/e2e.ts';
import { addConsoleStaff, consoleUrl, hydrated, logInToConsole } from '../support/console-e2e.ts';
import { seriousViolations } from '../support/a11y.ts';

for (const width of [768, 1280]) {
  test(`the console's pages at ${width} px have no serious accessibility violation`, async ({ page, browser }) => {
    await page.setViewportSize({ width, height: 900 });
    const member = await (await browser.newContext()).newPage();
    await signUpMember(member, 'spetter', { name: 'Toegankelijk' });
    await member.context().close();

    await page.goto(consoleUrl('/console/login'));
    await hydrated(page);
    expect(await seriousViolations(page), 'login').toEqual([]);
    await logInToConsole(page, await addConsoleStaff('owner'));
    for (const path of ['/console/members', '/console/audit', '/console/staff']) {
      await page.goto(consoleUrl(path));
      await hydrated(page);
      await expect(page.getByRole('table')).toBeVisible();
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await page.goto(consoleUrl('/console/members'));
    await hydrated(page);
    await page.getByRole('link', { name: 'Toegankelijk' }).first().click();
    await expect(page.getByRole('region', { name: 'Credit ledger' })).toBeVisible();
    expect(await seriousViolations(page), 'member page').toEqual([]);
    await page.getByRole('button', { name: 'Suspend' }).click();
    expect(await seriousViolations(page), 'suspend dialog').toEqual([]);
  });
}
