import { expect, type Page } from '@playwright/test';
import type { StaffRole } from '../../src/contract/console.ts';
import { createConsoleService } from '../../src/server/services/console.ts';
import { createLimits } from '../../src/server/limits.ts';
import { withDatabase } from './e2e.ts';
import { addStaffThrough, totpCode } from './console.ts';
import { PASSWORD } from './accounts.ts';

/** An address on the console host of the runtime globalSetup started (Chromium resolves *.localhost). */
export function consoleUrl(path = '/console/'): string {
  return `http://console.localhost:${process.env.E2E_PORT}${path}`;
}

/** The console service on the suite's database: staff for a browser test, made as `sitegen staff add` makes them. */
export function withConsole<T>(work: (console: ReturnType<typeof createConsoleService>) => Promise<T>): Promise<T> {
  return withDatabase((db) => work(createConsoleService({ db, limits: createLimits(null), production: false })));
}

/** A staff member with password and TOTP (`--password-stdin`): e-mail and TOTP secret. */
export function addConsoleStaff(role: StaffRole, brands: string[] | null = null) {
  return withConsole((console) => addStaffThrough(console, role, brands));
}

/** Waits until a page's islands are interactive (Astro drops `ssr` when hydrated): a click before is lost. */
export async function hydrated(page: Page): Promise<void> {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/** Logs a staff member in on the console's login page with e-mail, password and a TOTP code, as a person does. */
export async function logInToConsole(page: Page, staff: { email: string; secret: string }, path = '/console/members'): Promise<void> {
  await page.goto(consoleUrl(path));
  await expect(page).toHaveURL(/\/console\/login/);
  await hydrated(page);
  await page.getByLabel(/E-mail/).fill(staff.email);
  await page.getByLabel(/Password|Wachtwoord/).fill(PASSWORD);
  await page.getByLabel(/^Code$/).fill(totpCode(staff.secret));
  await page.getByRole('button', { name: /Log in|Inloggen/ }).click();
  await expect(page).toHaveURL(consoleUrl(path));
}
