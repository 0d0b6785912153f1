import { languageOf } from './locales.ts';

/** Niche numbers and the prefix of their landing slugs (SPEC §2 "Landing slugs"). */
export const NICHE_PREFIXES = { 1: '', 2: 'she-', 3: 'bdsm-', 4: 'bbw-', 5: 'gilf-', 6: 'milf-', 7: 'gay-' } as const;
export type Niche = keyof typeof NICHE_PREFIXES;
export const NICHES = Object.keys(NICHE_PREFIXES).map(Number) as Niche[];

/** The landing slug for a niche and locale: the niche prefix, then the language, en written as eng. */
export function landingSlug(niche: Niche, locale: string): string {
  const language = languageOf(locale);
  return `${NICHE_PREFIXES[niche]}${language === 'en' ? 'eng' : language}`;
}

/** The landers of SPEC §2 that take a slug: /landers/{name}/{slug?}. */
export const LANDER_NAMES = [
  'alonetonight',
  'collagelanding',
  'gallery',
  'iconslanding',
  'maplanding',
  'socialnetwork',
  'transitionsvideolanding',
  'video',
] as const;
export type LanderName = (typeof LANDER_NAMES)[number];
