/**
 * The brands' safety rules (issue 22, "Safety rules"; src/lib/safety-rules.ts, message-screening.ts,
 * disposable-email.ts) as pure functions, and tenant.json `safety` as an operator writes it.
 */
import { describe, expect, test } from 'vitest';
import { burstHolds, findListedWord, isDelivered } from '../../src/lib/safety-rules.ts';
import { screenText } from '../../src/lib/message-screening.ts';
import { isDisposableEmail } from '../../src/lib/disposable-email.ts';
import { parseTenant } from '../../src/tenant/schema.ts';

const brand = {
  name: 'Flirt',
  domains: ['flirt.test'],
  company: { name: 'Flirt B.V.', address: 'Straat 1', kvk: '12345678', city: '1011 AA Amsterdam', country: 'Nederland' },
  support_email: 'support@flirt.test',
};

describe('the burst rule: a new account writing to more than N members has its further messages held', () => {
  const rule = { new_account_hours: 24, max_recipients: 5 };
  test('the fifth member is still fine, the sixth is held', () => {
    expect(burstHolds(rule, { ageHours: 1, recipients: 5 })).toBe(false);
    expect(burstHolds(rule, { ageHours: 1, recipients: 6 })).toBe(true);
  });
  test('an account older than new_account_hours writes to as many as it likes', () => {
    expect(burstHolds(rule, { ageHours: 24, recipients: 60 })).toBe(false);
    expect(burstHolds(rule, { ageHours: 23.9, recipients: 60 })).toBe(true);
  });
  test('new_account_hours 0 turns the rule off', () => {
    expect(burstHolds({ new_account_hours: 0, max_recipients: 5 }, { ageHours: 0, recipients: 100 })).toBe(false);
  });
});

describe("the brand's word list: case-insensitive, whole words", () => {
  test('finds a listed word or phrase in any case', () => {
    expect(findListedWord('Stuur me GELD via Western Union', ['geld'])).toBe('GELD');
    expect(findListedWord('stuur het via western   union', ['western union'])).toBe(null);
    expect(findListedWord('stuur het via Western Union', ['western union'])).toBe('Western Union');
  });
  test('not inside another word, and nothing with an empty list', () => {
    expect(findListedWord('I live in Essex', ['sex'])).toBeNull();
    expect(findListedWord('geldig', ['geld'])).toBeNull();
    expect(findListedWord('geld', [])).toBeNull();
    expect(findListedWord('geld', ['  '])).toBeNull();
  });
  test('a listed word with signs a pattern would read is taken literally', () => {
    expect(findListedWord('Bel 0900-1234 nu', ['0900-1234'])).toBe('0900-1234');
    expect(findListedWord('a.b', ['a+b'])).toBeNull();
  });
});

describe('contact details in a text: masked, held or allowed as the brand chooses', () => {
  const text = 'Hoi! Bel me op 06 12345678 of mail anna@gmail.com, of whatsapp +31612345678';
  test('mask: every contact detail is replaced, the message is not held', () => {
    const out = screenText(text, { contacts: 'mask', words: [] }, 'NL');
    expect(out.hold).toEqual([]);
    expect(out.text).toBe('Hoi! Bel me op ••• of mail •••, of whatsapp •••');
    expect(out.contacts).toEqual(expect.arrayContaining(['phone', 'email']));
  });
  test('hold: the text is kept as written and the message is held', () => {
    const out = screenText(text, { contacts: 'hold', words: [] }, 'NL');
    expect(out).toMatchObject({ text, hold: ['contacts'] });
  });
  test('allow: nothing is looked for', () => {
    expect(screenText(text, { contacts: 'allow', words: [] }, 'NL')).toEqual({ text, hold: [], contacts: [], word: null });
  });
  test('a text without contact details passes as it is; a listed word holds it', () => {
    expect(screenText('Hoe was je dag?', { contacts: 'hold', words: ['geld'] }, 'NL')).toEqual({ text: 'Hoe was je dag?', hold: [], contacts: [], word: null });
    expect(screenText('Kun je me geld lenen?', { contacts: 'mask', words: ['geld'] }, 'NL')).toMatchObject({ hold: ['words'], word: 'geld' });
  });
  test('both reasons at once', () => {
    expect(screenText('Geld naar anna@gmail.com', { contacts: 'hold', words: ['geld'] }, 'NL').hold).toEqual(['contacts', 'words']);
  });
});

describe('disposable e-mail addresses (mailchecker)', () => {
  test('a throwaway service and its subdomains are disposable; ordinary providers are not', () => {
    expect(isDisposableEmail('anna@mailinator.com')).toBe(true);
    expect(isDisposableEmail('Anna@YOPmail.com')).toBe(true);
    expect(isDisposableEmail('anna@sub.yopmail.com')).toBe(true);
    for (const ok of ['anna@gmail.com', 'anna@ziggo.nl', 'anna@example.nl', 'anna@outlook.com']) expect(isDisposableEmail(ok), ok).toBe(false);
  });
});

describe('a held message reaches its recipient only once released', () => {
  test('isDelivered', () => {
    expect(isDelivered(null)).toBe(true);
    expect(isDelivered('released')).toBe(true);
    expect(isDelivered('held')).toBe(false);
    expect(isDelivered('rejected')).toBe(false);
  });
});

describe('tenant.json safety', () => {
  const parsed = (json: unknown) => parseTenant('flirt', json);
  test('the defaults: burst 24 h / 5 members, contacts masked, no words, disposable addresses refused', () => {
    const result = parsed(brand);
    expect('tenant' in result && result.tenant.safety).toEqual({ burst: { new_account_hours: 24, max_recipients: 5 }, contacts: 'mask', words: [], disposable_email: true });
  });
  test('a brand chooses its own', () => {
    const result = parsed({ ...brand, safety: { burst: { max_recipients: 10 }, contacts: 'hold', words: [' geld '], disposable_email: false } });
    expect('tenant' in result && result.tenant.safety).toEqual({ burst: { new_account_hours: 24, max_recipients: 10 }, contacts: 'hold', words: ['geld'], disposable_email: false });
  });
  test('the messages of common mistakes', () => {
    expect(parsed({ ...brand, safety: { contacts: 'block' } })).toEqual({ errors: ['safety.contacts: must be one of mask, hold, allow'] });
    expect(parsed({ ...brand, safety: { burst: { max_recipients: 0 } } })).toEqual({ errors: ['safety.burst.max_recipients: Too small: expected number to be >=1'] });
    expect(parsed({ ...brand, safety: { word: ['geld'] } })).toEqual({ errors: ['safety: unknown key "word": check the spelling against src/tenant/schema.ts'] });
  });
});
