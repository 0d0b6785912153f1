import type { Tenant } from '../tenant/schema.ts';

/**
 * The address a browser fetches a stored photo at (`<tenant>/<hex>.webp`, `…-t.webp`), in every
 * API answer and page that gives one.
 *
 * - Through the runtime, `/media/<name>` (static.ts): always for a photo that is not approved (its
 *   owner's alone, with their session), always for a photo sent in a chat (the conversation's, never
 *   a public object: private media stay behind the runtime), and for every photo when the photos
 *   are on disk or the brand has no cdn_prefix.
 * - Under the cdn_prefix of the brand the photo was uploaded on, `<cdn_prefix>/media/<name>`, for
 *   an approved profile photo when the photos are in a bucket: the public copy the photo service
 *   puts at `media/<name>` on approval and takes away when the photo is rejected or removed
 *   (media-store.ts). The path is the runtime's, so the prefix may be the bucket's public address
 *   or a CDN in front of either.
 *
 * Which brands have a prefix is set once per process by the app (`addressPhotosUnder`), from the
 * tenants it serves; without it (no bucket, a service built alone in a unit test) every address is
 * the runtime's.
 */
export function mediaUrl(filename: string, status?: string): string {
  if (status === 'active' && publicBase) {
    const base = publicBase(filename.slice(0, filename.indexOf('/')));
    if (base) return `${base}/media/${filename}`;
  }
  return `/media/${filename}`;
}

let publicBase: ((tenantId: string) => string) | null = null;

/** Approved profile photos of the brands with a cdn_prefix are addressed under it from now on; null: every photo through the runtime again. */
export function addressPhotosUnder(tenants: (() => readonly Tenant[]) | null): void {
  if (!tenants) {
    publicBase = null;
    return;
  }
  // The tenants' list is replaced, never changed, when a tenant file changes: one map per list.
  let seen: readonly Tenant[] | undefined;
  let prefixes = new Map<string, string>();
  publicBase = (tenantId) => {
    const now = tenants();
    if (now !== seen) {
      seen = now;
      prefixes = new Map(now.filter((t) => t.cdn_prefix).map((t) => [t.id, t.cdn_prefix.replace(/\/+$/, '')]));
    }
    return prefixes.get(tenantId) ?? '';
  };
}
