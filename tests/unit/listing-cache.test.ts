/**
 * The pure parts of the search's shared lists (src/server/services/listing-cache.ts): which home
 * bands a country or region filter leaves, a member's narrowing of a list, and the re-check of a
 * row read again against the list's filters.
 */
import { describe, expect, test } from 'vitest';
import { changeOf } from '../../src/server/services/listing-changes.ts';
import { writeOf } from '../../src/server/db/writes.ts';
import { bandsOf, narrowed, narrowedPage, stillMatches, type ListFilters } from '../../src/server/services/listing-cache.ts';

const home = { country: 'NL', region: 'Utrecht' };
const row = { gender: 'female' as const, country: 'NL', region: 'Utrecht', birth_date: '1985-06-01' };

describe('shared search lists', () => {
  test('a country filter keeps the home bands that can hold it', () => {
    expect(bandsOf({ home })).toHaveLength(3);
    expect(bandsOf({ home, country: 'NL' })).toHaveLength(2);
    expect(bandsOf({ home, country: 'BE' })).toEqual([null]);
    expect(bandsOf({ home: { country: null, region: null } })).toEqual([null]);
  });

  test('a region filter keeps the home bands that can hold one of its regions', () => {
    // Bands are conditions (functions): compared by their text, all of one home.
    const text = (bands: unknown[]) => bands.map(String);
    const [ownRegion, ownCountry, others] = text(bandsOf({ home }));
    expect(new Set([ownRegion, ownCountry, others]).size).toBe(3);
    expect(text(bandsOf({ home, country: 'NL', regions: [{ country: 'NL', name: 'Utrecht' }] }))).toEqual([ownRegion]);
    expect(text(bandsOf({ home, country: 'NL', regions: [{ country: 'NL', name: 'Zeeland' }] }))).toEqual([ownCountry]);
    expect(text(bandsOf({ home, regions: [{ country: 'NL', name: 'Limburg' }, { country: 'BE', name: 'Limburg' }] }))).toEqual([ownCountry, others]);
    expect(text(bandsOf({ home, regions: [{ country: 'BE', name: 'Antwerpen' }] }))).toEqual([others]);
    expect(bandsOf({ home: { country: 'NL', region: null }, regions: [{ country: 'NL', name: 'Zeeland' }] })).toHaveLength(1);
  });

  test('a member narrows a list by their own profile and blocks, keeping its order', () => {
    const list = { key: 'k', ids: Int32Array.from([9, 4, 7, 1, 3]), complete: true };
    expect(narrowed(list, new Set([7, 3]))).toEqual([9, 4, 1]);
    expect(narrowed(list, new Set())).toEqual([9, 4, 7, 1, 3]);
  });

  test("a member's page of a list is the page of their narrowed list, and the total its length", () => {
    const ids = Int32Array.from({ length: 200 }, (_, i) => 1000 - i * 3);
    const list = { key: 'k', ids, complete: true };
    for (const without of [new Set<number>(), new Set([1000, 997, 5, 700]), new Set(Array.from(ids).filter((_, i) => i % 7 === 0))]) {
      const all = narrowed(list, without);
      for (const from of [0, 24, 48, 190]) {
        const page = narrowedPage(list, without, from, 28);
        expect(page.ids).toEqual(all.slice(from, from + 28));
        expect(page.total).toBe(all.length);
      }
    }
  });

  test('which writes drop the shared lists, which only their cards, which nothing', () => {
    const of = (sql: string) => changeOf(writeOf(sql)!);
    expect(of('update "profiles" set "last_seen_at" = ? where "id" = ?')).toBeNull();
    expect(of('update "profiles" set "conversations_started" = "conversations_started" + ? where "id" = ?')).toBeNull();
    expect(of('insert into "profiles" ("user_id", "name") values (?, ?)')).toBeNull(); // the newest id shows it
    expect(of('update "profiles" set "name" = ?, "about" = ? where "id" = ?')).toBe('cards');
    expect(of('update "profiles" set "region" = ?, "updated_at" = ? where "id" = ?')).toBe('listings');
    expect(of('update "profiles" set "listed" = case when status = \'active\' and not exists (select 1 from users) then 1 else 0 end where "user_id" = ?')).toBe('listings');
    expect(of('delete from "profiles" where "user_id" = ?')).toBe('listings');
    expect(of('insert into "photos" ("profile_id", "filename") values (?, ?)')).toBe('cards');
    expect(of('update "photos" set "status" = ? where "id" = ?')).toBe('cards');
    expect(of('insert into "likes" ("from_profile_id", "to_profile_id") values (?, ?)')).toBeNull();
    expect(of('create index "x" on "profiles" ("name")')).toBe('listings'); // a statement this cannot read may write anything
  });

  test('a row read again matches the filters only while its gender, place and birth date still do', () => {
    const f: ListFilters = { genders: ['female'], country: 'NL', regions: [{ country: 'NL', name: 'Utrecht' }], bornOnOrBefore: '1990-01-01', bornAfter: '1980-01-01', home };
    expect(stillMatches(row, f)).toBe(true);
    expect(stillMatches({ ...row, gender: 'male' }, f)).toBe(false);
    expect(stillMatches({ ...row, country: 'BE' }, f)).toBe(false);
    expect(stillMatches({ ...row, region: 'Zeeland' }, f)).toBe(false);
    expect(stillMatches({ ...row, birth_date: '1990-01-02' }, f)).toBe(false);
    expect(stillMatches({ ...row, birth_date: '1990-01-01' }, f)).toBe(true);
    expect(stillMatches({ ...row, birth_date: '1980-01-01' }, f)).toBe(false);
    expect(stillMatches({ ...row, region: null }, { home })).toBe(true);
  });
});
