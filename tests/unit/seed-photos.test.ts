import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { seedDemo } from '../../src/server/db/seed.ts';
import { portraitOptionsOf, seedDemoPhotos } from '../../src/server/db/seed-photos.ts';
import { demoPeople } from '../../src/server/db/seed.ts';
import { FIRST_NAMES } from '../../src/server/db/seed-data.ts';
import { EYE_SHADES, FEMALE_STYLES, HAIR_SHADES, MALE_STYLES, portrait, portraitFeatures, svgDataUri } from '../../src/lib/portrait.ts';
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

  describe('a demo person is drawn as the profile states them', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    const people = [
      ...demoPeople({ id: 'spetter', countries: ['NL', 'BE'], locales: { default: 'nl' }, niche: 1 }, 150, now),
      ...demoPeople({ id: 'velvet', countries: ['GB', 'DE', 'FR'], locales: { default: 'en', available: ['en', 'de', 'fr'] }, niche: 6 }, 150, now),
    ].map((p, i) => ({ id: i + 1, ...p.profile }));

    test('hair colour, eye colour, gender and age of each profile are in its portrait', () => {
      for (const person of people) {
        const options = portraitOptionsOf(person, now);
        const features = portraitFeatures(person.id, person.gender, options);
        const svg = portrait(person.id, person.gender, options);
        const label = `${person.name}: ${person.gender}, ${options.age}, ${person.hair_color} hair, ${person.eye_color} eyes`;
        expect(features.hair, label).toBe(person.hair_color);
        expect(HAIR_SHADES[person.hair_color as keyof typeof HAIR_SHADES], label).toContain(features.hairFill);
        expect(svg, label).toContain(`fill="${features.hairFill}"`);
        expect(features.eyeFill, label).toBe(EYE_SHADES[person.eye_color as keyof typeof EYE_SHADES]);
        expect(svg, label).toContain(`r="5.5" fill="${features.eyeFill}"`);
        expect(features.female, label).toBe(person.gender === 'female');
        expect((person.gender === 'female' ? FEMALE_STYLES : MALE_STYLES) as readonly string[], label).toContain(features.style);
        expect(features.age, label).toBe(options.age);
        expect(features.lines, label).toBe(options.age! >= 45);
        // No colour of another hair colour is drawn as hair: a blond is never drawn dark.
        for (const [other, shades] of Object.entries(HAIR_SHADES)) if (other !== person.hair_color) for (const shade of shades) expect(svg, label).not.toContain(`fill="${shade}"`);
      }
    });

    test('men have short hair; most women long hair', () => {
      const long = ['long-straight', 'long-wavy', 'bob', 'curls'];
      expect(MALE_STYLES.filter((s) => long.includes(s))).toEqual([]);
      const women = people.filter((p) => p.gender === 'female').map((p) => portraitFeatures(p.id, 'female', portraitOptionsOf(p, now)).style);
      expect(women.filter((s) => long.includes(s)).length / women.length).toBeGreaterThan(0.7);
      // Bald only from 35.
      for (const p of people.filter((p) => p.gender === 'male')) {
        const { style, age } = portraitFeatures(p.id, 'male', portraitOptionsOf(p, now));
        if (style === 'receding') expect(age).toBeGreaterThanOrEqual(35);
      }
    });

    test("a demo person's first name is one of their gender's", () => {
      const names = (gender: 'female' | 'male') => new Set(Object.values(FIRST_NAMES).flatMap((list) => list[gender].map((n) => n.toLowerCase())));
      const [female, male] = [names('female'), names('male')];
      for (const person of people) {
        const first = person.name.replace(/_?\d+$/, '').toLowerCase();
        const own = person.gender === 'female' ? female : male;
        expect(own.has(first), `${person.name} (${person.gender})`).toBe(true);
      }
      // Remco is a man's name only.
      expect(male.has('remco') && !female.has('remco')).toBe(true);
    });

    test('a portrait without a profile (a teaser) still follows its number', () => {
      expect(portraitFeatures(41, 'male')).toEqual(portraitFeatures(41, 'male'));
      expect(portraitFeatures(41, 'male', { age: 30, hair: 'red', eyes: 'green' })).toMatchObject({ hair: 'red', eyeFill: EYE_SHADES.green });
    });
  });
});
