// One program for every brand and language: no brand is built into it (every page reads the brand
// from `locals`, and a brand's static output is rendered from the program by
// src/server/static-output.ts), and its client is built once per locale (docs/ONE-BUILD.md, step 3).
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import UnoCSS from '@unocss/astro';
import { paraglideVitePlugin } from '@inlang/paraglide-js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PAGE_SECURITY } from './src/lib/page-security.ts';
import { STATIC_LOCALE_EXPRESSION, localeClients } from './cli/locale-clients.ts';

const root = resolve(import.meta.dirname);
const catalogue = JSON.parse(readFileSync(resolve(root, 'project.inlang/settings.json'), 'utf8')).locales;
/**
 * The locales whose islands get a client build of their own (SITEGEN_CLIENT_LOCALES, set by
 * `sitegen build` to the locales the brands speak; every locale of the catalogue without it or
 * with `all`). A page in another locale loads the all-languages client, which every build has.
 */
const asked = process.env.SITEGEN_CLIENT_LOCALES ?? 'all';
const clientLocales = asked === 'all' ? catalogue : catalogue.filter((l) => asked.split(',').includes(l));
/**
 * The whole catalogue compiled once, with the per-locale-build expression as its static locale
 * (cli/locale-clients.ts): the server takes every message in the locale it is given, a locale's
 * client keeps that locale's text alone. Pages and islands import `…/paraglide/messages.js`; the
 * alias points them at this copy. src/paraglide (compiled without the expression) is only for the
 * type checker.
 */
const messages = resolve(root, 'node_modules/.cache/sitegen/messages/catalogue/paraglide');

export default defineConfig({
  outDir: process.env.SITEGEN_OUT_DIR ?? './dist/.build.next',
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  // The runtime has its own sessions; the adapter's filesystem sessions would be shared by every build.
  session: undefined,
  integrations: [react(), UnoCSS({ injectReset: false })],
  build: { format: 'directory', assets: '_assets' },
  compressHTML: true,
  prefetch: false,
  devToolbar: { enabled: false },
  security: PAGE_SECURITY,
  vite: {
    plugins: [
      paraglideVitePlugin({
        project: resolve(root, 'project.inlang'),
        outdir: messages,
        strategy: ['globalVariable', 'baseLocale'],
        experimentalStaticLocale: STATIC_LOCALE_EXPRESSION,
        emitGitIgnore: false,
      }),
      localeClients(clientLocales),
    ],
    resolve: {
      alias: [{ find: /^(?:\.{1,2}\/)+paraglide\/(.*)$/, replacement: `${messages}/$1` }],
    },
  },
});
