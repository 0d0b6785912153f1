/**
 * tenant.json as an operator writes it: the exact message a person sees for each common
 * mistake (in the spirit of Starlight's config-errors test), and the resolved defaults.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTenant, type TenantInput } from '../../src/tenant/schema.ts';
import { loadAllTenants } from '../../src/tenant/load.ts';
import { PAYMENT_METHOD_IDS } from '../../src/lib/payment-methods.ts';

const TENANTS = join(import.meta.dirname, '..', '..', 'tenants');

/** The smallest valid brand: everything else has a default. */
const minimal = {
  name: 'Flirt',
  domains: ['flirt.test'],
  company: { name: 'Flirt B.V.', address: 'Straat 1', kvk: '12345678', city: '1011 AA Amsterdam', country: 'Nederland' },
  support_email: 'support@flirt.test',
} satisfies TenantInput;

/** The lines `sitegen check` prints after "tenants/<id>/tenant.json: ", or "valid". */
function problems(json: unknown, id = 'flirt'): string[] | 'valid' {
  const result = parseTenant(id, json);
  return 'errors' in result ? result.errors : 'valid';
}

describe('tenant.json mistakes and the messages a person sees', () => {
  test('the minimal brand is valid', () => {
    expect(problems(minimal)).toBe('valid');
  });

  test('a colour that is not hex', () => {
    expect(problems({ ...minimal, theme: { primary: 'purple' } })).toEqual(['theme.primary: must be a hex colour such as #7b2cbf']);
    expect(problems({ ...minimal, theme: { danger: '#12345' } })).toEqual(['theme.danger: must be a hex colour such as #7b2cbf']);
  });

  test('an unknown locale', () => {
    expect(problems({ ...minimal, locales: { available: ['nl', 'xx'] } })).toEqual([
      'locales.available.1: must be one of da, de, en, en-US, es, fi, fr, it, nb, nl, pl, sv',
    ]);
  });

  test('a default (or fallback) locale that is not available', () => {
    expect(problems({ ...minimal, locales: { available: ['en', 'de'], default: 'fr', fallback: 'en' } })).toEqual([
      'locales.default: must be one of locales.available',
    ]);
    expect(problems({ ...minimal, locales: { available: ['en', 'de'], default: 'en', fallback: 'nl' } })).toEqual([
      'locales.fallback: must be one of locales.available',
    ]);
    // Only available given: default and fallback (nl) are not in it.
    expect(problems({ ...minimal, locales: { available: ['en'] } })).toEqual([
      'locales.default: must be one of locales.available',
      'locales.fallback: must be one of locales.available',
    ]);
  });

  test('a niche outside 1 to 7', () => {
    expect(problems({ ...minimal, niche: 9 })).toEqual(['niche: must be a niche number from 1 to 7']);
    expect(problems({ ...minimal, niche: 0 })).toEqual(['niche: must be a niche number from 1 to 7']);
    expect(problems({ ...minimal, niche: '3' })).toEqual(['niche: must be a niche number from 1 to 7']);
  });

  test('a missing or empty company name', () => {
    const { name: _name, ...company } = minimal.company;
    expect(problems({ ...minimal, company })).toEqual(['company.name: is required']);
    expect(problems({ ...minimal, company: { ...minimal.company, name: '' } })).toEqual(['company.name: must not be empty']);
  });

  test('a missing company block, brand name or support e-mail', () => {
    const { company: _c, ...noCompany } = minimal;
    expect(problems(noCompany)).toEqual(['company: is required']);
    const { name: _n, support_email: _s, ...bare } = minimal;
    expect(problems(bare)).toEqual(['name: is required', 'support_email: is required']);
  });

  test('an unknown key (the schema is strict), at the top and inside a block', () => {
    expect(problems({ ...minimal, colour: '#7b2cbf' })).toEqual([
      '(root): unknown key "colour": check the spelling against src/tenant/schema.ts',
    ]);
    expect(problems({ ...minimal, theme: { primery: '#7b2cbf' } })).toEqual([
      'theme: unknown key "primery": check the spelling against src/tenant/schema.ts',
    ]);
    expect(problems({ ...minimal, company: { ...minimal.company, vat: 'NL1', iban: 'x' } })).toEqual([
      'company: unknown keys "vat", "iban": check the spelling against src/tenant/schema.ts',
    ]);
  });

  test('a value of the wrong type', () => {
    expect(problems({ ...minimal, message_credits: 'five' })).toEqual(['message_credits: must be a number']);
    expect(problems({ ...minimal, logged_out_search: 'yes' })).toEqual(['logged_out_search: must be a boolean']);
    expect(problems({ ...minimal, domains: 'flirt.test' })).toEqual(['domains: must be an array']);
    expect(problems('{"name": "Flirt"}')).toEqual(['(root): must be an object']);
  });

  test('domains, countries, support e-mail and payment methods', () => {
    expect(problems({ ...minimal, domains: [] })).toEqual(['domains: must hold at least one entry']);
    expect(problems({ ...minimal, domains: ['Flirt.Test'] })).toEqual(['domains.0: must be a lower-case host name such as example.com']);
    expect(problems({ ...minimal, countries: ['nl'] })).toEqual(['countries.0: must be an ISO 3166 country code in capitals such as NL']);
    expect(problems({ ...minimal, support_email: 'support' })).toEqual(['support_email: must be an e-mail address such as support@example.com']);
    expect(problems({ ...minimal, payment_methods: ['ideal', 'bitcoin'] })).toEqual([
      `payment_methods.1: must be one of ${PAYMENT_METHOD_IDS.join(', ')}`,
    ]);
  });

  test('a bad tenant id (the folder name)', () => {
    expect(problems(minimal, 'Flirt')).toEqual(['id: "Flirt" must start with a letter and hold 2 to 31 lower-case letters, digits or dashes']);
  });

  test('several mistakes are all reported, each with its path', () => {
    expect(problems({ ...minimal, niche: 8, theme: { primary: 'red' }, locales: { available: ['nl'], default: 'nl', fallback: 'nl', extra: 1 } })).toEqual([
      'niche: must be a niche number from 1 to 7',
      'theme.primary: must be a hex colour such as #7b2cbf',
      'locales: unknown key "extra": check the spelling against src/tenant/schema.ts',
    ]);
  });
});

describe('resolved tenant', () => {
  test('fills in the defaults of SPEC §3 settings and the theme', () => {
    const result = parseTenant('flirt', minimal);
    if (!('tenant' in result)) throw new Error(result.errors.join('\n'));
    const t = result.tenant;
    expect(t.id).toBe('flirt');
    expect(t.domain).toBe('flirt.test');
    expect(t.niche).toBe(1);
    expect(t.locales).toEqual({ available: ['nl'], default: 'nl', fallback: 'nl', hide_dropdown: false });
    expect(t.domain_language).toBe('nl');
    expect(t.mail_name).toBe('Flirt');
    expect(t.enable_site_entry_popup).toBe(true);
    expect(t.logged_out_search).toBe(false);
    expect(t.signups).toBe('all');
    // SPEC §9: the unread accent equals secondary when not set.
    expect(t.theme.unread).toBe(t.theme.secondary);
    expect(t.company.support_phone).toBe(t.support_phone);
    expect(t.theme).toMatchObject({ primary: '#6f2da8', secondary: '#a66dd4' });
    for (const colour of Object.values(t.theme)) expect(colour).toMatch(/^#[0-9a-f]{6}$/i);
    for (const p of t.packages) expect(p).toMatchObject({ currency: 'EUR', popular: expect.any(Boolean), discount: expect.any(Number) });
    expect(t.packages.filter((p) => p.popular)).toHaveLength(1);
    expect(t.payment_methods).toHaveLength(25);
    expect(t.landers).toHaveLength(9);
  });

  test('an explicit unread accent is kept', () => {
    const result = parseTenant('flirt', { ...minimal, theme: { secondary: '#aa00aa', unread: '#d9480f' } });
    expect('tenant' in result && result.tenant.theme).toMatchObject({ secondary: '#aa00aa', unread: '#d9480f' });
  });
});

describe('the member network and audience (issue 24)', () => {
  const resolved = (json: unknown) => {
    const result = parseTenant('flirt', json);
    if (!('tenant' in result)) throw new Error(result.errors.join('\n'));
    return result.tenant;
  };

  test('a brand without a network is alone; its audience is its niche\'s default', () => {
    const t = resolved(minimal);
    expect(t.network).toBeNull();
    expect(t.audience).toEqual({ genders: ['male', 'female'], sexualities: ['hetero', 'gay', 'lesbian', 'bi'], min_age: 18, max_age: 99, body_types: null, interests: [], countries: null });
    expect(resolved({ ...minimal, niche: 6 }).audience).toMatchObject({ genders: ['female'], min_age: 35 });
    expect(resolved({ ...minimal, niche: 7 }).audience).toMatchObject({ genders: ['male'], sexualities: ['gay', 'bi'] });
    expect(resolved({ ...minimal, niche: 3 }).audience.interests).toEqual(['bondage', 'sadomasochism']);
    expect(resolved({ ...minimal, niche: 4 }).audience.body_types).toEqual(['curvy', 'full']);
  });

  test('a pool with fictional profiles kept at home by default; a brand\'s own audience fields replace the niche\'s', () => {
    expect(resolved({ ...minimal, network: { pool: 'benelux' } }).network).toEqual({ pool: 'benelux', share_fictional: false, suspended: false });
    expect(resolved({ ...minimal, niche: 6, audience: { min_age: 40, countries: ['NL'] } }).audience).toMatchObject({ genders: ['female'], min_age: 40, max_age: 99, countries: ['NL'] });
  });

  test('an audience may only narrow its niche\'s default', () => {
    expect(problems({ ...minimal, niche: 6, audience: { min_age: 25 } })).toEqual(["audience.min_age: must be at least 35, niche 6's default: a brand may only narrow it"]);
    expect(problems({ ...minimal, niche: 7, audience: { genders: ['male', 'female'] } })).toEqual(["audience.genders: female is outside niche 7's default (male): a brand may only narrow it"]);
    expect(problems({ ...minimal, niche: 3, audience: { interests: ['bondage', 'beer'] } })).toEqual(["audience.interests: beer is outside niche 3's default (bondage, sadomasochism): a brand may only narrow it"]);
    expect(problems({ ...minimal, niche: 1, audience: { interests: ['beer'], body_types: ['slim'] } })).toBe('valid');
  });

  test('mistakes in the network and audience', () => {
    expect(problems({ ...minimal, network: { pool: 'Benelux!' } })).toEqual(['network.pool: must be 2 to 31 lower-case letters, digits or dashes, starting with a letter']);
    expect(problems({ ...minimal, network: { pool: 'benelux', share: true } })).toEqual(['network: unknown key "share": check the spelling against src/tenant/schema.ts']);
    expect(problems({ ...minimal, audience: { genders: ['other'] } })).toEqual(['audience.genders.0: must be one of male, female']);
    expect(problems({ ...minimal, audience: { min_age: 50, max_age: 40 } })).toEqual(['audience.max_age: must not be below min_age']);
    expect(problems({ ...minimal, audience: { body_types: ['tall'] } })).toEqual(['audience.body_types.0: must be one of slim, average, athletic, curvy, full']);
    expect(problems({ ...minimal, audience: { interests: ['knitting'] } })).toEqual(['audience.interests.0: must be an interest key of src/server/data/interests.ts, such as bondage']);
    expect(problems({ ...minimal, audience: { countries: ['NL', 'NL'] } })).toEqual(['audience.countries: must not name a value twice']);
  });
});

describe('postbacks to affiliate networks (issue 23)', () => {
  const postback = { network: 'adnet', url: 'https://track.example/pb?cid={clickid}&p={payout}&c={currency}', events: ['signup', 'first_purchase'] };

  test('a postback with known macros and events is valid; none by default', () => {
    expect(problems({ ...minimal, postbacks: [postback] })).toBe('valid');
    const tenant = parseTenant('flirt', minimal);
    expect('tenant' in tenant && tenant.tenant.postbacks).toEqual([]);
  });

  test('each mistake names its field', () => {
    expect(problems({ ...minimal, postbacks: [{ ...postback, url: 'https://track.example/pb?cid={click_id}&x={sub4}' }] })).toEqual([
      'postbacks.0.url: unknown macro {click_id}, {sub4}: the macros are {clickid}, {sub1}, {sub2}, {sub3}, {event}, {payout}, {currency}, {txid}, {member_id}',
    ]);
    expect(problems({ ...minimal, postbacks: [{ ...postback, url: 'ftp://track.example/pb' }] })).toEqual(['postbacks.0.url: must be an http:// or https:// URL']);
    expect(problems({ ...minimal, postbacks: [{ ...postback, events: ['sale'] }] })).toEqual(['postbacks.0.events.0: must be one of signup, activation, first_purchase, purchase, refund, chargeback']);
    expect(problems({ ...minimal, postbacks: [{ ...postback, events: [] }] })).toEqual(['postbacks.0.events: must hold at least one entry']);
    expect(problems({ ...minimal, postbacks: [{ ...postback, events: ['signup', 'signup'] }] })).toEqual(['postbacks.0.events: must not name an event twice']);
    expect(problems({ ...minimal, postbacks: [{ ...postback, network: 'ad net' }] })).toEqual(['postbacks.0.network: must be 1 to 100 letters, digits, dots, dashes or underscores']);
    expect(problems({ ...minimal, postbacks: [postback, { ...postback, events: ['refund'] }] })).toEqual(['postbacks: must name each network once']);
    expect(problems({ ...minimal, postbacks: [{ ...postback, secret: 'x' }] })).toEqual(['postbacks.0: unknown key "secret": check the spelling against src/tenant/schema.ts']);
  });
});

describe('the shipped tenants', () => {
  test.each(['spetter', 'velvet'])('tenants/%s/tenant.json parses', (id) => {
    const json = JSON.parse(readFileSync(join(TENANTS, id, 'tenant.json'), 'utf8'));
    expect(problems(json, id)).toBe('valid');
  });

  test('spetter is exactly the deployment of SPEC §1: Dutch only, nl default and fallback, niche 1', () => {
    const spetter = loadAllTenants(TENANTS).find((t) => t.id === 'spetter')!;
    expect(spetter.locales.available).toEqual(['nl']);
    expect(spetter.locales.default).toBe('nl');
    expect(spetter.locales.fallback).toBe('nl');
    expect(spetter.niche).toBe(1);
  });

  test('velvet is a visibly different brand: several locales, another niche, other colours', () => {
    const all = loadAllTenants(TENANTS);
    const spetter = all.find((t) => t.id === 'spetter')!;
    const velvet = all.find((t) => t.id === 'velvet')!;
    expect(velvet.locales.available.length).toBeGreaterThan(1);
    expect(velvet.niche).not.toBe(spetter.niche);
    expect(velvet.theme.primary).not.toBe(spetter.theme.primary);
    expect(velvet.name).not.toBe(spetter.name);
    expect(velvet.logged_out_search).toBe(true);
  });

  test('no two tenants claim the same domain', () => {
    const domains = loadAllTenants(TENANTS).flatMap((t) => t.domains);
    expect(new Set(domains).size).toBe(domains.length);
  });
});
