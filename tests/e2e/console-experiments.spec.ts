import { test, expect, withDatabase } from '../support/e2e.ts';
import { addConsoleStaff, hydrated, logInToConsole } from '../support/console-e2e.ts';
import { bump } from '../../src/server/services/traffic.ts';
import { FUNNEL_COUNTERS } from '../../src/server/db/schema.ts';

/**
 * Browser test of the console's lander experiments (issue 23) at 768 px: a marketer reads a
 * variant's conversion with its interval and its test against the control, the method named, and
 * the way to end the variant. The counts are those of a January long past (the suite's own visits
 * of the lander are counted on today), as the runtime's counting writes them.
 */
const JANUARY = { from: '2020-01-01', to: '2020-01-31' };

test.use({ viewport: { width: 768, height: 1024 } });

test.beforeAll(async () => {
  await withDatabase(async (db) => {
    const key = { tenant_id: 'spetter', day: '2020-01-15', lander: 'alonetonight', niche: 1, locale: 'nl', network: '', ref: '', currency: '' };
    // Already there from an earlier run of this test: the same figures.
    const known = await db.selectFrom('lander_daily').select('visits').where('tenant_id', '=', 'spetter').where('day', '=', key.day).executeTakeFirst();
    if (!known) {
      await bump(db, [
        { ...key, variant: 'control', visits: 200, signups: 20, activations: 10, first_purchases: 3 },
        { ...key, variant: 'direct', visits: 200, signups: 35, activations: 20, first_purchases: 8 },
      ], FUNNEL_COUNTERS);
    }
  });
});

test('a marketer reads the conversion of a lander variant, its 95% interval and its significance against the control', async ({ page }) => {
  const marketer = await addConsoleStaff('marketer', ['spetter']);
  await logInToConsole(page, marketer, `/console/experiments?brand=spetter&from=${JANUARY.from}&to=${JANUARY.to}`);
  await hydrated(page);
  // The marketer's sections (behind the menu at this width): the figures, no members.
  await page.getByRole('button', { name: 'Menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Console sections' });
  await expect(nav.getByRole('link', { name: 'Lander experiments' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Traffic sources' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Members' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Menu' }).click();

  const experiment = page.getByRole('table', { name: 'alonetonight, niche 1, nl' });
  const direct = experiment.getByRole('row', { name: /^direct/ });
  // 35 of 200 visits signed up: 17.5%, Wilson's 95% interval 12.9%-23.4%; the control's 20 of 200 (10.0%): z 2.18, p 0.029.
  await expect(direct).toContainText('17.5%');
  await expect(direct).toContainText('95%: 12.9%–23.4%');
  await expect(direct).toContainText('Significant against the control (p = 0.029)');
  await expect(experiment.getByRole('row', { name: /^control/ })).toContainText('10.0%');
  await expect(page.getByText(/Method: each conversion with its 95% Wilson score interval; each variant compared with the control by a two-sided two-proportion z-test/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', `/api/console/experiments?brand=spetter&from=${JANUARY.from}&to=${JANUARY.to}&format=csv`);
  // The page fits the width; a wide table scrolls inside its panel.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
  await page.screenshot({ path: 'test-results/console-experiments-768.png', fullPage: true });

  // Ending asks first, saying what it does; cancelled, nothing changes.
  await direct.getByRole('button', { name: /End variant/ }).click();
  const dialog = page.getByRole('dialog', { name: 'End variant direct' });
  await expect(dialog).toContainText('Visitors are no longer sent to direct');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(direct.getByRole('button', { name: /End variant/ })).toBeVisible();
});

test('a marketer reads the traffic sources of the same January, with the CSV of the same filters', async ({ page }) => {
  const marketer = await addConsoleStaff('marketer', ['spetter']);
  await logInToConsole(page, marketer, `/console/sources?brand=spetter&from=${JANUARY.from}&to=${JANUARY.to}`);
  await hydrated(page);
  // January's counts came without a network: 400 visits, 55 signups, 30 activated (54.5%).
  const row = page.getByRole('row', { name: /\(no source\)/ });
  await expect(row).toContainText('400');
  await expect(row).toContainText('55');
  await expect(row).toContainText('54.5%');
  await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', `/api/console/sources?brand=spetter&from=${JANUARY.from}&to=${JANUARY.to}&format=csv`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
});
