import { describe, expect, it } from 'vitest';
import { findContactDetails, findMeetingWord, maskContactDetails, staffReplyRefusal } from '../../src/lib/contact-details.ts';

const kinds = (text: string, country?: 'NL' | 'GB' | 'DE') => findContactDetails(text, country).map((m) => [m.kind, m.text]);

describe('contact details in a message', () => {
  it.each([
    ['bel me op 06 12345678', 'NL', 'phone', '06 12345678'],
    ['call +44 7700 900123 tonight', 'GB', 'phone', '+44 7700 900123'],
    ['mijn nummer: 0 6 1 2 3 4 5 6 7 8', 'NL', 'phone', '0 6 1 2 3 4 5 6 7 8'],
    ['06-12.34.56.78 is mijn nummer', 'NL', 'phone', '06-12.34.56.78'],
    ['mail me at anna.b@example.com ok', undefined, 'email', 'anna.b@example.com'],
    ['anna at gmail dot com', undefined, 'email', 'anna at gmail dot com'],
    ['kijk op www.example.nl/profiel', undefined, 'link', 'www.example.nl/profiel'],
    ['https://t.me/anna', undefined, 'link', 'https://t.me/anna'],
    ['zoek me: annalove.com', undefined, 'link', 'annalove.com'],
    ['add me @anna_1990 on there', undefined, 'handle', '@anna_1990'],
    ['snap: anna1990', undefined, 'handle', 'snap: anna1990'],
    ['whatsapp me 0612', undefined, 'handle', 'whatsapp me 0612'],
    ['ik woon op Kerkstraat 12', undefined, 'address', 'Kerkstraat 12'],
    ['postcode 1012 AB', undefined, 'address', '1012 AB'],
    ['221 Baker Street', undefined, 'address', '221 Baker Street'],
  ] as const)('%s → %s', (text, country, kind, found) => {
    expect(kinds(text, country)).toContainEqual([kind, found]);
  });

  it.each(['Hoi! Hoe gaat het met je?', 'I am 34 and love hiking, 2 cats and 1 dog.', 'Ik ben 1,75 m en woog ooit 80 kg', 'Op 12 mei was ik jarig', 'Haha :) ik had 3 dates dit jaar'])('finds nothing in %s', (text) => {
    expect(findContactDetails(text, 'NL')).toEqual([]);
  });

  it('masks each detail and keeps the rest of the text', () => {
    expect(maskContactDetails('bel 06 12345678 of mail a@b.nl, groetjes')).toBe('bel ••• of mail •••, groetjes');
  });

  it('refuses a staff reply that proposes a meeting in any of the brands’ languages', () => {
    expect(findMeetingWord('Zullen we afspreken?')).toBe('afspreken');
    expect(findMeetingWord('Let’s meet up tomorrow')).toBe('meet up');
    expect(findMeetingWord('On se donne rendez-vous ?')).toBe('rendez-vous');
    expect(findMeetingWord('Wollen wir uns treffen?')).toBe('treffen');
    expect(findMeetingWord('Wat een mooie foto, vertel eens meer over jezelf')).toBeNull();
    expect(staffReplyRefusal('Leuk! Kom langs op Kerkstraat 12')).toEqual({ kind: 'address', text: 'Kerkstraat 12' });
    expect(staffReplyRefusal('Kom je langs vanavond?')).toBeNull();
    expect(staffReplyRefusal('kom langs vanavond')).toEqual({ kind: 'meeting', text: 'kom langs' });
    expect(staffReplyRefusal('Je bent lief, vertel me meer')).toBeNull();
  });
});
