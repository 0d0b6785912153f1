import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { LOCALE_SCRIPTS_FILE, type InlineScript, type LocaleScripts } from '../src/lib/locale-scripts.ts';

/** The expression Paraglide's compiler writes when its static locale is the per-locale-build one (its compiler/per-locale-build.js; not exported). */
export const STATIC_LOCALE_EXPRESSION = '/** @type {any} */ (globalThis).__PARAGLIDE_STATIC_LOCALE__';

const STATIC_LOCALE_USE = /\(globalThis\)\.__PARAGLIDE_STATIC_LOCALE__/g;

/**
 * The statement Paraglide adds to every message for locale-specialized bundles: a console warning
 * when a call asks another locale than the bundle's. Every island here is given the page's locale,
 * so it never fires (tests/e2e/clean-console.spec.ts), yet it cost every message ~150 bytes and
 * made a Dutch page's scripts larger than the Dutch program's were (docs/ONE-BUILD.md step 3).
 */
const OVERRIDE_WARNING = /\n[ \t]*if \([^\n]*__PARAGLIDE_STATIC_LOCALE__ !== undefined && options\.locale !== undefined[^\n]*console\.warn\("Paraglide: options\.locale cannot override[^\n]*/g;

/** What one client build made: per entry module, its file under `_assets/` or its inline code. */
interface ClientBuild {
  files: Map<string, string>;
  inline: Map<string, string>;
}

/** The key of the all-languages build among the per-locale ones. */
const ALL = '*';

/**
 * The client of the one program built per locale (docs/ONE-BUILD.md, step 3). The messages are
 * compiled once with Paraglide's per-locale-build expression as their static locale
 * (`globalThis.__PARAGLIDE_STATIC_LOCALE__ ?? options.locale ?? getLocale()`): undefined on the
 * server and in the all-languages client, so every message takes the locale it is given; a locale
 * in its place in a client build, so the minifier keeps that locale's text alone.
 *
 * Astro builds one client per build. Paraglide's own `experimentalPerLocaleBuild` makes a Vite
 * environment per locale but refuses to run beside a framework's `builder.buildApp` (Astro has
 * one), and Astro's client plugins only apply to its `client` environment. So after Astro's client
 * build, this builds the `client` environment again, once per locale, the locale put in place of
 * the expression by a transform; the all-languages build comes last, so Astro's manifest (written
 * after every build, from what the last one recorded) names it, and a page in any locale works
 * without the map. Hashed names keep the builds apart: a chunk without messages is the same file
 * in every build. The map from the all-languages files to each locale's goes beside the server
 * code (`locale-scripts.json`, src/lib/locale-scripts.ts), read by src/middleware.ts.
 */
export function localeClients(locales: readonly string[]): Plugin {
  /** The locale of the client build under way (ALL: every language). */
  let building = locales[0] ?? ALL;
  const builds = new Map<string, ClientBuild>();
  let entries = new Map<string, { fileName: string; code: string }>();
  return {
    name: 'sitegen:locale-clients',
    // In `astro dev` the expression stays: undefined in the browser, every message takes the locale it is given.
    apply: 'build',
    transform: {
      filter: { code: '__PARAGLIDE_STATIC_LOCALE__' },
      handler(code) {
        if (this.environment.name !== 'client') return null;
        const locale = building === ALL ? 'undefined' : JSON.stringify(building);
        return { code: code.replace(OVERRIDE_WARNING, '').replace(STATIC_LOCALE_USE, locale), map: null };
      },
    },
    generateBundle: {
      // Before Astro's plugin-scripts takes the small scripts out of the bundle to inline them.
      order: 'pre',
      handler(_options, bundle) {
        if (this.environment.name !== 'client') return;
        entries = new Map();
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === 'chunk' && chunk.isEntry && chunk.facadeModuleId) entries.set(chunk.facadeModuleId, { fileName: chunk.fileName, code: chunk.code.trim() });
        }
      },
    },
    writeBundle(_options, bundle) {
      if (this.environment.name !== 'client') return;
      const build: ClientBuild = { files: new Map(), inline: new Map() };
      for (const [id, entry] of entries) {
        if (bundle[entry.fileName]) build.files.set(id, entry.fileName.replace(/^_assets\//, ''));
        else build.inline.set(id, entry.code);
      }
      builds.set(building, build);
    },
    buildApp: {
      // After Astro's builds (its buildApp), before it writes its manifest (its own 'post' hook, later in the list).
      order: 'post',
      async handler(builder) {
        const client = builder.environments.client;
        if (!client?.isBuilt) return;
        if (locales.length) {
          for (const locale of [...locales.slice(1), ALL]) {
            building = locale;
            await builder.build(client);
          }
        }
        const server = builder.environments.ssr?.config.build.outDir;
        if (server) writeFileSync(join(server, LOCALE_SCRIPTS_FILE), JSON.stringify(localeScriptsMap(builds)));
      },
    },
  };
}

/** `sha256-…` of an inline script, as Astro's CSP names it. */
function scriptHash(code: string): string {
  return `sha256-${createHash('sha256').update(code).digest('base64')}`;
}

/** The map from the all-languages build to each locale's: only what differs. */
export function localeScriptsMap(builds: Map<string, ClientBuild>): LocaleScripts {
  const all = builds.get(ALL);
  if (!all) throw new Error('locale clients: the all-languages client was not built');
  const map: LocaleScripts = { files: {}, inline: {} };
  for (const [locale, build] of builds) {
    if (locale === ALL) continue;
    const files: Record<string, string> = {};
    const inline: InlineScript[] = [];
    for (const [id, file] of all.files) {
      const mine = build.files.get(id);
      // A script inlined in one build and a file in another would need another element: not made by these sources.
      if (mine === undefined) throw new Error(`locale clients: ${id} is a file in the all-languages client but not in ${locale}'s`);
      if (mine !== file) files[file] = mine;
    }
    for (const [id, code] of all.inline) {
      const mine = build.inline.get(id);
      if (mine === undefined) throw new Error(`locale clients: ${id} is inline in the all-languages client but not in ${locale}'s`);
      if (mine !== code) inline.push({ from: code, to: mine, fromHash: scriptHash(code), toHash: scriptHash(mine) });
    }
    map.files[locale] = files;
    if (inline.length) map.inline[locale] = inline;
  }
  return map;
}
