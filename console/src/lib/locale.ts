import { CONSOLE_LOCALE_COOKIE, CONSOLE_LOCALE_COOKIE_SECONDS, isConsoleLocale, type ConsoleLocale } from '../../../src/lib/console-locale.ts';

/** The language of the page in the browser: the runtime served this language's prerendered shell. */
export function pageLocale(): ConsoleLocale {
  const lang = typeof document === 'undefined' ? 'en' : document.documentElement.lang;
  return isConsoleLocale(lang) ? lang : 'en';
}

/** The language switch: remembers the choice (the runtime serves by it) and shows the page in it. */
export function chooseLocale(locale: ConsoleLocale): void {
  document.cookie = `${CONSOLE_LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${CONSOLE_LOCALE_COOKIE_SECONDS}; SameSite=Lax`;
  location.reload();
}
