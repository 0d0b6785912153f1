import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js/max';

/**
 * Contact details in a message's text (issue 22, safety rules): phone numbers (libphonenumber-js,
 * in the brand's country and in international form, plus long runs of digits written apart to
 * slip past it), e-mail addresses (also written "name at host dot com"), links and bare domain
 * names, messenger handles ("@name", "snap: name", "telegram name"), street addresses and
 * postcodes. A member's message is masked or held by the brand's choice; a staff member's reply
 * as a fictional profile is refused when it holds any of them or a word proposing a meeting
 * (DESIGN §10: a fictional profile never leads to a real contact).
 */
export type ContactKind = 'phone' | 'email' | 'link' | 'handle' | 'address';

export interface ContactMatch {
  kind: ContactKind;
  /** Offsets in the text (UTF-16 code units), end exclusive. */
  start: number;
  end: number;
  text: string;
}

/** Link: a scheme, `www.`, or a host name with a top-level domain people type (chosen list; ".nl" etc.). */
const TLDS = 'com|net|org|info|biz|io|me|co|app|xyz|online|site|nl|be|de|fr|uk|ie|at|ch|es|it|eu|ru|pl|se|dk|no|fi|pt|cz|us|ca|au|tv|ly|gg|to|link|chat|live|club|dating|sex|xxx';
const LINK = new RegExp(String.raw`\b(?:https?:\/\/|www\.)[^\s<>"]+|\b[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\s?(?:\.|\(dot\)|\[dot\])\s?(?:${TLDS})\b(?:\/[^\s<>"]*)?`, 'giu');
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
/** An address written out to slip past a filter: "anna at gmail dot com", "anna (at) gmail.nl". */
const EMAIL_SPELLED = new RegExp(String.raw`[\p{L}\p{N}._%+-]+\s?(?:\(at\)|\[at\]|\s(?:at|apenstaartje)\s)\s?[\p{L}\p{N}-]+(?:\s?(?:\.|\(dot\)|\[dot\]|\s(?:dot|punt)\s)\s?[\p{L}\p{N}-]+)*\s?(?:\.|\(dot\)|\[dot\]|\s(?:dot|punt)\s)\s?(?:${TLDS})\b`, 'giu');
/** Messenger names followed by what looks like a user name, and "@name". */
const MESSENGERS = 'whats\\s?app|wa|telegram|tg|signal|snap(?:chat)?|insta(?:gram)?|ig|kik|skype|wechat|line|viber|discord|facebook|fb|onlyfans|of|tiktok|threema|wickr|session';
const HANDLE = new RegExp(String.raw`(?:^|[\s(])@[\p{L}\p{N}_.]{3,30}|\b(?:${MESSENGERS})\b\s*(?:[:=-]|is|me|op|on|at|via)?\s*@?[\p{L}\p{N}_.]*\p{N}[\p{L}\p{N}_.]*|\b(?:${MESSENGERS})\s*[:=]\s*@?[\p{L}\p{N}_.]{3,30}`, 'giu');
/** Nine or more digits with spaces, dots, dashes or slashes between (0 6 1 2 3 4 5 6 7, 06-12.34.56.78). */
const DIGIT_RUN = /(?<![\p{N}])\+?\p{N}(?:[\s./()-]{0,3}\p{N}){8,}(?![\p{N}])/gu;
/** A street and number (NL/BE/DE "…straat 12", "…weg 5", EN "12 Baker Street") or a Dutch postcode. */
const ADDRESS = /\b[\p{L}-]{2,}(?:straat|laan|weg|plein|gracht|kade|dijk|singel|steeg|hof|park|str\.|straße|strasse|gasse|allee|platz)\s?\d{1,4}[a-z]?\b|\b\d{1,4}\s[\p{L}]{2,}(?:\s[\p{L}]{2,})?\s(?:street|st\.|road|rd\.|avenue|ave\.|lane|drive|rue|place)\b|\b(?:rue|avenue|boulevard|chemin)\s(?:de\s|du\s|des\s)?[\p{L}-]{2,}\s?\d{0,4}|\b\d{4}\s?[a-z]{2}\b(?=\s|$|[,.])/giu;

const PATTERNS: [ContactKind, RegExp][] = [
  ['email', EMAIL],
  ['email', EMAIL_SPELLED],
  ['link', LINK],
  ['handle', HANDLE],
  ['address', ADDRESS],
  ['phone', DIGIT_RUN],
];

/** Every contact detail in the text, in order, overlapping finds merged into the first kind found. */
export function findContactDetails(text: string, country?: CountryCode): ContactMatch[] {
  const found: ContactMatch[] = [];
  for (const number of findPhoneNumbersInText(text, country ? { defaultCountry: country, extended: false } : undefined)) {
    found.push({ kind: 'phone', start: number.startsAt, end: number.endsAt, text: text.slice(number.startsAt, number.endsAt) });
  }
  for (const [kind, pattern] of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      // A handle's leading space or bracket is not part of it.
      const lead = match[0].length - match[0].replace(/^[\s(]+/u, '').length;
      const start = match.index + lead;
      const value = match[0].slice(lead).replace(/[\s.,]+$/u, '');
      found.push({ kind, start, end: start + value.length, text: value });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: ContactMatch[] = [];
  for (const match of found) {
    const last = merged.at(-1);
    if (last && match.start < last.end) {
      if (match.end > last.end) {
        last.end = match.end;
        last.text = text.slice(last.start, last.end);
      }
      continue;
    }
    merged.push({ ...match });
  }
  return merged;
}

/** The text with each contact detail replaced by the mask (the brand's `mask` choice). */
export function maskContactDetails(text: string, matches = findContactDetails(text), mask = '•••'): string {
  let out = '';
  let at = 0;
  for (const match of matches) {
    out += text.slice(at, match.start) + mask;
    at = match.end;
  }
  return out + text.slice(at);
}

/**
 * Words that propose or arrange a meeting, in the brands' languages (en, nl, de, fr). A fictional
 * profile's reply may flirt; it may never propose to meet, come over, or name a place and time.
 */
const MEETING = [
  // English
  String.raw`meet(?:\s?up|ing)?`, String.raw`hook\s?up`, 'date tonight', 'my place', 'your place', 'come over', 'pick you up', 'see you (?:at|tonight|tomorrow)', 'in person', 'in real life', 'irl', 'hotel', 'my address',
  // Dutch
  'afspreken', 'afspraakje', 'ontmoeten', 'ontmoeting', 'langskomen', 'kom langs', 'bij mij thuis', 'bij jou thuis', 'mijn adres', 'ophalen', 'in het echt', 'zien we elkaar',
  // German
  'treffen', 'kennenlernen', 'vorbeikommen', 'bei mir', 'meine adresse', 'abholen', 'im echten leben',
  // French
  'rencontrer', 'rencontre', 'rendez-vous', 'rdv', 'chez moi', 'chez toi', 'mon adresse', 'passer te voir', 'en vrai',
];
const MEETING_WORDS = new RegExp(String.raw`(?<![\p{L}])(?:${MEETING.join('|')})(?![\p{L}])`, 'iu');

/** The first word or phrase in the text that proposes a meeting, or null. */
export function findMeetingWord(text: string): string | null {
  return MEETING_WORDS.exec(text)?.[0] ?? null;
}

export type ReplyRefusal = { kind: ContactKind | 'meeting'; text: string };

/** Why a staff reply as a fictional profile is refused (a contact detail or a meeting word), or null. */
export function staffReplyRefusal(text: string, country?: CountryCode): ReplyRefusal | null {
  const contact = findContactDetails(text, country)[0];
  if (contact) return { kind: contact.kind, text: contact.text };
  const meeting = findMeetingWord(text);
  return meeting ? { kind: 'meeting', text: meeting } : null;
}
