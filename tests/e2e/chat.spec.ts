import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { hydrated } from '../support/console-e2e.ts';
import { test, expect, brandUrl, callApi, confirmEntryWarning, approveChatPhotosOf, grantCredits, nextStream, openListening, activeChatMember as member, type ChatMember as Member } from '../support/e2e.ts';

/**
 * Browser tests of the chat paid with credits (SPEC §2, §4, §9): two members in two browsers,
 * messages, photos and gifts arriving live, the typing indicator, credits, unread counts and the
 * title prefix, the free member's conversation limit and removing a chat.
 */

let counter = 0;

const unique = (base: string) => `${base}${Date.now().toString(36).slice(-4)}${++counter}`;
const credits = async (page: Page) => (await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user.credits as number;
const settings = async (page: Page) => (await callApi(page, 'spetter', 'GET', '/api/settings.php')).json.settings;

test('a message, a gift and a photo arrive live with the typing indicator; credits, unread counts and the title follow', async ({ browser }) => {
  // Two members in browsers of their own, signed up side by side.
  const [anna, bob] = await Promise.all([member(browser, unique('Anna'), 'female'), member(browser, unique('Bob'), 'male', 100)]);
  const brand = await settings(bob.page);
  const start = await credits(bob.page);

  // Anna waits on her chats page, listening: what Bob does from now on reaches her live (no timer).
  await openListening(anna.page, brandUrl('spetter', '/chats'));
  await expect(anna.page.getByText('Nog geen gesprekken')).toBeVisible();

  // Bob writes to Anna from her profile; his chat page listens before Anna reads and answers.
  await bob.page.goto(brandUrl('spetter', `/members/${anna.profileId}`));
  await confirmEntryWarning(bob.page);
  await hydrated(bob.page);
  const bobListening = nextStream(bob.page);
  await bob.page.getByRole('link', { name: 'Bericht sturen' }).click();
  await expect(bob.page).toHaveURL(brandUrl('spetter', `/members/${anna.profileId}/chat`));
  await bobListening;
  await expect(bob.page.getByText(`Zeg hallo tegen ${anna.name}!`)).toBeVisible();
  // An icebreaker fills in the message; Bob sends his own words.
  await bob.page.getByRole('button', { name: /^Hoi! Je profiel maakte me nieuwsgierig/ }).click();
  const input = bob.page.getByRole('textbox', { name: 'Je bericht' });
  await expect(input).toHaveValue(/^Hoi! Je profiel maakte me nieuwsgierig/);
  await input.fill('Hoi Anna, zin in koffie?');
  await input.press('Enter');
  await expect(bob.page.locator('[data-message][data-mine]')).toContainText('Hoi Anna, zin in koffie?');
  // The address becomes the conversation's, without a reload.
  await expect(bob.page).toHaveURL(/\/chats\/\d+$/);
  const conversationId = Number(new URL(bob.page.url()).pathname.split('/').pop());
  await expect(bob.page.locator('[data-chat-credits]')).toHaveText(String(start - brand.message_credits));
  expect(await credits(bob.page)).toBe(start - brand.message_credits);

  // Anna's open list gets the conversation with its unread count; the title counts it.
  const item = anna.page.locator(`[data-chat="${conversationId}"]`);
  await expect(item).toContainText('Hoi Anna, zin in koffie?');
  await expect(item).toContainText('1');
  await expect(anna.page).toHaveTitle(/^\(1\) /);
  await item.getByRole('link').click();
  await expect(anna.page).toHaveURL(brandUrl('spetter', `/chats/${conversationId}`));
  await expect(anna.page.locator('[data-message]').last()).toContainText('Hoi Anna, zin in koffie?');
  await expect(anna.page).not.toHaveTitle(/^\(\d+\) /);
  // Bob sees that she read it.
  await expect(bob.page.locator('[data-receipt]')).toContainText('Gelezen');

  // Anna types: Bob sees it; her answer arrives live.
  const annaInput = anna.page.getByRole('textbox', { name: 'Je bericht' });
  await annaInput.pressSequentially('Graag', { delay: 30 });
  await expect(bob.page.locator('[data-typing]')).toContainText(`${anna.name} typt`);
  await annaInput.press('Enter');
  await expect(bob.page.locator('[data-message]:not([data-mine])').last()).toContainText('Graag');
  await expect(bob.page.locator('[data-typing]')).toHaveCount(0);

  // A gift from the catalogue, with its price; it arrives live.
  await bob.page.getByRole('button', { name: 'Cadeau sturen' }).click();
  const rose = bob.page.getByRole('dialog').locator('[data-gift="rose"]');
  await expect(rose).toContainText(`${brand.gift_credits} credits`);
  await rose.click();
  await expect(anna.page.locator('[data-message] [data-gift="rose"]')).toContainText('Roos');

  // A photo, re-encoded by the server; it arrives live.
  const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 220, g: 120, b: 60 } } }).jpeg().toBuffer();
  await bob.page.locator('[data-chat-photo]').setInputFiles({ name: 'zon.jpg', mimeType: 'image/jpeg', buffer: photo });
  // spetter screens photos before the recipient sees them (issue 22): a placeholder arrives live,
  // and once a moderator approved it the photo shows.
  await expect(anna.page.locator('[data-message] [data-photo-placeholder]')).toHaveText('Foto wordt gecontroleerd');
  await expect(bob.page.locator('[data-message] [data-photo-screening]')).toHaveText('Foto wordt gecontroleerd');
  await approveChatPhotosOf(bob.userId);
  await anna.page.reload();
  await expect(anna.page.locator('[data-message] img[src$="-t.webp"]')).toBeVisible();

  const spent = brand.message_credits + brand.gift_credits + brand.photo_credits;
  await expect(bob.page.locator('[data-chat-credits]')).toHaveText(String(start - spent));
  expect(await credits(bob.page)).toBe(start - spent);
  // Anna read everything as it came in: nothing unread.
  expect((await callApi(anna.page, 'spetter', 'GET', '/api/chats.php')).json.total_unread).toBe(0);
});

test('without enough credits the message is refused with the way to credits; a free member\'s third conversation is refused with the way to premium', async ({ browser }) => {
  const [bob, ...women] = await Promise.all([member(browser, unique('Bob'), 'male'), member(browser, unique('Ann'), 'female'), member(browser, unique('Bea'), 'female'), member(browser, unique('Cor'), 'female')]);
  const brand = await settings(bob.page);
  // Spend the signup credits down to less than one message.
  const balance = await credits(bob.page);
  await bob.page.goto(brandUrl('spetter', `/members/${women[0]!.profileId}/chat`));
  await confirmEntryWarning(bob.page);
  const input = bob.page.getByRole('textbox', { name: 'Je bericht' });
  for (let i = 0; i < Math.floor(balance / brand.message_credits); i++) {
    await input.fill(`Bericht ${i}`);
    await input.press('Enter');
    await expect(bob.page.locator('[data-message][data-mine]')).toHaveCount(i + 1);
  }
  await input.fill('Nog eentje');
  await input.press('Enter');
  const notice = bob.page.locator('[data-chat-notice="danger"]');
  await expect(notice).toContainText('Je hebt onvoldoende credits');
  await expect(notice.getByRole('link', { name: 'Credits kopen' })).toHaveAttribute('href', '/credits');
  // Nothing was sent; the text is kept.
  await expect(input).toHaveValue('Nog eentje');

  await grantCredits(bob.userId, 50);
  await bob.page.goto(brandUrl('spetter', `/members/${women[1]!.profileId}/chat`));
  await bob.page.getByRole('textbox', { name: 'Je bericht' }).fill('Hallo Bea');
  await bob.page.getByRole('button', { name: 'Versturen' }).click();
  await expect(bob.page).toHaveURL(/\/chats\/\d+$/);
  // The third conversation of a free member: refused before writing, with the way to premium.
  await bob.page.goto(brandUrl('spetter', `/members/${women[2]!.profileId}/chat`));
  const premium = bob.page.locator('[data-chat-notice="warning"]');
  await expect(premium).toContainText('Deze functie is alleen beschikbaar voor premium leden');
  // …how many a free member starts, and what premium costs: the first purchase, the cheapest bundle.
  await expect(premium).toContainText(/Als gratis lid start je 2 gesprekken\. Je eerste creditaankoop, vanaf €\s?14,99, maakt je premium lid\./);
  await expect(premium.getByRole('link', { name: 'Word premium' })).toHaveAttribute('href', '/premium');
  await expect(bob.page.getByRole('textbox', { name: 'Je bericht' })).toBeDisabled();
});

test('removing a chat takes it away at once; when the server fails, an alert shows the error and the list comes back', async ({ browser }) => {
  const [anna, bob, eve] = await Promise.all([member(browser, unique('Anna'), 'female'), member(browser, unique('Bob'), 'male', 50), member(browser, unique('Eve'), 'female')]);
  for (const other of [anna, eve]) {
    const res = await callApi(bob.page, 'spetter', 'POST', '/api/chat.php', { profile_id: other.profileId, kind: 'text', text: `Hoi ${other.name}`, client_id: `e2e-${other.profileId}-${Date.now()}` });
    expect(res.status).toBe(200);
  }
  await bob.page.goto(brandUrl('spetter', '/chats'));
  await confirmEntryWarning(bob.page);
  const list = bob.page.locator('[data-chat-list] > li');
  await expect(list).toHaveCount(2);

  // The server fails: the chat disappears, the alert shows the error, the list is reloaded.
  await bob.page.route('**/api/chat.php', (route) =>
    route.request().method() === 'DELETE' ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'service_unavailable', message: 'Even niet bereikbaar' } }) }) : route.continue(),
  );
  const alert = new Promise<string>((resolve) => bob.page.once('dialog', (d) => void d.accept().then(() => resolve(d.message()))));
  await list.filter({ hasText: anna.name }).getByRole('button', { name: `Gesprek met ${anna.name} verwijderen` }).click();
  await bob.page.getByRole('dialog').getByRole('button', { name: 'Gesprek verwijderen' }).click();
  expect(await alert).toBe('Even niet bereikbaar');
  await expect(list).toHaveCount(2);

  // Without the failure it is gone for good, on the server too.
  await bob.page.unroute('**/api/chat.php');
  await list.filter({ hasText: anna.name }).getByRole('button', { name: `Gesprek met ${anna.name} verwijderen` }).click();
  const deleted = bob.page.waitForResponse((r) => r.url().endsWith('/api/chat.php') && r.request().method() === 'DELETE');
  await bob.page.getByRole('dialog').getByRole('button', { name: 'Gesprek verwijderen' }).click();
  await expect(list).toHaveCount(1);
  // The list drops it at once; the reload waits for the server's answer (a reload before it
  // would cancel the request).
  expect((await deleted).status()).toBe(200);
  await bob.page.reload();
  await expect(list).toHaveCount(1);
  await expect(list).toContainText(eve.name);
});

test('on a phone the list and the conversation take turns; switching conversations does not reload the page', async ({ browser }) => {
  const [anna, eve, bob] = await Promise.all([member(browser, unique('Anna'), 'female'), member(browser, unique('Eve'), 'female'), member(browser, unique('Bob'), 'male', 50, { width: 375, height: 740 })]);
  for (const other of [anna, eve]) {
    await callApi(bob.page, 'spetter', 'POST', '/api/chat.php', { profile_id: other.profileId, kind: 'text', text: `Hoi ${other.name}`, client_id: `e2e-${other.profileId}-${Date.now()}` });
  }
  await bob.page.goto(brandUrl('spetter', '/chats'));
  await confirmEntryWarning(bob.page);
  // The chat takes its own links once its island is interactive; a click before loads the page.
  await hydrated(bob.page);
  await bob.page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await bob.page.locator('[data-chat-list]').getByRole('link', { name: new RegExp(anna.name) }).click();
  await expect(bob.page.locator('[data-chat-list]')).toBeHidden();
  await expect(bob.page.getByRole('region', { name: `Gesprek met ${anna.name}` })).toBeVisible();
  await bob.page.getByRole('link', { name: 'Terug naar je gesprekken' }).click();
  await expect(bob.page).toHaveURL(brandUrl('spetter', '/chats'));
  await bob.page.locator('[data-chat-list]').getByRole('link', { name: new RegExp(eve.name) }).click();
  await expect(bob.page.getByRole('region', { name: `Gesprek met ${eve.name}` })).toBeVisible();
  expect(await bob.page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  await bob.page.goBack();
  await expect(bob.page.locator('[data-chat-list]')).toBeVisible();
});

test('the push worker is registered with version 2, the opt-in alert is offered until "not now", and a push reloads the chats', async ({ browser }) => {
  const anna = await member(browser, unique('Anna'), 'female');
  await anna.page.context().grantPermissions(['notifications']);
  await anna.page.goto(brandUrl('spetter', '/members'));
  await confirmEntryWarning(anna.page);
  await expect.poll(() => anna.page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.active?.scriptURL ?? '')).toMatch(/\/sw\.js\?v=2$/);
  const alert = anna.page.locator('[data-push-optin]');
  await expect(alert).toContainText('Mis geen bericht');
  await alert.getByRole('button', { name: 'Niet nu' }).click();
  await expect(alert).toBeHidden();
  await anna.page.reload();
  await expect(anna.page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(alert).toBeHidden();

  // The worker tells the page of a push: the chats and likes are reloaded at once.
  const reloaded = anna.page.waitForRequest((r) => r.url().endsWith('/api/chats.php'));
  await anna.page.evaluate(() => navigator.serviceWorker.dispatchEvent(new MessageEvent('message', { data: { type: 'NEW_PUSH_MESSAGE', version: 2 } })));
  await reloaded;
});
