import type { Tenant } from '../tenant/schema.ts';
import type { Locale } from '../lib/locales.ts';
import type { Fictional } from '../islands/search/ProfileCard.tsx';
import { translator } from './i18n.ts';

/**
 * How a fictional profile is marked wherever it appears (DESIGN §10, SPEC §1): the brand's icon,
 * its word for one such profile and its warning, or the catalogue's.
 */
export function fictionalOf(tenant: Pick<Tenant, 'fictional_icon' | 'fictional_warning' | 'fictional_singular'>, locale: Locale): Fictional {
  const t = translator(locale);
  return { icon: tenant.fictional_icon, warning: tenant.fictional_warning ?? t('fictional_warning'), label: tenant.fictional_singular ?? t('fictional_singular') };
}
