import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { seedDemo } from '../../src/server/db/seed.ts';
import { seedDemoPhotos } from '../../src/server/db/seed-photos.ts';
import { portrait, svgDataUri } from '../../src/lib/portrait.ts';
import { mainImage } from '../../src/server/services/main-image.ts';
import { openSqlite, type Opened } from '../support/databases.ts';

describe('demo portraits', () => {
  let dir: string;
  let opened: Opened;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seed-photos-'));
    opened = await openSqlite(join(dir, 'app.db'));
    await migrateToLatest(opened.handle.db);
    await seedDemo(opened.handle.db, [{ id: 'spetter', countries: ['NL'], locales: { default: 'nl' }, niche: 1 }], { perTenant: 5 });
  });
  afterAll(async () => {
    await opened.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every demo person gets one main photo with its files, some a few more, once', async () => {
    const media = join(dir, 'media');
    expect(await seedDemoPhotos(opened.handle.db, media)).toBe(5);
    const photos = await opened.handle.db.selectFrom('photos').select(['profile_id', 'is_main']).execute();
    expect(photos.filter((p) => p.is_main === 1)).toHaveLength(5);
    const profiles = await opened.handle.db.selectFrom('profiles').select('id').execute();
    for (const { id } of profiles) {
      const image = await mainImage(opened.handle.db, id);
      expect(image?.thumb_filename).toMatch(/^\/media\/spetter\/[0-9a-f]{32}-t\.webp$/);
      const file = join(media, image!.filename.slice('/media/'.length));
      expect(existsSync(file)).toBe(true);
      const meta = await sharp(file).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 720, 900]);
    }
    expect(readdirSync(join(media, 'spetter'))).toHaveLength(photos.length * 2);
    expect(await seedDemoPhotos(opened.handle.db, media)).toBe(0);
  });

  test('a portrait is a pure function of id and gender', () => {
    expect(portrait(7, 'female')).toBe(portrait(7, 'female'));
    expect(portrait(7, 'female')).not.toBe(portrait(8, 'female'));
    expect(portrait(7, 'female')).not.toBe(portrait(7, 'male'));
  });

  test('a portrait as a data: URI decodes back to the same drawing', () => {
    const svg = portrait(12, 'male');
    const uri = svgDataUri(svg);
    const body = uri.slice('data:image/svg+xml,'.length);
    expect(uri.startsWith('data:image/svg+xml,')).toBe(true);
    expect(body).not.toMatch(/[#<>"\n]/);
    expect(body).not.toMatch(/%(?![0-9A-F]{2})/);
    expect(decodeURIComponent(body)).toBe(svg.replace(/\n/g, '').replace(/"/g, "'"));
  });
});
