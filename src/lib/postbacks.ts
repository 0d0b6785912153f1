/**
 * Server-to-server postbacks to affiliate networks (issue 23): what a brand's tenant.json
 * `postbacks` may ask for and how a URL template is filled. Pure rules: `sitegen check`, the
 * runtime and the console read them from here.
 */

/** The events a network may want posted, in the order a member meets them. */
export const POSTBACK_EVENTS = ['signup', 'activation', 'first_purchase', 'purchase', 'refund', 'chargeback'] as const;
export type PostbackEvent = (typeof POSTBACK_EVENTS)[number];

/** The macros of a URL template: the names trackers such as Voluum, Keitaro and Binom read. */
export const POSTBACK_MACROS = ['clickid', 'sub1', 'sub2', 'sub3', 'event', 'payout', 'currency', 'txid', 'member_id'] as const;
export type PostbackMacro = (typeof POSTBACK_MACROS)[number];
export type PostbackValues = Record<PostbackMacro, string>;

const MACRO = /\{([^{}]*)\}/g;

/** The macros of a template that are not POSTBACK_MACROS (`sitegen check` names them). */
export function unknownMacros(template: string): string[] {
  return [...template.matchAll(MACRO)].map((match) => match[1]!).filter((name) => !(POSTBACK_MACROS as readonly string[]).includes(name));
}

/** The template with each macro replaced by its value, URL-encoded (a value never adds a parameter or a path). */
export function fillPostbackUrl(template: string, values: PostbackValues): string {
  return template.replace(MACRO, (whole, name: string) => ((POSTBACK_MACROS as readonly string[]).includes(name) ? encodeURIComponent(values[name as PostbackMacro]) : whole));
}

/** Query parameters whose value is a credential of the tracker, never shown in the console. */
const SECRET_PARAM = /token|key|secret|pass|auth|sig|hash/i;

/** A postback URL (template or sent) as staff see it: credentials in its query replaced by `***`. */
export function redactPostbackUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const [path, query] = [url.slice(0, q), url.slice(q + 1)];
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    return eq > 0 && SECRET_PARAM.test(part.slice(0, eq)) ? `${part.slice(0, eq)}=***` : part;
  });
  return `${path}?${parts.join('&')}`;
}

/** A payout in a currency's major unit as trackers read it: 1995 cents is "19.95". */
export const payoutOf = (cents: number) => (cents / 100).toFixed(2);
