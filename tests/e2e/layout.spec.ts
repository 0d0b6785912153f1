/**
 * The layout a member sees at phone (375x667) and desktop (1280x800) width (issue 21, findings 5
 * and 12), measured with the boxes the browser draws: what stands on the first screen, gaps,
 * equal widths and buttons in line.
 */
import type { Browser, Page } from '@playwright/test';
import { test, expect, brandUrl, callApi, confirmEntryWarning, activeChatMember, MEMBER_PASSWORD } from '../support/e2e.ts';
import { linkIn, mailTo } from '../support/mail.ts';

const PHONE = { width: 375, height: 667 };
const DESKTOP = { width: 1280, height: 800 };
let counter = 0;

/** A member who just signed up on Spetter in a browser of their own (e-mail confirmed when asked). */
async function newMember(browser: Browser, viewport: { width: number; height: number }, options: { activate?: boolean } = {}): Promise<{ page: Page; profileId: number }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  counter += 1;
  const email = `layout-${process.pid}-${Date.now().toString(36)}-${counter}@example.nl`;
  const res = await callApi(page, 'spetter', 'POST', '/api/signup.php', {
    email,
    password: MEMBER_PASSWORD,
    name: `Lay${Date.now().toString(36).slice(-4)}${counter}`,
    date_of_birth: '1984-03-12',
    gender: 'male',
    sexuality: 'hetero',
    country: 'NL',
    region: 'Noord-Holland',
    city: 'Haarlem',
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  if (options.activate) {
    await expect.poll(() => linkIn(mailTo(email), /\/api\/activate\.php$/), { timeout: 10_000 }).toBeTruthy();
    await page.goto(brandUrl('spetter', linkIn(mailTo(email), /\/api\/activate\.php$/)!));
    await expect(page).toHaveURL(/\/activate\/done/);
  }
  return { page, profileId: res.json.user.profile.id };
}

/** Opens a member page and waits until the banners a new member gets (the push offer comes last, when the browser is idle) are in. */
async function openWithBanners(page: Page, path: string): Promise<void> {
  await page.goto(brandUrl('spetter', path));
  await confirmEntryWarning(page);
  await expect(page.locator('[data-banner="push"]')).toBeAttached();
  await expect(page.locator('[data-banner="time-bonus"]')).toBeAttached();
}

const box = async (locator: ReturnType<Page['locator']>) => (await locator.boundingBox())!;

test('on a phone after signup, /members shows one banner and the first result on the first screen', async ({ browser }) => {
  const { page } = await newMember(browser, PHONE);
  await openWithBanners(page, '/members');
  const first = page.locator('main li a[href^="/members/"]').first();
  await expect(first).toBeVisible();
  const onFirstScreen = [];
  for (const banner of await page.locator('[data-banner]').all()) {
    const b = await banner.boundingBox();
    if (b && b.height > 0 && b.y < PHONE.height) onFirstScreen.push(await banner.getAttribute('data-banner'));
  }
  // Activate comes first by the stated priority; the others wait behind one line.
  expect(onFirstScreen).toEqual(['activate']);
  await expect(page.getByRole('button', { name: /Meer meldingen/ })).toBeVisible();
  expect((await box(first)).y).toBeLessThan(PHONE.height - 40);

  // The line opens the others.
  await page.getByRole('button', { name: /Meer meldingen/ }).click();
  await expect(page.locator('[data-banner="profile-photo"]')).toBeVisible();
  await expect(page.locator('[data-banner="time-bonus"]')).toBeVisible();
  await page.context().close();
});

for (const viewport of [DESKTOP, PHONE]) {
  test(`the swipe card and its buttons fit a ${viewport.width}x${viewport.height} screen after signup, the card as large as fits`, async ({ browser }) => {
    const { page } = await newMember(browser, viewport);
    await openWithBanners(page, '/swipe-game');
    await expect(page.locator('[data-swipe-card]')).toBeVisible();
    const boxes = () => Promise.all(['[data-swipe-card]', '[data-swipe="pass"]', '[data-swipe="like"]'].map((s) => box(page.locator(s))));
    // The deck follows the banners as they come in.
    await expect.poll(async () => (await boxes()).every((b) => b.y >= 0 && b.y + b.height <= viewport.height && b.x >= 0 && b.x + b.width <= viewport.width)).toBe(true);
    const [card, pass, like] = await boxes();
    const lowest = Math.max(...[card!, pass!, like!].map((b) => b.y + b.height));
    // As large as fits: what stands lowest reaches the foot of the screen (less a small margin),
    // unless the card is as wide as it may be (28rem).
    expect(lowest >= viewport.height - 24 || Math.round(card!.width) >= 448, `card ${Math.round(card!.width)}x${Math.round(card!.height)} at ${Math.round(card!.y)}, lowest ${Math.round(lowest)}`).toBe(true);
    // The buttons' row (from pass's left edge to like's right edge) is centred on the card.
    expect(Math.abs((pass!.x + like!.x + like!.width) / 2 - (card!.x + card!.width / 2))).toBeLessThanOrEqual(1);
    if (viewport === DESKTOP) {
      // Beside the card, as the drag goes: pass on the left, like on the right.
      expect(pass!.x + pass!.width).toBeLessThan(card!.x);
      expect(like!.x).toBeGreaterThan(card!.x + card!.width);
    } else {
      // On a phone they overlap the card's foot, and the card's words stand above them.
      expect(pass!.y).toBeLessThan(card!.y + card!.height);
      const words = await box(page.locator('[data-swipe-card] h2'));
      expect(words.y + words.height).toBeLessThanOrEqual(Math.min(pass!.y, like!.y));
    }
    await page.context().close();
  });
}

test('on a phone the chat gives the message the width: one line for the empty box, the send button and the tools whole on the screen', async ({ browser }) => {
  const { page } = await newMember(browser, PHONE, { activate: true });
  await page.goto(brandUrl('spetter', '/members'));
  await confirmEntryWarning(page);
  const href = await page.locator('main li a[href^="/members/"]').first().getAttribute('href');
  const sent = await callApi(page, 'spetter', 'POST', '/api/chat.php', { profile_id: Number(href!.split('/').pop()), kind: 'text', text: 'Hoi! Ik zag je profiel en dacht: die wil ik leren kennen. Zin in een drankje deze week?', client_id: `layout-${Date.now()}` });
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);
  await page.goto(brandUrl('spetter', `/chats/${sent.json.conversation_id}`));
  const input = page.getByRole('textbox', { name: 'Je bericht' });
  await expect(input).toBeEnabled();
  const field = await box(input);
  expect(field.width).toBeGreaterThanOrEqual(PHONE.width * 0.7);
  // The placeholder on one line: the empty box is one line high.
  expect(field.height).toBeLessThanOrEqual(48);
  const controls = [page.getByRole('button', { name: 'Versturen' }), page.getByRole('button', { name: 'Foto sturen' }), page.getByRole('button', { name: 'Cadeau sturen' }), input];
  for (const control of controls) {
    const b = await box(control);
    expect(b.x >= 0 && b.y >= 0 && b.x + b.width <= PHONE.width && b.y + b.height <= PHONE.height, JSON.stringify(b)).toBe(true);
    expect(Math.min(b.width, b.height)).toBeGreaterThanOrEqual(40);
  }
  // The messages keep most of the screen, and nothing is cut sideways.
  expect((await box(page.locator('[data-messages]'))).height).toBeGreaterThanOrEqual(PHONE.height / 2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
  await page.context().close();
});

for (const viewport of [DESKTOP, PHONE]) {
  test(`at ${viewport.width} px the profile's cards stand apart and the notifications' cards are one width`, async ({ browser }) => {
    const { page } = await newMember(browser, viewport);
    await page.goto(brandUrl('spetter', '/profile'));
    await expect(page.locator('#account')).toBeVisible();
    const sections = ['#photos', '#profile', '#location', '#account', '#delete'];
    for (let i = 1; i < sections.length; i++) {
      const above = await box(page.locator(sections[i - 1]!));
      const below = await box(page.locator(sections[i]!));
      expect(below.y - (above.y + above.height), `${sections[i - 1]} to ${sections[i]}`).toBeGreaterThanOrEqual(8);
    }

    await page.goto(brandUrl('spetter', '/notifications'));
    await expect(page.getByRole('region', { name: 'Geblokkeerde leden' })).toBeVisible();
    const cards = page.locator('main section.card');
    // E-mail, push and blocked members: the first two come in with the island.
    await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(3);
    const widths = await cards.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().width)));
    expect(new Set(widths).size, widths.join(' ')).toBe(1);
    await page.context().close();
  });
}

test('a profile\'s like, message and gift buttons are one row at 1280 px and equal at 375 px', async ({ browser }) => {
  const { page } = await newMember(browser, DESKTOP, { activate: true });
  await page.goto(brandUrl('spetter', '/members'));
  const href = await page.locator('main li a[href^="/members/"]').first().getAttribute('href');
  await page.goto(brandUrl('spetter', href!));
  const like = page.locator('[data-like]');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like).toContainText('Like intrekken');
  const buttons = [like, page.locator('[data-message-button]'), page.locator('[data-gift-button]')];
  const wide = await Promise.all(buttons.map(box));
  expect(wide.map((b) => Math.round(b.y))).toEqual(Array(3).fill(Math.round(wide[0]!.y)));

  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  const narrow = await Promise.all(buttons.map(box));
  expect(narrow.map((b) => Math.round(b.width))).toEqual(Array(3).fill(Math.round(narrow[0]!.width)));
  expect(narrow.map((b) => Math.round(b.y))).toEqual(Array(3).fill(Math.round(narrow[0]!.y)));
  await page.context().close();
});

test('at 1280 px a profile\'s like, message and gift labels stand on one line in each of Velvet\'s languages', async ({ browser }) => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  counter += 1;
  const res = await callApi(page, 'velvet', 'POST', '/api/signup.php', { email: `layout-${process.pid}-${Date.now().toString(36)}-${counter}@example.nl`, password: MEMBER_PASSWORD, name: `Vel${Date.now().toString(36).slice(-4)}${counter}`, date_of_birth: '1984-03-12', gender: 'male', sexuality: 'hetero', country: 'GB' });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const profileId = (await callApi(page, 'velvet', 'GET', '/api/members.php')).json.profiles[0].id;
  // Liked, the like button shows its longest label ("Like zurücknehmen").
  expect((await callApi(page, 'velvet', 'POST', '/api/like.php', { profile_id: profileId })).status).toBe(200);
  const buttons = page.locator('[data-profile-main-actions] > *');
  for (const locale of ['en', 'de', 'fr']) {
    await page.goto(brandUrl('velvet', `/lang-config?locale=${locale}&next=/members/${profileId}`));
    await expect(page).toHaveURL(new RegExp(`/members/${profileId}$`));
    await confirmEntryWarning(page);
    await expect(page.locator('[data-like]')).toHaveAttribute('aria-pressed', 'true');
    // The lines of each label's text, as the browser broke it.
    const lines = await buttons.evaluateAll((els) =>
      els.map((el) => {
        const range = document.createRange();
        range.selectNodeContents([...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim())!);
        return `${el.textContent}: ${new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size}`;
      }),
    );
    expect(lines, locale).toEqual(lines.map((line) => line.replace(/\d+$/, '1')));
  }
  await context.close();
});

test('a blocked profile says once that it is blocked', async ({ browser }) => {
  const { page } = await newMember(browser, DESKTOP, { activate: true });
  await page.goto(brandUrl('spetter', '/members'));
  const href = await page.locator('main li a[href^="/members/"]').first().getAttribute('href');
  await page.goto(brandUrl('spetter', href!));
  await page.getByRole('button', { name: 'Blokkeren' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Blokkeren' }).click();
  await expect(page.getByRole('button', { name: 'Deblokkeren' })).toBeVisible();
  await expect(page.locator('main').getByText(/geblokkeerd/)).toHaveCount(1);
  await page.context().close();
});

for (const viewport of [DESKTOP, PHONE]) {
  test(`at ${viewport.width} px the match finder's like buttons stand at one height in a row`, async ({ browser }) => {
    const { page, profileId } = await newMember(browser, viewport, { activate: true });
    // Interests shared with some suggestions and not others give cards reasons of different lengths.
    const interests = ['beach', 'wine', 'cooking', 'dancing', 'beer', 'barbecue', 'music'];
    const saved = await callApi(page, 'spetter', 'PUT', '/api/profile.php', { interests });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    // One suggestion is sure to stand first with the most reasons (she liked him, and shares his
    // interests), whatever members the other tests made: the first row always mixes lengths.
    const fan = await activeChatMember(browser, `Fan${Date.now().toString(36).slice(-4)}`, 'female', 0, viewport, { dateOfBirth: '1985-06-01' });
    expect((await callApi(fan.page, 'spetter', 'PUT', '/api/profile.php', { interests })).status).toBe(200);
    expect((await callApi(fan.page, 'spetter', 'POST', '/api/like.php', { profile_id: profileId })).status).toBe(200);
    await page.goto(brandUrl('spetter', '/match-finder'));
    await confirmEntryWarning(page);
    const cards = await page.locator('[data-suggestion]').all();
    expect(cards.length).toBeGreaterThanOrEqual(2);
    const rows = new Map<number, { buttons: number[]; reasons: number[] }>();
    for (const card of cards) {
      const top = Math.round((await box(card)).y);
      const row = rows.get(top) ?? { buttons: [], reasons: [] };
      row.buttons.push(Math.round((await box(card.getByRole('button'))).y));
      // The lines the reasons take (their list itself grows to the row's height).
      row.reasons.push(await card.locator('[data-reason]').evaluateAll((els) => new Set(els.map((el) => Math.round(el.getBoundingClientRect().y))).size));
      rows.set(top, row);
    }
    // The case that matters is there: a row whose cards' reasons take a different number of lines.
    expect([...rows.values()].some((row) => new Set(row.reasons).size > 1)).toBe(true);
    for (const [top, row] of rows) expect(new Set(row.buttons).size, `row at ${top}: ${row.buttons.join(' ')}`).toBe(1);
    await page.context().close();
  });
}

test('the pricing cards\' buttons stand at one height, whatever badge a card has', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto(brandUrl('spetter', '/pricing'));
  await confirmEntryWarning(page);
  const ys = await page.locator('main a[href^="/credits/"]').evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().y)));
  expect(ys.length).toBe(3);
  expect(new Set(ys).size, ys.join(' ')).toBe(1);
});

for (const viewport of [DESKTOP, PHONE]) {
  test(`at ${viewport.width} px the swipe lander's buttons are inline, each on one line`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto(brandUrl('spetter', '/landers/tinderswipe'));
    await confirmEntryWarning(page);
    const pass = await box(page.locator('[data-swipe-action="pass"]'));
    const like = await box(page.locator('[data-swipe-action="like"]'));
    expect(Math.round(pass.y)).toBe(Math.round(like.y));
    expect(Math.round(pass.height)).toBe(Math.round(like.height));
    // One line of text: the glyph stands beside the word, not above it.
    const lines = await page.locator('[data-swipe-action]').evaluateAll((els) =>
      els.map((el) => {
        const style = getComputedStyle(el);
        return el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) <= parseFloat(style.lineHeight) * 1.3;
      }),
    );
    expect(lines).toEqual([true, true]);
  });
}

test('the premium page keeps its ticks and words inside the card on a phone', async ({ browser }) => {
  const { page } = await newMember(browser, PHONE);
  await page.goto(brandUrl('spetter', '/premium'));
  const card = await box(page.locator('main section.card').first());
  const ticks = page.locator('main section.card .i-tabler-circle-check');
  expect(await ticks.count()).toBe(4);
  for (const tick of await ticks.all()) {
    await expect(tick).toBeVisible();
    const b = await box(tick);
    expect(b.x + b.width).toBeLessThanOrEqual(card.x + card.width - 8);
  }
  const cells = await page.locator('main section.card tbody td:last-child').evaluateAll((els) => els.map((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right));
  for (const right of cells) expect(right).not.toBe(false);
  for (const right of cells) expect(right as number).toBeLessThanOrEqual(card.x + card.width);
  await page.context().close();
});

test('velvet\'s French signup fits its header on a phone: the whole brand and "Se connecter" on one line', async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE });
  await context.addCookies([{ name: 'locale', value: 'fr', url: brandUrl('velvet', '/') }]);
  const page = await context.newPage();
  await page.goto(brandUrl('velvet', '/signup'));
  await confirmEntryWarning(page);
  const modal = page.locator('#signup-modal');
  await expect(modal).toBeVisible();
  const brand = modal.locator('a > span').first();
  await expect(brand).toHaveText('Velvet Nights');
  expect(await brand.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const login = modal.getByRole('link', { name: 'Se connecter' });
  const oneLine = await login.evaluate((el) => {
    const style = getComputedStyle(el);
    return el.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) <= parseFloat(style.lineHeight) * 1.3;
  });
  expect(oneLine).toBe(true);
  await context.close();
});
