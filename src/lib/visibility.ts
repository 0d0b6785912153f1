/** Rules that decide which warnings and banners a page shows (SPEC §2 "Default layout behaviour"). */

export type LayoutName = 'default' | 'chat' | 'lander' | 'empty';

/**
 * Routes where the entry (age) warning never shows: SPEC §2's three, and account-deleted, where
 * the one who lands is the member who just deleted the account (of age, confirmed at signup).
 */
export const ENTRY_WARNING_HIDDEN_ROUTES = ['complete-signup', 'reset-password', 'reset-password-do', 'account-deleted'] as const;
/** In the chat, lander and empty layouts the entry warning shows only for these countries (SPEC §9). */
export const ENTRY_WARNING_BARE_LAYOUT_COUNTRIES = ['NL', 'DE'] as const;

export interface EntryWarningContext {
  routeName: string;
  layout: LayoutName;
  /** The visitor's country, from geoip or the selected country. */
  country: string | null;
  loggedIn: boolean;
  /** The visitor already confirmed the warning (remembered in the browser). */
  confirmed: boolean;
  /** The page runs as an installed app (display-mode standalone). */
  installedApp: boolean;
  /** The tenant's enable_site_entry_popup setting. */
  enabled: boolean;
}

/**
 * The entry warning shows on every page except complete-signup, the password reset pages and
 * the account-deleted goodbye;
 * in the chat, lander and empty layouts only for NL and DE; once for logged-out visitors and
 * never in installed-app mode (SPEC §2).
 */
export function showEntryWarning(ctx: EntryWarningContext): boolean {
  if (!ctx.enabled || ctx.installedApp || ctx.loggedIn || ctx.confirmed) return false;
  if ((ENTRY_WARNING_HIDDEN_ROUTES as readonly string[]).includes(ctx.routeName)) return false;
  if (ctx.layout !== 'default') {
    return (ENTRY_WARNING_BARE_LAYOUT_COUNTRIES as readonly string[]).includes((ctx.country ?? '').toUpperCase());
  }
  return true;
}

/** Routes where the profile-photo alert is hidden (SPEC §2). */
export const PHOTO_ALERT_HIDDEN_ROUTES = [
  'profile',
  'signup',
  'activate-done',
  'premium',
  'notifications',
  'directdebit',
  'settings',
] as const;

export interface BannerUser {
  status: string;
  notifications_disabled: readonly unknown[];
  profile: { status: string; main_image: unknown | null } | null;
}

export type BannerName = 'profile-photo' | 'activate' | 'push' | 'notifications-disabled';

export interface BannerContext {
  routeName: string;
  user: BannerUser | null;
  /** Dismissals by banner, each remembered with a timestamp. */
  dismissed: Partial<Record<BannerName, number>>;
  /** Push can be offered: supported, not subscribed and not denied. */
  pushOfferable: boolean;
}

/** The banners the default layout shows, in order (SPEC §2). */
export function visibleBanners(ctx: BannerContext): BannerName[] {
  const { user } = ctx;
  if (!user) return [];
  const banners: BannerName[] = [];
  if (!user.profile?.main_image && !(PHOTO_ALERT_HIDDEN_ROUTES as readonly string[]).includes(ctx.routeName)) {
    banners.push('profile-photo');
  }
  if (
    user.status === 'not_confirmed' &&
    user.profile?.status === 'disabled' &&
    user.notifications_disabled.length === 0
  ) {
    banners.push('activate');
  }
  if (ctx.pushOfferable) banners.push('push');
  if (user.notifications_disabled.length > 0) banners.push('notifications-disabled');
  return banners.filter((name) => ctx.dismissed[name] === undefined);
}

/** Every banner that can stand above a page: the layout's own, the welcome time bonus (SPEC §4) and the push offer. */
export type StackedBanner = BannerName | 'time-bonus';

/**
 * Which banner takes the first screen when several want it (issue 21: four stacked banners left a
 * phone no result above the fold). The choice: what keeps the member from using the site at all
 * comes first (activate the account), then what most changes their answers (a profile photo), then
 * the offer that runs out (the time bonus), then the push offer, and last the notice that e-mails
 * are off (it waits without harm).
 */
export const BANNER_PRIORITY: readonly StackedBanner[] = ['activate', 'profile-photo', 'time-bonus', 'push', 'notifications-disabled'];

/** The banner shown first and the ones collapsed behind a "more" line, from the banners a page has (any order). */
export function stackBanners(present: readonly StackedBanner[]): { first: StackedBanner | null; collapsed: StackedBanner[] } {
  const ordered = BANNER_PRIORITY.filter((name) => present.includes(name));
  return { first: ordered[0] ?? null, collapsed: ordered.slice(1) };
}
