// One program per language set: `sitegen build` sets SITEGEN_LOCALES and the output folder. No
// brand is built into it: every page reads the brand from `locals`, and a brand's static output is
// rendered from the program by src/server/static-output.ts (docs/ONE-BUILD.md, step 2).
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import UnoCSS from '@unocss/astro';
import { paraglideVitePlugin } from '@inlang/paraglide-js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PAGE_SECURITY } from './src/lib/page-security.ts';

/**
 * The message project of the brand's languages: the catalogue with only those languages
 * (SITEGEN_LOCALES, the default first), compiled to a folder named for them, not for the brand, so
 * that the code of every brand of the same languages is the same to the byte. Pages and islands
 * import `…/paraglide/messages.js`; the alias below points those imports at this copy, so a brand
 * that speaks Dutch ships Dutch alone. src/paraglide (every language) is only for the type checker.
 */
function languageMessages() {
  const root = resolve(import.meta.dirname);
  const settings = JSON.parse(readFileSync(resolve(root, 'project.inlang/settings.json'), 'utf8'));
  const locales = (process.env.SITEGEN_LOCALES ?? '').split(',').filter(Boolean);
  const base = resolve(root, 'node_modules/.cache/sitegen/messages', (locales.length ? locales : settings.locales).join(','));
  const project = resolve(base, 'project.inlang');
  mkdirSync(project, { recursive: true });
  const brand = {
    ...settings,
    baseLocale: locales[0] ?? settings.baseLocale,
    locales: locales.length ? locales : settings.locales,
    modules: settings.modules.map((m) => resolve(root, m)),
    'plugin.inlang.messageFormat': { pathPattern: resolve(root, settings['plugin.inlang.messageFormat'].pathPattern) },
  };
  const file = resolve(project, 'settings.json');
  const text = JSON.stringify(brand, null, 2);
  let old = '';
  try {
    old = readFileSync(file, 'utf8');
  } catch {}
  if (old !== text) writeFileSync(file, text);
  return { project, outdir: resolve(base, 'paraglide') };
}
const messages = languageMessages();

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
        project: messages.project,
        outdir: messages.outdir,
        strategy: ['globalVariable', 'baseLocale'],
        emitGitIgnore: false,
      }),
    ],
    resolve: {
      alias: [{ find: /^(?:\.{1,2}\/)+paraglide\/(.*)$/, replacement: `${messages.outdir}/$1` }],
    },
  },
});
