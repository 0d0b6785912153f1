import { test, expect, signUpMember, callApi, brandUrl } from '../support/e2e.ts';
import { addConsoleStaff, consoleUrl, hydrated, logInToConsole } from '../support/console-e2e.ts';

/**
 * Browser tests of the console's Revenue and Postbacks pages (issue 23) at 768 px: a finance user
 * reads the charts and the tables beneath them, with the brand's purchase of today; CSV links
 * carry the filters.
 */

test.describe('at 768 px', () => {
  test.use({ viewport: { width: 768, height: 1000 } });

  test('a finance user reads the revenue chart and the table beneath it, and the signups chart with its table', async ({ page, browser }) => {
    // A member of spetter buys the starter bundle at the test checkout today.
    const member = await (await browser.newContext()).newPage();
    await signUpMember(member, 'spetter', { name: 'Omzet', gender: 'male' });
    const { checkout_url } = (await callApi(member, 'spetter', 'POST', '/api/payment.php', { package_id: 'starter', method: 'ideal' })).json;
    await member.goto(brandUrl('spetter', checkout_url));
    await member.getByRole('button', { name: 'Betalen', exact: true }).click();
    await expect(member).toHaveURL(/\/credits\/starter\/ideal\?payment=\d+$/);
    await member.context().close();

    const staff = await addConsoleStaff('finance', ['spetter']);
    const today = new Date().toISOString().slice(0, 10);
    await logInToConsole(page, staff, `/console/revenue?brand=spetter&from=${today}&to=${today}`);
    await hydrated(page);
    await expect(page.getByRole('heading', { name: 'Revenue', level: 1 })).toBeVisible();

    // The revenue chart is drawn (a canvas), and the table beneath it has today's euros of spetter.
    const revenue = page.getByRole('region', { name: 'Net revenue per day by currency' });
    await expect(revenue.getByRole('img', { name: /Net revenue per day by currency/ }).locator('canvas').first()).toBeVisible();
    const row = revenue.getByRole('row', { name: new RegExp(`${today}.*Spetter.*EUR`) });
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell').nth(3)).not.toHaveText('0');
    await expect(row).toContainText('€');
    await expect(revenue.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', `/api/console/revenue?brand=spetter&from=${today}&to=${today}&format=csv&table=money`);

    const funnel = page.getByRole('region', { name: 'Signups and first purchases per day' });
    await expect(funnel.getByRole('img').locator('canvas').first()).toBeVisible();
    const day = funnel.getByRole('row', { name: new RegExp(`${today}.*Spetter`) });
    await expect(day).toBeVisible();
    await expect(day.getByRole('cell').nth(2)).not.toHaveText('0');
    await page.screenshot({ path: 'test-results/console-revenue-768.png', fullPage: true });

    // Per week: one period, the Monday of this week.
    await page.getByLabel('Per', { exact: true }).selectOption('week');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page.getByRole('region', { name: 'Net revenue per week by currency' })).toBeVisible();
    expect(new URL(page.url()).searchParams.get('group')).toBe('week');

    // The postbacks page of the same staff member: the brand's configuration and the log.
    await page.goto(consoleUrl('/console/postbacks'));
    await hydrated(page);
    await expect(page.getByRole('heading', { name: 'Postbacks', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Configured postbacks' })).toBeVisible();
  });
});
