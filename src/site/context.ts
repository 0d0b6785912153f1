import type { Tenant } from '../tenant/schema.ts';
import type { Locale } from '../lib/locales.ts';
import type { LayoutName } from '../lib/visibility.ts';
import type { SiteUser } from '../contract/user.ts';

export type { SiteUser };

/** Everything a layout needs to render one page for one visitor. */
export interface PageContext {
  tenant: Tenant;
  locale: Locale;
  /** Locales the visitor may switch to. */
  locales: Locale[];
  country: string | null;
  user: SiteUser | null;
  routeName: string;
  layout: LayoutName;
  /** Prerendered pages know nothing of the visitor; their scripts decide in the browser. */
  prerendered: boolean;
  /**
   * A member shell: a prerendered page the runtime answers only to a logged-in member (the same
   * bytes for every member of the brand in this language); the member's parts fill in from the
   * stores in the browser. See src/server/http/member-shells.ts.
   */
  shell: boolean;
  /** Unread messages and new likes of the member, for the title prefix (SPEC §2). */
  counts: { unread: number; newLikes: number };
  /** The brand's VAPID public key for the push opt-in (SPEC §2), on a member's server-rendered page; else null. */
  pushKey: string | null;
}
