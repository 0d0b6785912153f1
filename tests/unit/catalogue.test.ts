/**
 * The text catalogues: Dutch (locales/nl.json) is the reference and holds every user-visible
 * string, including every message of SPEC §5 and §8 verbatim; every other catalogue has every
 * key of it with the same {params}; Paraglide compiles them offline from the npm plugin.
 */
import { describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LOCALES } from '../../src/lib/locales.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const LOCALES_DIR = join(ROOT, 'locales');

type Catalogue = Record<string, string>;
function catalogue(locale: string): Catalogue {
  const { $schema: _schema, ...messages } = JSON.parse(readFileSync(join(LOCALES_DIR, `${locale}.json`), 'utf8')) as Catalogue;
  return messages;
}
const nl = catalogue('nl');
const nlTexts = new Set(Object.values(nl));
const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

// SPEC §5 'Validation rules', verbatim.
const SPEC_5 = [
  'Je profielnaam moet anders zijn dan je e-mailadres',
  'Je profielnaam mag niet beginnen met een @',
  'Vul uw geboortedatum in ({min_age}+ jaar)',
  'Ongeldige geboortedatum.',
  'Nieuw e-mailadres invalide.',
  'Dit e-mailadres heeft al een account op deze site.',
  'De opgegeven wachtwoorden zijn niet gelijk.',
  'Controleer je oude wachtwoord.',
  'Ongeldige e-mail',
  'Code ongeldig',
  'Code niet gevonden',
  'Code reeds gebruikt',
  'Deze functie is alleen beschikbaar voor premium leden',
];

// SPEC §8 'The error catalogue', verbatim (the spec's own spelling, "geannuleeerd" included).
const SPEC_8 = [
  'Login mislukt, probeer opnieuw',
  'Te veel foute pogingen, account voor {minutes} min geblokkeerd.',
  'E-mailadres niet gevonden',
  'Link verlopen of invalide, vraag een nieuwe e-mail aan',
  'Te veel wachtwoordherstel mails verstuurd, probeer het morgen nog eens.',
  'Activeren mislukt',
  'Er is een fout opgetreden, probeer het later opnieuw.',
  'Betaling mislukt',
  'De betaling is mislukt of geannuleeerd.',
  'Je account is geblokkeerd voor automatische incasso.',
  'Uw limiet voor automatische incasso betalingen is bereikt...',
  'Je hebt onvoldoende credits',
];

// SPEC §2 and §8: the error page's texts, which the spec gives in English for every locale.
const SPEC_ERROR_PAGE = ['Error', 'This page could not be found', 'Back to the home page', 'An error occurred while showing the error page'];

describe('the Dutch reference catalogue', () => {
  test.each(SPEC_5)('holds the SPEC §5 message "%s" verbatim', (text) => {
    expect(nlTexts.has(text), `no message in locales/nl.json reads exactly "${text}"`).toBe(true);
  });

  test.each(SPEC_8)('holds the SPEC §8 message "%s" verbatim', (text) => {
    expect(nlTexts.has(text), `no message in locales/nl.json reads exactly "${text}"`).toBe(true);
  });

  test.each(SPEC_ERROR_PAGE)('holds the error page text "%s"', (text) => {
    expect(nlTexts.has(text), `no message in locales/nl.json reads exactly "${text}"`).toBe(true);
  });

  test('has no empty message and only snake_case keys', () => {
    for (const [key, text] of Object.entries(nl)) {
      expect(key).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(text.trim(), key).not.toBe('');
    }
  });

  test('has the 50 interest labels and the region labels (province, state, canton …)', () => {
    expect(Object.keys(nl).filter((k) => k.startsWith('interest_'))).toHaveLength(50);
    for (const label of ['province', 'state', 'canton']) expect(nl[`region_label_${label}`], label).toBeTruthy();
  });
});

describe('every catalogue follows the Dutch one', () => {
  test('there is one catalogue per locale of SPEC §1', () => {
    const files = readdirSync(LOCALES_DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
    expect(files).toEqual([...LOCALES].sort());
  });

  const others = LOCALES.filter((l) => l !== 'nl');

  test.each(others)('locales/%s.json has every key of nl.json', (locale) => {
    const own = catalogue(locale);
    const missing = Object.keys(nl).filter((key) => !(key in own));
    expect(missing, `locales/${locale}.json misses ${missing.length} keys of nl.json`).toEqual([]);
  });

  test.each(others)('locales/%s.json has no key that nl.json lacks, and no empty message', (locale) => {
    const own = catalogue(locale);
    expect(Object.keys(own).filter((key) => !(key in nl))).toEqual([]);
    expect(Object.entries(own).filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
  });

  test.each(others)('locales/%s.json uses the same {params} as nl.json', (locale) => {
    const own = catalogue(locale);
    const differ = Object.keys(own)
      .filter((key) => key in nl && params(own[key]!).join() !== params(nl[key]!).join())
      .map((key) => `${key}: {${params(own[key]!).join('} {')}} instead of {${params(nl[key]!).join('} {')}}`);
    expect(differ).toEqual([]);
  });
});

describe('Paraglide', () => {
  const settings = JSON.parse(readFileSync(join(ROOT, 'project.inlang', 'settings.json'), 'utf8')) as {
    baseLocale: string;
    locales: string[];
    modules: string[];
    'plugin.inlang.messageFormat': { pathPattern: string };
  };

  test('the project loads its plugin from node_modules by a relative path, never from a CDN', () => {
    expect(settings.modules.length).toBeGreaterThan(0);
    for (const module of settings.modules) {
      expect(module, 'a plugin URL needs the network and silently yields zero messages offline').not.toMatch(/^[a-z]+:\/\//i);
      expect(module).toMatch(/^\.\/node_modules\/@inlang\/plugin-message-format\//);
      // Relative to the folder that holds project.inlang.
      expect(existsSync(resolve(ROOT, module)), `${module} is not installed`).toBe(true);
    }
  });

  test('Dutch is the base locale and every locale of SPEC §1 is listed', () => {
    expect(settings.baseLocale).toBe('nl');
    expect([...settings.locales].sort()).toEqual([...LOCALES].sort());
    expect(settings['plugin.inlang.messageFormat'].pathPattern).toBe('./locales/{locale}.json');
  });

  test('compiles offline to one message function per Dutch key, with the Dutch text', { timeout: 60_000 }, async () => {
    const { compile } = await import('@inlang/paraglide-js');
    const outdir = mkdtempSync(join(tmpdir(), 'paraglide-'));
    const warnings: string[] = [];
    const warn = console.warn;
    const error = console.error;
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    console.error = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    try {
      await compile({ project: join(ROOT, 'project.inlang'), outdir, emitGitIgnore: false, emitPrettierIgnore: false });
    } finally {
      console.warn = warn;
      console.error = error;
    }
    try {
      expect(warnings.filter((w) => /PluginImportError|error/i.test(w))).toEqual([]);
      const { m } = (await import(pathToFileURL(join(outdir, 'messages.js')).href)) as { m: Record<string, (p?: object, o?: object) => string> };
      const compiled = Object.keys(m);
      expect(compiled.length, 'Paraglide compiled no messages: did the plugin load?').toBeGreaterThan(0);
      expect(Object.keys(nl).filter((key) => typeof m[key] !== 'function')).toEqual([]);
      for (const [key, text] of Object.entries(nl)) {
        if (params(text).length === 0) expect(m[key]!({}, { locale: 'nl' }), key).toBe(text);
      }
      expect(m.login_failed?.({}, { locale: 'nl' })).toBe('Login mislukt, probeer opnieuw');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});

// One register per language (issue 21): French says "vous" (as the pages and landers always did),
// German "du" (as its pages do; "ihr" is two members together). Icebreakers are what one member
// writes to another, in their own informal voice, and stay "tu".
describe('one form of address per language', () => {
  const markdown = (suffix: string) => [
    ...readdirSync(join(ROOT, 'content', 'pages')).filter((f) => f.endsWith(suffix)).map((f) => join(ROOT, 'content', 'pages', f)),
    ...['_defaults', 'spetter', 'velvet'].flatMap((dir) => {
      const folder = join(ROOT, 'tenants', dir, 'landers');
      return existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith(suffix)).map((f) => join(folder, f)) : [];
    }),
  ];
  const texts = (locale: string) => [
    ...Object.entries(catalogue(locale)).filter(([key]) => !key.startsWith('icebreaker_')).map(([key, text]) => [`locales/${locale}.json ${key}`, text] as const),
    ...markdown(`.${locale}.md`).map((file) => [file.slice(ROOT.length + 1), readFileSync(file, 'utf8')] as const),
  ];

  test('French speaks to the visitor as "vous", never "tu", in the catalogue, the pages and the landers', () => {
    // Words, not parts of words: "côte", "êtes" and "{text}" hold no "te".
    const tu = /(?<![\p{L}{])(tu|toi|ton|ta|tes|te|t['’]|choisis|clique|écris|décris|inscris|connecte|contacte|crée|essaie|réessaie|envoie|ajoute|répète|vérifie)(?![\p{L}}])/iu;
    expect(texts('fr').filter(([, text]) => tu.test(text)).map(([where]) => where)).toEqual([]);
  });

  test('German speaks to the visitor as "du", never "Sie", in the catalogue, the pages and the landers', () => {
    // Mid-sentence "Sie", or a formal "Ihnen"/"Ihre…" anywhere; "Ihr mögt euch" (you two) is "du".
    const sie = /(?<=\p{Ll}[ ,]+)(Sie|Ihr)(?!\p{L})|(?<!\p{L})(Ihnen|Ihre[mnrs]?)(?!\p{L})/u;
    expect(texts('de').filter(([, text]) => sie.test(text)).map(([where]) => where)).toEqual([]);
  });
});

describe('lander texts', () => {
  test('a lander with a text of its own has it in every language a demo brand offers (the French alonetonight lander is not the generic one)', async () => {
    const { readLanders, pickLander } = await import('../../src/tenant/landers.ts');
    const { shared } = readLanders(join(ROOT, 'tenants'), 'velvet');
    const named = [...new Set(shared.map((v) => v.lander).filter((name) => name !== '*'))];
    expect(named).toContain('alonetonight');
    for (const lander of named) {
      for (const locale of ['nl', 'en', 'de', 'fr']) {
        expect(pickLander([], shared, lander, locale, 1)?.lander, `${lander} ${locale}`).toBe(lander);
      }
    }
    expect(pickLander([], shared, 'alonetonight', 'fr', 1)?.headline).toBe('Pas seul(e) ce soir ?');
  });
});
