import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE_LOCALE, isLocale, type Locale } from '../lib/locales.ts';

/**
 * The catalogue on the server: the same locales/<lang>.json files Paraglide compiles for pages,
 * read once. Server messages (API errors, mails) are looked up here and nowhere else.
 */
const LOCALES_DIR = join(import.meta.dirname, '../../locales');

type Catalogue = Record<string, string>;
let catalogues: Map<string, Catalogue> | undefined;

function load(): Map<string, Catalogue> {
  if (catalogues) return catalogues;
  catalogues = new Map();
  for (const file of readdirSync(LOCALES_DIR).filter((f) => f.endsWith('.json'))) {
    const { $schema: _schema, ...messages } = JSON.parse(readFileSync(join(LOCALES_DIR, file), 'utf8')) as Catalogue;
    catalogues.set(file.slice(0, -'.json'.length), messages);
  }
  return catalogues;
}

/** The message for a key in a locale, falling back to the tenant's fallback then Dutch, with {params} filled in. */
export function message(key: string, locale: string, params: Record<string, string | number> = {}, fallback: string = REFERENCE_LOCALE): string {
  const all = load();
  const text = all.get(locale)?.[key] ?? all.get(fallback)?.[key] ?? all.get(REFERENCE_LOCALE)?.[key];
  if (text === undefined) throw new Error(`locales/${REFERENCE_LOCALE}.json has no message "${key}"`);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function hasMessage(key: string): boolean {
  return load().get(REFERENCE_LOCALE)?.[key] !== undefined;
}

export function catalogueLocales(): Locale[] {
  return [...load().keys()].filter(isLocale);
}
