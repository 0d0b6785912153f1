import sharp from 'sharp';
import { tmpdir } from 'node:os';
import type { Page } from '@playwright/test';
import { test, expect, brandUrl, callApi, confirmEntryWarning, signUpMember, withDatabase } from '../support/e2e.ts';
import { addConsoleStaff, consoleUrl, hydrated, logInToConsole } from '../support/console-e2e.ts';
import { rawPendingChatPhoto, rawPendingPhoto } from '../support/moderation.ts';
import { PHOTO_PAGE_DEFAULT } from '../../src/contract/console.ts';

/** Browser tests of a moderator's day in the console (issue 22): photo screening and a complaint, at 1280 and 768 px. */

/** A member's upload from their own /profile page, as a person does; answers once it shows as waiting. */
async function uploadOnProfile(page: Page, colour: number): Promise<void> {
  await page.goto(brandUrl('spetter', '/profile#photos'));
  await confirmEntryWarning(page);
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0);
  const jpeg = await sharp({ create: { width: 400, height: 400, channels: 3, background: { r: colour, g: 120, b: 60 } } }).jpeg().toBuffer();
  const before = await page.locator('#photos').getByText('Wordt gecontroleerd').count();
  await page.getByLabel('Foto toevoegen').setInputFiles({ name: 'ik.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await expect(page.locator('#photos').getByText('Wordt gecontroleerd')).toHaveCount(before + 1);
}

for (const width of [1280, 768]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a moderator approves one photo and rejects another with a reason by keyboard; the member sees both in another browser', async ({ page, browser }) => {
      const memberContext = await browser.newContext();
      const member = await memberContext.newPage();
      const name = `Foto${width}`;
      await signUpMember(member, 'spetter', { name });
      await uploadOnProfile(member, 40);
      await uploadOnProfile(member, 200);

      await logInToConsole(page, await addConsoleStaff('moderator', ['spetter']), '/console/photos');
      await hydrated(page);
      const grid = page.getByRole('list').filter({ has: page.getByRole('button', { name: new RegExp(`Photo of ${name}`) }) });
      const mine = grid.getByRole('button', { name: new RegExp(`Photo of ${name}`) });
      await expect(mine).toHaveCount(2);
      await expect(page.getByRole('combobox', { name: 'Brand' })).toContainText('spetter (');
      await page.screenshot({ path: `test-results/console-photos-${width}.png`, fullPage: true });

      // The member's first photo: selected with the arrows, approved with A.
      const first = mine.first();
      await first.click();
      await page.keyboard.press('a');
      await expect(page.getByText(`Photo of ${name} approved.`)).toBeVisible();
      // The second: R, a reason from the list, Enter.
      await expect(mine).toHaveCount(1);
      await mine.first().click();
      await page.keyboard.press('r');
      await page.getByRole('combobox', { name: 'Reason' }).selectOption({ label: 'Contact details' });
      await page.getByRole('button', { name: 'Reject with this reason' }).click();
      await expect(page.getByText(`Photo of ${name} rejected; the member is told why.`)).toBeVisible();
      await expect(mine).toHaveCount(0);

      // The member, in their own browser: one photo shown, one rejected with the reason.
      await member.reload();
      const photos = member.locator('#photos');
      await expect(photos.getByRole('alert')).toHaveText('Een foto is afgekeurd: de foto bevat contactgegevens. Anderen zien hem niet; je kunt een andere foto plaatsen.');
      await expect(photos.getByText('Wordt gecontroleerd')).toHaveCount(0);
      await expect(photos.getByText('1 van 3 foto\'s')).toBeVisible();
      await memberContext.close();
    });

    test('a moderator reads a complaint with both members and their conversation, and warns the member with a ground', async ({ page, browser }) => {
      const contexts = [await browser.newContext(), await browser.newContext()];
      const [reporterPage, reportedPage] = [await contexts[0]!.newPage(), await contexts[1]!.newPage()];
      await signUpMember(reportedPage, 'spetter', { name: `Mark${width}`, gender: 'male' });
      await signUpMember(reporterPage, 'spetter', { name: `Rita${width}` });
      const reported = (await callApi(reportedPage, 'spetter', 'GET', '/api/user.php')).json.user;
      const reporter = (await callApi(reporterPage, 'spetter', 'GET', '/api/user.php')).json.user;
      // Rita's report about Mark, stored as /complaints stores it (new accounts do not see each other in the search yet).
      const filed = {
        json: await withDatabase((db) =>
          db
            .insertInto('complaints')
            .values({ tenant_id: 'spetter', reporter_user_id: reporter.id, reported_profile_id: reported.profile.id, reason: 'scam', subject: `Vraagt geld ${width}`, message: 'Hij wil eerst een cadeaukaart.', created_at: new Date().toISOString() })
            .returning('id')
            .executeTakeFirstOrThrow(),
        ),
      };

      await logInToConsole(page, await addConsoleStaff('moderator', ['spetter']), '/console/complaints');
      await hydrated(page);
      await page.getByRole('link', { name: `Vraagt geld ${width}` }).click();
      await expect(page).toHaveURL(consoleUrl(`/console/complaints/${filed.json.id}`));
      await hydrated(page);
      await expect(page.getByRole('heading', { name: `Complaint #${filed.json.id}: Vraagt geld ${width}` })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Reported by' })).toContainText(`Rita${width}`);
      await expect(page.getByRole('region', { name: 'Member concerned' })).toContainText(`Mark${width}`);
      await expect(page.getByText('Hij wil eerst een cadeaukaart.')).toBeVisible();
      await page.screenshot({ path: `test-results/console-complaint-${width}.png`, fullPage: true });

      await page.getByRole('button', { name: 'Take in review' }).click();
      await expect(page.getByText('The complaint is in review.')).toBeVisible();
      await page.getByRole('combobox', { name: 'Action' }).selectOption('warn');
      // No ground: the form says so and nothing is decided.
      await page.getByRole('button', { name: 'Decide and tell both members' }).click();
      await expect(page.getByText('Choose the ground of this decision.')).toBeVisible();
      await page.getByRole('combobox', { name: 'Ground' }).selectOption('scam');
      await page.getByRole('button', { name: 'Decide and tell both members' }).click();
      await expect(page.getByText('Decision: member warned. Ground: Scam or asking for money.')).toBeVisible();
      await expect(page.getByRole('form', { name: 'Decide' })).toHaveCount(0);

      // Both members read their statement on /profile, where the statement mail links, with the support address to object to.
      const statements = await callApi(reportedPage, 'spetter', 'GET', '/api/statements.php');
      expect(statements.json.statements[0].text).toContain('dit is een waarschuwing');
      for (const [memberPage, decision] of [[reportedPage, `Een melding over jou (#${filed.json.id}) is gegrond verklaard: dit is een waarschuwing.`], [reporterPage, `We hebben je melding #${filed.json.id} bekeken en het lid gewaarschuwd.`]] as const) {
        await memberPage.goto(brandUrl('spetter', '/profile#statements'));
        const section = memberPage.getByRole('region', { name: 'Besluiten over meldingen' });
        await expect(section).toContainText(decision);
        await expect(section).toContainText('Grond: oplichting');
        await expect(section.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
      }
      await reportedPage.screenshot({ path: `test-results/profile-statements-${width}.png`, fullPage: true });
      for (const c of contexts) await c.close();
    });
  });
}

test('the photo queue pages on past the first page, and the chat photos tab is decided by keyboard too', async ({ page }) => {
  // More profile photos waiting than one page holds, and one chat photo, written to the suite's database
  // (on velvet: the other tests' queue is spetter's, and its members' photos stay on its first page).
  const { profile, chat } = await withDatabase(async (db) => {
    const target = { db: { db }, services: { mediaDir: tmpdir() } };
    const profile = [];
    for (let i = 0; i <= PHOTO_PAGE_DEFAULT; i++) profile.push(await rawPendingPhoto(target, 'velvet'));
    return { profile, chat: await rawPendingChatPhoto(target, 'velvet') };
  });
  await logInToConsole(page, await addConsoleStaff('moderator', ['velvet']), '/console/photos?brand=velvet');
  await hydrated(page);
  const tiles = page.getByRole('list').filter({ has: page.locator('[id^="photo-"]') }).getByRole('button');
  await expect(tiles).toHaveCount(PHOTO_PAGE_DEFAULT);
  await page.getByRole('button', { name: 'More photos' }).click();
  await expect(page.locator(`#photo-${profile.at(-1)!.id}`)).toBeVisible();
  expect(await tiles.count()).toBeGreaterThan(PHOTO_PAGE_DEFAULT);

  // The chat photos' tab: the same keys; no bulk approval there.
  await page.getByRole('tab', { name: /Chat photos/ }).click();
  await expect(page.getByRole('tab', { name: /Chat photos/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/queue=chat-photos/);
  const sent = page.locator(`#photo-${chat.id}`);
  await expect(sent).toBeVisible();
  await expect(page.getByRole('button', { name: /Approve all/ })).toHaveCount(0);
  await sent.click();
  await page.keyboard.press('a');
  await expect(page.getByText(/^Photo of Lid\d+ approved\.$/)).toBeVisible();
  await expect(sent).toHaveCount(0);
  const decided = await withDatabase((db) => db.selectFrom('messages').select('photo_status').where('id', '=', chat.id).executeTakeFirstOrThrow());
  expect(decided.photo_status).toBe('active');
});
