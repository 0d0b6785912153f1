import type { CountryCode } from 'libphonenumber-js/max';
import { findContactDetails, maskContactDetails, type ContactKind } from './contact-details.ts';
import { findListedWord, type HoldReason, type SafetyRules } from './safety-rules.ts';

export interface TextScreening {
  /** The text to store and show: contact details masked when the brand masks them. */
  text: string;
  /** Why the message is held, empty when it is delivered. */
  hold: HoldReason[];
  /** The kinds of contact details found (for the moderator's queue). */
  contacts: ContactKind[];
  /** The word of the brand's list found, if any. */
  word: string | null;
}

/**
 * The contact-details and word-list rules on a member's text message: contact details (phone
 * numbers of the brand's first country and in international form, e-mail addresses, links,
 * messenger handles, addresses) masked, held or allowed as the brand chooses; a word of the
 * brand's list holds the message.
 */
export function screenText(text: string, rules: Pick<SafetyRules, 'contacts' | 'words'>, country?: CountryCode): TextScreening {
  const hold: HoldReason[] = [];
  let shown = text;
  const found = rules.contacts === 'allow' ? [] : findContactDetails(text, country);
  if (found.length > 0) {
    if (rules.contacts === 'hold') hold.push('contacts');
    else shown = maskContactDetails(text, found);
  }
  const word = findListedWord(text, rules.words);
  if (word) hold.push('words');
  return { text: shown, hold, contacts: [...new Set(found.map((f) => f.kind))], word };
}
