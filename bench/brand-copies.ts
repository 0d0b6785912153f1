/**
 * The brands of the bench's `brands` section (issue 25, docs/ONE-BUILD.md step 5): N tenant
 * folders made from spetter's and velvet's, in turn, under other ids, domains, names, colours and
 * languages. Pure but for `writeBrandCopies`, which writes them into a tenants folder of the
 * bench's own. bench/brands.ts builds and serves them; tests/unit/bench-brands.test.ts checks them.
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type Source = 'spetter' | 'velvet';
const SOURCES: readonly Source[] = ['spetter', 'velvet'];

/**
 * The language sets the copies take in turn, per source, the default first: a few sets, as the
 * brands of one operator share them. Each set is a program of its own until messages are compiled
 * per locale (docs/ONE-BUILD.md step 3). Only languages with lander texts in tenants/_defaults.
 */
export const LANGUAGE_SETS: Readonly<Record<Source, readonly (readonly string[])[]>> = {
  spetter: [['nl'], ['nl', 'en']],
  velvet: [['en', 'de', 'fr'], ['de', 'en']],
};

export interface BrandCopy {
  id: string;
  source: Source;
  /** The brand's languages, the default first. */
  languages: readonly string[];
  /** Its main domain (the tenant file also lists www. of it). */
  domain: string;
  /** The tenant file as written (tenant.json). */
  tenant: Record<string, unknown>;
}

/** The id of the i-th copy (from 1), in id order: bench0001, bench0002, … */
export const copyId = (i: number) => `bench${String(i).padStart(4, '0')}`;

/** A colour of hue h (degrees), saturation s and lightness l (0 to 1) as #rrggbb. */
export function hslHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255).toString(16).padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/** The i-th copy's colours: hues spread by the golden angle, the primary dark enough for white text. */
export function copyColours(i: number): { primary: string; secondary: string } {
  const hue = (i * 137.508) % 360;
  return { primary: hslHex(hue, 0.6, 0.32), secondary: hslHex(hue, 0.5, 0.58) };
}

/** A text given per language (velvet's index_title, description) narrowed to the copy's languages; any other value as it is. */
function forLanguages(value: unknown, languages: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([locale]) => languages.includes(locale)));
}

/**
 * N tenant files from the two sources' (`sources.spetter`, `sources.velvet`: their tenant.json as
 * read): spetter's for odd i, velvet's for even i, each source's language sets in turn. The first is
 * the default brand; no copy joins a member pool (each is alone, as a new brand is).
 */
export function brandCopies(n: number, sources: Readonly<Record<Source, Record<string, unknown>>>): BrandCopy[] {
  return Array.from({ length: n }, (_, k) => {
    const i = k + 1;
    const source = SOURCES[k % SOURCES.length]!;
    const sets = LANGUAGE_SETS[source];
    const languages = sets[Math.floor(k / SOURCES.length) % sets.length]!;
    const id = copyId(i);
    const domain = `${id}.example`;
    const { network: _alone, ...file } = sources[source];
    const tenant = {
      ...file,
      name: `${String(file.name)} ${i}`,
      domains: [domain, `www.${domain}`],
      default: i === 1,
      domain_language: languages[0],
      index_title: forLanguages(file.index_title, languages),
      description: forLanguages(file.description, languages),
      theme: { ...(file.theme as object), ...copyColours(i) },
      locales: { available: languages, default: languages[0], fallback: languages[0] },
      support_email: `support@${domain}`,
    };
    return { id, source, languages, domain, tenant };
  });
}

/**
 * Writes the copies into `dir` (a tenants folder): tenants/_defaults from `tenantsDir`, then per
 * copy its tenant.json with the source's landers/ and assets/.
 */
export function writeBrandCopies(dir: string, tenantsDir: string, copies: readonly BrandCopy[]): void {
  cpSync(join(tenantsDir, '_defaults'), join(dir, '_defaults'), { recursive: true });
  for (const copy of copies) {
    mkdirSync(join(dir, copy.id), { recursive: true });
    writeFileSync(join(dir, copy.id, 'tenant.json'), `${JSON.stringify(copy.tenant, null, 2)}\n`);
    for (const folder of ['landers', 'assets']) {
      const from = join(tenantsDir, copy.source, folder);
      if (existsSync(from)) cpSync(from, join(dir, copy.id, folder), { recursive: true });
    }
  }
}
