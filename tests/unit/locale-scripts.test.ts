/**
 * The island scripts of a page's locale (docs/ONE-BUILD.md, step 3): the map from the program's
 * all-languages client to each locale's (cli/locale-clients.ts) and the page named from it
 * (src/lib/locale-scripts.ts).
 */
import { describe, expect, test } from 'vitest';
import { localeScriptsMap } from '../../cli/locale-clients.ts';
import { hasLocaleScripts, localeHtml, localePolicy } from '../../src/lib/locale-scripts.ts';

const build = (files: Record<string, string>, inline: Record<string, string> = {}) => ({ files: new Map(Object.entries(files)), inline: new Map(Object.entries(inline)) });

const MAP = localeScriptsMap(
  new Map([
    ['de', build({ '/src/Login.tsx': 'Login.de1.js', '/src/client.js': 'client.abc.js' }, { '/src/Base.astro?script': 'warn("Achtung")' })],
    ['*', build({ '/src/Login.tsx': 'Login.all.js', '/src/client.js': 'client.abc.js' }, { '/src/Base.astro?script': 'warn(m())' })],
  ]),
);

describe('the scripts of a locale', () => {
  test('the map names only what differs from the all-languages client', () => {
    expect(MAP.files).toEqual({ de: { 'Login.all.js': 'Login.de1.js' } });
    expect(MAP.inline.de).toHaveLength(1);
    expect(MAP.inline.de![0]).toMatchObject({ from: 'warn(m())', to: 'warn("Achtung")' });
    expect(MAP.inline.de![0]!.fromHash).toMatch(/^sha256-[\w+/=]{44}$/);
  });

  test('a script inlined in one client and a file in another stops the build', () => {
    expect(() => localeScriptsMap(new Map([['de', build({}, { '/src/Login.tsx': 'x' })], ['*', build({ '/src/Login.tsx': 'Login.all.js' })]]))).toThrow(/Login\.tsx is a file in the all-languages client but not in de's/);
  });

  test("a German page names the German island and inline script, and the policy the German script's hash", () => {
    const { fromHash, toHash } = MAP.inline.de![0]!;
    const html = `<meta http-equiv="content-security-policy" content="script-src 'self' '${fromHash}'"><script>warn(m())</script><astro-island component-url="/_assets/Login.all.js" renderer-url="/_assets/client.abc.js"></astro-island><a href="/_assets/Login.all.jsx">`;
    expect(localeHtml(MAP, 'de', html)).toBe(`<meta http-equiv="content-security-policy" content="script-src 'self' '${toHash}'"><script>warn("Achtung")</script><astro-island component-url="/_assets/Login.de1.js" renderer-url="/_assets/client.abc.js"></astro-island><a href="/_assets/Login.all.jsx">`);
    expect(localePolicy(MAP, 'de', `script-src 'self' '${fromHash}'`)).toBe(`script-src 'self' '${toHash}'`);
  });

  test('a locale without a client of its own keeps the all-languages scripts', () => {
    expect(hasLocaleScripts(MAP, 'de')).toBe(true);
    expect(hasLocaleScripts(MAP, 'es')).toBe(false);
    expect(hasLocaleScripts(undefined, 'de')).toBe(false);
    expect(localeHtml(MAP, 'es', '<script src="/_assets/Login.all.js"></script>')).toBe('<script src="/_assets/Login.all.js"></script>');
  });
});
