// Country and language names in the visitor's language, from the runtime's CLDR data
// (Intl.DisplayNames). Building a DisplayNames or Collator costs far more than using one, so each
// is made once per process and language, never per request.

const regionNames = new Map<string, Intl.DisplayNames | null>();
const languageNames = new Map<string, Intl.DisplayNames | null>();
const countryLists = new Map<string, readonly { code: string; name: string }[]>();

function displayNames(cache: Map<string, Intl.DisplayNames | null>, locale: string, type: 'region' | 'language'): Intl.DisplayNames | null {
  let dn = cache.get(locale);
  if (dn === undefined) {
    try {
      dn = new Intl.DisplayNames([locale], { type, fallback: 'code' });
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
  const dn = displayNames(regionNames, String(locale ?? '').trim() || 'en', 'region') ?? displayNames(regionNames, 'en', 'region');
  try {
    return dn?.of(cc) ?? cc;
  } catch {
    return cc;
  }
}

/** A language's own name for itself ('Deutsch', 'Nederlands'), as a language menu shows it. */
export function languageName(locale: string): string {
  try {
    return displayNames(languageNames, locale, 'language')?.of(locale) ?? locale;
  } catch {
    return locale;
  }
}

/** Countries with their names in `locale`, in that language's alphabetical order (kept per list and language). */
export function namedCountries(codes: readonly string[], locale: string): readonly { code: string; name: string }[] {
  const key = `${locale}|${codes.join(',')}`;
  let list = countryLists.get(key);
  if (!list) {
    const collator = new Intl.Collator(locale);
    list = codes.map((code) => ({ code, name: countryName(code, locale) })).sort((a, b) => collator.compare(a.name, b.name));
    countryLists.set(key, list);
  }
  return list;
}
