import type { Browser, Page } from '@playwright/test';
import { test, expect, signUpMember, callApi, brandUrl, confirmEntryWarning, grantCredits, withDatabase } from '../support/e2e.ts';
import { addConsoleStaff, hydrated, logInToConsole } from '../support/console-e2e.ts';

/**
 * Browser tests of the fictional inbox (issue 22): a moderator answers a member as a fictional
 * profile while the member, in a browser of their own, sees the reply arrive live with the
 * fictional marker; a reply with contact details is refused with what was found.
 */

/** A fictional profile of Spetter, as the seed makes them (no member, `fictional` = 1). */
async function fictionalProfile(name: string): Promise<number> {
  return withDatabase(async (db) => {
    const row = await db
      .insertInto('profiles')
      .values({ tenant_id: 'spetter', user_id: null, fictional: 1, name, gender: 'female', sexuality: 'hetero', birth_date: '1993-06-01', country: 'NL', city: 'Utrecht', listed: 1, last_seen_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/** An active member of Spetter with credits, logged in in a browser of their own, who wrote to the profile. */
async function memberWrites(browser: Browser, name: string, profileId: number, viewport: { width: number; height: number }): Promise<{ page: Page; conversationId: number }> {
  const page = await (await browser.newContext({ viewport })).newPage();
  const { email } = await signUpMember(page, 'spetter', { name, gender: 'male' });
  const userId = await withDatabase(async (db) => {
    // As the activation link does: the account and its profile active.
    const user = await db.updateTable('users').set({ status: 'active' }).where('email', '=', email).returning('id').executeTakeFirstOrThrow();
    await db.updateTable('profiles').set({ status: 'active', listed: 1 }).where('user_id', '=', user.id).execute();
    return user.id;
  });
  await grantCredits(userId, 50);
  const sent = await callApi(page, 'spetter', 'POST', '/api/chat.php', { profile_id: profileId, kind: 'text', text: 'Hoi! Hoe was je dag?', client_id: `e2e-${userId}-${Date.now()}` });
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);
  return { page, conversationId: sent.json.conversation_id };
}

for (const viewport of [{ width: 1280, height: 900 }, { width: 768, height: 1024 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a moderator answers a member in the fictional inbox; the member sees the reply arrive live with the fictional marker', async ({ page, browser }) => {
      const stamp = Date.now().toString(36).slice(-5);
      const persona = `Lotte${stamp}`;
      const profileId = await fictionalProfile(persona);
      const member = await memberWrites(browser, `Bram${stamp}`, profileId, viewport);
      // The member waits in the conversation, the fictional warning at the top.
      await member.page.goto(brandUrl('spetter', `/chats/${member.conversationId}`));
      await confirmEntryWarning(member.page);
      await expect(member.page.locator('[data-fictional-warning]')).toBeVisible();

      await logInToConsole(page, await addConsoleStaff('moderator', ['spetter']), '/console/inbox');
      await hydrated(page);
      await expect(page.getByRole('heading', { level: 1, name: 'Fictional inbox' })).toBeVisible();
      const item = page.getByRole('navigation', { name: 'Waiting conversations, longest first' }).getByRole('button', { name: new RegExp(`Bram${stamp} → ${persona}`) });
      await item.click();
      const pane = page.getByRole('region', { name: 'Conversation' });
      await expect(pane.getByRole('list', { name: 'Messages, oldest first' })).toContainText('Hoi! Hoe was je dag?');
      await expect(pane.getByText('Fictional profile').first()).toBeVisible();
      await expect(pane.getByRole('region', { name: 'Member' })).toContainText(`Bram${stamp}`);
      // No reply before a claim.
      await expect(pane.getByRole('button', { name: 'Send' })).toBeDisabled();
      await pane.getByRole('button', { name: 'Claim' }).click();
      await expect(pane.getByRole('button', { name: 'Release' })).toBeVisible();

      // Contact details are refused, and the reason says what was found.
      const box = pane.getByLabel(`Your reply as ${persona}`);
      await box.fill('Bel me op 06 12345678');
      await pane.getByRole('button', { name: 'Send' }).click();
      await expect(pane.getByRole('alert')).toContainText('06 12345678');
      await page.screenshot({ path: `test-results/console-inbox-refused-${viewport.width}.png`, fullPage: true });

      // A reply with Ctrl+Enter: the member's open chat shows it at once, from the fictional profile.
      await box.fill('Heerlijk, ik heb de hele dag gefietst. En jij?');
      await box.press('Control+Enter');
      await expect(box).toHaveValue('');
      await expect(pane.getByRole('list', { name: 'Messages, oldest first' })).toContainText('ik heb de hele dag gefietst');
      await expect(member.page.locator('[data-message]:not([data-mine])').last()).toContainText('Heerlijk, ik heb de hele dag gefietst. En jij?');
      await expect(member.page.locator('[data-fictional-warning]')).toBeVisible();
      // Answered: no longer waiting.
      await expect(item).toHaveCount(0);
      await page.screenshot({ path: `test-results/console-inbox-${viewport.width}.png`, fullPage: true });
      await member.page.screenshot({ path: `test-results/console-inbox-member-${viewport.width}.png` });
      await member.page.context().close();
    });
  });
}
