import type { PageContext } from './context.ts';

/**
 * The address a visitor sees for a page, where the language menu comes back to. Server-rendered
 * pages know it with its query; a prerendered page is built under /l/<locale>/ and served without
 * that prefix (the browser's script adds the query). The error pages stand at any address: home.
 */
export function pageAddress(ctx: PageContext, url: URL): string {
  if (!ctx.prerendered) return url.pathname + url.search;
  if (ctx.routeName === 'error') return '/';
  // A member shell stands at many addresses (its script sends the one it is at): the search by default.
  if (ctx.shell) return '/members';
  // A lander's variant is built in a folder of its own and served at the lander's address.
  return url.pathname.replace(/^\/l\/[^/]+/, '').replace(/^\/lander-variants\/[^/]+/, '').replace(/\/+$/, '') || '/';
}
