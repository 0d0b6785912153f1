// The operator console (issue 22, DESIGN §11): ONE static Astro build for every brand, whatever
// their number. `sitegen build` runs it with --root console into dist/_console (an id no tenant
// can have); the runtime serves it on CONSOLE_HOST under /console/ (src/server/http/console-pages.ts).
// Every page is prerendered once per console language (en, nl) as a shell whose React islands call
// /api/console/*; the runtime picks the language's file per request.
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import UnoCSS from '@unocss/astro';
import { paraglideVitePlugin } from '@inlang/paraglide-js';
import { resolve } from 'node:path';

const root = import.meta.dirname;

export default defineConfig({
  root,
  srcDir: resolve(root, 'src'),
  publicDir: resolve(root, 'public'),
  outDir: process.env.SITEGEN_OUT_DIR ?? resolve(root, '../dist/_console'),
  base: '/console',
  output: 'static',
  trailingSlash: 'ignore',
  integrations: [react(), UnoCSS({ injectReset: false })],
  build: { format: 'directory', assets: '_assets' },
  compressHTML: true,
  prefetch: false,
  devToolbar: { enabled: false },
  // As the brands' builds (astro.config.mjs): every inline script and style hashed into a meta policy.
  security: {
    checkOrigin: false,
    csp: {
      directives: ["default-src 'self'", "img-src 'self' data: blob:", "connect-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"],
      styleDirective: { resources: ["'self'", { resource: "'unsafe-inline'", kind: 'attribute' }] },
    },
  },
  vite: {
    plugins: [
      // The console's own message project (console/locales, en and nl): the brands' bundles never carry it.
      paraglideVitePlugin({ project: resolve(root, 'project.inlang'), outdir: resolve(root, 'src/paraglide'), strategy: ['globalVariable', 'baseLocale'], emitGitIgnore: false }),
    ],
  },
});
