import type { Locator, Page } from '@playwright/test';
import { test, expect, brandUrl, callApi, openListening, activeChatMember } from '../support/e2e.ts';
import { addConsoleStaff, consoleUrl, hydrated, logInToConsole } from '../support/console-e2e.ts';

/**
 * Browser tests of the held-messages queue and the safety rules card (issue 22): Spetter's
 * tenant.json lists money-transfer scam words, so a member's message naming one is held. A
 * moderator releases one (the recipient sees it arrive live) and rejects another (the sender's
 * credits come back and the sender sees it not delivered, with the reason), at 1280 and 768 px.
 */

let n = 0;
const credits = async (page: Page) => (await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user.credits as number;

/** The queue's entry of a message, found by its text. */
const entry = (page: Page, text: string): Locator => page.locator('[data-held]').filter({ has: page.locator('[data-held-text]', { hasText: text }) });

for (const viewport of [{ width: 1280, height: 900 }, { width: 768, height: 1024 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a moderator releases one held message (it arrives live) and rejects another (the credits come back)', async ({ page, browser }) => {
      n += 1;
      const tag = `${Date.now().toString(36)}${n}`;
      const anna = await activeChatMember(browser, `Anna${tag}`, 'female', 0, viewport);
      const bob = await activeChatMember(browser, `Bob${tag}`, 'male', 100, viewport);
      const released = `Stuur het via Western Union ${tag}`;
      const rejected = `Koop een cadeaukaart voor me ${tag}`;

      // Anna waits on her chats page, listening: a released message reaches her live.
      await openListening(anna.page, brandUrl('spetter', '/chats'));
      await expect(anna.page.getByText('Nog geen gesprekken')).toBeVisible();

      // Bob writes twice; both look sent to him and cost him, and neither reaches Anna.
      const before = await credits(bob.page);
      for (const text of [released, rejected]) {
        const res = await callApi(bob.page, 'spetter', 'POST', '/api/chat.php', { profile_id: anna.profileId, kind: 'text', text, client_id: `e2e-${tag}-${text.length}` });
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        expect(res.json.message.text).toBe(text);
      }
      const cost = before - (await credits(bob.page));
      expect(cost).toBeGreaterThan(0);

      // The moderator's queue shows both, with why and the sender's card.
      await logInToConsole(page, await addConsoleStaff('moderator', ['spetter']), '/console/held?brand=spetter');
      await hydrated(page);
      await expect(page.getByRole('heading', { level: 1, name: 'Held messages' })).toBeVisible();
      const first = entry(page, released);
      await expect(first).toContainText('Listed word: “Western Union”');
      await expect(first).toContainText(`Bob${tag}`);
      await expect(first).toContainText(`Anna${tag}`);
      await expect(entry(page, rejected)).toContainText('Listed word: “cadeaukaart”');
      await expect(anna.page.getByText('Nog geen gesprekken')).toBeVisible();
      await page.screenshot({ path: `test-results/console-held-${viewport.width}.png`, fullPage: true });

      // Release with the keyboard: focus the entry, r, a reason, Enter.
      await first.focus();
      await page.keyboard.press('r');
      const dialog = page.getByRole('dialog', { name: `Release this message to Anna${tag}?` });
      await expect(dialog).toBeVisible();
      await dialog.getByLabel('Reason').fill('Geen oplichting: een grap tussen bekenden');
      await dialog.getByRole('button', { name: 'Release' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('status')).toHaveText('Released: the message was delivered.');
      await expect(entry(page, released)).toHaveCount(0);
      // Anna's open list gets it at once.
      await expect(anna.page.locator('[data-chat]').filter({ hasText: released })).toBeVisible();

      // Reject the other with the button and a reason.
      await entry(page, rejected).getByRole('button', { name: 'Reject' }).click();
      const reject = page.getByRole('dialog', { name: 'Reject this message?' });
      await expect(reject).toContainText(`Bob${tag} gets the ${cost / 2} credits back`);
      await reject.getByLabel('Reason').fill('Vraagt om geld');
      await reject.getByRole('button', { name: 'Reject' }).click();
      await expect(page.getByRole('status')).toHaveText(`Rejected: ${cost / 2} credits went back to the sender.`);
      await expect(entry(page, rejected)).toHaveCount(0);
      expect(await credits(bob.page)).toBe(before - cost / 2);

      // Bob sees the rejected one as not delivered, with the reason; Anna only ever sees the released one.
      const conversation = (await callApi(bob.page, 'spetter', 'GET', `/api/chat.php?profile_id=${anna.profileId}`)).json.conversation.id as number;
      await bob.page.goto(brandUrl('spetter', `/chats/${conversation}`));
      await expect(bob.page.locator('[data-message]').filter({ hasText: rejected }).locator('[data-not-delivered]')).toHaveText('Niet bezorgd: Vraagt om geld');
      await anna.page.goto(brandUrl('spetter', `/chats/${conversation}`));
      await expect(anna.page.locator('[data-message]').filter({ hasText: released })).toBeVisible();
      await expect(anna.page.locator('[data-message]').filter({ hasText: rejected })).toHaveCount(0);

      // The brand's rules, read-only.
      await page.goto(consoleUrl('/console/safety'));
      await hydrated(page);
      const card = page.getByRole('region', { name: 'Spetter' });
      await expect(card).toContainText('Masked (replaced by •••)');
      await expect(card).toContainText('western union');
      await expect(card).toContainText('An account younger than 24 hours that writes to more than 5 members has its further messages held.');
      await page.screenshot({ path: `test-results/console-safety-${viewport.width}.png`, fullPage: true });
      await anna.page.context().close();
      await bob.page.context().close();
    });
  });
}
