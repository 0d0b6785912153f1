/**
 * Astro's `security` for every build, the brands' (astro.config.mjs) and the console's
 * (console/astro.config.mjs): Astro hashes every inline script and style into the policy, a header
 * on server-rendered pages, a meta tag on prerendered ones. Style attributes stay allowed
 * (style-src-attr); script and style elements must match a hash. frame-ancestors is not here: a
 * meta tag cannot carry it (the browser ignores it with a console error), so the runtime sends it
 * as a header with prerendered pages and src/layouts/Base.astro adds it to the header of
 * server-rendered ones.
 */
export const PAGE_SECURITY = {
  checkOrigin: false,
  csp: {
    directives: ["default-src 'self'", "img-src 'self' data: blob:", "connect-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"],
    styleDirective: { resources: ["'self'", { resource: "'unsafe-inline'", kind: 'attribute' as const }] },
  },
};

/**
 * The origin of a brand's cdn_prefix for `img-src` (approved photos are addressed under it where
 * photos are in a bucket, src/server/media-address.ts), or null without one (or a prefix that is
 * no http(s) address).
 */
export function cdnImageSource(cdnPrefix: string): string | null {
  if (!cdnPrefix) return null;
  try {
    const url = new URL(cdnPrefix);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}
