import { GENDERS, SEXUALITIES, SEARCH_MIN_AGE, SEARCH_MAX_AGE, type Gender, type Sexuality } from '../contract/enums.ts';
import { PROFILE_FIELD_KEYS } from './profile-fields.ts';
import type { Niche } from './slugs.ts';
import { yearsBefore } from './account-rules.ts';

/**
 * A brand's audience (issue 24, DESIGN §12): whom its members are shown from the other brands of
 * its pool. Each field narrows; `null` is "anyone". `interests` are "any of": a profile listing one
 * of them is in (a BDSM brand's members list bondage or sadomasochism); empty requires none.
 */
export interface Audience {
  genders: Gender[];
  sexualities: Sexuality[];
  min_age: number;
  max_age: number;
  body_types: BodyType[] | null;
  interests: string[];
  countries: string[] | null;
}

export const BODY_TYPES = PROFILE_FIELD_KEYS.body_type;
export type BodyType = (typeof BODY_TYPES)[number];

const EVERYONE: Audience = { genders: [...GENDERS], sexualities: [...SEXUALITIES], min_age: SEARCH_MIN_AGE, max_age: SEARCH_MAX_AGE, body_types: null, interests: [], countries: null };

/**
 * The default audience of each niche of SPEC §2 ("1 has no prefix, 2 she-, 3 bdsm-, 4 bbw-, 5
 * gilf-, 6 milf-, 7 gay-"): the people its landers promise. A brand may only narrow it.
 */
export const NICHE_AUDIENCES: Record<Niche, Audience> = {
  1: EVERYONE,
  2: { ...EVERYONE, genders: ['female'] },
  3: { ...EVERYONE, interests: ['bondage', 'sadomasochism'] },
  4: { ...EVERYONE, genders: ['female'], body_types: ['curvy', 'full'] },
  5: { ...EVERYONE, genders: ['female'], min_age: 55 },
  6: { ...EVERYONE, genders: ['female'], min_age: 35 },
  7: { ...EVERYONE, genders: ['male'], sexualities: ['gay', 'bi'] },
};

/** What a brand writes in tenant.json: any field of the audience, the rest from its niche. */
export type AudienceInput = Partial<Audience>;

/** The niche's default with the brand's own fields over it. */
export function resolveAudience(niche: Niche, own: AudienceInput | undefined): Audience {
  return { ...NICHE_AUDIENCES[niche], ...own };
}

/**
 * Where a brand's audience is wider than its niche's default, as [field, message] pairs (empty:
 * it only narrows). A niche brand's landers promise its people; its audience cannot promise more.
 */
export function wideningOf(niche: Niche, own: AudienceInput): [keyof Audience, string][] {
  const base = NICHE_AUDIENCES[niche];
  const problems: [keyof Audience, string][] = [];
  for (const field of ['genders', 'sexualities', 'body_types', 'interests', 'countries'] as const) {
    const allowed = base[field] as readonly string[] | null;
    // "Anyone" (null, or no interest required) takes any narrowing.
    if (allowed === null || allowed.length === 0) continue;
    const wider = ((own[field] ?? []) as readonly string[]).filter((v) => !allowed.includes(v));
    if (wider.length) problems.push([field, `${wider.join(', ')} is outside niche ${niche}'s default (${allowed.join(', ')}): a brand may only narrow it`]);
  }
  if (own.min_age !== undefined && own.min_age < base.min_age) problems.push(['min_age', `must be at least ${base.min_age}, niche ${niche}'s default: a brand may only narrow it`]);
  if (own.max_age !== undefined && own.max_age > base.max_age) problems.push(['max_age', `must be at most ${base.max_age}, niche ${niche}'s default: a brand may only narrow it`]);
  return problems;
}

/**
 * The birth dates of an age range on `today` (YYYY-MM-DD, compared as text): born on or before
 * `bornOnOrBefore` is at least `minAge`; born after `bornAfter` is at most `maxAge`.
 */
export function birthDatesOf(minAge: number, maxAge: number, today: Date): { bornOnOrBefore: string; bornAfter: string } {
  return { bornOnOrBefore: yearsBefore(today, minAge), bornAfter: yearsBefore(today, maxAge + 1) };
}

/** The profile fields an audience reads (a profile row: `interests` is its JSON text of keys). */
export interface AudiencePerson {
  gender: Gender;
  sexuality: Sexuality;
  birth_date: string;
  body_type: string | null;
  interests: string;
  country: string;
}

/**
 * Whether `person` is someone the audience is for on `today`: the same test, field for field, as
 * the audience's SQL condition (services/pool.ts `audienceOf`), so a viewer's fit worked out here
 * gives the scope the statement would. An interest is its key in quotes within the JSON text.
 */
export function fitsAudience(a: Audience, person: AudiencePerson, today: Date): boolean {
  const { bornOnOrBefore, bornAfter } = birthDatesOf(a.min_age, a.max_age, today);
  if (!a.genders.includes(person.gender)) return false;
  if (!a.sexualities.includes(person.sexuality)) return false;
  if (a.min_age > SEARCH_MIN_AGE && !(person.birth_date <= bornOnOrBefore)) return false;
  if (a.max_age < SEARCH_MAX_AGE && !(person.birth_date > bornAfter)) return false;
  if (a.body_types && (person.body_type === null || !(a.body_types as readonly string[]).includes(person.body_type))) return false;
  if (a.interests.length && !a.interests.some((key) => person.interests.includes(`"${key}"`))) return false;
  if (a.countries && !a.countries.includes(person.country)) return false;
  return true;
}
