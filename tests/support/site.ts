import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCALES_DIR = join(import.meta.dirname, '..', '..', 'locales');
const cache = new Map<string, Record<string, string>>();

function catalogue(locale: string): Record<string, string> {
  let messages = cache.get(locale);
  if (!messages) {
    messages = JSON.parse(readFileSync(join(LOCALES_DIR, `${locale}.json`), 'utf8')) as Record<string, string>;
    cache.set(locale, messages);
  }
  return messages;
}

/**
 * The text a page shows for a catalogue key in a locale, with its {params} filled in. A message
 * missing from a catalogue shows in Dutch, the reference (the catalogue test keeps them complete).
 */
export function say(locale: string, key: string, params: Record<string, string | number> = {}): string {
  const text = catalogue(locale)[key] ?? catalogue('nl')[key];
  if (text === undefined) throw new Error(`locales/nl.json has no message "${key}"`);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** A string as a RegExp matching it literally. */
export function literally(text: string, flags = ''): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
}

/** [r, g, b] of a computed CSS colour: rgb()/rgba() or color(srgb …) as browsers report them. */
export function rgbOf(css: string): [number, number, number] {
  const rgb = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(css);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])].map(Math.round) as [number, number, number];
  const srgb = /^color\(srgb\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)/.exec(css);
  if (srgb) return [srgb[1], srgb[2], srgb[3]].map((v) => Math.round(Number(v) * 255)) as [number, number, number];
  throw new Error(`not a colour I can read: ${css}`);
}

/** [r, g, b] of #rrggbb. */
export function rgbOfHex(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}
