import { describe, expect, it } from 'vitest';
import tabler from '@iconify-json/tabler/icons.json' with { type: 'json' };
import { INTERESTS, INTEREST_KEYS, isInterestKey } from '../../src/server/data/interests.ts';
import { isIconId } from '../../src/lib/icons.ts';
import { DEFAULT_FICTIONAL_ICON } from '../../src/tenant/schema.ts';
import {
  REGION_COUNTRIES,
  findRegion,
  regionLabelKey,
  regionsFor,
  regionsPayload,
} from '../../src/server/data/regions.ts';
import { countryName } from '../../src/lib/names.ts';
import { countryFromHeaders, countryOfIp } from '../../src/server/data/geoip.ts';
import { reverseGeocode } from '../../src/server/data/geocode.ts';

// SPEC §2 'Profile interest icons', in order.
const SPEC_INTERESTS =
  'adventure, anal sex, animals, art, astrology, barbecue, beach, beer, biking, bondage, coffee, cooking, dancing, ' +
  'exchanging pictures, fashion, foodie, gardening, gym, hiking, hugging, kissing, lingerie, massages, masturbating, ' +
  'movies, music, one-night stand, oral sex, outdoors, party, photography, politics, public sex, reading, relationship, ' +
  'sadomasochism, safe sex, sex, sex toys, shopping, sports, sushi, tattoos, tea, theatre, threesome, travelling, ' +
  'vegetarian, video games, wine';

describe('interests', () => {
  it('has exactly the 50 SPEC interests, in SPEC order, with unique snake_case keys', () => {
    const expected = SPEC_INTERESTS.split(', ').map((s) => s.replace(/[ -]/g, '_'));
    expect(INTERESTS).toHaveLength(50);
    expect(INTERESTS.map((i) => i.key)).toEqual(expected);
    expect(INTEREST_KEYS).toEqual(expected);
    expect(new Set(INTEREST_KEYS).size).toBe(50);
    for (const k of INTEREST_KEYS) expect(k).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(INTEREST_KEYS).toContain('one_night_stand');
    expect(INTEREST_KEYS).toContain('exchanging_pictures');
  });

  it('gives every interest its own icon of the installed Tabler set', () => {
    const names = new Set([...Object.keys(tabler.icons), ...Object.keys(tabler.aliases ?? {})]);
    for (const { key, icon } of INTERESTS) {
      expect(isIconId(icon), key).toBe(true);
      expect(names.has(icon.slice('tabler:'.length)), `${key}: ${icon}`).toBe(true);
    }
    expect(new Set(INTERESTS.map((i) => i.icon)).size).toBe(50);
    expect(names.has(DEFAULT_FICTIONAL_ICON.slice('tabler:'.length))).toBe(true);
  });

  it('recognises interest keys', () => {
    expect(isInterestKey('sex_toys')).toBe(true);
    expect(isInterestKey('video_games')).toBe(true);
    expect(isInterestKey('Sex toys')).toBe(false);
    expect(isInterestKey(42)).toBe(false);
    expect(isInterestKey('__proto__')).toBe(false);
  });
});

describe('regions', () => {
  it('NL has 12 provinces including Noord-Holland, labelled province', () => {
    const nl = regionsFor('NL');
    expect(nl).toHaveLength(12);
    expect(nl).toContainEqual({ code: 'NH', name: 'Noord-Holland' });
    expect(regionLabelKey('NL')).toBe('region_label_province');
    expect(regionsFor('nl')).toEqual(nl);
  });

  it('CH has 26 cantons labelled canton', () => {
    expect(regionsFor('CH')).toHaveLength(26);
    expect(regionLabelKey('CH')).toBe('region_label_canton');
  });

  it('DE has 16 states', () => {
    const de = regionsFor('DE');
    expect(de).toHaveLength(16);
    expect(de.map((r) => r.name)).toContain('Bayern');
    expect(regionLabelKey('DE')).toBe('region_label_state');
    expect(regionLabelKey('AT')).toBe('region_label_state');
  });

  it('uses one level of regions per country', () => {
    expect(regionsFor('US')).toHaveLength(51);
    expect(regionsFor('BE')).toHaveLength(11);
    expect(regionsFor('ES')).toHaveLength(52);
    expect(regionsFor('PL')).toHaveLength(16);
    expect(regionLabelKey('PL')).toBe('region_label_voivodeship');
    expect(regionLabelKey('IE')).toBe('region_label_county');
    expect(regionLabelKey('ZZ')).toBe('region_label_region');
    expect(regionsFor('ZZ')).toEqual([]);
  });

  it('has regions with unique codes for every SPEC country', () => {
    expect(REGION_COUNTRIES).toHaveLength(19);
    for (const c of REGION_COUNTRIES) {
      const list = regionsFor(c);
      expect(list.length, c).toBeGreaterThan(0);
      expect(new Set(list.map((r) => r.code)).size, c).toBe(list.length);
      expect(regionLabelKey(c)).toMatch(/^region_label_[a-z]+$/);
    }
  });

  it('finds regions by name, accents and case ignored', () => {
    expect(findRegion('NL', 'noord holland')).toEqual({ code: 'NH', name: 'Noord-Holland' });
    expect(findRegion('DE', 'Bavaria')?.code).toBe('BY');
    expect(findRegion('CH', 'Zurich')?.code).toBe('ZH');
    expect(findRegion('NL', 'Atlantis')).toBeNull();
  });

  it('builds the regions payload', () => {
    const p = regionsPayload(['NL', 'ch', 'NL', 'XX']);
    expect(p.countries.map((c) => c.code)).toEqual(['NL', 'CH']);
    expect(p.countries[0]!.label_key).toBe('region_label_province');
    expect(p.countries[1]!.label_key).toBe('region_label_canton');
    expect(p.countries[0]!.regions).toHaveLength(12);
  });
});

describe('countries', () => {
  it('names countries in the given locale', () => {
    expect(countryName('NL', 'nl')).toBe('Nederland');
    expect(countryName('de', 'de')).toBe('Deutschland');
    expect(countryName('CH', 'fr')).toBe('Suisse');
    expect(countryName('NL', 'not a locale!')).toBe('Netherlands');
    expect(countryName('x', 'en')).toBe('X');
  });
});

describe('geoip', () => {
  it('maps a Dutch public address to NL, also IPv4-mapped IPv6', () => {
    // 194.109.6.66 is in XS4ALL's range (AS3265), mapped to NL by the package's data.
    expect(countryOfIp('194.109.6.66')).toBe('NL');
    expect(countryOfIp('::ffff:194.109.6.66')).toBe('NL');
    expect(countryOfIp('2001:610::1')).toBe('NL'); // SURFnet
  });

  it('gives null for loopback, private and invalid addresses', () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.0.0.1', '192.168.1.10', '172.16.5.4', 'fe80::1', 'nonsense', '', undefined]) {
      expect(countryOfIp(ip), String(ip)).toBeNull();
    }
  });

  it('reads a country header only behind a trusted proxy', () => {
    expect(countryFromHeaders(new Headers({ 'CF-IPCountry': 'nl' }), true)).toBe('NL');
    expect(countryFromHeaders({ 'x-country-code': 'be' }, true)).toBe('BE');
    expect(countryFromHeaders({ 'x-country-code': 'be' }, false)).toBeNull();
    expect(countryFromHeaders({ 'cf-ipcountry': 'XX' }, true)).toBeNull();
    expect(countryFromHeaders({}, true)).toBeNull();
  });
});

describe('reverse geocode', () => {
  it('puts Amsterdam in Noord-Holland, NL', () => {
    const r = reverseGeocode(52.37, 4.89);
    expect(r).not.toBeNull();
    expect(r?.country).toBe('NL');
    expect(r?.city).toBe('Amsterdam');
    expect(r?.region).toBe('NH');
    expect(r?.region_name).toBe('Noord-Holland');
  });

  it('resolves provinces finer than the data (BE, ES)', () => {
    expect(reverseGeocode(51.05, 3.72)?.region).toBe('VOV'); // Gent
    expect(reverseGeocode(50.64, 5.57)?.region).toBe('WLG'); // Liège
    expect(reverseGeocode(43.26, -2.93)?.region).toBe('BI'); // Bilbao
    expect(reverseGeocode(41.39, 2.17)?.region).toBe('B'); // Barcelona
  });

  it('gives null for out-of-range or invalid input and far from land', () => {
    expect(reverseGeocode(91, 4.89)).toBeNull();
    expect(reverseGeocode(-90.5, 0)).toBeNull();
    expect(reverseGeocode(52.37, 181)).toBeNull();
    expect(reverseGeocode(Number.NaN, 4.89)).toBeNull();
    expect(reverseGeocode(0, -30)).toBeNull(); // mid-Atlantic
  });
});
