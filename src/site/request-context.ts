import type { AstroGlobal } from 'astro';
import type { PageContext } from './context.ts';
import { ROUTES } from '../lib/routes.ts';

/** The context of a server-rendered page, from what the runtime put in locals. */
export function requestContext(astro: Pick<AstroGlobal, 'locals'>, routeName: string): PageContext {
  const { tenant, locale, locales, country, user, counts, services } = astro.locals;
  const layout = ROUTES.find((r) => r.name === routeName)?.layout ?? 'default';
  // A runtime without keys offers no push opt-in.
  const pushKey = user ? (services?.pushPublicKey ?? null) : null;
  return { tenant, locale, locales, country, user, routeName, layout, prerendered: false, shell: false, counts: counts ?? { unread: 0, newLikes: 0 }, pushKey };
}
