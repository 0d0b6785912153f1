import type { LayoutName } from './visibility.ts';

/**
 * The route table of SPEC §2: name, path pattern, layout and who may open it.
 * Guards (SPEC: "not shown") are chosen here: `member` routes need a logged-in member and send
 * others to /login?next=…; `guest` routes are for everybody; members search opens to logged-out
 * visitors only when the tenant's logged_out_search settings allow it.
 */
export type Guard = 'guest' | 'member' | 'search';

export interface RouteDef {
  name: string;
  /** Path with {param} and {param?} segments, as SPEC writes it. */
  path: string;
  layout: LayoutName;
  guard: Guard;
}

export const ROUTES: readonly RouteDef[] = [
  { name: 'index', path: '/', layout: 'default', guard: 'guest' },
  { name: 'login', path: '/login', layout: 'default', guard: 'guest' },
  { name: 'signup', path: '/signup', layout: 'empty', guard: 'guest' },
  { name: 'complete-signup', path: '/complete-signup', layout: 'default', guard: 'member' },
  { name: 'signup-matches', path: '/signup-matches', layout: 'default', guard: 'member' },
  { name: 'reset-password', path: '/reset-password', layout: 'default', guard: 'guest' },
  { name: 'reset-password-do', path: '/reset-password/do', layout: 'default', guard: 'guest' },
  { name: 'activate-done', path: '/activate/done', layout: 'default', guard: 'guest' },
  { name: 'activate-error', path: '/activate/error', layout: 'default', guard: 'guest' },
  { name: 'mail-change-do', path: '/mail-change/do', layout: 'default', guard: 'guest' },
  { name: 'account-deleted', path: '/account-deleted', layout: 'default', guard: 'guest' },
  { name: 'members', path: '/members', layout: 'default', guard: 'search' },
  { name: 'members-id', path: '/members/{id}', layout: 'default', guard: 'member' },
  { name: 'likes-m-id', path: '/likes/m/{id}', layout: 'default', guard: 'member' },
  { name: 'members-id-chat', path: '/members/{id}/chat', layout: 'chat', guard: 'member' },
  { name: 'members-id-landing', path: '/members/{id}/landing', layout: 'lander', guard: 'guest' },
  { name: 'members-id-signup', path: '/members/{id}/signup', layout: 'empty', guard: 'guest' },
  { name: 'members-id-landing2-slug', path: '/members/{id}/landing2/{slug?}', layout: 'lander', guard: 'guest' },
  { name: 'members-id-landing3-slug', path: '/members/{id}/landing3/{slug?}', layout: 'lander', guard: 'guest' },
  { name: 'chats', path: '/chats', layout: 'chat', guard: 'member' },
  { name: 'chats-id', path: '/chats/{id}', layout: 'chat', guard: 'member' },
  { name: 'likes', path: '/likes', layout: 'default', guard: 'member' },
  { name: 'likes-type', path: '/likes/{type}', layout: 'default', guard: 'member' },
  { name: 'match-finder', path: '/match-finder', layout: 'default', guard: 'member' },
  { name: 'swipe-game', path: '/swipe-game', layout: 'default', guard: 'member' },
  { name: 'profile', path: '/profile', layout: 'default', guard: 'member' },
  { name: 'notifications', path: '/notifications', layout: 'default', guard: 'member' },
  { name: 'lang-config', path: '/lang-config', layout: 'default', guard: 'guest' },
  { name: 'premium', path: '/premium', layout: 'default', guard: 'member' },
  { name: 'pricing', path: '/pricing', layout: 'default', guard: 'guest' },
  { name: 'credits', path: '/credits', layout: 'default', guard: 'member' },
  { name: 'credits-repeat-order', path: '/credits/repeat-order', layout: 'default', guard: 'member' },
  { name: 'credits-id-paymentmethod', path: '/credits/{id}/{paymentmethod?}', layout: 'default', guard: 'member' },
  { name: 'directdebit', path: '/directdebit', layout: 'default', guard: 'member' },
  { name: 'transactions-id', path: '/transactions/{id?}', layout: 'default', guard: 'member' },
  { name: 'complaints', path: '/complaints', layout: 'default', guard: 'guest' },
  // The server-rendered 404 page that pages answering 404 are rerouted to (src/pages/404.astro).
  { name: 'not-found', path: '/404', layout: 'default', guard: 'guest' },
];

/** The likes tabs of SPEC §2. */
export const LIKES_TYPES = ['received', 'given', 'matches'] as const;

/** The members area (SPEC §2): where the time-bonus modal may appear. */
export const MEMBERS_AREA = ['members', 'members-id', 'chats', 'likes', 'likes-m-id', 'premium'] as const;

export const STATIC_PAGES = ['terms', 'privacy', 'cookies', 'ban', 'faq', 'return-policy', 'service'] as const;
export type StaticPage = (typeof STATIC_PAGES)[number];

function compile(path: string): RegExp {
  const pattern = path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(\w+)(\?)?\}$/.exec(segment);
      if (!param) return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      return param[2] ? `(?:/(?<${param[1]}>[^/]+))?` : `/(?<${param[1]}>[^/]+)`;
    })
    .join('');
  return new RegExp(`^${pattern || '/'}/?$`);
}

const compiled = ROUTES.map((route) => ({ route, re: compile(route.path) }));

/** The largest id a route's {id} can name: ids are 32-bit integers on both engines. */
const MAX_ID = 2_147_483_647;

/** A route's {id} as a database id (digits only, 1 to 2^31-1), or null when it cannot be one. */
export function routeId(param: string | undefined): number | null {
  if (param === undefined || !/^\d{1,10}$/.test(param)) return null;
  const id = Number(param);
  return id > 0 && id <= MAX_ID ? id : null;
}

/** The route a path belongs to, with its parameters; undefined for static pages, landers and unknown paths. */
export function matchRoute(pathname: string): { route: RouteDef; params: Record<string, string | undefined> } | undefined {
  for (const { route, re } of compiled) {
    const m = re.exec(pathname);
    if (m) return { route, params: { ...m.groups } };
  }
  return undefined;
}

/** Whether a logged-out visitor may open the members search (SPEC §6). */
export function loggedOutSearchAllowed(settings: { logged_out_search: boolean; logged_out_search_trafficsource: boolean }, hasTrafficSource: boolean): boolean {
  return settings.logged_out_search || (settings.logged_out_search_trafficsource && hasTrafficSource);
}

/** Where a visitor goes when a guard refuses: /login with the way back. Only same-site paths come back. */
export function loginRedirect(pathname: string, search = ''): string {
  return `/login?next=${encodeURIComponent(pathname + search)}`;
}

/** A `next` parameter made safe: a same-site absolute path, else the members home. */
export function safeNext(next: string | null | undefined, fallback = '/members'): string {
  // Browsers drop tabs and newlines from URLs and read \ as /: "/\t/evil.example" is "//evil.example".
  if (!next || !next.startsWith('/') || /[\\\t\n\r]/.test(next) || next.startsWith('//')) return fallback;
  const base = 'http://same.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return fallback;
  }
  // The path as the URL parser encodes it: a Location header carries no raw non-ASCII.
  return url.origin === base ? url.pathname + url.search + url.hash : fallback;
}
