import { describe, expect, test } from 'vitest';
import { consoleLocaleOf } from '../../src/lib/console-locale.ts';

describe('the console’s language (issue 22: English and Dutch, a switch that remembers the choice)', () => {
  test('Dutch for a browser whose first preference is Dutch, else English', () => {
    expect(consoleLocaleOf(undefined, 'nl-NL,nl;q=0.9,en;q=0.8')).toBe('nl');
    expect(consoleLocaleOf(undefined, 'nl')).toBe('nl');
    expect(consoleLocaleOf(undefined, 'de-DE,nl;q=0.9')).toBe('en');
    expect(consoleLocaleOf(undefined, 'en-GB')).toBe('en');
    expect(consoleLocaleOf(undefined, undefined)).toBe('en');
  });
  test('the remembered choice wins; a value that is no console language is ignored', () => {
    expect(consoleLocaleOf('en', 'nl-NL')).toBe('en');
    expect(consoleLocaleOf('nl', 'en-US')).toBe('nl');
    expect(consoleLocaleOf('de', 'nl-NL')).toBe('nl');
  });
});
