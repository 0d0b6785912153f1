/**
 * The island scripts of a page's locale (docs/ONE-BUILD.md, step 3). The one program's client is
 * built once with every language (what Astro's manifest names, served to a locale with no build of
 * its own) and once per locale with Paraglide's static locale, where every message function keeps
 * that locale's text alone. A page in a locale with a build of its own names that build's scripts:
 * this map, written beside the server code by cli/locale-clients.ts, says which file of the
 * all-languages build becomes which, and which inline script becomes which (with its CSP hash).
 */
/** The map's file, beside the program's server code (`entry.mjs`). */
export const LOCALE_SCRIPTS_FILE = 'locale-scripts.json';

export interface LocaleScripts {
  /** Per locale: file under `_assets/` of the all-languages build → the locale's file. */
  files: Record<string, Record<string, string>>;
  /** Per locale: the inline scripts of the all-languages build that differ in the locale's. */
  inline: Record<string, InlineScript[]>;
}

export interface InlineScript {
  from: string;
  to: string;
  /** `sha256-…` of each, as the Content-Security-Policy names them. */
  fromHash: string;
  toHash: string;
}

/** The file name of a script under `_assets/` as a page names it (`/_assets/Foo.abc123.js`). */
const ASSET_SCRIPT = /\/_assets\/([\w.@$~-]+\.js)(?![\w.@$~-])/g;

/** Whether a page in this locale names other scripts than the all-languages build's. */
export function hasLocaleScripts(map: LocaleScripts | undefined, locale: string): boolean {
  return map !== undefined && (Object.keys(map.files[locale] ?? {}).length > 0 || (map.inline[locale]?.length ?? 0) > 0);
}

/** A page's HTML with the scripts of its locale in place of the all-languages build's. */
export function localeHtml(map: LocaleScripts, locale: string, html: string): string {
  const files = map.files[locale] ?? {};
  let out = html.replace(ASSET_SCRIPT, (whole, file: string) => (files[file] ? `/_assets/${files[file]}` : whole));
  for (const script of map.inline[locale] ?? []) out = out.replace(`>${script.from}</script>`, () => `>${script.to}</script>`);
  // The CSP <meta> names the inline scripts' hashes as the header does.
  return localePolicy(map, locale, out);
}

/** A Content-Security-Policy with the hashes of the locale's inline scripts in place of the all-languages build's. */
export function localePolicy(map: LocaleScripts, locale: string, policy: string): string {
  let out = policy;
  for (const script of map.inline[locale] ?? []) out = out.replace(`'${script.fromHash}'`, `'${script.toHash}'`);
  return out;
}
