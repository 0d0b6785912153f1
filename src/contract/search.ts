import { z } from 'zod';
import { GENDERS, SEARCH_GENDER_CHOICES, MAX_PAGE, SEARCH_MAX_AGE, SEARCH_MIN_AGE } from './enums.ts';
import { ProfileCardData } from './cards.ts';

/** A whole number in a range, from a query string ("abc", "1.5", "-3" are refused). */
const whole = (min: number, max: number) => z.string().max(6).regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max));

/**
 * GET /api/members.php: the search filters of SPEC §3 "Search state". An empty value counts as
 * absent (a form's "any" choice); a repeated parameter counts once (the first).
 */
export const SearchParams = z.preprocess(
  (raw) => {
    if (typeof raw !== 'object' || raw === null) return raw;
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(raw)) {
      const first = (Array.isArray(value) ? value[0] : value) as unknown;
      if (typeof first === 'string' && first.trim()) out[key] = first.trim();
    }
    return out;
  },
  z.object({
    gender: z.enum(SEARCH_GENDER_CHOICES).optional(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/)
      .transform((c) => c.toUpperCase())
      .optional(),
    region: z.string().min(1).max(100).optional(),
    min_age: whole(SEARCH_MIN_AGE, SEARCH_MAX_AGE).optional(),
    max_age: whole(SEARCH_MIN_AGE, SEARCH_MAX_AGE).optional(),
    page: whole(1, MAX_PAGE).default(1),
  }),
);
export type SearchQuery = z.output<typeof SearchParams>;

// ---- Answers

/** One result of the search: what a member card shows. */
export const SearchCard = ProfileCardData.extend({
  gender: z.enum(GENDERS),
  /** For a member: they like this profile (the card's like button). */
  liked: z.boolean().optional(),
});
export type SearchCard = z.infer<typeof SearchCard>;

/** GET /api/members.php: a page of cards and the count. */
export const SearchAnswer = z.object({
  profiles: z.array(SearchCard),
  /** Matches, counted up to SEARCH_COUNT_LIMIT. */
  total: z.number().int(),
  /** True when the count stopped at SEARCH_COUNT_LIMIT: there are at least that many. */
  total_capped: z.boolean(),
  page: z.number().int(),
  per_page: z.number().int(),
  pages: z.number().int(),
  /** Only when nothing matched: profiles of the searched gender, with the other filters dropped. */
  similar: z.array(SearchCard).optional(),
});
export type SearchAnswer = z.infer<typeof SearchAnswer>;
