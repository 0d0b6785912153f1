import type { Locale } from '../lib/locales.ts';
import type { LayoutName } from '../lib/visibility.ts';
import type { PageContext } from './context.ts';
import { buildTenant } from './build-tenant.ts';

/** The context of a prerendered page: the build's tenant in one locale, nothing of the visitor. */
export function staticContext(locale: string, routeName: string, layout: LayoutName = 'default', shell = false): PageContext {
  const tenant = buildTenant();
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
