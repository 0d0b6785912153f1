import { TRACKING_KEYS, TRACKING_VALUE_SOURCE } from '../contract/enums.ts';
import { readCookie } from './cookies.ts';

/**
 * The visitor's choice about the network parameters of the attribution cookie (issue 23,
 * docs/API.md "Consent"): ePrivacy art. 5(3) wants prior consent before they are stored on the
 * visitor's device. The choice itself is strictly necessary (remembering a refusal is what
 * keeps the bar from asking on every page), so it is kept without consent. It is readable by the
 * page (not HttpOnly): a prerendered lander decides before its first paint whether to ask.
 */
export const CONSENT_COOKIE = 'src_consent';
export const CONSENT_CHOICES = ['accept', 'refuse'] as const;
export type ConsentChoice = (typeof CONSENT_CHOICES)[number];
/** How long a choice is kept: the six months the CNIL recommends before asking again (délibération 2020-092). */
export const CONSENT_DAYS = 182;

/** The class on <html> that shows the consent bar (global.css), put there by CONSENT_HINT_SCRIPT. */
export const ASK_CONSENT_CLASS = 'ask-consent';

/** The choice a consent cookie's value names, or null. */
export function consentChoice(value: string | null): ConsentChoice | null {
  return value === 'accept' || value === 'refuse' ? value : null;
}

export function readConsent(cookieHeader: string | null | undefined): ConsentChoice | null {
  return consentChoice(readCookie(cookieHeader, CONSENT_COOKIE));
}

/**
 * The inline script in the head of a prerendered lander, run before the body is painted: the bar
 * is shown when the address carries a network parameter the runtime would keep (TRACKING_VALUE_SOURCE,
 * the pattern src/lib/attribution.ts keeps values by) and the visitor has not chosen. Plain text, no imports:
 * it is inlined as written and its hash goes into the page's CSP (src/layouts/Base.astro).
 */
export const CONSENT_HINT_SCRIPT =
  `(function(){var q=new URLSearchParams(location.search);` +
  `if(!/(?:^|;\\s*)${CONSENT_COOKIE}=/.test(document.cookie)&&${JSON.stringify(TRACKING_KEYS)}.some(function(k){return /${TRACKING_VALUE_SOURCE}/.test(q.get(k)||'')}))` +
  `document.documentElement.classList.add('${ASK_CONSENT_CLASS}')})()`;

const TRACKING_VALUE = new RegExp(TRACKING_VALUE_SOURCE);

/** The network parameters of an address that the runtime would keep (in the page: no isbot, unlike src/lib/attribution.ts). */
export function addressTracking(search: string): Partial<Record<(typeof TRACKING_KEYS)[number], string>> {
  const query = new URLSearchParams(search);
  const tracking: Partial<Record<(typeof TRACKING_KEYS)[number], string>> = {};
  for (const key of TRACKING_KEYS) {
    const value = query.get(key);
    if (value !== null && TRACKING_VALUE.test(value)) tracking[key] = value;
  }
  return tracking;
}

/** A same-site link (`/signup`) with the network parameters added to its query. */
export function withTracking(href: string, tracking: Partial<Record<string, string>>): string {
  const url = new URL(href, 'http://x');
  for (const [key, value] of Object.entries(tracking)) if (value !== undefined) url.searchParams.set(key, value);
  return url.pathname + url.search + url.hash;
}
