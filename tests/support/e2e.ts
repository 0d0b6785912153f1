import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { createDb } from '../../src/server/db/index.ts';
import { grant } from '../../src/server/ledger.ts';
import { createModerationService, type PhotoDecision } from '../../src/server/services/moderation.ts';
import { createMemoryBus } from '../../src/server/bus.ts';
import { linkIn, mailTo } from './mail.ts';

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
 * Waits until the next page `page` shows has its event stream open (the server subscribes the tab
 * before it answers the stream's headers): what another member does from then on arrives live. A
 * test that acts before races the stream, and sees the event only at the next periodic refresh.
 * Call it before the navigation; await it after.
 */
export function nextStream(page: Page): Promise<unknown> {
  const from = page.url();
  return page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events.php' && r.ok() && r.frame().url() !== from);
}

/**
 * Lets a read the test held back (route interception) go on with its older answer, and waits until
 * the page has parsed, stored and drawn it: what the page shows then is what that answer left.
 */
export async function releaseHeldRead(page: Page, path: string, release: () => void): Promise<void> {
  const held = page.waitForResponse((r) => r.url().endsWith(path) && r.request().method() === 'GET');
  release();
  await (await held).finished();
  // Two frames: the answer is parsed, stored and drawn.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Opens a member page and waits until its event stream is open (`nextStream`). */
export async function openListening(page: Page, url: string): Promise<void> {
  const stream = nextStream(page);
  await page.goto(url);
  await confirmEntryWarning(page);
  await stream;
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

export interface ChatMember {
  page: Page;
  profileId: number;
  userId: number;
  name: string;
}

/**
 * An active member (activated by the mail's link) in a browser of their own, with `credits` credits
 * more than the signup gives: on Spetter, or on another Dutch brand (`brand`) with a birth date of its own.
 */
export async function activeChatMember(browser: Browser, name: string, gender: 'male' | 'female', credits = 0, viewport = { width: 1280, height: 800 }, on: { brand?: string; dateOfBirth?: string } = {}): Promise<ChatMember> {
  const brand = on.brand ?? 'spetter';
  const page = await (await browser.newContext({ viewport })).newPage();
  // The brand's robots.txt gives the browser the brand's origin for its calls without rendering a
  // page: the member's own pages are what the tests look at (a page here cost two renders a member).
  await page.goto(brandUrl(brand, '/robots.txt'));
  signups += 1;
  const email = `chat-${process.pid}-${Date.now().toString(36)}-${signups}@example.nl`;
  const res = await callApi(page, brand, 'POST', '/api/signup.php', { email, password: MEMBER_PASSWORD, name, date_of_birth: on.dateOfBirth ?? '1990-05-04', gender, sexuality: 'hetero', country: 'NL', region: 'Utrecht', city: 'Utrecht' });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  await expect.poll(() => linkIn(mailTo(email), /\/api\/activate\.php$/), { timeout: 10_000 }).toBeTruthy();
  // The mail's link, followed as the browser follows it, to the page that says it is done.
  const activated = await page.evaluate(async (link) => (await fetch(link)).url, linkIn(mailTo(email), /\/api\/activate\.php$/)!);
  expect(new URL(activated).pathname).toBe('/activate/done');
  if (credits) await grantCredits(res.json.user.id, credits);
  return { page, profileId: res.json.user.profile.id, userId: res.json.user.id, name };
}

/**
 * Gives a member credits through the ledger, straight in the suite's database: the payments of
 * the credits issue are the member's way; a test of the chat needs a balance it chooses.
 */
export async function grantCredits(userId: number, credits: number): Promise<void> {
  await withDatabase((db) => grant(db, { userId, credits, reason: 'bonus', ref: `e2e-${userId}-${Date.now()}-${Math.random()}` }));
}

/**
 * Approves every waiting photo of a member as a moderator would (issue 22: brands screen photos
 * before others see them), through the console's moderation service on the suite's database: a
 * test of what others see of a member's photos starts from approved photos.
 */
export async function approvePhotosOf(email: string): Promise<void> {
  await decidePhotosOf(email, { status: 'active' });
}

/** Decides every waiting photo of a member as a moderator would: approves, or rejects with a reason. */
export async function decidePhotosOf(email: string, decision: PhotoDecision): Promise<void> {
  await withDatabase(async (db) => {
    const rows = await db
      .selectFrom('photos')
      .innerJoin('profiles', 'profiles.id', 'photos.profile_id')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .select('photos.id')
      .where('users.email', '=', email.toLowerCase())
      .where('photos.status', '=', 'pending')
      .execute();
    const moderation = createModerationService({ db, bus: createMemoryBus(), mailRejection: async () => undefined });
    for (const row of rows) await moderation.decidePhoto({ id: 0, role: 'moderator' }, row.id, decision, 'all');
  });
}

/** Approves every waiting chat photo a member sent, as a moderator would (issue 22), through the moderation service. */
export async function approveChatPhotosOf(userId: number): Promise<void> {
  await withDatabase(async (db) => {
    const rows = await db
      .selectFrom('messages')
      .innerJoin('profiles', 'profiles.id', 'messages.sender_profile_id')
      .select('messages.id')
      .where('profiles.user_id', '=', userId)
      .where('messages.photo_status', '=', 'pending')
      .execute();
    const moderation = createModerationService({ db, bus: createMemoryBus(), mailRejection: async () => undefined });
    for (const row of rows) await moderation.decideChatPhoto({ id: 0, role: 'moderator' }, row.id, { status: 'active' }, 'all');
  });
}

/** Runs `work` on the suite's database (the state a test starts from: a brand's discount code, a balance). */
export async function withDatabase<T>(work: (db: DbHandle['db']) => Promise<T>): Promise<T> {
  const { file, url, schema } = JSON.parse(process.env.E2E_DATABASE ?? '{}') as { file: string; url: string | null; schema: string | null };
  const handle = url ? createDb({ url, schema: schema ?? undefined }) : createDb({ file });
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

type DbHandle = ReturnType<typeof createDb>;

export const test = base;
export { expect };
