/**
 * The member network's pure rules (issue 24): a brand's scope in its pool, and the birth dates of
 * an audience's age range beside the age rule of accounts (ageOn).
 */
import { describe, expect, test } from 'vitest';
import { parseTenant, type TenantInput } from '../../src/tenant/schema.ts';
import { poolOf, poolScope, createPoolScopes, brandInScope, fitOf, fitKey } from '../../src/server/services/pool.ts';
import { partnerBrands } from '../../src/server/services/pool-view.ts';
import { birthDatesOf, fitsAudience, NICHE_AUDIENCES } from '../../src/lib/audience.ts';
import { ageOn } from '../../src/lib/account-rules.ts';
import { poolBrandNames } from '../../src/site/pool-brands.ts';

function brand(id: string, extra: Partial<TenantInput> = {}) {
  const result = parseTenant(id, {
    name: id.toUpperCase(),
    domains: [`${id}.test`],
    company: { name: 'Flirt B.V.', address: 'Straat 1', kvk: '12345678', city: '1011 AA Amsterdam', country: 'Nederland' },
    support_email: `support@${id}.test`,
    ...extra,
  });
  if (!('tenant' in result)) throw new Error(result.errors.join('\n'));
  return result.tenant;
}

describe("a brand's scope in its pool", () => {
  const a = brand('alfa', { network: { pool: 'nl' } });
  const b = brand('bravo', { niche: 6, network: { pool: 'nl', share_fictional: true } });
  const c = brand('charlie', { niche: 6, network: { pool: 'nl' } });
  const other = brand('delta', { network: { pool: 'de' } });
  const alone = brand('echo');
  const all = [c, other, alone, b, a];

  test("names the pool's other brands, those sharing fictional profiles, and groups them by audience", () => {
    const scope = poolScope(a, all);
    expect(scope.others).toEqual(['bravo', 'charlie']);
    expect(scope.fictionalFrom).toEqual(['bravo']);
    expect(scope.peerAudiences).toEqual([{ brands: ['bravo', 'charlie'], audience: b.audience }]);
    expect(brandInScope(scope, 'charlie')).toBe(true);
    expect(brandInScope(scope, 'delta')).toBe(false);
  });

  test('a brand alone, or alone in its pool, has only itself, and its key is its id', () => {
    for (const t of [alone, other]) expect(poolScope(t, all)).toMatchObject({ brand: t.id, others: [], fictionalFrom: [], key: t.id });
  });

  test('a brand suspended from its pool is out of it both ways: no peers, in no peer\'s scope, on no page, in no console view; back when set back', () => {
    const suspended = brand('charlie', { niche: 6, network: { pool: 'nl', suspended: true } });
    const list = [a, b, suspended, other, alone];
    expect(poolOf(suspended)).toBeUndefined();
    expect(poolOf(c)).toBe('nl');
    expect(poolOf(alone)).toBeUndefined();
    expect(poolScope(suspended, list)).toMatchObject({ others: [], key: 'charlie' });
    expect(poolScope(a, list).others).toEqual(['bravo']);
    const astro = { locals: { services: { tenants: () => list } } } as unknown as Parameters<typeof poolBrandNames>[0];
    expect(poolBrandNames(astro, a)).toEqual(['BRAVO']);
    expect(poolBrandNames(astro, suspended)).toEqual([]);
    expect(partnerBrands({ brands: ['alfa'] }, 'charlie', list)).toEqual([]);
    expect(partnerBrands({ brands: ['charlie'] }, 'alfa', list)).toEqual([]);
    expect(partnerBrands({ brands: ['charlie'] }, 'alfa', all)).toEqual(['charlie']);
  });

  test('the scopes follow the registry: a new list (a changed tenant file) gives new scopes, the same list the same', () => {
    let list = all;
    const scopeOf = createPoolScopes(() => list);
    const first = scopeOf(a);
    expect(scopeOf(a)).toBe(first);
    list = [a, b, other, alone, brand('charlie', { niche: 6 })];
    expect(scopeOf(a).others).toEqual(['bravo']);
    expect(scopeOf(a).key).not.toBe(first.key);
  });

  test("the names of a pool's brands a page shows are worked out once per list, and anew for a new list", () => {
    let list = all;
    const astro = { locals: { services: { tenants: () => list } } } as unknown as Parameters<typeof poolBrandNames>[0];
    const first = poolBrandNames(astro, a);
    expect(first).toEqual(['BRAVO', 'CHARLIE']);
    expect(poolBrandNames(astro, a)).toBe(first);
    list = [a, b, other, alone, brand('charlie', { niche: 6 })];
    expect(poolBrandNames(astro, a)).toEqual(['BRAVO']);
  });
});

describe("an audience's age range as birth dates", () => {
  test('born on or before the first date is at least min_age, born after the second at most max_age', () => {
    for (const today of [new Date('2026-11-26T12:00:00Z'), new Date('2028-02-29T08:00:00Z'), new Date('2027-01-01T00:00:00Z')]) {
      const { bornOnOrBefore, bornAfter } = birthDatesOf(35, 60, today);
      expect(ageOn(bornOnOrBefore, today)).toBe(35);
      const dayAfter = new Date(Date.parse(`${bornOnOrBefore}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      expect(ageOn(dayAfter, today)).toBe(34);
      expect(ageOn(bornAfter, today)).toBe(61);
      const next = new Date(Date.parse(`${bornAfter}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      expect(ageOn(next, today)).toBe(60);
    }
  });
});

describe("a viewer's fit to the pool's audiences", () => {
  const today = new Date('2026-11-26T12:00:00Z');
  const person = { gender: 'female' as const, sexuality: 'hetero' as const, birth_date: '1986-11-26', body_type: 'curvy', interests: '["bondage","travel"]', country: 'NL' };

  test('each field of an audience is tested as its SQL condition is: the age from the birth date, an interest as its quoted key', () => {
    expect(fitsAudience(NICHE_AUDIENCES[6], person, today)).toBe(true); // 40 today
    expect(fitsAudience(NICHE_AUDIENCES[6], { ...person, birth_date: '1991-11-27' }, today)).toBe(false); // 34
    expect(fitsAudience(NICHE_AUDIENCES[6], { ...person, birth_date: '1991-11-26' }, today)).toBe(true); // 35 today
    expect(fitsAudience(NICHE_AUDIENCES[6], { ...person, gender: 'male' }, today)).toBe(false);
    expect(fitsAudience(NICHE_AUDIENCES[4], person, today)).toBe(true);
    expect(fitsAudience(NICHE_AUDIENCES[4], { ...person, body_type: null }, today)).toBe(false);
    expect(fitsAudience(NICHE_AUDIENCES[3], person, today)).toBe(true);
    expect(fitsAudience(NICHE_AUDIENCES[3], { ...person, interests: '["bondage-light"]' }, today)).toBe(false);
    expect(fitsAudience({ ...NICHE_AUDIENCES[1], max_age: 39 }, person, today)).toBe(false);
    expect(fitsAudience({ ...NICHE_AUDIENCES[1], countries: ['BE'] }, person, today)).toBe(false);
    expect(fitsAudience(NICHE_AUDIENCES[7], { ...person, gender: 'male', sexuality: 'bi' }, today)).toBe(true);
  });

  test("a scope's fit has a letter per audience; a visitor fits none", () => {
    const a = brand('alfa', { network: { pool: 'nl' } });
    const b = brand('bravo', { niche: 6, network: { pool: 'nl' } });
    const g = brand('golf', { niche: 7, network: { pool: 'nl' } });
    const scope = poolScope(a, [a, b, g]);
    expect(fitKey(fitOf(scope, { ...person, pooled: 1 }, today))).toBe('yyn');
    expect(fitKey(fitOf(scope, { ...person, pooled: 1, gender: 'male', sexuality: 'gay' }, today))).toBe('yny');
    expect(fitKey(fitOf(scope, null, today))).toBe('nnn');
    // A member shown on their own brand only sees their own brand only: a list of their own.
    expect(fitKey(fitOf(scope, { ...person, pooled: 0 }, today))).toBe('oyyn');
  });
});
