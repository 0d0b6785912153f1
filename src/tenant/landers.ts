import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { LOCALES, languageOf } from '../lib/locales.ts';
import { LANDER_NAMES, NICHES } from '../lib/slugs.ts';
import { CONTROL_VARIANT, VARIANT_NAME } from '../lib/attribution.ts';

/**
 * Lander variants are Markdown files with frontmatter, edited by marketers, under
 * tenants/<id>/landers/ with shared defaults under tenants/_defaults/landers/. Each file says
 * which lander, locale and niche it is for ("*" or absent: any); the most specific match wins,
 * and a tenant's own file beats a shared default of the same specificity.
 */
export const LanderFrontmatter = z
  .object({
    /** Lander name, or * for every lander. */
    lander: z.enum(['*', 'tinderswipe', ...LANDER_NAMES]).default('*').describe('Lander name, or * for every lander.'),
    /** Locale (or its language, such as en), or * for every locale. */
    locale: z.union([z.literal('*'), z.enum(LOCALES), z.enum(['en'])]).default('*').describe('Locale, or * for every locale.'),
    /** Niche number, or absent for every niche. */
    niche: z.union(NICHES.map((n) => z.literal(n)) as unknown as [z.ZodLiteral<1>, z.ZodLiteral<2>]).optional().describe('Niche number, or absent for every niche.'),
    headline: z.string().min(1).max(120).describe('Main headline.'),
    subline: z.string().max(240).optional().describe('Line under the headline.'),
    /** Hero image: a file in the tenant's assets/ folder or a path under /images/. */
    hero: z.string().optional().describe('Hero image path.'),
    /** Text of the call-to-action button that opens signup. */
    cta: z.string().min(1).max(40).describe('Text of the call-to-action button.'),
    /** Short selling points shown as a list. */
    points: z.array(z.string().min(1).max(80)).max(6).default([]).describe('Short selling points.'),
    /**
     * The name of this text in a lander experiment (issue 23): another file of the same lander,
     * locale and niche with its own name is a variant shown to a share of visitors. `control` (the
     * default) is the text the others are compared with, and what is shown once they are ended.
     */
    variant: z.string().regex(VARIANT_NAME, 'lower-case letters, digits and -, at most 30').default(CONTROL_VARIANT).describe('Name of this text in a lander experiment; control by default.'),
    /** The share of visitors this variant gets, relative to the other variants' weights. */
    weight: z.number().positive().max(1000).default(1).describe("Share of visitors, relative to the other variants' weights."),
  })
  .strict();

export type LanderVariant = z.output<typeof LanderFrontmatter> & { body: string; file: string };

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** Reads every variant file of a folder, returning variants and "file: path: message" problems. */
export function readLanderFolder(dir: string, shownPrefix: string): { variants: LanderVariant[]; errors: string[] } {
  return parseLanderFiles(readMarkdownFolder(dir, shownPrefix));
}

/** The Markdown files of a folder (none when it is missing) in name order: each one's path as shown (`shownPrefix/name`) and its text. */
export function readMarkdownFolder(dir: string, shownPrefix: string): [shown: string, text: string][] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((name) => [`${shownPrefix}/${name}`, readFileSync(join(dir, name), 'utf8')]);
}

/** The variants of a folder's files (their path as shown, and their text), and "file: path: message" problems. */
export function parseLanderFiles(files: Iterable<[shown: string, text: string]>): { variants: LanderVariant[]; errors: string[] } {
  const variants: LanderVariant[] = [];
  const errors: string[] = [];
  for (const [shown, text] of files) {
    const match = FRONTMATTER.exec(text);
    if (!match) {
      errors.push(`${shown}: (file): must start with --- frontmatter ---`);
      continue;
    }
    let data: unknown;
    try {
      data = parseYaml(match[1]!) ?? {};
    } catch (error) {
      errors.push(`${shown}: (frontmatter): ${(error as Error).message.split('\n')[0]}`);
      continue;
    }
    const result = LanderFrontmatter.safeParse(data);
    if (!result.success) {
      for (const issue of result.error.issues) errors.push(`${shown}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
      continue;
    }
    variants.push({ ...result.data, body: match[2]!.trim(), file: shown });
  }
  return { variants, errors: [...errors, ...experimentProblems(variants)] };
}

/** The texts that take turns on one lander, locale and niche: one experiment. */
export const groupKey = (v: Pick<LanderVariant, 'lander' | 'locale' | 'niche'>) => `${v.lander}|${v.locale}|${v.niche ?? '*'}`;

/**
 * What `sitegen check` refuses in a folder's experiments: two texts of one lander, locale and
 * niche under one name, and variants without the control they are compared with (and shown
 * instead once ended). Weights are positive by the schema.
 */
export function experimentProblems(variants: readonly LanderVariant[]): string[] {
  const problems: string[] = [];
  const groups = new Map<string, LanderVariant[]>();
  for (const v of variants) groups.set(groupKey(v), [...(groups.get(groupKey(v)) ?? []), v]);
  for (const group of groups.values()) {
    const seen = new Map<string, string>();
    for (const v of group) {
      const twin = seen.get(v.variant);
      if (twin) problems.push(`${v.file}: variant: ${v.variant} is already the name of ${twin} (same lander, locale and niche); give each variant its own name`);
      else seen.set(v.variant, v.file);
    }
    if (!seen.has(CONTROL_VARIANT)) {
      for (const v of group) problems.push(`${v.file}: variant: ${v.variant} has no control to be compared with: add a text of the same lander, locale and niche without variant (or variant: ${CONTROL_VARIANT})`);
    }
  }
  return problems;
}

/** A tenant's lander files and the shared defaults (`shared`: as already read, src/server/output-dependencies.ts). */
export function readLanders(tenantsDir: string, tenantId: string, shared = readLanderFolder(join(tenantsDir, '_defaults', 'landers'), 'tenants/_defaults/landers')) {
  const own = readLanderFolder(join(tenantsDir, tenantId, 'landers'), `tenants/${tenantId}/landers`);
  return { own: own.variants, shared: shared.variants, errors: [...own.errors, ...shared.errors] };
}

function specificity(v: LanderVariant, lander: string, locale: string, niche: number): number {
  if (v.lander !== '*' && v.lander !== lander) return -1;
  if (v.niche !== undefined && v.niche !== niche) return -1;
  let score = 0;
  if (v.locale === locale) score += 4;
  else if (v.locale !== '*' && languageOf(v.locale) === languageOf(locale) && v.locale.length === 2) score += 3;
  else if (v.locale !== '*') return -1;
  if (v.lander !== '*') score += 8;
  if (v.niche !== undefined) score += 2;
  return score;
}

/** The control text for a lander, locale and niche: the most specific, the tenant's own before shared defaults. */
export function pickLander(own: LanderVariant[], shared: LanderVariant[], lander: string, locale: string, niche: number): LanderVariant | undefined {
  let best: { v: LanderVariant; score: number } | undefined;
  for (const [list, bonus] of [[own, 0.5], [shared, 0]] as const) {
    for (const v of list) {
      const s = specificity(v, lander, locale, niche);
      if (v.variant === CONTROL_VARIANT && s >= 0 && (!best || s + bonus > best.score)) best = { v, score: s + bonus };
    }
  }
  return best?.v;
}

/** The experiment of a control text: the control first, then the variants of its folder in file order. */
export function experimentOf(own: LanderVariant[], shared: LanderVariant[], control: LanderVariant): LanderVariant[] {
  const list = own.includes(control) ? own : shared;
  return [control, ...list.filter((v) => v !== control && groupKey(v) === groupKey(control))];
}
