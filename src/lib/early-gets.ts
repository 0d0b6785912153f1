/**
 * Early GETs of a member shell. A shell's first screen waits for API answers (the member for the
 * header and banners, the search's first page or the profile), and the islands that ask for them
 * only run after the page's modules are loaded and React has hydrated: one after the other, on a
 * phone more than a second. A plain script in the shell's head starts those GETs while the modules
 * load; the API client (src/stores/api.ts) takes an answer over when its island asks the same GET.
 * The session cookie is HttpOnly, but a same-origin fetch carries it.
 */
import { SIGNED_IN_COOKIE } from './signed-in.ts';

/** Where the head's script leaves its answers: request key -> the answer's JSON, or null when it failed. */
export const EARLY_GETS_GLOBAL = '__earlyGets';

/** The cards of a phone's first row: their photos are the search's largest paint. */
export const FIRST_ROW_CARDS = 2;

/**
 * What each shell (src/server/http/member-shells.ts) asks first besides the member: `key`, a
 * JavaScript expression giving the request key as requestKey() writes it ('' for none; `x` is free
 * to use), and `photos`, an expression of the answer `a` giving the photos of the first screen (the
 * page's largest paint), which the head preloads at high priority so they load while the page's
 * modules do: src/lib/shown-photos.ts's rules for the first row of cards, or the profile's photo.
 * The search goes early only without a query: a query's filters and traffic source are the search
 * store's to read, and the post-login home has none.
 */
const PROFILE_PHOTO = `[(a.photos.filter(function(p){return p.main&&p.url})[0]||a.photos.filter(function(p){return p.url})[0]||{}).url||(a.profile.main_image||{}).filename]`;
const FIRST_GET: Readonly<Record<string, { key: string; photos: string }>> = {
  members: {
    key: `location.search?'':'/members.php'`,
    photos: `a.profiles.slice(0,${FIRST_ROW_CARDS}).map(function(c){return c.main_image&&(c.main_image.thumb_filename||c.main_image.filename)})`,
  },
  'members-id': { key: `(x=/^\\/members\\/(\\d+)\\/?$/.exec(location.pathname))?'/member.php?id='+(+x[1]):''`, photos: PROFILE_PHOTO },
  'likes-m-id': { key: `(x=/^\\/likes\\/m\\/(\\d+)\\/?$/.exec(location.pathname))?'/member.php?id='+(+x[1]):''`, photos: PROFILE_PHOTO },
};

/**
 * The inline script of a shell's head (plain text, no imports: it is inlined as written and its
 * hash goes into the page's CSP). Only with the signed-in hint: without it the page is on its way
 * to the login.
 */
export function earlyGetsScript(route: string): string {
  const first = FIRST_GET[route];
  // In a function of its own: nothing but the answers' global is left on the page's window.
  return (
    `(function(){if(!/(?:^|;\\s*)${SIGNED_IN_COOKIE}=[^;]/.test(document.cookie))return;` +
    `var g=window.${EARLY_GETS_GLOBAL}={},x,k;function get(k,then){g[k]=fetch('/api'+k,{credentials:'same-origin',headers:{'X-Request-Type':'client',accept:'application/json'}})` +
    `.then(function(r){return r.ok?r.json():null}).then(then).catch(function(){return null})}` +
    `function photos(f){return function(a){try{f(a).forEach(function(u){if(!u)return;var l=document.createElement('link');l.rel='preload';l.as='image';l.href=u;l.fetchPriority='high';document.head.appendChild(l)})}catch(e){}return a}}` +
    `get('/user.php');` +
    (first ? `k=${first.key};if(k)get(k,photos(function(a){return ${first.photos}}))` : '') +
    `})()`
  );
}

/** The key of a GET as the early script writes it: the path and its query in the order given. */
export function requestKey(path: string, query?: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) q.set(name, String(value));
  return q.size ? `${path}?${q}` : path;
}

/**
 * The answer the head's script got for this GET, taken once (a later call asks the server again):
 * undefined when none was started, null when it failed (the caller asks again and reports).
 */
export function takeEarlyGet(key: string): Promise<unknown> | undefined {
  const early = (globalThis as { [EARLY_GETS_GLOBAL]?: Record<string, Promise<unknown>> })[EARLY_GETS_GLOBAL];
  const answer = early?.[key];
  if (answer) delete early[key];
  return answer;
}
