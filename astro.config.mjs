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
  // Astro hashes every inline script and style into a CSP meta tag; the runtime adds the header-only directives.
  // Style attributes stay allowed (style-src-attr); script and style elements must match a hash.
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
        // Effective where Astro sends the policy as a header (server-rendered pages); the runtime
        // sends it as a header for prerendered ones, where a meta tag could not carry it.
        "frame-ancestors 'none'",
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
