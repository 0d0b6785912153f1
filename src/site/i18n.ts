import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';

export type MessageKey = Exclude<keyof typeof m, symbol>;
export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** A translator bound to one locale; pages pass the locale explicitly, never through global state. */
export function translator(locale: Locale): Translate {
  return (key, params = {}) => {
    const message = m[key] as unknown as ((p: Record<string, unknown>, o: { locale: Locale }) => string) | undefined;
    // A missing message is a build error, never an empty string on a page.
    if (typeof message !== 'function') throw new Error(`locales/nl.json has no message "${String(key)}"`);
    return message(params, { locale });
  };
}
