import { z } from 'zod';
import type { ApiContext, ApiRoute } from './context.ts';
import { AppError, authRequired } from '../errors.ts';
import { GENDERS } from '../../lib/profile-fields.ts';
import { loggedOutSearchAllowed } from '../../lib/routes.ts';
import { MAX_PAGE, SEARCH_MAX_AGE, SEARCH_MIN_AGE, type SearchQuery } from '../services/search.ts';

/** The query parameters that name a traffic source (SPEC §3 tracking parameters), as the page guard reads them. */
const TRAFFIC_SOURCE_PARAMS = ['network', 'ref', 'sub1', 'sub2', 'sub3'] as const;

/** A whole number in a range, from a query string ("abc", "1.5", "-3" are refused). */
const whole = (min: number, max: number) => z.string().max(6).regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max));

const SearchParams = z.object({
  gender: z.enum(GENDERS).optional(),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .transform((c) => c.toUpperCase())
    .optional(),
  region: z.string().min(1).max(100).optional(),
  min_age: whole(SEARCH_MIN_AGE, SEARCH_MAX_AGE).optional(),
  max_age: whole(SEARCH_MIN_AGE, SEARCH_MAX_AGE).optional(),
  page: whole(1, MAX_PAGE).default(1),
});
const PARAM_NAMES = Object.keys(SearchParams.shape) as (keyof typeof SearchParams.shape)[];

/**
 * The search query of a request: each parameter once (the first), an empty value counting as
 * absent (a form's "any" choice). The first problem is a 400 naming its parameter.
 */
function searchQuery(ctx: ApiContext): SearchQuery {
  const raw: Record<string, string> = {};
  for (const name of PARAM_NAMES) {
    const value = ctx.query.get(name)?.trim();
    if (value) raw[name] = value;
  }
  const result = SearchParams.safeParse(raw);
  if (result.success) return result.data;
  const field = String(result.error.issues[0]!.path[0] ?? '');
  throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: field || undefined });
}

export const searchRoutes: Record<string, ApiRoute> = {
  'members.php': {
    // The member search, also the home after login (SPEC §2); visitors as the brand allows (SPEC §6).
    GET: async (ctx) => {
      const hasTrafficSource = TRAFFIC_SOURCE_PARAMS.some((p) => ctx.query.has(p));
      if (!ctx.session && !loggedOutSearchAllowed(ctx.tenant, hasTrafficSource)) throw authRequired();
      const query = searchQuery(ctx);
      return ctx.services.search.members(ctx.tenant, ctx.session?.user.id ?? null, query, ctx.country);
    },
  },
};
