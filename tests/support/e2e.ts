import { test as base, expect, type Page } from '@playwright/test';

/** The base URL of a demo brand in the runtime globalSetup started: http://<id>.localhost:<port>. */
export function brandUrl(id: string, path = '/'): string {
  return `http://${id}.localhost:${process.env.E2E_PORT}${path}`;
}

/** Confirms the entry (age) warning when it shows, as a visitor would. */
export async function confirmEntryWarning(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: /18|adult|volwassenen|Erwachsene|adultes/i });
  if (await dialog.isVisible().catch(() => false)) await dialog.getByRole('button').first().click();
}

export const test = base;
export { expect };
