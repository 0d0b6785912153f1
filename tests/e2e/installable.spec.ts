/**
 * Each brand as an installed app (SPEC §2 installed-app mode): Chromium finds nothing missing to
 * offer the install, and a page in standalone display mode shows what SPEC describes there: no
 * entry warning, a back button on the member pages that have one, and the compact footer.
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, brandUrl, signUpMember } from '../support/e2e.ts';
import { say } from '../support/site.ts';
import { CHROMIUM_ARGS } from '../../playwright.config.ts';

const BRANDS = [
  { id: 'spetter', name: 'Spetter', locale: 'nl', primary: '#6f2da8' },
  { id: 'velvet', name: 'Velvet Nights', locale: 'en', primary: '#8c1c3a' },
] as const;

/**
 * A browser with a profile of its own (Chromium offers no install in an incognito context, which
 * Playwright's contexts are), opened as an app window at `url` when given: Chromium's `--app`
 * window is displayed standalone, as an installed app is ((display-mode: standalone) matches).
 */
async function ownBrowser(url?: string): Promise<{ context: BrowserContext; page: Page; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'installable-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: url ? [...CHROMIUM_ARGS, `--app=${url}`] : CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  if (url) await page.waitForURL(url);
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

for (const brand of BRANDS) {
  test(`${brand.name} can be installed as an app`, async () => {
    const browser = await ownBrowser();
    try {
      const { page, context } = browser;
      await page.goto(brandUrl(brand.id, '/'));
      const cdp = await context.newCDPSession(page);
      const manifest = (await cdp.send('Page.getAppManifest', {})) as { url: string; errors: unknown[]; data?: string };
      expect(manifest.url).toBe(brandUrl(brand.id, '/manifest.webmanifest'));
      expect(manifest.errors).toEqual([]);
      expect(JSON.parse(manifest.data!)).toMatchObject({ name: brand.name, theme_color: brand.primary, display: 'standalone' });
      // Chromium's own check: every criterion for offering the install is met.
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
}

test('a visitor of the installed app is not shown the entry warning', async ({ page }) => {
  // In a browser tab the warning shows (the reference) ...
  await page.goto(brandUrl('spetter', '/pages/terms'));
  await expect(page.getByRole('dialog', { name: say('nl', 'entry_title') })).toBeVisible();
  // ... in the installed app it does not.
  const app = await ownBrowser(brandUrl('spetter', '/pages/terms'));
  try {
    expect(await app.page.evaluate(() => matchMedia('(display-mode: standalone)').matches)).toBe(true);
    await expect(app.page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(app.page.locator('#entry-warning')).toBeHidden();
    await expect(app.page.getByRole('dialog', { name: say('nl', 'entry_title') })).toHaveCount(0);
  } finally {
    await app.close();
  }
});

test('the installed app shows its footer compact: the links in one row', async ({ page }) => {
  const links = (p: Page) => p.getByRole('navigation', { name: say('nl', 'footer_links') }).getByRole('list');
  await page.goto(brandUrl('spetter', '/pages/faq'));
  expect(await links(page).evaluate((el) => getComputedStyle(el).display)).toBe('grid');
  const app = await ownBrowser(brandUrl('spetter', '/pages/faq'));
  try {
    expect(await links(app.page).evaluate((el) => getComputedStyle(el).display)).toBe('flex');
  } finally {
    await app.close();
  }
});

test('a member of the installed app goes back from the likes page with its back button', async ({ page }) => {
  // In a browser tab the browser has its own back button: the page shows none.
  await signUpMember(page, 'spetter', { name: `Tab${Date.now().toString(36).slice(-5)}` });
  await page.goto(brandUrl('spetter', '/members'));
  await page.goto(brandUrl('spetter', '/likes'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: say('nl', 'nav_back') })).toBeHidden();

  const app = await ownBrowser(brandUrl('spetter', '/pricing'));
  try {
    const back = app.page.getByRole('button', { name: say('nl', 'nav_back') });
    await signUpMember(app.page, 'spetter', { name: `App${Date.now().toString(36).slice(-5)}` });
    await app.page.goto(brandUrl('spetter', '/members'));
    // The members search has no back button (SPEC §2: profile, likes and credits pages do).
    await expect(app.page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(back).toBeHidden();
    await app.page.goto(brandUrl('spetter', '/likes'));
    await expect(back).toBeVisible();
    await back.click();
    await expect(app.page).toHaveURL(brandUrl('spetter', '/members'));
  } finally {
    await app.close();
  }
});
