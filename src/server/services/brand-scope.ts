import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { notFound } from '../errors.ts';
import type { StaffView } from '../../contract/console.ts';

/*
 * A staff member's brand scope (issue 22): `staff.brands`, null for every brand. Every console
 * service reads it through these, so an out-of-scope brand is refused the same way everywhere.
 */

/** Whether a staff member may see a brand's objects. */
export function inScope(staff: Pick<StaffView, 'brands'>, brand: string): boolean {
  return staff.brands === null || staff.brands.includes(brand);
}

/** The brand ids a console query reads: null for every brand, else these (none: no rows). */
export type BrandIds = readonly string[] | null;

/**
 * The one reading of a staff member's brand scope and a `brand` filter (`?brand=`): the brand
 * asked for when it is in scope, else every brand of the scope. A brand outside the scope does
 * not exist for them: 404, on every console route alike (its counts are not even hinted at).
 */
export function brandsToQuery(staff: Pick<StaffView, 'brands'>, brand?: string | null): BrandIds {
  if (brand) {
    if (!inScope(staff, brand)) throw notFound();
    return [brand];
  }
  return staff.brands;
}

/** Whether a brand is among the ids `brandsToQuery` answered (for lists of tenants, figures, events). */
export const amongBrands = (brands: BrandIds, brand: string): boolean => brands === null || brands.includes(brand);

/**
 * The condition `column` is one of `brands` (brandsToQuery), for `.where()`: every brand, one
 * (an equality, so an index on the column is read in its order), several, or none (no rows).
 */
export function brandCondition(column: string, brands: BrandIds): RawBuilder<SqlBool> {
  if (brands === null) return sql<SqlBool>`1 = 1`;
  if (brands.length === 0) return sql<SqlBool>`1 = 0`;
  if (brands.length === 1) return sql<SqlBool>`${sql.ref(column)} = ${brands[0]}`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join([...brands])})`;
}
