import { CONSOLE_LOCALES } from '../../../src/lib/console-locale.ts';

/** Every console page is prerendered once per console language: /<locale>/<page>/index.html. */
export function getStaticPaths() {
  return CONSOLE_LOCALES.map((locale) => ({ params: { locale } }));
}
