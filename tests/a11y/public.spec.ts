/**
 * Accessibility of the public pages and their layouts, for each brand at phone (375 px) and
 * desktop (1280 px) width: no serious or critical axe-core violation, a visible keyboard focus,
 * and an entry warning that holds focus like a modal dialog.
 */
import type { Page } from '@playwright/test';
import { test, expect, brandUrl, confirmEntryWarning } from '../support/e2e.ts';
import { say } from '../support/site.ts';
import { seriousViolations } from '../support/a11y.ts';

const BRANDS = [
  { id: 'spetter', locale: 'nl' },
  { id: 'velvet', locale: 'en' },
  // The niche brand of spetter's pool (issue 24): its own colours and landers.
  { id: 'rijpedates', locale: 'nl' },
] as const;
const WIDTHS = [375, 1280] as const;
// Default layout (home, login, a static page, pricing, 404) and the lander layout.
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'login', path: '/login' },
  { name: 'static page', path: '/pages/terms' },
  { name: 'lander', path: '/landers/tinderswipe' },
  { name: '404 page', path: '/this-page-does-not-exist' },
  { name: 'pricing', path: '/pricing' },
] as const;

const insideDialog = (page: Page) => page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')));

for (const brand of BRANDS) {
  for (const width of WIDTHS) {
    test.describe(`${brand.id} at ${width} px`, () => {
      test.use({ viewport: { width, height: width < 500 ? 740 : 900 } });

      for (const { name, path } of PAGES) {
        test(`the ${name} has no serious or critical axe violation and a visible keyboard focus`, async ({ page }) => {
          await page.goto(brandUrl(brand.id, path));
          await confirmEntryWarning(page);
          await expect(page.locator('main')).toBeVisible();
          expect(await seriousViolations(page)).toEqual([]);

          // The first Tab reaches a link, and the browser draws a focus outline around it.
          await page.keyboard.press('Tab');
          const focused = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            if (!el || el === document.body) return null;
            const style = getComputedStyle(el);
            const box = el.getBoundingClientRect();
            return {
              tag: el.tagName,
              outlineStyle: style.outlineStyle,
              outlineWidth: parseFloat(style.outlineWidth),
              boxShadow: style.boxShadow,
              onScreen: box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth && box.width > 0,
            };
          });
          expect(focused).not.toBeNull();
          expect(focused!.tag).toBe('A');
          expect(focused!.outlineStyle).not.toBe('none');
          expect(focused!.outlineWidth).toBeGreaterThanOrEqual(2);
          expect(focused!.onScreen).toBe(true);
        });
      }

      test('the entry warning is an accessible dialog that traps focus', async ({ page }) => {
        await page.goto(brandUrl(brand.id, '/'));
        const dialog = page.getByRole('dialog', { name: say(brand.locale, 'entry_title') });
        await expect(dialog).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        expect(await insideDialog(page)).toBe(true);
        const seen = new Set<string>();
        for (let i = 0; i < 6; i++) {
          await page.keyboard.press('Tab');
          expect(await insideDialog(page), `Tab ${i + 1} left the dialog`).toBe(true);
          seen.add(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
          const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
          expect(outline).not.toBe('none');
        }
        // Tab cycles: it came round to the confirm button again.
        expect(seen.has(say(brand.locale, 'entry_confirm'))).toBe(true);
        expect(seen.size).toBeGreaterThanOrEqual(2);
        for (let i = 0; i < 4; i++) {
          await page.keyboard.press('Shift+Tab');
          expect(await insideDialog(page), `Shift+Tab ${i + 1} left the dialog`).toBe(true);
        }
      });
    });
  }
}

// WCAG 1.4.10 (reflow): at 320 CSS px wide (a 375 px phone zoomed, or a small one) nothing asks
// to be scrolled sideways, in every language a brand offers: long German compound words included.
const REFLOW_PAGES = ['/', '/login', '/pricing', '/complaints', '/pages/terms', '/pages/privacy', '/pages/cookies', '/pages/faq', '/landers/tinderswipe', '/landers/gallery', '/landers/socialnetwork'];
for (const { id, locales } of [{ id: 'spetter', locales: ['nl'] }, { id: 'velvet', locales: ['en', 'de', 'fr'] }]) {
  test(`${id} reflows at 320 px in ${locales.join(', ')}`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 740 });
    await page.addInitScript(() => localStorage.setItem('entry_warning_confirmed', '1'));
    // A member lander of one of the brand's own demo members: spetter's member 5 (the demo seed
    // fills spetter first), velvet's first search result (velvet lets visitors search).
    await page.goto(brandUrl(id, '/pricing'));
    const member = id === 'spetter' ? 5 : await page.evaluate(async () => (await (await fetch('/api/members.php')).json()).profiles[0].id as number);
    const paths = [...REFLOW_PAGES, `/members/${member}/landing3`];
    for (const locale of locales) {
      await page.context().addCookies([{ name: 'locale', value: locale, url: brandUrl(id, '/') }]);
      for (const path of paths) {
        const response = await page.goto(brandUrl(id, path));
        expect(response?.status(), `${id} ${locale} ${path}`).toBe(200);
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, `${id} ${locale} ${path}`).toBeLessThanOrEqual(320);
      }
    }
  });
}
