import { defineMiddleware } from 'astro:middleware';
import { matchRoute, loginRedirect, loggedOutSearchAllowed } from './lib/routes.ts';
import { withLocaleScripts } from './site/locale-scripts.ts';

/**
 * Route guards (SPEC §2: "not shown", chosen in src/lib/routes.ts): member routes send a
 * logged-out visitor to /login; the members search opens to visitors when the tenant allows it.
 * The guard fails closed: a server-rendered page missing from the route table is for members only.
 * The pages of a brand's static output (src/server/static-output.ts) are rendered for no visitor.
 * Every page names the island scripts of its locale (src/site/locale-scripts.ts).
 */
export const onRequest = defineMiddleware(async (context, next) => {
  const page = async () => withLocaleScripts(await next(), context.locals.locale);
  if (context.isPrerendered || context.locals.staticPage || context.locals.user) return page();
  const match = matchRoute(context.url.pathname);
  const guard = match?.route.guard ?? 'member';
  const allowed =
    guard === 'guest' || (guard === 'search' && loggedOutSearchAllowed(context.locals.tenant, context.locals.trafficSource));
  if (allowed) return page();
  return context.redirect(loginRedirect(context.url.pathname, context.url.search), 302);
});
