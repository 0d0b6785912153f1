/**
 * The signed-in hint of prerendered pages. A prerendered page is the same file for every visitor,
 * so it carries both headers; the readable `signed_in` cookie, set beside the session at login
 * (docs/API.md), picks one before the first paint by putting a class on <html>. CSS then shows the
 * member's header and hides the visitor's; the member header fills in from the user store.
 */

/**
 * The readable companion of the session cookie while a member is logged in: `signed_in=<tag>`, a
 * random tag of the session (nothing secret), so what the tab keeps of a member belongs to one
 * session (KEPT_MEMBER_KEY).
 */
export const SIGNED_IN_COOKIE = 'signed_in';

/** The class on <html> that shows `[data-member-only]` and hides `[data-visitor-only]` (global.css). */
export const SIGNED_IN_CLASS = 'signed-in';

/**
 * The inline script in the head of a prerendered page, run before the body is painted. Plain
 * text, no imports: it is inlined as written and its hash goes into the page's CSP.
 */
export const SIGNED_IN_HINT_SCRIPT = `if(/(?:^|;\\s*)${SIGNED_IN_COOKIE}=[^;]/.test(document.cookie))document.documentElement.classList.add('${SIGNED_IN_CLASS}')`;

/**
 * This tab's member as the last page knew them (sessionStorage, without the e-mail address, with
 * the session's tag): a page that fills in the member in the browser (a member shell, a
 * prerendered page with the hint) shows them at once from it while it asks the server again, when
 * the tag is the signed-in cookie's. Gone on a visitor's page and when the hint goes.
 */
export const KEPT_MEMBER_KEY = 'member';

/** Forgets the kept member (a visitor's page, a logout, a session that ended). */
export function forgetKeptMember(): void {
  try {
    sessionStorage.removeItem(KEPT_MEMBER_KEY);
  } catch {
    // No storage (a privacy mode): nothing was kept.
  }
}

/**
 * The hint turned out stale (the session ended elsewhere, or expired): back to the visitor's
 * header, and the cookie goes so the next page does not show the member's header first.
 */
export function dropSignedInHint(doc: Document): void {
  doc.documentElement.classList.remove(SIGNED_IN_CLASS);
  doc.cookie = `${SIGNED_IN_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  forgetKeptMember();
}
