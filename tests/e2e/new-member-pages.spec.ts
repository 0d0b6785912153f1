import type { Browser, Page } from '@playwright/test';
import { test, expect, brandUrl, callApi, confirmEntryWarning, MEMBER_PASSWORD } from '../support/e2e.ts';
import { linkIn, mailTo } from '../support/mail.ts';
import { say, rgbOf } from '../support/site.ts';
import { PAYMENT_METHODS } from '../../src/lib/payment-methods.ts';

/**
 * What a new member meets on the demo brands (issue 21): no age warning over the goodbye page,
 * velvet's languages in the phone's header, the fictional marker in words in the chat list, the
 * company's own business register and only the accepted payment methods in the footer, and
 * Belgian places in the page's language.
 */

const SCREENSHOTS = 'test-results/new-member-pages';
let counter = 0;

/** A member signed up and confirmed in a browser of its own. */
async function member(browser: Browser, brand: string, fields: Record<string, unknown>, viewport = { width: 375, height: 740 }): Promise<{ page: Page; profileId: number }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  counter += 1;
  const email = `nieuw-${process.pid}-${Date.now().toString(36)}-${counter}@example.nl`;
  const res = await callApi(page, brand, 'POST', '/api/signup.php', { email, password: MEMBER_PASSWORD, name: `Nieuw${counter}`, date_of_birth: '1986-02-03', gender: 'male', sexuality: 'hetero', country: 'NL', ...fields });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  await expect.poll(() => linkIn(mailTo(email), /\/api\/activate\.php$/), { timeout: 10_000 }).toBeTruthy();
  await page.goto(brandUrl(brand, linkIn(mailTo(email), /\/api\/activate\.php$/)!));
  return { page, profileId: res.json.user.profile.id };
}

test('the account-deleted page opens without the age warning over it', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(brandUrl('spetter', '/account-deleted'));
  await expect(page.getByRole('heading', { level: 1, name: say('nl', 'route_account_deleted') })).toBeVisible();
  await page.waitForLoadState('load');
  await expect(page.getByRole('dialog', { name: say('nl', 'entry_title') })).toBeHidden();
  await page.screenshot({ path: `${SCREENSHOTS}/spetter-account-deleted-375.png` });
  // Any other page still asks once.
  await page.goto(brandUrl('spetter', '/pricing'));
  await expect(page.getByRole('dialog', { name: say('nl', 'entry_title') })).toBeVisible();
});

test("on a phone velvet's header offers its languages; choosing one shows the page in it", async ({ page, context }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  // A Swiss visitor may read all three of velvet's languages (SPEC §1).
  await context.addCookies([{ name: 'country', value: 'CH', url: brandUrl('velvet', '/') }]);
  await page.goto(brandUrl('velvet', '/pricing'));
  await confirmEntryWarning(page);
  const header = page.getByRole('banner');
  const menu = header.locator('details.lang-menu-compact');
  const summary = header.getByLabel(`${say('en', 'nav_language')}: English`);
  await expect(summary).toBeVisible();
  // The header stays one clean row: the brand's name and the login link beside the menu, nothing sideways.
  await expect(header.getByRole('link', { name: say('en', 'nav_login') })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const box = await header.boundingBox();
  expect(box!.height).toBeLessThanOrEqual(72);
  await summary.click();
  await expect(menu.getByRole('link')).toHaveText(['English', 'Deutsch', 'français']);
  await page.screenshot({ path: `${SCREENSHOTS}/velvet-header-375-languages.png` });
  await menu.getByRole('link', { name: 'Deutsch' }).click();
  await expect(page).toHaveURL(brandUrl('velvet', '/pricing'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('banner').getByLabel(`${say('de', 'nav_language')}: Deutsch`)).toBeVisible();

  // On a prerendered page an Austrian visitor is offered the languages of Austria only.
  await context.addCookies([{ name: 'country', value: 'AT', url: brandUrl('velvet', '/') }, { name: 'locale', value: 'en', url: brandUrl('velvet', '/') }]);
  await page.goto(brandUrl('velvet', '/pages/faq'));
  await page.getByRole('banner').getByLabel(`${say('en', 'nav_language')}: English`).click();
  await expect(page.getByRole('banner').locator('details.lang-menu-compact').getByRole('link')).toHaveText(['English', 'Deutsch']);
});

test('the chat list marks a fictional profile in words, in the warning colour, with the warning for screen readers', async ({ browser }) => {
  const { page } = await member(browser, 'spetter', {});
  const profiles = (await callApi(page, 'spetter', 'GET', '/api/members.php')).json.profiles as { id: number; name: string; fictional: boolean }[];
  const fictional = profiles.find((p) => p.fictional)!;
  expect(fictional, 'the demo seed has fictional profiles').toBeTruthy();
  const sent = await callApi(page, 'spetter', 'POST', '/api/chat.php', { profile_id: fictional.id, text: 'Hoi!', client_id: `fictief-${Date.now()}` });
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);

  await page.goto(brandUrl('spetter', '/chats'));
  const item = page.locator(`[data-chat="${sent.json.conversation_id}"]`);
  const marker = item.locator('[data-fictional]');
  await expect(marker).toBeVisible();
  await expect(marker).toContainText('Fictief profiel');
  await expect(marker).toContainText(say('nl', 'fictional_warning'));
  // The brand's warning colour behind the words.
  const warning = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--c-warning').trim());
  const background = rgbOf(await marker.evaluate((el) => getComputedStyle(el).backgroundColor));
  const probe = await page.evaluate((colour) => {
    const el = Object.assign(document.createElement('span'), { style: `color: ${colour}` });
    document.body.append(el);
    const rgb = getComputedStyle(el).color;
    el.remove();
    return rgb;
  }, warning || 'rgb(0, 0, 0)');
  if (warning) expect(background).toEqual(rgbOf(probe));
  await expect(item.getByRole('link')).toHaveAccessibleName(new RegExp(say('nl', 'fictional_warning').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await page.screenshot({ path: `${SCREENSHOTS}/spetter-chat-list-375.png` });
});

test("the footer names the company's own business register and lists only the methods the checkout offers", async ({ page }) => {
  await page.goto(brandUrl('velvet', '/pricing'));
  await confirmEntryWarning(page);
  const velvetFooter = page.getByRole('contentinfo');
  await expect(velvetFooter).toContainText(say('en', 'registry_ie', { number: 'GB-12873645' }));
  await expect(velvetFooter).not.toContainText('KvK');

  await page.goto(brandUrl('spetter', '/pricing'));
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText('KvK 81234567');
  const listed = await footer.getByRole('list', { name: say('nl', 'footer_payment_methods') }).getByRole('listitem').allInnerTexts();
  expect(listed).toContain('iDEAL');
  expect(listed).toContain('Bancontact');
  expect(listed).not.toContain('TWINT');
  // The same methods a Dutch and a Belgian member are offered at the checkout.
  const offered = new Set<string>();
  for (const country of ['NL', 'BE']) {
    const { page: buyer } = await member(page.context().browser()!, 'spetter', { country, gender: 'male' });
    await buyer.goto(brandUrl('spetter', '/credits'));
    await expect(buyer.locator('[data-method]').first()).toBeVisible();
    for (const id of await buyer.locator('[data-method]').evaluateAll((els) => els.map((el) => el.getAttribute('data-method')!))) offered.add(PAYMENT_METHODS.find((m) => m.id === id)!.name);
    await buyer.context().close();
  }
  expect(new Set(listed.map((m) => m.trim()))).toEqual(offered);
});

test('a Belgian member shows with Dutch place names on spetter', async ({ browser }) => {
  const { page: her, profileId } = await member(browser, 'spetter', { gender: 'female', country: 'BE', region: 'Luxembourg', city: 'Arlon' });
  await her.context().close();
  const { page } = await member(browser, 'spetter', { gender: 'male' });
  await page.goto(brandUrl('spetter', `/members/${profileId}`));
  await expect(page.getByRole('main')).toContainText('Aarlen, Luxemburg');
  await expect(page.getByRole('main')).not.toContainText('Arlon');
});

test("the server draws each member's own chat list, never the one of the member before", async ({ browser }) => {
  const conversationOf = async (page: Page) => {
    const profiles = (await callApi(page, 'spetter', 'GET', '/api/members.php')).json.profiles as { id: number }[];
    const sent = await callApi(page, 'spetter', 'POST', '/api/chat.php', { profile_id: profiles[0]!.id, text: 'Hallo daar', client_id: `eigen-${Date.now()}-${counter}` });
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    return sent.json.conversation_id as number;
  };
  // The page as the server sends it, before any script runs (fetched from the brand's own page:
  // Node cannot resolve <brand>.localhost, Chromium can).
  const serverHtml = (page: Page) => page.evaluate(async () => (await fetch('/chats')).text());
  const first = await member(browser, 'spetter', {});
  const firstChat = await conversationOf(first.page);
  const firstHtml = await serverHtml(first.page);
  expect(firstHtml).toContain(`data-chat="${firstChat}"`);

  const second = await member(browser, 'spetter', {});
  const secondChat = await conversationOf(second.page);
  const html = await serverHtml(second.page);
  expect(html).toContain(`data-chat="${secondChat}"`);
  expect(html).not.toContain(`data-chat="${firstChat}"`);
});
