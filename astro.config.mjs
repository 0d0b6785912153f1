// One Astro build per tenant: `sitegen build <id>` sets SITEGEN_TENANT and the output folder.
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import UnoCSS from '@unocss/astro';
import { paraglideVitePlugin } from '@inlang/paraglide-js';

const tenant = process.env.SITEGEN_TENANT;
if (!tenant) throw new Error('astro.config.mjs: SITEGEN_TENANT is not set; build through `sitegen build <id>`');

export default defineConfig({
  outDir: process.env.SITEGEN_OUT_DIR ?? `./dist/${tenant}`,
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  // The runtime has its own sessions; the adapter's filesystem sessions would be shared by every build.
  session: undefined,
  integrations: [react(), UnoCSS({ injectReset: false })],
  build: { format: 'directory', assets: '_assets' },
  compressHTML: true,
  prefetch: false,
  devToolbar: { enabled: false },
  // Astro hashes every inline script and style into the policy: a header on server-rendered pages,
  // a meta tag on prerendered ones. Style attributes stay allowed (style-src-attr); script and
  // style elements must match a hash. frame-ancestors is not here: a meta tag cannot carry it (the
  // browser ignores it with a console error), so the runtime sends it as a header with prerendered
  // pages and src/layouts/Base.astro adds it to the header of server-rendered ones.
  security: {
    checkOrigin: false,
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
      styleDirective: { resources: ["'self'", { resource: "'unsafe-inline'", kind: 'attribute' }] },
    },
  },
  vite: {
    define: { 'import.meta.env.SITEGEN_TENANT': JSON.stringify(tenant) },
    plugins: [
      paraglideVitePlugin({
        project: './project.inlang',
        outdir: './src/paraglide',
        strategy: ['globalVariable', 'baseLocale'],
        emitGitIgnore: true,
      }),
    ],
  },
});
