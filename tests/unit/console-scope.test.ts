import { describe, expect, test } from 'vitest';
import { Kysely, SqliteDialect, PostgresDialect, type Compilable } from 'kysely';
import { amongBrands, brandCondition, brandsToQuery } from '../../src/server/services/brand-scope.ts';

/** The brand scope of a staff member (null: every brand) read with an optional `?brand=`. */
describe('brandsToQuery: a staff member\'s brand scope and a brand filter', () => {
  test('without a filter: the scope itself (every brand, or theirs)', () => {
    expect(brandsToQuery({ brands: null })).toBeNull();
    expect(brandsToQuery({ brands: ['spetter', 'velvet'] }, undefined)).toEqual(['spetter', 'velvet']);
    expect(brandsToQuery({ brands: ['spetter'] }, '')).toEqual(['spetter']);
  });

  test('a brand in scope: that brand alone', () => {
    expect(brandsToQuery({ brands: null }, 'velvet')).toEqual(['velvet']);
    expect(brandsToQuery({ brands: ['spetter', 'velvet'] }, 'velvet')).toEqual(['velvet']);
  });

  test('a brand outside the scope does not exist for them: 404', () => {
    expect(() => brandsToQuery({ brands: ['spetter'] }, 'velvet')).toThrow(expect.objectContaining({ code: 'not_found', status: 404 }));
    expect(() => brandsToQuery({ brands: [] }, 'spetter')).toThrow(expect.objectContaining({ status: 404 }));
  });

  test('amongBrands reads the answer for lists of brands', () => {
    expect(amongBrands(null, 'velvet')).toBe(true);
    expect(amongBrands(['spetter'], 'velvet')).toBe(false);
    expect(amongBrands([], 'spetter')).toBe(false);
  });
});

describe('brandCondition: the same condition on both engines', () => {
  // Compiling needs no connection: dialects only build SQL here.
  const sqlite = new Kysely<any>({ dialect: new SqliteDialect({ database: {} as never }) });
  const pg = new Kysely<any>({ dialect: new PostgresDialect({ pool: {} as never }) });
  const compiled = (db: Kysely<any>, brands: readonly string[] | null): Compilable =>
    db.selectFrom('users').select('id').where(brandCondition('users.tenant_id', brands));

  test('every brand, one, several, none', () => {
    expect(compiled(sqlite, null).compile().sql).toBe('select "id" from "users" where 1 = 1');
    expect(compiled(sqlite, ['velvet']).compile()).toMatchObject({ sql: 'select "id" from "users" where "users"."tenant_id" = ?', parameters: ['velvet'] });
    expect(compiled(pg, ['spetter', 'velvet']).compile()).toMatchObject({ sql: 'select "id" from "users" where "users"."tenant_id" in ($1, $2)', parameters: ['spetter', 'velvet'] });
    expect(compiled(pg, []).compile().sql).toBe('select "id" from "users" where 1 = 0');
  });
});
