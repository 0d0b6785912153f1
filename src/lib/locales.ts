/** Every locale the interface is translated into (SPEC §1). Dutch is the reference catalogue. */
export const LOCALES = ['da', 'de', 'en', 'en-US', 'es', 'fi', 'fr', 'it', 'nb', 'nl', 'pl', 'sv'] as const;
export type Locale = (typeof LOCALES)[number];

export const REFERENCE_LOCALE: Locale = 'nl';

/** Which locales are offered to a visitor from a country (SPEC §1). en-US is the US variant of en. */
export const LOCALES_BY_COUNTRY: Readonly<Record<string, readonly Locale[]>> = {
  US: ['en-US', 'es'],
  NL: ['nl'],
  BE: ['nl', 'fr', 'de'],
  FR: ['fr'],
  IT: ['it'],
  ES: ['es'],
  DE: ['de'],
  AT: ['de'],
  IE: ['en'],
  GB: ['en'],
  CA: ['en', 'fr'],
  PL: ['pl'],
  AU: ['en'],
  NZ: ['en'],
  CH: ['de', 'it', 'fr', 'en'],
  DK: ['da'],
  FI: ['fi', 'sv'],
  NO: ['nb'],
  SE: ['sv'],
};

export const LOCALE_COOKIE = 'locale';
export const LOCALE_COOKIE_DAYS = 365; // SPEC §9

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The language part of a locale: en-US -> en. */
export function languageOf(locale: string): string {
  return locale.slice(0, 2).toLowerCase();
}

/**
 * The locales a visitor may choose from: the tenant's locales that the visitor's country is
 * offered. A tenant locale of the same language stands in for an offered locale the tenant lacks
 * (en for the US's en-US), but not next to it: a Swiss visitor is offered en, not also en-US.
 * When the country is unknown or none of its locales is on the tenant, all tenant locales stay.
 */
export function visibleLocales(tenantLocales: readonly Locale[], country: string | null | undefined): Locale[] {
  const offered = country ? LOCALES_BY_COUNTRY[country.toUpperCase()] : undefined;
  if (!offered) return [...tenantLocales];
  const standsIn = (l: Locale) => offered.some((o) => !tenantLocales.includes(o) && languageOf(o) === languageOf(l));
  const visible = tenantLocales.filter((l) => offered.includes(l) || standsIn(l));
  return visible.length > 0 ? visible : [...tenantLocales];
}

export interface LocaleChoice {
  /** The locale cookie, when the visitor has one. */
  cookie?: string | null;
  /** The language saved on the logged-in user record. */
  userLanguage?: string | null;
  /** The tenant's domain_language (SPEC §1: its first two letters choose when no cookie exists). */
  domainLanguage: string;
  tenantLocales: readonly Locale[];
  defaultLocale: Locale;
  country?: string | null;
}

/**
 * The locale a request is served in: the cookie when it names a tenant locale, else the
 * user's saved language, else the domain language, else the tenant default. When the chosen
 * language has a regional variant for the visitor's country (en in the US), that variant wins.
 */
export function chooseLocale(choice: LocaleChoice): Locale {
  const { tenantLocales } = choice;
  const visible = visibleLocales(tenantLocales, choice.country);
  // explicit: the visitor chose this locale (cookie, user record), so an exact tenant locale wins.
  const pick = (value: string | null | undefined, explicit: boolean): Locale | undefined => {
    if (!value) return undefined;
    if (isLocale(value) && (explicit ? tenantLocales : visible).includes(value)) return value;
    const language = languageOf(value);
    return visible.find((l) => languageOf(l) === language) ?? tenantLocales.find((l) => languageOf(l) === language);
  };
  return pick(choice.cookie, true) ?? pick(choice.userLanguage, true) ?? pick(choice.domainLanguage, false) ?? choice.defaultLocale;
}

/** The language dropdown shows only with more than one visible locale, unless configuration hides it (SPEC §2). */
export function showLanguageDropdown(visible: readonly string[], hiddenByConfig: boolean, routeName: string): boolean {
  return visible.length > 1 && !hiddenByConfig && routeName !== 'complete-signup';
}
