import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';

type Key = Exclude<keyof typeof m, symbol>;

/**
 * A message whose key is built from data (`role_${role}`, `status_${status}`, `nav_${id}`): the
 * key is checked at run time, so a role or status without its text shows its own name, never nothing.
 */
export function label(key: string, locale: ConsoleLocale, params: Record<string, unknown> = {}): string {
  const message = m[key as Key] as unknown as ((p: Record<string, unknown>, o: { locale: ConsoleLocale }) => string) | undefined;
  return typeof message === 'function' ? message(params, { locale }) : key.replace(/^[a-z]+_/, '');
}
