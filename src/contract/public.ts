import { z } from 'zod';
import { TRACKING_KEYS } from './enums.ts';
import { CONSENT_CHOICES } from '../lib/consent.ts';

/** A decimal number as the page writes it (`toFixed`): no hex, exponent, spaces or empty value read as 0. */
const decimal = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,3}(\.\d{1,15})?$/)
    .transform(Number)
    .pipe(z.number().min(min).max(max));

/** GET /api/geocode.php: a position from the browser's geolocation. */
export const GeocodeQuery = z.object({
  lat: decimal(-90, 90),
  lon: decimal(-180, 180),
});

/**
 * POST /api/consent.php: the visitor's choice on a lander's consent bar (issue 23), and the
 * network parameters of the lander's address that accepting keeps (only valid values are kept:
 * src/lib/attribution.ts trackingOf).
 */
export const ConsentBody = z.object({
  choice: z.enum(CONSENT_CHOICES),
  tracking: z.object(Object.fromEntries(TRACKING_KEYS.map((k) => [k, z.string().max(1000).optional()])) as Record<(typeof TRACKING_KEYS)[number], z.ZodOptional<z.ZodString>>).strip().default({}),
});
export const ConsentAnswer = z.object({ consent: z.enum(CONSENT_CHOICES) });

// ---- Answers (the 2xx JSON of each route; docs/API.md points to /api/openapi.json for them).

/** `{ok: true}`: a change done, nothing else to say. */
export const OkAnswer = z.object({ ok: z.literal(true) });
export type OkAnswer = z.infer<typeof OkAnswer>;

/** A brand colour set (tenant.json `theme`, unread resolved). */
const Theme = z.object({ primary: z.string(), secondary: z.string(), success: z.string(), info: z.string(), warning: z.string(), danger: z.string(), unread: z.string() });
const Money = z.object({ costs: z.number().int(), currency: z.string() });

/** GET /api/settings.php: SPEC §3 "Settings from the server" for the brand and visitor. */
export const SettingsAnswer = z.object({
  settings: z.object({
    countries: z.array(z.string()),
    name: z.string(),
    index_title: z.string(),
    description: z.string(),
    domain: z.string(),
    domain_language: z.string(),
    cdn_prefix: z.string(),
    niche: z.number().int(),
    company_id: z.number().int(),
    mail_name: z.string(),
    support_email: z.string(),
    support_phone: z.string(),
    geoip_country: z.string().nullable(),
    geoip_selected_country: z.string(),
    fictional_icon: z.string(),
    fictional_warning: z.string(),
    fictional_singular: z.string(),
    fictional_plural: z.string(),
    enable_site_entry_popup: z.boolean(),
    push_public_key: z.string().nullable(),
    visible_profile_fields: z.array(z.string()),
    visible_profile_notes: z.boolean(),
    search_fields: z.array(z.string()),
    message_credits: z.number().int(),
    photo_credits: z.number().int(),
    gift_credits: z.number().int(),
    signup_credits: z.number().int(),
    message_length: z.number().int(),
    refund_days: z.number().int(),
    member_resell: z.boolean(),
    signups: z.enum(['all', 'with_trafficsource', 'other']),
    logged_out_search: z.boolean(),
    logged_out_search_trafficsource: z.boolean(),
    minimum_message_costs: z.record(z.string(), Money),
    locale: z.string(),
    locales: z.array(z.string()),
    default_locale: z.string(),
    theme: Theme,
  }),
});
export type SettingsAnswer = z.infer<typeof SettingsAnswer>;
export type SiteSettings = SettingsAnswer['settings'];

/** GET /api/companyinfo.php: the operating company of the brand. */
export const CompanyInfoAnswer = z.object({
  company: z.object({
    name: z.string(),
    address: z.string(),
    kvk: z.string(),
    city: z.string(),
    country: z.string(),
    tradenames: z.array(z.string()),
    vat_numbers: z.array(z.string()),
    support_phone: z.string().optional(),
    delete_discount: z.number().int(),
    added: z.string(),
  }),
});
export type CompanyInfoAnswer = z.infer<typeof CompanyInfoAnswer>;

/** One interest a profile may name, with its icon and label in the visitor's language. */
export const Interest = z.object({ key: z.string(), icon: z.string(), label: z.string() });
export type Interest = z.infer<typeof Interest>;
/** GET /api/interests.php */
export const InterestsAnswer = z.object({ interests: z.array(Interest) });

/** A country of the brand with its regions and what it calls them (province, state...). */
export const RegionCountry = z.object({
  code: z.string(),
  label_key: z.string(),
  name: z.string(),
  label: z.string(),
  regions: z.array(z.object({ code: z.string(), name: z.string() })),
});
export type RegionCountry = z.infer<typeof RegionCountry>;
/** GET /api/regions.php */
export const RegionsAnswer = z.object({ countries: z.array(RegionCountry) });

/** A position's country, region and nearest town (offline data set). */
export const Geocode = z.object({ country: z.string(), region: z.string().nullable(), region_name: z.string().nullable(), city: z.string() });
export type Geocode = z.infer<typeof Geocode>;
/** GET /api/geocode.php: false far from any town. */
export const GeocodeAnswer = z.object({ geocode: z.union([Geocode, z.literal(false)]) });
