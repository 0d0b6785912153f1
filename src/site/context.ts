import type { Tenant } from '../tenant/schema.ts';
import type { Locale } from '../lib/locales.ts';
import type { LayoutName } from '../lib/visibility.ts';

/** The user of SPEC §3 as pages and islands see it (GET /api/user.php). */
export interface SiteUser {
  id: number;
  email: string;
  status: string;
  credits: number;
  paid_user: boolean;
  language: string | null;
  notifications_disabled: { type: string; reason: string }[];
  signup_date: string;
  /** Invisible mode: the member is not shown in searches and online lists. */
  invisible: boolean;
  profile: {
    id: number;
    name: string;
    country: string;
    status: string;
    main_image: { filename: string; thumb_filename: string; status: string; match: string } | null;
  } | null;
}

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
  /** Unread messages and new likes of the member, for the title prefix (SPEC §2). */
  counts: { unread: number; newLikes: number };
}
