/**
 * The operator console's language (issue 22): the choice its language switch remembers (a cookie)
 * wins; otherwise Dutch for a browser whose first preference is Dutch, else English. The runtime
 * picks the prerendered page and the API's messages by it; the switch writes the cookie.
 */
export const CONSOLE_LOCALES = ['en', 'nl'] as const;
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number];
export const CONSOLE_LOCALE_COOKIE = 'console_lang';
/** A year: a language choice is kept, not a session's. */
export const CONSOLE_LOCALE_COOKIE_SECONDS = 365 * 86_400;

export const isConsoleLocale = (value: unknown): value is ConsoleLocale => CONSOLE_LOCALES.includes(value as ConsoleLocale);

/** The language of a console request from its remembered choice (cookie value) and its Accept-Language. */
export function consoleLocaleOf(chosen: string | undefined, acceptLanguage: string | undefined): ConsoleLocale {
  if (isConsoleLocale(chosen)) return chosen;
  return /^\s*nl\b/i.test(acceptLanguage ?? '') ? 'nl' : 'en';
}
