import { test, expect, brandUrl, callApi, confirmEntryWarning, nextStream, openListening, signUpMember, activeChatMember, type ChatMember } from '../support/e2e.ts';

/**
 * Browser tests of the member network (issue 24): spetter shares the pool benelux with Rijpe
 * Dates; velvet is alone. What a member and a visitor of spetter are told, and the setting.
 */

test('a member of spetter finds the setting that names Rijpe Dates and chooses to be shown on Spetter only', async ({ page }) => {
  await signUpMember(page, 'spetter', { name: 'Noor' });
  await page.goto(brandUrl('spetter', '/profile#account'));
  await confirmEntryWarning(page);
  const account = page.locator('#account');
  const own = account.getByRole('switch', { name: 'Alleen op Spetter tonen' });
  await expect(own).not.toBeChecked();
  await expect(own).toHaveAccessibleDescription('Je profiel wordt ook getoond op Rijpe Dates, de andere sites van ons netwerk. Zet dit aan om alleen op Spetter gevonden te worden. Dan zie en bereik je zelf ook alleen leden van Spetter; gesprekken met leden van andere sites blijven leesbaar, maar gesloten tot je dit weer uitzet.');
  await own.check();
  await expect(account.getByText('Opgeslagen.')).toBeVisible();
  // The choice is the member's, kept on the server.
  expect((await callApi(page, 'spetter', 'GET', '/api/user.php')).json.user.own_brand_only).toBe(true);
  await page.reload();
  await expect(page.locator('#account').getByRole('switch', { name: 'Alleen op Spetter tonen' })).toBeChecked();
});

test('a member of a brand alone is offered no such setting', async ({ page }) => {
  await signUpMember(page, 'velvet', { name: 'Olive', country: 'GB' });
  await page.goto(brandUrl('velvet', '/profile#account'));
  await confirmEntryWarning(page);
  await expect(page.locator('#account').getByRole('switch', { name: 'Invisible mode' })).toBeVisible();
  await expect(page.locator('#account').getByRole('switch')).toHaveCount(1);
});

test("the privacy page names the pool's other brand", async ({ page }) => {
  await page.goto(brandUrl('spetter', '/pages/privacy'));
  await confirmEntryWarning(page);
  await expect(page.getByText('Je profiel wordt ook getoond op de andere sites van ons netwerk: Rijpe Dates. In je instellingen kun je kiezen om alleen op Spetter getoond te worden.')).toBeVisible();
  await page.goto(brandUrl('rijpedates', '/pages/privacy'));
  await confirmEntryWarning(page);
  await expect(page.getByText('Je profiel wordt ook getoond op de andere sites van ons netwerk: Spetter. In je instellingen kun je kiezen om alleen op Rijpe Dates getoond te worden.')).toBeVisible();
});

test('a member of spetter finds, likes and writes to a member of Rijpe Dates, who answers on her own brand; both see it live and each pays their own price', async ({ browser }) => {
  const stamp = Date.now().toString(36).slice(-4);
  const sam = await activeChatMember(browser, `Sam${stamp}`, 'male', 50);
  const ria = await activeChatMember(browser, `Ria${stamp}`, 'female', 50, undefined, { brand: 'rijpedates', dateOfBirth: '1976-04-02' });
  const price = async (m: ChatMember, brand: string) => (await callApi(m.page, brand, 'GET', '/api/settings.php')).json.settings.message_credits as number;
  const credits = async (m: ChatMember, brand: string) => (await callApi(m.page, brand, 'GET', '/api/user.php')).json.user.credits as number;
  expect([await price(sam, 'spetter'), await price(ria, 'rijpedates')]).toEqual([5, 6]);
  const samStart = await credits(sam, 'spetter');
  const riaStart = await credits(ria, 'rijpedates');

  // Sam finds Ria on spetter, at her address on his own brand, and likes her.
  await sam.page.goto(brandUrl('spetter', '/members'));
  await confirmEntryWarning(sam.page);
  await sam.page.locator(`a[href="/members/${ria.profileId}"]`).first().click();
  await expect(sam.page).toHaveURL(brandUrl('spetter', `/members/${ria.profileId}`));
  await expect(sam.page.getByRole('heading', { name: new RegExp(ria.name) })).toBeVisible();
  expect((await callApi(sam.page, 'spetter', 'POST', '/api/like.php', { profile_id: ria.profileId })).status).toBe(200);

  // Ria listens on rijpedates; Sam's chat page listens before she answers.
  await openListening(ria.page, brandUrl('rijpedates', '/chats'));

  const samListening = nextStream(sam.page);
  await sam.page.getByRole('link', { name: 'Bericht sturen' }).click();
  const input = sam.page.getByRole('textbox', { name: 'Je bericht' });
  await input.fill('Hoi Ria, ik zag je op Spetter!');
  await input.press('Enter');
  await expect(sam.page).toHaveURL(/\/chats\/\d+$/);
  const conversationId = Number(new URL(sam.page.url()).pathname.split('/').pop());
  await samListening;

  // Ria hears of it live on rijpedates and answers there.
  const item = ria.page.locator(`[data-chat="${conversationId}"]`);
  await expect(item).toContainText('Hoi Ria, ik zag je op Spetter!');
  await item.getByRole('link').click();
  await expect(ria.page).toHaveURL(brandUrl('rijpedates', `/chats/${conversationId}`));
  const answer = ria.page.getByRole('textbox', { name: 'Je bericht' });
  await answer.fill('Hoi Sam, leuk!');
  await answer.press('Enter');
  await expect(sam.page.locator('[data-message]').last()).toContainText('Hoi Sam, leuk!');

  expect(await credits(sam, 'spetter')).toBe(samStart - 5);
  expect(await credits(ria, 'rijpedates')).toBe(riaStart - 6);
});

test('a conversation across brands closed by the choice of "own brand only" says so on both sides, not that the profile is inactive', async ({ browser }) => {
  const stamp = Date.now().toString(36).slice(-4);
  const sam = await activeChatMember(browser, `Sam${stamp}`, 'male', 50);
  const ria = await activeChatMember(browser, `Ria${stamp}`, 'female', 50, undefined, { brand: 'rijpedates', dateOfBirth: '1976-04-02' });
  const sent = await callApi(sam.page, 'spetter', 'POST', '/api/chat.php', { profile_id: ria.profileId, kind: 'text', text: 'Hoi Ria', client_id: `e2e-closed-${stamp}` });
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);
  const conversationId = sent.json.conversation_id as number;
  expect((await callApi(ria.page, 'rijpedates', 'PUT', '/api/user.php', { own_brand_only: true })).status).toBe(200);

  for (const [m, brand, other] of [[sam, 'spetter', ria], [ria, 'rijpedates', sam]] as const) {
    await m.page.goto(brandUrl(brand, `/chats/${conversationId}`));
    await confirmEntryWarning(m.page);
    const chat = m.page.getByRole('region', { name: `Gesprek met ${other.name}` });
    await expect(chat.getByText('Hoi Ria', { exact: true })).toBeVisible();
    await expect(m.page.getByText(`Dit gesprek is gesloten: ${other.name} en jij zijn niet meer voor elkaar te zien op deze site.`, { exact: false })).toBeVisible();
    await expect(m.page.getByText('niet meer op deze site', { exact: false })).toHaveCount(0);
  }
});
