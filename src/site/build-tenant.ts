import { loadTenant } from '../tenant/load.ts';
import type { Tenant } from '../tenant/schema.ts';

let cached: Tenant | undefined;

/**
 * The tenant whose pages are being prerendered (prerendered pages only; server-rendered pages get it
 * from locals). Read from the build process's environment when a page is prerendered, never baked
 * into the server code: the program built for one brand is the program of every brand of its
 * languages (docs/ONE-BUILD.md, step 1).
 */
export function buildTenant(): Tenant {
  const id = process.env.SITEGEN_TENANT;
  if (!id) throw new Error('buildTenant(): SITEGEN_TENANT is not set; prerendered pages are built through `sitegen build <id>`');
  cached ??= loadTenant(id);
  return cached;
}

/** getStaticPaths entries for every locale of the build's tenant. */
export function localePaths<P extends Record<string, string | undefined>>(extra: (locale: string) => P[] = () => [{} as P]) {
  return buildTenant().locales.available.flatMap((locale) => extra(locale).map((params) => ({ params: { locale, ...params } })));
}
