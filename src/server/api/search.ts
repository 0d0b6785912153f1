import { authRequired } from '../errors.ts';
import { loggedOutSearchAllowed } from '../../lib/routes.ts';
import { TRACKING_KEYS } from '../../contract/enums.ts';
import { SearchAnswer, SearchParams } from '../../contract/search.ts';
import { json, route } from '../http/routes.ts';

export const searchRoutes = [
  route({
    // The member search, also the home after login (SPEC §2); visitors as the brand allows (SPEC §6).
    method: 'GET',
    path: 'members.php',
    answer: SearchAnswer,
    who: 'visitor',
    query: SearchParams,
    handler: async (ctx) => {
      const hasTrafficSource = TRACKING_KEYS.some((p) => ctx.params.has(p));
      if (!ctx.session && !loggedOutSearchAllowed(ctx.tenant, hasTrafficSource)) throw authRequired();
      return json(await ctx.services.search.members(ctx.tenant, ctx.session?.user.id ?? null, ctx.query, ctx.country));
    },
  }),
];
