import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { test, expect, brandUrl, callApi, confirmEntryWarning, approvePhotosOf, decidePhotosOf, releaseHeldRead } from '../support/e2e.ts';

/** Browser tests of photo screening on the member side (issue 22), in Dutch on the Spetter demo brand (photo_moderation: before). */

const BRAND = 'spetter';
let counter = 0;

async function signUp(page: Page): Promise<string> {
  counter += 1;
  const email = `screening-${process.pid}-${Date.now().toString(36)}-${counter}@example.nl`;
  const res = await callApi(page, BRAND, 'POST', '/api/signup.php', {
    email, password: 'geheim-wachtwoord-1', name: 'Sanne', date_of_birth: '1991-03-02', gender: 'female', sexuality: 'hetero', country: 'NL', region: 'Utrecht', city: 'Utrecht',
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return email;
}

test('a member uploads a photo and sees it marked as waiting for screening until it is approved', async ({ page }) => {
  const email = await signUp(page);
  await page.goto(brandUrl(BRAND, '/profile#photos'));
  await confirmEntryWarning(page);
  const photos = page.locator('#photos');
  await expect(photos.getByText('0 van 3 foto\'s')).toBeVisible();
  // Choose the file once the islands are interactive (Astro drops `ssr` when hydrated): a change before is lost.
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0);

  const jpeg = await sharp({ create: { width: 500, height: 500, channels: 3, background: { r: 30, g: 140, b: 90 } } }).jpeg().toBuffer();
  await page.getByLabel('Foto toevoegen').setInputFiles({ name: 'ik.jpg', mimeType: 'image/jpeg', buffer: jpeg });

  // Her own photo shows (she alone may fetch it), marked as waiting, and it counts toward the limit.
  await expect(photos.getByRole('img', { name: 'Foto 1' })).toBeVisible();
  await expect(photos.getByText('Wordt gecontroleerd')).toBeVisible();
  await expect(photos.getByText('Nieuwe foto\'s worden eerst gecontroleerd. Tot ze zijn goedgekeurd, zie alleen jij ze.')).toBeVisible();
  await expect(photos.getByText('1 van 3 foto\'s')).toBeVisible();
  await expect.poll(() => photos.getByRole('img', { name: 'Foto 1' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // A moderator approves it: the mark and the notice are gone.
  await approvePhotosOf(email);
  await page.reload();
  await expect(photos.getByRole('img', { name: 'Foto 1' })).toBeVisible();
  await expect(photos.getByText('Hoofdfoto', { exact: true })).toBeVisible();
  await expect(photos.getByText('Wordt gecontroleerd')).toHaveCount(0);
  await expect(photos.getByText('Nieuwe foto\'s worden eerst gecontroleerd.', { exact: false })).toHaveCount(0);
});

test('a member whose photo was rejected sees why on /profile and may upload another', async ({ page }) => {
  const email = await signUp(page);
  await page.goto(brandUrl(BRAND, '/profile#photos'));
  await confirmEntryWarning(page);
  const photos = page.locator('#photos');
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0);
  const jpeg = await sharp({ create: { width: 500, height: 500, channels: 3, background: { r: 200, g: 40, b: 40 } } }).jpeg().toBuffer();
  await page.getByLabel('Foto toevoegen').setInputFiles({ name: 'nummer.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await expect(photos.getByText('1 van 3 foto\'s')).toBeVisible();

  await decidePhotosOf(email, { status: 'rejected', reason: 'contact_details' });
  await page.reload();
  await expect(photos.getByRole('alert')).toHaveText('Een foto is afgekeurd: de foto bevat contactgegevens. Anderen zien hem niet; je kunt een andere foto plaatsen.');
  await expect(photos.getByText('Afgekeurd', { exact: true })).toBeVisible();
  // The rejected photo no longer counts toward the limit.
  await expect(photos.getByText('0 van 3 foto\'s')).toBeVisible();
});

test('a photo uploaded while the page is still reading the list stays on the page', async ({ page }) => {
  await signUp(page);
  // The page's first read of the list is answered with the list as it was (no photo), but only after the upload returned.
  let uploadDone!: () => void;
  const afterUpload = new Promise<void>((resolve) => { uploadDone = resolve; });
  let held = 0;
  await page.route('**/api/photos.php', async (route) => {
    if (route.request().method() !== 'GET' || held > 0) return route.continue();
    held += 1;
    await afterUpload;
    // A new member's list before the upload: empty.
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ photos: [] }) });
  });
  await page.goto(brandUrl(BRAND, '/profile#photos'));
  await confirmEntryWarning(page);
  const photos = page.locator('#photos');
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0);
  const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/photos.php') && r.request().method() === 'POST');
  const jpeg = await sharp({ create: { width: 500, height: 500, channels: 3, background: { r: 40, g: 40, b: 200 } } }).jpeg().toBuffer();
  await page.getByLabel('Foto toevoegen').setInputFiles({ name: 'snel.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  expect((await uploaded).status()).toBe(200);
  await expect(photos.getByText('1 van 3 foto\'s')).toBeVisible();
  await releaseHeldRead(page, '/api/photos.php', uploadDone);
  expect(held).toBe(1);
  // The older list arrived last; the photo is still shown and counted.
  await expect(photos.getByRole('img', { name: 'Foto 1' })).toBeVisible();
  await expect(photos.getByText('1 van 3 foto\'s')).toBeVisible();
});
