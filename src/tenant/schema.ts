import { z } from 'zod';
import { GIFT_IDS, type GiftId } from '../lib/gifts.ts';
import { LOCALES, type Locale } from '../lib/locales.ts';
import { NICHES, LANDER_NAMES, type Niche } from '../lib/slugs.ts';
import { PAYMENT_METHOD_IDS } from '../lib/payment-methods.ts';
import { PHOTO_MODERATION } from '../lib/photo-screening.ts';
import { POSTBACK_EVENTS, POSTBACK_MACROS, unknownMacros } from '../lib/postbacks.ts';
import { CONTACT_ACTIONS } from '../lib/safety-rules.ts';
import { BODY_TYPES, resolveAudience, wideningOf } from '../lib/audience.ts';
import { GENDERS, SEXUALITIES, SEARCH_MIN_AGE, SEARCH_MAX_AGE } from '../contract/enums.ts';
import { INTERESTS } from '../server/data/interests.ts';

/**
 * tenant.json: one brand. This schema is the only place that reads a tenant file or knows a
 * default; `TenantInput` is what an operator writes, `Tenant` what the code uses.
 */

const color = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour such as #7b2cbf');
const country = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be an ISO 3166 country code in capitals such as NL');
const locale = z.enum(LOCALES, { error: `must be one of ${LOCALES.join(', ')}` });
const domain = z
  .string()
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'must be a lower-case host name such as example.com');

const ThemeSchema = z
  .object({
    /** Main brand colour: buttons, links, top bar. */
    primary: color.default('#6f2da8').describe('Main brand colour: buttons, links, top bar.'),
    /** Lighter companion colour. */
    secondary: color.default('#a66dd4').describe('Lighter companion colour.'),
    success: color.default('#1b7d45').describe('Success colour (green).'),
    info: color.default('#0f7c91').describe('Info colour (cyan).'),
    warning: color.default('#f5c400').describe('Warning colour (yellow).'),
    danger: color.default('#c62839').describe('Danger colour (red).'),
    /** Accent of unread messages; SPEC §9 makes it equal to secondary when not set. */
    unread: color.optional().describe('Accent of unread messages; equals secondary when not set.'),
  })
  .strict()
  .transform((t) => ({ ...t, unread: t.unread ?? t.secondary }));

const LocalesSchema = z
  .object({
    /** Locales this brand is served in. */
    available: z.array(locale).min(1).default(['nl']).describe('Locales this brand is served in.'),
    /** Locale used when nothing else chooses one. */
    default: locale.default('nl').describe('Locale used when nothing else chooses one.'),
    /** Locale whose text fills a message missing in another catalogue. */
    fallback: locale.default('nl').describe('Locale whose text fills a message missing in another catalogue.'),
    /** Hide the language dropdown even when several locales are visible. */
    hide_dropdown: z.boolean().default(false).describe('Hide the language dropdown even when several locales are visible.'),
  })
  .strict()
  .refine((l) => l.available.includes(l.default), { message: 'must be one of locales.available', path: ['default'] })
  .refine((l) => l.available.includes(l.fallback), { message: 'must be one of locales.available', path: ['fallback'] });

/**
 * A text the brand writes itself: one text in its default locale, or one per locale
 * (`{"en": "…", "de": "…"}`). Resolved to one per locale; a locale without its own text shows
 * the catalogue's in that language, never another language's.
 */
const BrandText = z.union([z.string().min(1), z.partialRecord(locale, z.string().min(1))], {
  error: 'must be a text, or texts by locale such as {"en": "…", "de": "…"}',
});
type BrandTextInput = z.input<typeof BrandText>;
const brandText = (text: BrandTextInput | undefined, defaultLocale: Locale): Partial<Record<Locale, string>> =>
  text === undefined ? {} : typeof text === 'string' ? { [defaultLocale]: text } : text;

const CompanySchema = z
  .object({
    /** The company's id, shared by brands of one operator (settings.company_id). */
    id: z.number().int().positive().default(1).describe("The company's id (settings.company_id)."),
    name: z.string().min(1).describe('Legal name of the operating company.'),
    address: z.string().min(1).describe('Street and number.'),
    /** Chamber of commerce number. */
    kvk: z.string().min(1).describe('Chamber of commerce number.'),
    city: z.string().min(1).describe('Postcode and city.'),
    country: z.string().min(1).describe('Country name as printed.'),
    /** The company's country as an ISO 3166-1 code: names the business register its number is in. */
    country_code: z.string().regex(/^[A-Z]{2}$/).optional().describe("The company's country as an ISO 3166-1 code (AA); names the business register of its number."),
    tradenames: z.array(z.string().min(1)).default([]).describe('Trade names the company operates under.'),
    vat_numbers: z.array(z.string().min(1)).default([]).describe('VAT numbers.'),
    support_phone: z.string().optional().describe('Support phone; the brand support_phone when not set.'),
    /** Percentage of the retention offer made when a member deletes the account. */
    delete_discount: z.number().int().min(0).max(100).default(50).describe('Percentage of the retention offer when a member deletes the account.'),
    /** Date the company was added; moves the terms version date forward (SPEC §9). */
    added: z.iso.datetime({ offset: true }).or(z.iso.date()).default('2023-12-01T12:00:00Z').describe('Date the company was added (ISO 8601).'),
  })
  .strict();

/**
 * The brand's safety rules for members' messages and signups (issue 22, src/lib/safety-rules.ts).
 * A held message is stored and charged but reaches its recipient only when a moderator releases it.
 */
const SafetySchema = z
  .object({
    /**
     * OpenCupid's burst rule: an account younger than `new_account_hours` that writes to more than
     * `max_recipients` different members has its further messages held. The defaults (24 hours, 5
     * members) let a real newcomer answer and start a handful of conversations on their first day,
     * while a scammer's copy-paste round to dozens of members is held after the fifth.
     */
    burst: z
      .object({
        new_account_hours: z.number().int().min(0).max(720).default(24).describe('An account younger than this many hours is new (0: the burst rule is off).'),
        max_recipients: z.number().int().min(1).max(1000).default(5).describe('A new account writing to more than this many different members has its further messages held.'),
      })
      .strict()
      .prefault({})
      .describe("OpenCupid's burst rule: a new account writing to many members has its further messages held for review."),
    /** Contact details (phone numbers, e-mail addresses, links, messenger handles) in a member's text: masked (default: kind to members, the message still arrives), held for review, or allowed. */
    contacts: z
      .enum(CONTACT_ACTIONS, { error: `must be one of ${CONTACT_ACTIONS.join(', ')}` })
      .default('mask')
      .describe("Contact details in a member's text message: mask (replaced in the stored and shown text), hold (held for review) or allow."),
    /** Words that hold a member's message for review (case-insensitive, whole words). */
    words: z.array(z.string().trim().min(1).max(60)).max(500).default([]).describe("Words that hold a member's message for review (case-insensitive, whole words)."),
    /** Refuse signups and e-mail changes to addresses of disposable mail services (mailchecker's list). */
    disposable_email: z.boolean().default(true).describe('Refuse signups and e-mail changes to addresses of disposable mail services.'),
  })
  .strict();

const PackageSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/, 'must be lower-case letters, digits and dashes').describe('Stable id of the credit package.'),
    credits: z.number().int().positive().describe('Credits the bundle adds.'),
    /** Price in cents of the currency. */
    price: z.number().int().positive().describe('Price in cents.'),
    currency: z.string().regex(/^[A-Z]{3}$/).default('EUR').describe('ISO 4217 currency code.'),
    /** The price in other currencies (cents), for members whose payment country pays in them (src/lib/currencies.ts). */
    prices: z.record(z.string().regex(/^[A-Z]{3}$/), z.number().int().positive()).default({}).describe('Prices in cents in other currencies, by ISO 4217 code, e.g. {"DKK": 11900}.'),
    /** Shows the popular tag. */
    popular: z.boolean().default(false).describe('Shows the popular tag.'),
    /** Discount ribbon percentage, 0 for none. */
    discount: z.number().int().min(0).max(90).default(0).describe('Discount ribbon percentage, 0 for none.'),
  })
  .strict();

/**
 * A server-to-server postback (issue 23): the events of members who came from `network`
 * (their tracking's network, exactly) are posted to `url` through the job queue.
 */
const PostbackSchema = z
  .object({
    /** The traffic source's network as its links name it (`?network=`). */
    network: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be 1 to 100 letters, digits, dots, dashes or underscores').describe("The traffic source's network, as its links name it (?network=)."),
    /** The URL template; each macro is filled URL-encoded. */
    url: z
      .string()
      .max(2000)
      .regex(/^https?:\/\/[^\s/?#]+[^\s]*$/, 'must be an http:// or https:// URL')
      .superRefine((url, ctx) => {
        const unknown = unknownMacros(url);
        if (unknown.length) ctx.addIssue({ code: 'custom', message: `unknown macro ${unknown.map((m) => `{${m}}`).join(', ')}: the macros are ${POSTBACK_MACROS.map((m) => `{${m}}`).join(', ')}` });
      })
      .describe(`The URL template; macros ${POSTBACK_MACROS.map((m) => `{${m}}`).join(', ')} are filled URL-encoded.`),
    /** The events the network wants. */
    events: z
      .array(z.enum(POSTBACK_EVENTS, { error: `must be one of ${POSTBACK_EVENTS.join(', ')}` }))
      .min(1)
      .refine((events) => new Set(events).size === events.length, 'must not name an event twice')
      .describe(`The events posted: ${POSTBACK_EVENTS.join(', ')}.`),
  })
  .strict();

/**
 * The member network (issue 24, DESIGN §12): brands naming one pool show each other's members,
 * each within its own `audience`. A brand without a network stays alone.
 */
const NetworkSchema = z
  .object({
    /** The pool this brand joins: every brand naming the same pool shares its members. */
    pool: z.string().regex(/^[a-z][a-z0-9-]{1,30}$/, 'must be 2 to 31 lower-case letters, digits or dashes, starting with a letter').describe('The pool this brand joins: every brand naming the same pool shares its members.'),
    /** Whether this brand's fictional profiles are shown on the pool's other brands (each with that brand's marker and warning). */
    share_fictional: z.boolean().default(false).describe("Whether this brand's fictional profiles are shown on the pool's other brands, with that brand's fictional marker and warning."),
    /** Whether the brand is suspended from its pool: out of it both ways until set back, its members keeping their pool choice for when it returns. */
    suspended: z.boolean().default(false).describe('Whether the brand is suspended from its pool: its members leave the other brands\' listings at once and see their own brand only, their conversations across stay readable and closed, until this is set back to false.'),
  })
  .strict();

const uniqueList = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .min(1)
    .refine((list) => new Set(list).size === list.length, 'must not name a value twice');
const age = z.number().int().min(SEARCH_MIN_AGE).max(SEARCH_MAX_AGE);
const INTEREST_KEYS = INTERESTS.map((i) => i.key) as [string, ...string[]];

/**
 * Whom the brand's members are shown from the pool's other brands (issue 24): every field narrows
 * the default audience of the brand's niche (src/lib/audience.ts), which a field not written keeps.
 */
const AudienceSchema = z
  .object({
    /** Genders shown. */
    genders: uniqueList(z.enum(GENDERS, { error: `must be one of ${GENDERS.join(', ')}` })).optional().describe(`Genders shown: ${GENDERS.join(', ')}.`),
    /** Sexualities shown. */
    sexualities: uniqueList(z.enum(SEXUALITIES, { error: `must be one of ${SEXUALITIES.join(', ')}` })).optional().describe(`Sexualities shown: ${SEXUALITIES.join(', ')}.`),
    /** Youngest age shown. */
    min_age: age.optional().describe(`Youngest age shown (${SEARCH_MIN_AGE} to ${SEARCH_MAX_AGE}).`),
    /** Oldest age shown. */
    max_age: age.optional().describe(`Oldest age shown (${SEARCH_MIN_AGE} to ${SEARCH_MAX_AGE}).`),
    /** Body types shown; a profile without one is not shown when set. */
    body_types: uniqueList(z.enum(BODY_TYPES, { error: `must be one of ${BODY_TYPES.join(', ')}` })).optional().describe(`Body types shown (${BODY_TYPES.join(', ')}); a profile without one is left out.`),
    /** Interests of which a profile must list at least one. */
    interests: uniqueList(z.enum(INTEREST_KEYS, { error: 'must be an interest key of src/server/data/interests.ts, such as bondage' })).optional().describe('Interests of which a profile must list at least one, e.g. ["bondage", "sadomasochism"].'),
    /** Countries whose members are shown. */
    countries: uniqueList(country).optional().describe('Countries whose members are shown (ISO 3166 codes).'),
  })
  .strict()
  .refine((a) => a.min_age === undefined || a.max_age === undefined || a.min_age <= a.max_age, { message: 'must not be below min_age', path: ['max_age'] });

const MinimumCostsSchema = z
  .object({
    costs: z.number().int().nonnegative().describe('Minimum message costs in cents.'),
    currency: z.string().regex(/^[A-Z]{3}$/).describe('ISO 4217 currency code.'),
  })
  .strict();

/** Profile fields a brand may show (SPEC §3 descriptive fields). */
export const PROFILE_FIELDS = [
  'gender',
  'sexuality',
  'birth_date',
  'region',
  'city',
  'hair_color',
  'eye_color',
  'body_type',
  'relationship_status',
  'tattoos',
  'reason',
  'about',
  'interests',
] as const;
/** The fictional-profile marker unless a brand sets its own: theatre masks, drawn as an icon. */
export const DEFAULT_FICTIONAL_ICON = 'tabler:masks-theater';

export const SEARCH_FIELDS = ['gender', 'country', 'region', 'age'] as const;

const defaultPackages = [
  { id: 'starter', credits: 50, price: 1499, prices: { DKK: 11900, SEK: 16900, NOK: 16900, PLN: 6499, CHF: 1499, GBP: 1299 } },
  { id: 'popular', credits: 125, price: 2999, popular: true, discount: 20, prices: { DKK: 22900, SEK: 33900, NOK: 33900, PLN: 12999, CHF: 2899, GBP: 2599 } },
  { id: 'value', credits: 300, price: 5999, discount: 33, prices: { DKK: 44900, SEK: 66900, NOK: 67900, PLN: 25999, CHF: 5799, GBP: 4999 } },
];

export const TenantSchema = z
  .object({
    /** Brand name shown in the logo bar, titles and mails. */
    name: z.string().min(1).max(60).describe('Brand name shown in the logo bar, titles and mails.'),
    /** Host names of the brand; the first is the main domain (settings.domain). */
    domains: z.array(domain).min(1).describe('Host names of the brand; the first is the main domain.'),
    /** This brand answers hosts that name no brand (localhost, an unknown domain); one brand at most. */
    default: z.boolean().default(false).describe('This brand answers hosts that name no brand (localhost, an unknown domain); one brand at most.'),
    /** Language of the domain; its first two letters choose the locale when no cookie exists (SPEC §1). */
    domain_language: z.string().regex(/^[a-z]{2}(?:-[A-Z]{2})?$/).optional().describe('Language of the domain; the default locale when not set.'),
    /** Niche number 1-7; chooses the landing slug prefix (SPEC §2). */
    niche: z.union(NICHES.map((n) => z.literal(n)) as unknown as [z.ZodLiteral<Niche>, z.ZodLiteral<Niche>], { error: `must be a niche number from ${NICHES[0]} to ${NICHES.at(-1)}` }).default(1).describe('Niche number 1 to 7; chooses the landing slug prefix.'),
    /** Title of the home page: a text in the default locale or one per locale. */
    index_title: BrandText.optional().describe('Title of the home page, a text in the default locale or one per locale; the brand name and the catalogue tagline where not set.'),
    /** Meta description of the home page: a text in the default locale or one per locale. */
    description: BrandText.optional().describe('Meta description of the home page, a text in the default locale or one per locale; the catalogue text where not set.'),
    /** Prefix of static file URLs, for a CDN; empty serves them from the brand's own host. */
    cdn_prefix: z.string().default('').describe("Prefix of static file URLs for a CDN; empty serves them from the brand's own host."),
    theme: ThemeSchema.prefault({}).describe('Theme colours (SPEC §9).'),
    locales: LocalesSchema.prefault({}).describe('Locales of the brand.'),
    /** Countries the brand serves; the first is assumed when the visitor's country is unknown. */
    countries: z.array(country).min(1).default(['NL']).describe("Countries the brand serves; the first is assumed when the visitor's country is unknown."),
    /** The brand's time zone (IANA): its day starts at midnight there (the swipe game's likes of the day, SPEC §9). */
    timezone: z
      .string()
      .default('Europe/Amsterdam')
      .refine((zone) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      }, 'must be an IANA time zone such as Europe/Amsterdam')
      .describe("The brand's time zone (IANA), where its day starts: the swipe game's likes per day."),
    company: CompanySchema.describe('The operating company (SPEC §3 company info).'),
    /** Sender name of mails. */
    mail_name: z.string().optional().describe('Sender name of mails; the brand name when not set.'),
    support_email: z.email({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an e-mail address such as support@example.com') }).describe('Support e-mail address.'),
    support_phone: z.string().default('').describe('Support phone number.'),
    /** Icon shown on fictional profiles: a Tabler icon id (`tabler:<name>`, src/lib/icons.ts) or a text/emoji. */
    fictional_icon: z.string().min(1).default(DEFAULT_FICTIONAL_ICON).describe('Icon shown on fictional profiles: a Tabler icon id such as tabler:masks-theater, or a short text or emoji.'),
    /** Overrides of the catalogue's fictional-profile texts, in the brand's default locale. */
    fictional_warning: z.string().optional().describe("Override of the catalogue's fictional-profile warning."),
    fictional_singular: z.string().optional().describe('Override of the word for one fictional profile.'),
    fictional_plural: z.string().optional().describe('Override of the word for several fictional profiles.'),
    enable_site_entry_popup: z.boolean().default(true).describe('Show the entry (age) warning.'),
    visible_profile_fields: z.array(z.enum(PROFILE_FIELDS)).default([...PROFILE_FIELDS]).describe('Profile fields the brand shows.'),
    visible_profile_notes: z.boolean().default(false).describe('Show private notes on profiles.'),
    search_fields: z.array(z.enum(SEARCH_FIELDS)).default([...SEARCH_FIELDS]).describe('Fields of the member search.'),
    message_credits: z.number().int().nonnegative().default(5).describe('Credits one text message costs.'),
    photo_credits: z.number().int().nonnegative().default(10).describe('Credits one photo message costs.'),
    gift_credits: z.number().int().nonnegative().default(15).describe('Credits one gift costs.'),
    /** The gift catalogue of the chat (src/lib/gifts.ts); without it every gift at gift_credits times its factor. */
    gifts: z
      .array(z.object({ id: z.enum(GIFT_IDS as [GiftId, ...GiftId[]]), credits: z.number().int().nonnegative() }).strict())
      .min(1)
      .optional()
      .describe(`Gifts offered in the chat with their price in credits; ids: ${GIFT_IDS.join(', ')}. Default: all, at gift_credits times a factor.`),
    signup_credits: z.number().int().nonnegative().default(10).describe('Credits granted once at signup.'),
    /** Longest chat message, in characters. */
    message_length: z.number().int().min(20).max(5000).default(1000).describe('Longest chat message, in characters.'),
    /**
     * When uploaded photos (profile and chat) are screened: `before` keeps a new photo pending,
     * seen only by its owner, until staff approve it; `after` shows it at once and queues it for
     * review (issue 22, DSA notice and action).
     */
    photo_moderation: z
      .enum(PHOTO_MODERATION, { error: `must be one of ${PHOTO_MODERATION.join(', ')}` })
      .default('before')
      .describe('When uploaded photos are screened: before (pending, seen only by the owner until approved) or after (public at once, reviewed later).'),
    safety: SafetySchema.prefault({}).describe("The brand's safety rules for members' messages and signups (issue 22)."),
    /** Days within which a purchase may be refunded or cancelled. */
    refund_days: z.number().int().nonnegative().default(14).describe('Days within which a purchase may be refunded or cancelled.'),
    member_resell: z.boolean().default(false).describe('Show resell promotions of partner brands.'),
    /** Who may sign up: all, with_trafficsource (only with tracking parameters), other (invite only). */
    signups: z.enum(['all', 'with_trafficsource', 'other']).default('all').describe('Who may sign up: all, with_trafficsource or other (invite only).'),
    logged_out_search: z.boolean().default(false).describe('Logged-out visitors may use the member search.'),
    logged_out_search_trafficsource: z.boolean().default(false).describe('Logged-out visitors with a traffic source may use the member search.'),
    /** Minimum message costs per country, in cents. */
    minimum_message_costs: z.record(country, MinimumCostsSchema).default({ NL: { costs: 35, currency: 'EUR' } }).describe('Minimum message costs per country.'),
    packages: z.array(PackageSchema).min(1).prefault(defaultPackages).describe('Credit packages offered.'),
    /** Who takes the brand's payments: the built-in test provider (offline, no real money) or Mollie. */
    payments: z
      .object({
        provider: z.enum(['test', 'mollie']).default('test').describe('test (built-in, offline, no real money) or mollie.'),
        /** The environment variable holding the brand's Mollie API key; the key never lives in this file. */
        mollie_api_key_env: z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'must be an environment variable name such as MOLLIE_API_KEY').default('MOLLIE_API_KEY').describe("Environment variable holding the brand's Mollie API key."),
      })
      .strict()
      .prefault({})
      .describe('The payment provider of the brand.'),
    payment_methods: z.array(z.enum(PAYMENT_METHOD_IDS, { error: `must be one of ${PAYMENT_METHOD_IDS.join(', ')}` })).min(1).default([...PAYMENT_METHOD_IDS]).describe('Payment methods offered, by id.'),
    /** The methods offered in a country, in order, where the defaults (methods for the country, then those for everywhere) do not fit. */
    country_payment_methods: z
      .record(country, z.array(z.enum(PAYMENT_METHOD_IDS, { error: `must be one of ${PAYMENT_METHOD_IDS.join(', ')}` })).min(1))
      .default({})
      .describe('Payment methods per country, in order, overriding the defaults, e.g. {"NL": ["ideal", "creditcard", "paypal"]}.'),
    /** Server-to-server postbacks to affiliate networks, one per network (issue 23). */
    postbacks: z
      .array(PostbackSchema)
      .default([])
      .refine((list) => new Set(list.map((p) => p.network)).size === list.length, 'must name each network once')
      .describe('Server-to-server postbacks to affiliate networks: [{network, url, events}], one per network.'),
    network: NetworkSchema.optional().describe("The member network: the pool this brand joins and whether its fictional profiles are shown there; alone when not set."),
    audience: AudienceSchema.optional().describe("Whom the brand's members are shown from the pool's other brands; each field narrows the niche's default audience (src/lib/audience.ts)."),
    /** Landers this brand serves; all by default. */
    landers: z.array(z.enum(['tinderswipe', ...LANDER_NAMES])).default(['tinderswipe', ...LANDER_NAMES]).describe('Landers this brand serves.'),
  })
  .strict()
  .superRefine((t, ctx) => {
    for (const field of ['index_title', 'description'] as const) {
      const text = t[field];
      if (typeof text !== 'object') continue;
      for (const key of Object.keys(text)) {
        if (!t.locales.available.includes(key as Locale)) ctx.addIssue({ code: 'custom', path: [field, key], message: 'must be one of locales.available' });
      }
    }
    for (const [field, message] of wideningOf(t.niche, t.audience ?? {})) ctx.addIssue({ code: 'custom', path: ['audience', field], message });
  })
  .transform((t) => ({
    ...t,
    index_title: brandText(t.index_title, t.locales.default),
    description: brandText(t.description, t.locales.default),
    domain: t.domains[0]!,
    domain_language: t.domain_language ?? t.locales.default,
    mail_name: t.mail_name ?? t.name,
    company: { ...t.company, support_phone: t.company.support_phone ?? t.support_phone },
    network: t.network ?? null,
    audience: resolveAudience(t.niche, t.audience),
  }));

export type TenantInput = z.input<typeof TenantSchema>;
export type TenantConfig = z.output<typeof TenantSchema>;
/** A resolved tenant: its folder id plus the resolved config. */
export type Tenant = TenantConfig & { id: string };

export const TENANT_ID = /^[a-z][a-z0-9-]{1,30}$/;

/**
 * The words a person sees for zod's generic issues; messages written on a field above win.
 * (A missing required field should say so, not "expected string, received undefined".)
 */
const tenantErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) return 'is required';
    const expected = String(issue.expected);
    return `must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`;
  }
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    return `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${keys}: check the spelling against src/tenant/schema.ts`;
  }
  if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
  if (issue.code === 'too_small' && issue.origin === 'array' && Number(issue.minimum) === 1) return 'must hold at least one entry';
  return undefined;
};

/** Parses a tenant file's JSON, giving the resolved tenant or the issues as "path: message" lines. */
export function parseTenant(id: string, json: unknown): { tenant: Tenant } | { errors: string[] } {
  const errors: string[] = [];
  if (!TENANT_ID.test(id)) errors.push(`id: "${id}" must start with a letter and hold 2 to 31 lower-case letters, digits or dashes`);
  const result = TenantSchema.safeParse(json, { error: tenantErrorMap });
  if (!result.success) {
    for (const issue of result.error.issues) {
      errors.push(`${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`);
    }
  }
  if (errors.length || !result.success) return { errors };
  return { tenant: { ...result.data, id } };
}

export type { Locale };
