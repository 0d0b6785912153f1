import { isValid as mailcheckerValid } from 'mailchecker';

/*
 * The list of disposable (throwaway) mail services is mailchecker's (npm `mailchecker`, MIT): over
 * 55,000 domains, released every few weeks, and it also matches a domain's subdomains. Chosen over
 * `disposable-email-domains` (a JSON list without subdomain matching, updated less often).
 */

/** Whether an e-mail address is of a disposable (throwaway) mail service, by mailchecker's maintained list. */
export function isDisposableEmail(email: string): boolean {
  // mailchecker's isValid is false for a disposable domain (or one under it) and for a malformed
  // address; only well-formed addresses reach this rule, so false here means disposable.
  return email.includes('@') && !mailcheckerValid(email);
}
