import { loadTenant } from '../tenant/load.ts';
import type { Tenant } from '../tenant/schema.ts';

let cached: Tenant | undefined;

/** The tenant this build is for (prerendered pages only; server-rendered pages get it from locals). */
export function buildTenant(): Tenant {
  cached ??= loadTenant(import.meta.env.SITEGEN_TENANT);
  return cached;
}

/** getStaticPaths entries for every locale of the build's tenant. */
export function localePaths<P extends Record<string, string | undefined>>(extra: (locale: string) => P[] = () => [{} as P]) {
  return buildTenant().locales.available.flatMap((locale) => extra(locale).map((params) => ({ params: { locale, ...params } })));
}
