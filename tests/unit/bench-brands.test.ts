/**
 * The bench's N brands (bench/brand-copies.ts, issue 25 step 5): copies of spetter and velvet that
 * `sitegen check` accepts, each with an id, domains and colours of its own and the languages varied.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { brandCopies, copyColours, hslHex, writeBrandCopies, LANGUAGE_SETS, type Source } from '../../bench/brand-copies.ts';
import { parseTenant, TENANT_ID } from '../../src/tenant/schema.ts';
import { checkAll } from '../../cli/check.ts';
import { listTenantIds } from '../../src/tenant/load.ts';

const TENANTS = join(import.meta.dirname, '..', '..', 'tenants');
const sources = Object.fromEntries((['spetter', 'velvet'] as const).map((s) => [s, JSON.parse(readFileSync(join(TENANTS, s, 'tenant.json'), 'utf8'))])) as Record<Source, Record<string, unknown>>;
let dir: string | undefined;

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

test('hslHex gives #rrggbb: red, white, black, a grey', () => {
  expect(hslHex(0, 1, 0.5)).toBe('#ff0000');
  expect(hslHex(120, 1, 0.5)).toBe('#00ff00');
  expect(hslHex(0, 0, 1)).toBe('#ffffff');
  expect(hslHex(200, 0.5, 0)).toBe('#000000');
  expect(hslHex(0, 0, 0.5)).toBe('#808080');
});

test('N copies: ids and domains unique and valid, colours hex and differing, both sources and every language set, one default brand', () => {
  const copies = brandCopies(100, sources);
  expect(copies).toHaveLength(100);
  const ids = copies.map((c) => c.id);
  expect(new Set(ids).size).toBe(100);
  for (const id of ids) expect(id).toMatch(TENANT_ID);
  const domains = copies.flatMap((c) => c.tenant.domains as string[]);
  expect(new Set(domains).size).toBe(200);
  expect(domains).not.toContain('spetter.nl');
  const primaries = copies.map((c) => (c.tenant.theme as { primary: string }).primary);
  for (const colour of primaries) expect(colour).toMatch(/^#[0-9a-f]{6}$/);
  expect(new Set(primaries).size).toBeGreaterThan(90);
  expect(copyColours(1)).not.toEqual(copyColours(2));
  expect(new Set(copies.map((c) => c.source))).toEqual(new Set(['spetter', 'velvet']));
  const sets = new Set(copies.map((c) => c.languages.join(',')));
  expect(sets).toEqual(new Set(Object.values(LANGUAGE_SETS).flat().map((l) => l.join(','))));
  expect(copies.filter((c) => c.tenant.default)).toHaveLength(1);
  expect(copies.every((c) => c.tenant.network === undefined)).toBe(true);
});

test('every copy passes the tenant schema with its own languages, and a tenants folder of them passes sitegen check', () => {
  const copies = brandCopies(12, sources);
  for (const copy of copies) {
    const parsed = parseTenant(copy.id, copy.tenant);
    if ('errors' in parsed) throw new Error(parsed.errors.join('\n'));
    expect(parsed.tenant.locales.available).toEqual(copy.languages);
    expect(parsed.tenant.locales.default).toBe(copy.languages[0]);
    expect(parsed.tenant.domains[0]).toBe(copy.domain);
  }
  // velvet's titles per language keep only the copy's languages
  const german = copies.find((c) => c.source === 'velvet' && c.languages[0] === 'de')!;
  expect(Object.keys(german.tenant.index_title as object).sort()).toEqual(['de', 'en']);

  dir = mkdtempSync(join(tmpdir(), 'bench-brands-'));
  writeBrandCopies(dir, TENANTS, copies);
  expect(listTenantIds(dir)).toEqual(copies.map((c) => c.id));
  expect(checkAll(dir)).toEqual([]);
});
