import type { Page } from '@playwright/test';
import { test, expect, brandUrl, confirmEntryWarning, withDatabase } from '../support/e2e.ts';
import { seriousViolations } from '../support/a11y.ts';
import { readAttribution } from '../../src/lib/attribution.ts';

/**
 * The consent bar of a lander (issue 23, docs/API.md "Consent") on a phone: a visitor who came
 * with a network's parameters is asked, by keyboard as well as by touch, before they go into a
 * cookie; refusing still credits the signup of the visit to the network; accepting keeps them.
 */

const PHONE = { width: 375, height: 667 };
const LANDER = '/landers/alonetonight';

// A phone's browser: headless Chromium's own user agent is a bot's to the runtime (isbot), whose visits are not counted.
test.use({ viewport: PHONE, userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36' });
test.describe.configure({ timeout: 240_000 });

/** The brand's cookies in the browser, by name. */
async function cookies(page: Page): Promise<Record<string, string>> {
  return Object.fromEntries((await page.context().cookies()).map((c) => [c.name, decodeURIComponent(c.value)]));
}

/** The signup modal's steps as a visitor walks them (tests/e2e/accounts-signup.spec.ts). */
async function signUpInModal(page: Page, email: string): Promise<void> {
  const modal = page.getByRole('dialog');
  await expect(modal.getByText('Stap 1 van 5')).toBeVisible({ timeout: 30_000 });
  await modal.getByRole('radio', { name: 'Man' }).check();
  await modal.getByRole('radio', { name: 'Hetero' }).check();
  await modal.getByRole('button', { name: 'Volgende' }).click();
  await modal.getByRole('combobox', { name: 'Dag' }).selectOption('14');
  await modal.getByRole('combobox', { name: 'Maand' }).selectOption({ label: 'maart' });
  await modal.getByRole('combobox', { name: 'Jaar' }).selectOption('1988');
  await modal.getByRole('button', { name: 'Volgende' }).click();
  await modal.getByRole('combobox', { name: 'Land' }).selectOption({ label: 'Nederland' });
  await modal.getByRole('combobox', { name: 'Provincie' }).selectOption({ label: 'Noord-Holland' });
  await modal.getByRole('textbox', { name: /Woonplaats/ }).fill('Haarlem');
  await modal.getByRole('button', { name: 'Volgende' }).click();
  await modal.getByRole('textbox', { name: 'E-mailadres' }).fill(email);
  await modal.getByLabel('Wachtwoord', { exact: true }).fill('zomer-in-haarlem');
  await modal.getByRole('button', { name: 'Volgende' }).click();
  await modal.getByRole('textbox', { name: 'Profielnaam' }).fill(`Bram${Math.floor(Math.random() * 1e5)}`);
  await modal.getByRole('checkbox', { name: /ga akkoord met de algemene voorwaarden/ }).check();
  await modal.getByRole('button', { name: 'Gratis account aanmaken' }).click();
  await expect(modal.getByRole('heading', { name: /^Welkom, / })).toBeVisible({ timeout: 30_000 });
}

test('a visitor from a network refuses the cookie by keyboard, signs up from the lander, and the member is still the network\'s', async ({ page }) => {
  const clickid = `ck-${Date.now()}`;
  const hostile = encodeURIComponent('"><script>window.hacked=1</script>');
  await page.goto(brandUrl('spetter', `${LANDER}?network=adnet&clickid=${clickid}&sub1=${hostile}`));
  await confirmEntryWarning(page);

  const bar = page.getByRole('region', { name: 'Cookiekeuze' });
  await expect(bar).toBeVisible();
  await expect(bar.getByRole('link', { name: 'Cookiebeleid' })).toHaveAttribute('href', '/pages/cookies');
  const refuse = bar.getByRole('button', { name: 'Weigeren' });
  const accept = bar.getByRole('button', { name: 'Toestaan' });
  // Equal prominence: the same size and look.
  const [r, a] = [(await refuse.boundingBox())!, (await accept.boundingBox())!];
  expect(Math.abs(r.width - a.width)).toBeLessThan(2);
  expect(r.height).toBe(a.height);
  expect(await refuse.getAttribute('class')).toBe(await accept.getAttribute('class'));
  // The call to sign up stays in the first screen, under nothing.
  // (The lander runs an experiment: the variant's own words; its first call is marked data-cta.)
  const cta = page.locator('a[data-cta]');
  const c = (await cta.boundingBox())!;
  const b = (await bar.boundingBox())!;
  expect(c.y).toBeGreaterThanOrEqual(b.y + b.height);
  expect(c.y + c.height).toBeLessThanOrEqual(PHONE.height);
  // Its link carries the valid parameters only; the hostile one is nowhere in the page.
  await expect(cta).toHaveAttribute('href', `/signup?network=adnet&clickid=${clickid}`);
  expect(await page.content()).not.toContain('window.hacked');
  expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize(PHONE);

  // Nothing of the network in a cookie before the choice.
  expect(readAttribution((await cookies(page)).src)!.tracking).toEqual({});
  // By keyboard: Tab reaches the answers.
  await page.locator('body').focus();
  let reached = false;
  for (let i = 0; i < 12 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await refuse.evaluate((el) => el === document.activeElement);
  }
  expect(reached).toBe(true);
  await page.keyboard.press('Enter');
  await expect(bar).toBeHidden();
  const refused = await cookies(page);
  expect(refused.src_consent).toBe('refuse');
  expect(readAttribution(refused.src)!.tracking).toEqual({});

  // Asked once: the same link again shows no bar.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(bar).toBeHidden();

  // The lander's call leads to the signup with the parameters; the member is the network's.
  await cta.click();
  await expect(page).toHaveURL(new RegExp(`/signup\\?network=adnet&clickid=${clickid}$`));
  await confirmEntryWarning(page);
  const email = `consent-${Date.now()}@example.com`;
  await signUpInModal(page, email);
  expect(readAttribution((await cookies(page)).src)!.tracking).toEqual({});
  const member = await withDatabase((db) => db.selectFrom('users').select(['tracking', 'lander']).where('email', '=', email).executeTakeFirstOrThrow());
  expect({ tracking: JSON.parse(member.tracking!), lander: member.lander }).toEqual({ tracking: { network: 'adnet', clickid }, lander: 'alonetonight' });
  // Nothing of the network was stored in the tab either.
  expect(await page.evaluate(() => sessionStorage.getItem('tracking'))).toBeNull();
});

test('a visitor who accepts keeps the network in the source cookie; a visitor without a network is not asked', async ({ page }) => {
  await page.goto(brandUrl('spetter', `${LANDER}?network=adnet&ref=r7`));
  await confirmEntryWarning(page);
  const bar = page.getByRole('region', { name: 'Cookiekeuze' });
  await bar.getByRole('button', { name: 'Toestaan' }).click();
  await expect(bar).toBeHidden();
  const accepted = await cookies(page);
  expect(accepted.src_consent).toBe('accept');
  expect(readAttribution(accepted.src)).toMatchObject({ tracking: { network: 'adnet', ref: 'r7' }, landing: { lander: 'alonetonight' } });

  await page.context().clearCookies();
  await page.goto(brandUrl('spetter', LANDER));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cookiekeuze' })).toBeHidden();
});
