// Country names in the visitor's language, from the runtime's CLDR data (Intl.DisplayNames).

const cache = new Map<string, Intl.DisplayNames | null>();

function displayNames(locale: string): Intl.DisplayNames | null {
  let dn = cache.get(locale);
  if (dn === undefined) {
    try {
      dn = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
    } catch {
      dn = null; // invalid locale tag
    }
    cache.set(locale, dn);
  }
  return dn;
}

/**
 * Name of a country (ISO 3166-1 alpha-2, any case) in `locale` (e.g. 'nl', 'en-US', 'nb').
 * Falls back to English for an invalid locale, and to the upper-case code itself for an
 * unknown or malformed code.
 */
export function countryName(code: string, locale: string): string {
  const cc = String(code ?? '').trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(cc)) return cc;
  const dn = displayNames(String(locale ?? '').trim() || 'en') ?? displayNames('en');
  try {
    return dn?.of(cc) ?? cc;
  } catch {
    return cc;
  }
}
