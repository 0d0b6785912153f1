/**
 * The account rules of SPEC §5 shared by islands and services (src/lib/account-rules.ts): the
 * profile name and the birth date. Each returns the catalogue key of the message, or null.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ageOn, birthDateProblem, isValidEmail, nameProblem, normalizeEmail, MIN_AGE, MAX_AGE, NAME_MAX, NAME_MIN } from '../../src/lib/account-rules.ts';

const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe('nameProblem (SPEC §5)', () => {
  it('accepts an ordinary name', () => {
    expect(nameProblem('Sanne', 'sanne@example.nl')).toBeNull();
    expect(nameProblem('Jan-Willem 82', null)).toBeNull();
  });

  it('"Je profielnaam mag niet beginnen met een @": a leading @, also after spaces', () => {
    expect(nameProblem('@sanne', 'sanne@example.nl')).toBe('name_no_at');
    expect(nameProblem('  @sanne', null)).toBe('name_no_at');
    expect(nameProblem('@', undefined)).toBe('name_no_at');
    expect(nameProblem('san@ne', null)).toBeNull(); // only the start counts
  });

  it('"Je profielnaam moet anders zijn dan je e-mailadres": the own address in any case or padding', () => {
    expect(nameProblem('sanne@example.nl', 'sanne@example.nl')).toBe('name_not_email');
    expect(nameProblem(' Sanne@Example.NL ', 'sanne@example.nl')).toBe('name_not_email');
    expect(nameProblem('sanne@example.nl', ' SANNE@example.nl ')).toBe('name_not_email');
  });

  it('refuses any e-mail address as a name, not only the own one', () => {
    expect(nameProblem('iemand@anders.be', 'sanne@example.nl')).toBe('name_not_email');
    expect(nameProblem('iemand@anders.be', null)).toBe('name_not_email');
  });

  it(`is ${NAME_MIN} to ${NAME_MAX} characters, counted as characters and after trimming`, () => {
    expect(nameProblem('S', null)).toBe('name_length');
    expect(nameProblem('  S  ', null)).toBe('name_length');
    expect(nameProblem('', null)).toBe('name_length');
    expect(nameProblem('Si', null)).toBeNull();
    expect(nameProblem('x'.repeat(30), null)).toBeNull();
    expect(nameProblem('x'.repeat(31), null)).toBe('name_length');
    expect(nameProblem('😀😀', null)).toBeNull(); // 2 characters, 4 UTF-16 units
    expect(nameProblem('😀'.repeat(30), null)).toBeNull();
    expect(nameProblem('😀'.repeat(31), null)).toBe('name_length');
  });

  it('the @ rule comes first', () => {
    expect(nameProblem('@', 'x@y.nl')).toBe('name_no_at');
    expect(nameProblem('@' + 'x'.repeat(40), null)).toBe('name_no_at');
  });

  it('any name without @ of the right length is fine', () => {
    fc.assert(
      fc.property(fc.string({ minLength: NAME_MIN, maxLength: NAME_MAX, unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzÄÖÜé -_0123456789'.split('')) }), (name) => {
        fc.pre([...name.trim()].length >= NAME_MIN);
        expect(nameProblem(name, 'sanne@example.nl')).toBeNull();
      }),
    );
  });
});

describe('birthDateProblem (SPEC §5, MIN_AGE 18)', () => {
  const today = day('2026-05-17');

  it('is 18', () => {
    expect(MIN_AGE).toBe(18);
    expect(MAX_AGE).toBe(100);
  });

  it('"Vul uw geboortedatum in (18+ jaar)" when missing', () => {
    expect(birthDateProblem(undefined, today)).toBe('birth_date_required');
    expect(birthDateProblem(null, today)).toBe('birth_date_required');
    expect(birthDateProblem('', today)).toBe('birth_date_required');
  });

  it('18 today is old enough; one day short is not', () => {
    expect(birthDateProblem('2008-05-17', today)).toBeNull();
    expect(birthDateProblem('2008-05-18', today)).toBe('birth_date_required');
    expect(birthDateProblem('2008-05-16', today)).toBeNull();
    expect(birthDateProblem('2009-01-01', today)).toBe('birth_date_required');
  });

  it('the boundary holds from the first to the last moment of the day (UTC)', () => {
    expect(birthDateProblem('2008-05-17', new Date('2026-05-17T00:00:00Z'))).toBeNull();
    expect(birthDateProblem('2008-05-17', new Date('2026-05-16T23:59:59Z'))).toBe('birth_date_required');
    expect(birthDateProblem('2008-05-18', new Date('2026-05-17T23:59:59Z'))).toBe('birth_date_required');
  });

  it('a leap-day birth date 2008-02-29 is real; 18 on 1 March in a common year', () => {
    expect(birthDateProblem('2008-02-29', day('2026-02-28'))).toBe('birth_date_required');
    expect(birthDateProblem('2008-02-29', day('2026-03-01'))).toBeNull();
    expect(ageOn('2008-02-29', day('2026-02-28'))).toBe(17);
    expect(ageOn('2008-02-29', day('2026-03-01'))).toBe(18);
    // In a leap year the birthday itself comes.
    expect(ageOn('2008-02-29', day('2028-02-28'))).toBe(19);
    expect(ageOn('2008-02-29', day('2028-02-29'))).toBe(20);
  });

  it('"Ongeldige geboortedatum." for dates that do not exist', () => {
    for (const value of ['1990-02-31', '2007-02-29', '1900-02-29', '1990-04-31', '1990-13-01', '1990-00-10', '1990-01-00', '1990-01-32']) {
      expect(birthDateProblem(value, today), value).toBe('birth_date_invalid');
    }
    expect(birthDateProblem('2000-02-29', today)).toBeNull(); // 2000 was a leap year
  });

  it('"Ongeldige geboortedatum." for other formats', () => {
    for (const value of ['17-05-1990', '1990/05/17', '1990-5-17', '19900517', '1990-05-17T00:00:00Z', ' 1990-05-17', 'gisteren', '+01990-05-17']) {
      expect(birthDateProblem(value, today), value).toBe('birth_date_invalid');
    }
  });

  it('"Ongeldige geboortedatum." in the future or more than 100 years ago', () => {
    expect(birthDateProblem('2026-05-18', today)).toBe('birth_date_invalid');
    expect(birthDateProblem('2030-01-01', today)).toBe('birth_date_invalid');
    expect(birthDateProblem('1926-05-17', today)).toBeNull(); // exactly 100
    expect(birthDateProblem('1925-05-18', today)).toBeNull(); // 100, nearly 101
    expect(birthDateProblem('1925-05-17', today)).toBe('birth_date_invalid'); // 101
  });

  it('today itself is a birth date in range but far too young', () => {
    expect(birthDateProblem('2026-05-17', today)).toBe('birth_date_required');
  });

  it('every real date between 18 and 100 years ago is accepted', () => {
    const from = Date.UTC(1926, 4, 18);
    const to = Date.UTC(2008, 4, 17);
    fc.assert(
      fc.property(fc.integer({ min: from, max: to }), (ms) => {
        expect(birthDateProblem(new Date(ms).toISOString().slice(0, 10), today)).toBeNull();
      }),
    );
  });
});

describe('ageOn', () => {
  it('counts whole years, the birthday included', () => {
    expect(ageOn('1990-05-17', day('2026-05-16'))).toBe(35);
    expect(ageOn('1990-05-17', day('2026-05-17'))).toBe(36);
    expect(ageOn('1990-12-31', day('2026-01-01'))).toBe(35);
  });
});

describe('e-mail addresses', () => {
  it('normalises by trimming and lower-casing', () => {
    expect(normalizeEmail('  Sanne@Example.NL ')).toBe('sanne@example.nl');
  });

  it('"Ongeldige e-mail": needs a local part, an @ and a domain with a dot', () => {
    for (const ok of ['a@b.nl', 'sanne.de.vries+spetter@example.co.uk', 'X@Y.COM']) expect(isValidEmail(ok), ok).toBe(true);
    for (const bad of ['', 'geen-email', 'a@b', '@b.nl', 'a@.nl', 'a b@c.nl', 'a@@b.nl', 'a@b.n1', `${'x'.repeat(65)}@b.nl`, `a@${'b'.repeat(250)}.nl`]) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });
});
