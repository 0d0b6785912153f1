// Regions (first-level subdivisions) per country, for the profile's region field
// and GET /api/regions.php. Source: the `country-region-data` package, with a few
// corrections so that each country gets one consistent level of regions:
//  - US: the 50 states plus DC (no armed-forces codes, freely associated states or territories)
//  - BE: the 10 provinces plus Brussels (the package only has the 3 regions)
//  - ES: the 50 provinces plus Ceuta and Melilla (the package mixes in 3 communities)
//  - FR: the 13 metropolitan and 5 overseas regions (no collectivities with their own ISO code)
//  - NO: without Svalbard and Jan Mayen (own ISO code SJ)
// Region codes are the package's short codes (ISO 3166-2 suffixes in most cases) and are stable.
import * as crd from 'country-region-data';

export type Region = { code: string; name: string };
export type RegionCountry = { code: string; label_key: string; regions: Region[] };

/** The countries named in SPEC §1 (locale availability per visitor country). */
export const REGION_COUNTRIES: readonly string[] = [
  'US', 'NL', 'BE', 'FR', 'IT', 'ES', 'DE', 'AT', 'IE', 'GB', 'CA', 'PL', 'AU', 'NZ', 'CH', 'DK', 'FI', 'NO', 'SE',
];

/** Catalogue keys for what a country calls its regions. */
export const REGION_LABEL_KEYS: readonly string[] = [
  'region_label_province',
  'region_label_state',
  'region_label_canton',
  'region_label_region',
  'region_label_county',
  'region_label_voivodeship',
];

const LABEL_KEY_BY_COUNTRY: Record<string, string> = {
  NL: 'region_label_province',
  BE: 'region_label_province',
  CA: 'region_label_province',
  ES: 'region_label_province',
  US: 'region_label_state',
  DE: 'region_label_state',
  AT: 'region_label_state',
  AU: 'region_label_state',
  CH: 'region_label_canton',
  FR: 'region_label_region',
  IT: 'region_label_region',
  DK: 'region_label_region',
  FI: 'region_label_region',
  NZ: 'region_label_region',
  IE: 'region_label_county',
  GB: 'region_label_county',
  SE: 'region_label_county',
  NO: 'region_label_county',
  PL: 'region_label_voivodeship',
};

/** Codes dropped from the package's list, per country (see the header comment). */
const EXCLUDE: Record<string, readonly string[]> = {
  US: ['AA', 'AE', 'AP', 'FM', 'MH', 'PW', 'AS', 'GU', 'MP', 'PR', 'VI', 'UM'],
  ES: ['AN', 'AR', 'CN'],
  FR: ['CP', 'TF', 'NC', 'PF', 'PM', 'BL', 'MF', 'WF'],
  NO: ['21', '22'],
};

/** Spelling fixes for names in the package, per country and code. */
const RENAME: Record<string, Record<string, string>> = {
  CH: { AI: 'Appenzell Innerrhoden' },
};

/** Countries whose list replaces the package's (ISO 3166-2 codes without the country prefix). */
const OVERRIDE: Record<string, readonly Region[]> = {
  BE: [
    { code: 'VAN', name: 'Antwerpen' },
    { code: 'WBR', name: 'Brabant wallon' },
    { code: 'BRU', name: 'Brussel / Bruxelles' },
    { code: 'WHT', name: 'Hainaut' },
    { code: 'WLG', name: 'Liège' },
    { code: 'VLI', name: 'Limburg' },
    { code: 'WLX', name: 'Luxembourg' },
    { code: 'WNA', name: 'Namur' },
    { code: 'VOV', name: 'Oost-Vlaanderen' },
    { code: 'VBR', name: 'Vlaams-Brabant' },
    { code: 'VWV', name: 'West-Vlaanderen' },
  ],
};

type PackageCountry = readonly [string, string, readonly (readonly [string, string])[]];
const PACKAGE = crd as unknown as Record<string, PackageCountry | undefined>;

const collator = new Intl.Collator('en', { sensitivity: 'base' });
const cache = new Map<string, readonly Region[]>();

function normaliseCountry(country: string): string {
  return String(country ?? '').trim().toUpperCase();
}

function buildRegions(cc: string): readonly Region[] {
  const override = OVERRIDE[cc];
  if (override) return override;
  const entry = /^[A-Z]{2}$/.test(cc) && Object.hasOwn(PACKAGE, cc) ? PACKAGE[cc] : undefined;
  if (!entry || !Array.isArray(entry[2])) return [];
  const exclude = new Set(EXCLUDE[cc] ?? []);
  const rename = RENAME[cc] ?? {};
  const seen = new Set<string>();
  const out: Region[] = [];
  for (const [name, code] of entry[2]) {
    if (!code || exclude.has(code) || seen.has(code)) continue;
    seen.add(code);
    out.push({ code, name: rename[code] ?? name });
  }
  out.sort((a, b) => collator.compare(a.name, b.name));
  return out;
}

function regionList(country: string): readonly Region[] {
  const cc = normaliseCountry(country);
  let list = cache.get(cc);
  if (!list) {
    list = Object.freeze(buildRegions(cc).map((r) => Object.freeze({ ...r })));
    cache.set(cc, list);
  }
  return list;
}

/** Regions of a country (ISO 3166-1 alpha-2, any case), sorted by name; [] when unknown. */
export function regionsFor(country: string): { code: string; name: string }[] {
  return regionList(country).map((r) => ({ code: r.code, name: r.name }));
}

/** Catalogue key naming what the country calls its regions (province, state, canton...). */
export function regionLabelKey(country: string): string {
  return LABEL_KEY_BY_COUNTRY[normaliseCountry(country)] ?? 'region_label_region';
}

/** True when `code` is one of the country's region codes. */
export function isRegionCode(country: string, code: string): boolean {
  return regionList(country).some((r) => r.code === code);
}

/** The region with this code, or null. */
export function regionByCode(country: string, code: string): Region | null {
  const r = regionList(country).find((x) => x.code === code);
  return r ? { code: r.code, name: r.name } : null;
}

/** Lower-case, accents and punctuation removed: 'Provence-Alpes-Côte d’Azur' → 'provencealpescotedazur'. */
export function normaliseRegionName(name: string): string {
  return String(name ?? '')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ł/g, 'l')
    .replace(/[^a-z0-9]+/g, '');
}

/**
 * Other names (English exonyms, older or local spellings) for regions, mapped to codes.
 * Keys are normalised with normaliseRegionName.
 */
const ALIASES: Record<string, Record<string, string>> = {
  NL: { fryslan: 'FR', northholland: 'NH', southholland: 'ZH', northbrabant: 'NB' },
  BE: { antwerp: 'VAN', walloonbrabant: 'WBR', flemishbrabant: 'VBR', eastflanders: 'VOV', westflanders: 'VWV', brussels: 'BRU', brusselscapitalregion: 'BRU', bruxelles: 'BRU', brussel: 'BRU', luik: 'WLG', henegouwen: 'WHT', namen: 'WNA', luxemburg: 'WLX' },
  DE: {
    bavaria: 'BY', hesse: 'HE', lowersaxony: 'NI', mecklenburgwesternpomerania: 'MV', northrhinewestphalia: 'NW',
    rhinelandpalatinate: 'RP', saxony: 'SN', saxonyanhalt: 'ST', thuringia: 'TH',
  },
  AT: { carinthia: '2', loweraustria: '3', upperaustria: '4', styria: '6', tyrol: '7', vienna: '9' },
  IT: {
    lombardy: '25', piedmont: '21', tuscany: '52', apulia: '75', sardinia: '88', sicily: '82', aostavalley: '23',
    valledaosta: '23', friuliveneziagiulia: '36', trentinoaltoadigesudtirol: '32', trentinosouthtyrol: '32',
  },
  FR: { corsica: 'COR', brittany: 'BRE', normandy: 'NOR', frenchguiana: 'GF', reunion: 'RE' },
  ES: { alava: 'VI', vizcaya: 'BI', guipuzcoa: 'SS', lacoruna: 'C', acoruna: 'C', navarre: 'NA', navarra: 'NA', balearicislands: 'PM', castellon: 'CS', valencia: 'V', gerona: 'GI', lerida: 'L', orense: 'OR' },
  IE: { fingal: 'D', southdublin: 'D', dunlaoghairerathdown: 'D', dublincity: 'D' },
  FI: { aland: 'FI-01', ahvenanmaa: 'FI-01' },
  CH: { zurich: 'ZH', geneva: 'GE', lucerne: 'LU', stgallen: 'SG', grisons: 'GR', neuchatel: 'NE', basel: 'BS', appenzellinnerrhoden: 'AI' },
  NZ: { chathamislands: 'CIT', manawatuwhanganui: 'MWT' },
  DK: { capitalregionofdenmark: 'DK-84', centraldenmarkregion: 'DK-82', northdenmarkregion: 'DK-81', regionzealand: 'DK-85', regionofsoutherndenmark: 'DK-83' },
  GB: { belfast: 'BFS', durham: 'DUR', edinburgh: 'EDH', bristol: 'BST', valeofglamorgan: 'VGL', glasgow: 'GLG', aberdeen: 'ABE', dundee: 'DND', kingstonuponhullcityof: 'KHL', greaterlondon: 'LND', cityoflondon: 'LND', londoncityof: 'LND', outerhebrides: 'ELS', naheileanansiar: 'ELS' },
  NO: {},
  SE: {},
};

/**
 * Best-effort match of a region name (any spelling, accents and case ignored, common
 * English names accepted) to one of the country's regions; also accepts a region code.
 */
export function findRegion(country: string, nameOrCode: string | null | undefined): Region | null {
  if (!nameOrCode) return null;
  const cc = normaliseCountry(country);
  const list = regionList(cc);
  if (list.length === 0) return null;
  const raw = String(nameOrCode).trim();
  const byCode = list.find((r) => r.code === raw || r.code === raw.toUpperCase());
  if (byCode) return { code: byCode.code, name: byCode.name };
  const n = normaliseRegionName(raw);
  if (!n) return null;
  for (const r of list) {
    if (normaliseRegionName(r.name) === n) return { code: r.code, name: r.name };
  }
  // names like 'Brussel / Bruxelles', 'Castellón/Castelló', 'Araba/Álava': match any part
  for (const r of list) {
    if (!r.name.includes('/')) continue;
    if (r.name.split('/').some((part) => normaliseRegionName(part) === n)) return { code: r.code, name: r.name };
  }
  const aliases = ALIASES[cc];
  const aliasCode = aliases && Object.hasOwn(aliases, n) ? aliases[n] : undefined;
  if (aliasCode) return regionByCode(cc, aliasCode);
  return null;
}

/** Payload of GET /api/regions.php for the given countries (unknown codes skipped). */
export function regionsPayload(countries: string[]): { countries: RegionCountry[] } {
  const out: RegionCountry[] = [];
  const seen = new Set<string>();
  for (const c of countries) {
    const cc = normaliseCountry(c);
    if (seen.has(cc)) continue;
    seen.add(cc);
    const regions = regionsFor(cc);
    if (regions.length === 0 && !Object.hasOwn(LABEL_KEY_BY_COUNTRY, cc)) continue;
    out.push({ code: cc, label_key: regionLabelKey(cc), regions });
  }
  return { countries: out };
}
