import type { Browser, Page } from '@playwright/test';
import { test, expect, signUpMember, callApi, brandUrl, activeChatMember } from '../support/e2e.ts';
import { addConsoleStaff, consoleUrl, hydrated, logInToConsole } from '../support/console-e2e.ts';
import type { StaffRole } from '../../src/contract/console.ts';

/** Browser tests of a member's page in the operator console (issue 22): what each role sees and the actions with a reason. */

/** A member signed up on Spetter in a browser of their own (still open: their session is in it). */
async function aMember(browser: Browser, name: string): Promise<{ page: Page; email: string }> {
  const page = await (await browser.newContext()).newPage();
  const { email } = await signUpMember(page, 'spetter', { name });
  return { page, email };
}

/** Logs a staff member of a role in and opens a member's page from the members search. */
async function openMember(page: Page, role: StaffRole, email: string): Promise<void> {
  await logInToConsole(page, await addConsoleStaff(role), `/console/members?q=${encodeURIComponent(email)}`);
  await hydrated(page);
  await page.getByRole('row', { name: new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).getByRole('link').first().click();
  await expect(page).toHaveURL(/\/console\/members\/\d+$/);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

for (const viewport of [{ width: 1280, height: 900 }, { width: 768, height: 1024 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a moderator suspends a member with a reason: the member is logged out; the moderator sees no payments', async ({ page, browser }) => {
      const member = await aMember(browser, 'Jolanda');
      await openMember(page, 'moderator', member.email);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Jolanda');
      await expect(page.getByRole('region', { name: 'Credit ledger' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Payments' })).toHaveCount(0);
      // A moderator moves no credits and deletes nobody.
      await expect(page.getByRole('button', { name: 'Grant credits' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Delete member' })).toHaveCount(0);

      await page.getByRole('button', { name: 'Suspend' }).click();
      const dialog = page.getByRole('dialog', { name: 'Suspend' });
      await dialog.getByRole('button', { name: 'Suspend' }).click();
      await expect(dialog.getByRole('alert')).toHaveText('Give a reason.');
      await dialog.getByLabel('Reason').fill('Vraagt om geld in berichten');
      await page.screenshot({ path: `test-results/console-suspend-${viewport.width}.png` });
      await dialog.getByRole('button', { name: 'Suspend' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('status')).toHaveText('The member is suspended and logged out everywhere.');
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Suspended');
      await expect(page.getByRole('button', { name: 'Lift suspension' })).toBeVisible();
      await page.screenshot({ path: `test-results/console-member-${viewport.width}.png`, fullPage: true });

      // Suspended at once (issue 22): the API refuses the session, and the next page is the ban page.
      const answer = await callApi(member.page, 'spetter', 'GET', '/api/user.php');
      expect(answer.status).toBe(403);
      expect(answer.json.error.code).toBe('account_suspended');
      await member.page.goto(brandUrl('spetter', '/members'));
      await expect(member.page).toHaveURL(/\/pages\/ban/);
      await member.page.context().close();
    });
  });
}

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('support sees payments and grants credits within the support limit; the server’s message shows above it', async ({ page, browser }) => {
    const member = await aMember(browser, 'Priscilla');
    await member.page.context().close();
    await openMember(page, 'support', member.email);
    await expect(page.getByRole('region', { name: 'Payments' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Suspend' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Grant credits' }).click();
    const dialog = page.getByRole('dialog', { name: 'Grant credits' });
    await expect(dialog.getByText(/At most 100 credits a move/)).toBeVisible();
    await dialog.getByLabel('Credits').fill('500');
    await dialog.getByLabel('Reason').fill('Compensatie storing');
    await dialog.getByRole('button', { name: 'Grant credits' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('You may grant or take back at most 100 credits at a time.');
    await dialog.getByLabel('Credits').fill('15');
    await dialog.getByRole('button', { name: 'Grant credits' }).click();
    await expect(page.getByRole('status')).toHaveText('15 credits granted.');
    const ledger = page.getByRole('region', { name: 'Credit ledger' });
    await expect(ledger.getByRole('row', { name: /\+15/ })).toContainText('Compensatie storing');
  });

  test('a member’s page in Dutch', async ({ page, browser, context }) => {
    const member = await aMember(browser, 'Kees');
    await member.page.context().close();
    await context.addCookies([{ name: 'console_lang', value: 'nl', url: consoleUrl('/') }]);
    await openMember(page, 'admin', member.email);
    await expect(page.getByRole('region', { name: 'Betalingen' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Lid verwijderen' })).toBeVisible();
  });
});

for (const viewport of [{ width: 1280, height: 900 }, { width: 768, height: 1024 }]) {
  test(`spetter's staff open a rijpedates member from their member's conversation: profile and that conversation, not the account, the brand by its name (${viewport.width} px)`, async ({ page, browser }) => {
    await page.setViewportSize(viewport);
    const sam = await activeChatMember(browser, 'Sam', 'male', 20);
    const ria = await activeChatMember(browser, 'Ria', 'female', 0, undefined, { brand: 'rijpedates', dateOfBirth: '1975-02-03' });
    const sent = await callApi(sam.page, 'spetter', 'POST', '/api/chat.php', { profile_id: ria.profileId, kind: 'text', text: 'Hoi Ria!', client_id: crypto.randomUUID() });
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);

    await logInToConsole(page, await addConsoleStaff('admin', ['spetter']), `/console/members/${ria.userId}`);
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Ria');
    // Her brand by its name and domain, never its id.
    await expect(page.getByText('Rijpe Dates (rijpedates.nl)').first()).toBeVisible();
    await expect(page.getByText(/A member of Rijpe Dates, a brand of your pool, involved with your brand's members \(a conversation\)/)).toBeVisible();
    await expect(page.getByText(/\brijpedates\b(?!\.nl)/)).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Conversations' }).getByRole('row', { name: /Sam .*Spetter/ })).toBeVisible();
    // Her account stays her brand's: no account facts, ledger, payments, sessions or actions.
    for (const region of ['Account', 'Credit ledger', 'Payments', 'Sessions']) await expect(page.getByRole('region', { name: region })).toHaveCount(0);
    await expect(page.getByRole('group', { name: 'Actions' })).toHaveCount(0);
    await page.screenshot({ path: `test-results/console-member-pool-${viewport.width}.png`, fullPage: true });
    await sam.page.context().close();
    await ria.page.context().close();
  });
}

for (const viewport of [{ width: 1280, height: 900 }, { width: 768, height: 1024 }]) {
  test(`a complaint about a rijpedates member on spetter's queue names her brand by its name (${viewport.width} px)`, async ({ page, browser }) => {
    await page.setViewportSize(viewport);
    const lies = await activeChatMember(browser, 'Lies', 'female', 0);
    const ria = await activeChatMember(browser, 'Ria', 'female', 0, undefined, { brand: 'rijpedates', dateOfBirth: '1975-02-03' });
    const filed = await callApi(lies.page, 'spetter', 'POST', '/api/complaint.php', { profile_id: ria.profileId, reason: 'fake_profile', subject: 'Nep', message: 'Dit profiel lijkt nep.' });
    expect(filed.status, JSON.stringify(filed.json)).toBe(200);

    await logInToConsole(page, await addConsoleStaff('moderator', ['spetter']), `/console/complaints/${filed.json.id}`);
    await hydrated(page);
    const reported = page.getByRole('region', { name: 'Member concerned' });
    await expect(reported).toContainText('Rijpe Dates (rijpedates.nl)');
    await expect(page.getByRole('region', { name: 'Reported by' })).toContainText('Spetter');
    await expect(page.getByText(/\brijpedates\b(?!\.nl)/)).toHaveCount(0);
    await page.screenshot({ path: `test-results/console-complaint-pool-${viewport.width}.png`, fullPage: true });
    await lies.page.context().close();
    await ria.page.context().close();
  });
}
