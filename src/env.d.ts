/// <reference types="astro/client" />
import type { Tenant } from './tenant/schema.ts';
import type { Locale } from './lib/locales.ts';
import type { SiteUser } from './contract/user.ts';
import type { Services } from './server/services/index.ts';
import type { StaticPath } from './site/static-paths.ts';

declare global {
  namespace App {
    /** What the runtime passes to every server-rendered page (src/server/http.ts). */
    interface Locals {
      tenant: Tenant;
      locale: Locale;
      /** The tenant's locales offered to this visitor's country. */
      locales: Locale[];
      country: string | null;
      user: SiteUser | null;
      /** Tracking parameters were present (a traffic source), for logged-out search. */
      trafficSource: boolean;
      /** The runtime's services, read by the page loaders of src/site (DESIGN §2: locals carry them); pages and components only read what the loaders give them. */
      services: Services;
      /** Unread messages and new likes of the member (title prefix, badges); zero for visitors. */
      counts?: { unread: number; newLikes: number };
      /** Saves a language choice on the logged-in user (SPEC §1); absent for visitors. */
      saveLanguage?: (locale: Locale) => Promise<void>;
      /** The page of the brand's static output being rendered (src/server/static-output.ts only; no visitor's request carries it). */
      staticPage?: StaticPath;
    }
  }
}
export {};
