import type { Tenant } from '../../tenant/schema.ts';
import type { Locale } from '../../lib/locales.ts';
import { message } from '../i18n.ts';

export interface SettingsInput {
  tenant: Tenant;
  locale: Locale;
  locales: Locale[];
  /** Country of the client by GeoIP (or a trusted proxy header). */
  geoipCountry: string | null;
  /** Country the visitor chose, when it is one the brand serves. */
  selectedCountry: string | null;
  pushPublicKey: string | null;
}

/** The settings of SPEC §3 "Settings from the server" for one brand and visitor (GET /api/settings.php). */
export function settingsPayload({ tenant, locale, locales, geoipCountry, selectedCountry, pushPublicKey }: SettingsInput) {
  const served = (c: string | null) => (c && tenant.countries.includes(c) ? c : null);
  return {
    countries: tenant.countries,
    name: tenant.name,
    index_title: tenant.index_title[locale] ?? `${tenant.name} - ${message('site_tagline', locale, {}, tenant.locales.fallback)}`,
    description: tenant.description[locale] ?? message('site_description', locale, {}, tenant.locales.fallback),
    domain: tenant.domain,
    domain_language: tenant.domain_language,
    cdn_prefix: tenant.cdn_prefix,
    niche: tenant.niche,
    company_id: tenant.company.id,
    mail_name: tenant.mail_name,
    support_email: tenant.support_email,
    support_phone: tenant.support_phone,
    geoip_country: geoipCountry,
    geoip_selected_country: served(selectedCountry) ?? served(geoipCountry) ?? tenant.countries[0]!,
    fictional_icon: tenant.fictional_icon,
    fictional_warning: tenant.fictional_warning ?? message('fictional_warning', locale, {}, tenant.locales.fallback),
    fictional_singular: tenant.fictional_singular ?? message('fictional_singular', locale, {}, tenant.locales.fallback),
    fictional_plural: tenant.fictional_plural ?? message('fictional_plural', locale, {}, tenant.locales.fallback),
    enable_site_entry_popup: tenant.enable_site_entry_popup,
    push_public_key: pushPublicKey,
    visible_profile_fields: tenant.visible_profile_fields,
    visible_profile_notes: tenant.visible_profile_notes,
    search_fields: tenant.search_fields,
    message_credits: tenant.message_credits,
    photo_credits: tenant.photo_credits,
    gift_credits: tenant.gift_credits,
    signup_credits: tenant.signup_credits,
    message_length: tenant.message_length,
    refund_days: tenant.refund_days,
    member_resell: tenant.member_resell,
    signups: tenant.signups,
    logged_out_search: tenant.logged_out_search,
    logged_out_search_trafficsource: tenant.logged_out_search_trafficsource,
    minimum_message_costs: tenant.minimum_message_costs,
    // Beyond SPEC §3: what the islands need to offer languages and draw the brand.
    locale,
    locales,
    default_locale: tenant.locales.default,
    theme: tenant.theme,
  };
}

/** The company info of SPEC §3 (GET /api/companyinfo.php). */
export function companyInfo(tenant: Tenant) {
  const c = tenant.company;
  return {
    name: c.name,
    address: c.address,
    kvk: c.kvk,
    city: c.city,
    country: c.country,
    tradenames: c.tradenames,
    vat_numbers: c.vat_numbers,
    support_phone: c.support_phone,
    delete_discount: c.delete_discount,
    added: c.added,
  };
}
