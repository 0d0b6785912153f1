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

/**
 * Calls the brand's API from its own page, as the islands do: the browser sends the brand's
 * Origin and keeps the session cookie. (Node cannot resolve <brand>.localhost; Chromium can.)
 */
export async function callApi(page: Page, brand: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  if (!page.url().startsWith(brandUrl(brand, '/'))) await page.goto(brandUrl(brand, '/pricing'));
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, { method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, json: await res.json().catch(() => null) };
    },
    { method, path, body },
  );
}

export const MEMBER_PASSWORD = 'geheim-wachtwoord-1';
let signups = 0;

/**
 * Signs a new member up on a brand through its API, from the brand's page as the signup island
 * does: the browser context is logged in afterwards (session and signed_in cookies).
 */
export async function signUpMember(
  page: Page,
  brand: string,
  member: { name: string; gender?: 'male' | 'female'; country?: string },
): Promise<{ email: string }> {
  signups += 1;
  const email = `lid-${process.pid}-${Date.now().toString(36)}-${signups}@example.nl`;
  const res = await callApi(page, brand, 'POST', '/api/signup.php', {
    email,
    password: MEMBER_PASSWORD,
    name: member.name,
    date_of_birth: '1984-03-12',
    gender: member.gender ?? 'female',
    sexuality: 'hetero',
    country: member.country ?? 'NL',
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return { email };
}

export const test = base;
export { expect };
