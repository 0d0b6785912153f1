import { isbot } from 'isbot';
import { TRACKING_KEYS, TRACKING_VALUE_SOURCE, type Tracking } from '../contract/enums.ts';

/**
 * Attribution of a visit (issue 23): the first visit's tracking parameters and the first lander
 * seen, kept in one first-party cookie until signup, then on the member. The cookie holds no
 * personal data: the network's own parameters, the lander and variant shown, and a random number
 * that keeps the visitor on one variant of each experiment. It is HttpOnly: only the runtime
 * reads it (the signup, the landers), no script of the page. The brand's cookie page
 * (content/pages/cookies.*.md) names it, what it holds, how long and why.
 *
 * Consent (decided 2026-11-26, docs/API.md "Consent"): not strictly necessary, so ePrivacy
 * art. 5(3) applies. The seed and landing serve a first-party A/B test (exempt under the CNIL's
 * conditions); the network parameters serve to bill the affiliate network, which needs the
 * visitor's prior consent (Conseil d'État, 8 April 2022, no. 451423): they are kept only after
 * the visitor accepts on the lander's consent bar (src/lib/consent.ts, afterVisit's `consented`).
 */
export const ATTRIBUTION_COOKIE = 'src';
/** How long the cookie lasts: the affiliate networks' usual cookie window (chosen). */
export const ATTRIBUTION_DAYS = 30;

/**
 * A tracking value as a network sends it: letters, digits and - _ . ~ (what URL-safe ids and
 * sub-ids are made of), at most TRACKING_MAX characters. Anything else is dropped, never cut or
 * cleaned: a value changed by us would no longer match the network's.
 */
const TRACKING_VALUE = new RegExp(TRACKING_VALUE_SOURCE);
const SEED = /^[a-z0-9]{8,32}$/;
/** What a lander variant may be named: it goes into this cookie, a path of the build and the console's tables. */
export const VARIANT_NAME = /^[a-z0-9][a-z0-9-]{0,29}$/;
/** The variant every other text of its lander is compared with, and what stays when they end. */
export const CONTROL_VARIANT = 'control';
const LANDER = /^[a-z0-9-]{1,40}$/;
const LOCALE = /^[a-z]{2}(?:-[A-Z]{2})?$/;

/** The lander a visitor first saw, and the variant of its text. */
export interface Landing {
  lander: string;
  variant: string;
  niche: number;
  locale: string;
}

export interface Attribution {
  /** Keeps the visitor on one variant of each experiment (pickVariant). */
  seed: string;
  tracking: Tracking;
  landing: Landing | null;
}

/** A lander page of the build's manifest (src/site/static-paths.ts landerManifest), by address. */
export type LanderManifest = Record<string, { lander: string; niche: number; locale: string; experiment: string; variants: { name: string; weight: number }[] }>;

export const validTrackingValue = (value: unknown): value is string => typeof value === 'string' && TRACKING_VALUE.test(value);

/** The valid tracking parameters among those of a query (or a stored cookie). */
export function trackingOf(params: URLSearchParams): Tracking {
  const tracking: Tracking = {};
  for (const key of TRACKING_KEYS) {
    const value = params.get(key);
    if (validTrackingValue(value)) tracking[key] = value;
  }
  return tracking;
}

export const hasTracking = (tracking: Tracking) => Object.keys(tracking).length > 0;

/** The cookie's value read back; a part that is not as written (edited, cut) is dropped. */
export function readAttribution(value: string | null | undefined): Attribution | null {
  if (!value || value.length > 4000) return null;
  const params = new URLSearchParams(value);
  const seed = params.get('s');
  if (!seed || !SEED.test(seed)) return null;
  const [lander, variant, niche, locale] = ['l', 'v', 'n', 'lc'].map((k) => params.get(k) ?? '');
  const landing = LANDER.test(lander!) && VARIANT_NAME.test(variant!) && /^[1-9]$/.test(niche!) && LOCALE.test(locale!) ? { lander: lander!, variant: variant!, niche: Number(niche), locale: locale! } : null;
  return { seed, tracking: trackingOf(params), landing };
}

/** The cookie's value: a query string, as URLSearchParams reads it back (built by hand: it is written on every new visitor's lander, and a URLSearchParams costs ten times as much). */
export function writeAttribution(a: Attribution): string {
  const pairs: [string, string][] = [['s', a.seed], ...Object.entries(a.tracking)];
  if (a.landing) pairs.push(['l', a.landing.lander], ['v', a.landing.variant], ['n', String(a.landing.niche)], ['lc', a.landing.locale]);
  return pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}

/**
 * The attribution after a visit: the first visit wins. Tracking parameters are kept from the
 * first visit that brought any (all of them together, never mixed with a later visit's), the
 * landing from the first lander seen. `changed`: the cookie must be written.
 *
 * Without the visitor's consent (`consented` false, src/lib/consent.ts) no network parameter is
 * kept: those of the visit are not taken, and those a cookie holds (written before consent was
 * asked, or before a refusal) go. The seed and the landing stay: they serve the first-party A/B
 * test alone (docs/API.md "Consent").
 */
export function afterVisit(known: Attribution | null, visit: { tracking: Tracking; landing: Landing | null }, newSeed: () => string, consented = true): { attribution: Attribution; changed: boolean } {
  const offered = consented ? visit.tracking : {};
  if (!known) return { attribution: { seed: newSeed(), tracking: offered, landing: visit.landing }, changed: true };
  const dropTracking = !consented && hasTracking(known.tracking);
  const takeTracking = !hasTracking(known.tracking) && hasTracking(offered);
  const takeLanding = !known.landing && visit.landing !== null;
  if (!takeTracking && !takeLanding && !dropTracking) return { attribution: known, changed: false };
  return { attribution: { seed: known.seed, tracking: takeTracking || dropTracking ? offered : known.tracking, landing: takeLanding ? visit.landing : known.landing }, changed: true };
}

/** A number in (0, 1) from a string: FNV-1a, then murmur3's finaliser so near strings spread. */
function unitHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return ((h >>> 0) + 0.5) / 4294967296;
}

/**
 * The variant a visitor sees in an experiment, by weight and stable for the visitor's seed:
 * weighted rendezvous hashing (each variant scores -ln(u)/weight for a hash u of seed, experiment
 * and name; the lowest wins, which happens with probability weight / sum of weights). A variant
 * ended or added moves only the visitors it takes or gives up; everybody else stays where they were.
 */
export function pickVariant(seed: string, experiment: string, variants: readonly { name: string; weight: number }[]): string | undefined {
  let best: { name: string; score: number } | undefined;
  for (const v of variants) {
    const score = -Math.log(unitHash(`${seed}\u0000${experiment}\u0000${v.name}`)) / v.weight;
    if (!best || score < best.score) best = { name: v.name, score };
  }
  return best?.name;
}

/**
 * Whether a request for a lander is a person's visit: not a crawler, a link preview or a monitor
 * (the `isbot` package's list of user agents, kept by its maintainers), not a request without a
 * user agent (scripts), and not a browser's prefetch (Sec-Purpose, Purpose) that nobody may see.
 */
export function isPageVisit(headers: Record<string, string | string[] | undefined>): boolean {
  const purpose = `${headers.purpose ?? ''} ${headers['sec-purpose'] ?? ''}`;
  if (/prefetch|prerender/i.test(purpose)) return false;
  const ua = headers['user-agent'];
  return typeof ua === 'string' && ua !== '' && !knownBot(ua);
}

/** isbot's answers for the user agents seen last: a lander's visitors come in a few browsers, and isbot's pattern is long. */
const botAnswers = new Map<string, boolean>();
const BOT_ANSWERS_KEPT = 1000;
function knownBot(ua: string): boolean {
  let bot = botAnswers.get(ua);
  if (bot === undefined) {
    if (botAnswers.size >= BOT_ANSWERS_KEPT) botAnswers.delete(botAnswers.keys().next().value!);
    botAnswers.set(ua, (bot = isbot(ua)));
  }
  return bot;
}
