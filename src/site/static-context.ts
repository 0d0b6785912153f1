import type { Locale } from '../lib/locales.ts';
import type { LayoutName } from '../lib/visibility.ts';
import type { Tenant } from '../tenant/schema.ts';
import type { PageContext } from './context.ts';
import type { StaticPath, StaticRoute } from './static-paths.ts';

/** The context of a page of a brand's static output: the tenant in one locale, nothing of the visitor. */
export function staticContext(tenant: Tenant, locale: string, routeName: string, layout: LayoutName = 'default', shell = false): PageContext {
  return {
    tenant,
    locale: locale as Locale,
    locales: tenant.locales.available,
    country: null,
    user: null,
    routeName,
    layout,
    prerendered: true,
    shell,
    counts: { unread: 0, newLikes: 0 },
    pushKey: null,
  };
}

/**
 * The page of the static output the renderer asks for (src/server/static-output.ts passes it in
 * `locals`): the pages under src/pages/l/[locale]/ render nothing else, and no visitor reaches
 * them (the runtime refuses /l/…, src/server/http/plugins/pages.ts).
 */
export function staticOutputPage(locals: App.Locals, route: StaticRoute): StaticPath {
  const page = locals.staticPage;
  if (page?.route !== route) throw new Error(`the page ${route} of the static output is rendered by src/server/static-output.ts only`);
  return page;
}
