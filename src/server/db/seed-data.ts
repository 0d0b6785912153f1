/**
 * Word lists the demo seed draws from: first names and about-me texts per language, real
 * cities per country with the region they lie in (region names as regionsFor() in
 * src/server/data/regions.ts gives them, which is what the region dropdowns show), and the keys
 * of the descriptive profile fields.
 * Demo data only: nothing here is a rule of the product.
 */

import type { InterestKey } from '../data/interests.ts';

export interface NameList {
  female: readonly string[];
  male: readonly string[];
}

export const FIRST_NAMES: Readonly<Record<string, NameList>> = {
  nl: {
    female: [
      'Sanne', 'Lotte', 'Anouk', 'Femke', 'Lieke', 'Marloes', 'Esther', 'Ingrid', 'Monique', 'Petra',
      'Yvonne', 'Linda', 'Mirjam', 'Saskia', 'Nicole', 'Wendy', 'Anja', 'Marieke', 'Eline', 'Iris',
      'Kim', 'Fleur', 'Romy', 'Naomi', 'Jolanda', 'Karin', 'Bianca', 'Ilse', 'Tessa', 'Manon',
      'Annemieke', 'Hanneke', 'Sylvia', 'Daphne', 'Roos',
    ],
    male: [
      'Jeroen', 'Bas', 'Thijs', 'Sander', 'Maarten', 'Ruud', 'Erik', 'Martijn', 'Dennis', 'Rob',
      'Bart', 'Joost', 'Wouter', 'Niels', 'Stefan', 'Pieter', 'Marco', 'Remco', 'Arjan', 'Koen',
      'Jasper', 'Tim', 'Frank', 'Hans', 'Michiel',
    ],
  },
  en: {
    female: [
      'Emma', 'Sophie', 'Charlotte', 'Hannah', 'Lucy', 'Olivia', 'Grace', 'Amy', 'Rachel', 'Claire',
      'Sarah', 'Laura', 'Helen', 'Karen', 'Julie', 'Nicola', 'Joanne', 'Michelle', 'Lisa', 'Kelly',
      'Emily', 'Jessica', 'Chloe', 'Megan', 'Siobhan', 'Aoife', 'Niamh', 'Fiona', 'Tracy', 'Amanda',
      'Deborah', 'Alison', 'Gemma', 'Natalie', 'Zoe',
    ],
    male: [
      'James', 'Oliver', 'Thomas', 'Daniel', 'Matthew', 'Andrew', 'David', 'Mark', 'Paul', 'Richard',
      'Steven', 'Chris', 'Michael', 'Robert', 'Simon', 'Gareth', 'Liam', 'Conor', 'Sean', 'Ryan',
      'Ben', 'Tom', 'Adam', 'Luke', 'Neil',
    ],
  },
  de: {
    female: [
      'Anna', 'Lena', 'Julia', 'Sabine', 'Petra', 'Claudia', 'Andrea', 'Stefanie', 'Nicole', 'Katrin',
      'Susanne', 'Birgit', 'Monika', 'Heike', 'Melanie', 'Sandra', 'Tanja', 'Anja', 'Kerstin', 'Silke',
      'Miriam', 'Lea', 'Laura', 'Johanna', 'Sophie', 'Franziska', 'Carina', 'Daniela', 'Ute', 'Gabi',
      'Martina', 'Christina', 'Jana', 'Verena', 'Bettina',
    ],
    male: [
      'Lukas', 'Jonas', 'Felix', 'Tobias', 'Florian', 'Sebastian', 'Markus', 'Thomas', 'Stefan', 'Michael',
      'Andreas', 'Jürgen', 'Uwe', 'Frank', 'Ralf', 'Christian', 'Matthias', 'Jan', 'Tim', 'Dominik',
      'Philipp', 'Moritz', 'Kai', 'Sven', 'Oliver',
    ],
  },
  fr: {
    female: [
      'Camille', 'Léa', 'Manon', 'Chloé', 'Julie', 'Sophie', 'Isabelle', 'Nathalie', 'Sandrine', 'Valérie',
      'Céline', 'Aurélie', 'Émilie', 'Stéphanie', 'Caroline', 'Virginie', 'Élodie', 'Sylvie', 'Christine', 'Laurence',
      'Pauline', 'Marion', 'Clémence', 'Inès', 'Margaux', 'Anaïs', 'Mélanie', 'Audrey', 'Delphine', 'Corinne',
      'Hélène', 'Brigitte', 'Agnès', 'Justine', 'Charlotte',
    ],
    male: [
      'Thomas', 'Nicolas', 'Julien', 'Maxime', 'Antoine', 'Alexandre', 'Pierre', 'Laurent', 'Olivier', 'Sébastien',
      'Christophe', 'Philippe', 'Frédéric', 'Mathieu', 'Guillaume', 'Romain', 'Hugo', 'Lucas', 'Vincent', 'Éric',
      'Jérôme', 'Benoît', 'Arnaud', 'Yannick', 'Damien',
    ],
  },
};

/** About-me texts written so they fit a member of either gender and any sexuality. */
export const ABOUT_TEXTS: Readonly<Record<string, readonly string[]>> = {
  nl: [
    'Spontaan, eerlijk en altijd in voor een goed gesprek. Op zoek naar iemand die net zo nieuwsgierig is als ik.',
    'Ik werk hard, maar in het weekend ben ik te vinden op een terras of op de fiets. Stuur gerust een berichtje!',
    'Gek op reizen en lekker eten. Mijn laatste trip was naar Portugal en ik wil snel weer weg.',
    'Een beetje verlegen in het begin, maar als je me leert kennen hou je niet meer op met lachen.',
    'Sportief, positief en nuchter. Ik hou van duidelijkheid en van iemand die weet wat hij of zij wil.',
    'Liefhebber van muziek, concerten en lange avonden met een goed glas wijn.',
    'Na een drukke tijd heb ik weer zin in iets nieuws. Zullen we gewoon beginnen met een kop koffie?',
    'Ik hou van de zee, van wandelen met de hond en van zondagen zonder wekker.',
    'Avontuurlijk en soms een beetje ondeugend. Saai is niet aan mij besteed.',
    'Nieuw hier en benieuwd wie ik tegenkom. Eerlijkheid vind ik het allerbelangrijkst.',
  ],
  en: [
    'Easy-going, honest and always up for a good chat. Looking for someone as curious as I am.',
    'I work hard, but at the weekend you will find me in a beer garden or out on my bike. Say hi!',
    'Love travelling and good food. My last trip was to Portugal and I cannot wait to go again.',
    'A bit shy at first, but once you get to know me you will not stop laughing.',
    'Sporty, positive and down to earth. I like people who know what they want.',
    'Music lover, gig goer and fan of long evenings with a good glass of wine.',
    'After a busy year I am ready for something new. Shall we start with a coffee?',
    'I love the sea, long walks with the dog and Sundays without an alarm clock.',
    'Adventurous and a little bit cheeky. Boring is not my thing.',
    'New here and curious who I will meet. Honesty matters most to me.',
  ],
  de: [
    'Unkompliziert, ehrlich und immer für ein gutes Gespräch zu haben. Ich suche jemanden, der genauso neugierig ist.',
    'Unter der Woche arbeite ich viel, am Wochenende findet man mich im Biergarten oder auf dem Rad. Schreib mir!',
    'Ich reise gern und esse noch lieber gut. Zuletzt war ich in Portugal und will bald wieder los.',
    'Am Anfang etwas schüchtern, aber wenn du mich kennst, wirst du viel lachen.',
    'Sportlich, positiv und bodenständig. Ich mag Menschen, die wissen, was sie wollen.',
    'Musikfan, Konzertgänger und Liebhaber langer Abende mit einem guten Glas Wein.',
    'Nach einer stressigen Zeit habe ich Lust auf etwas Neues. Fangen wir mit einem Kaffee an?',
    'Ich liebe das Meer, lange Spaziergänge mit dem Hund und Sonntage ohne Wecker.',
    'Abenteuerlustig und manchmal ein bisschen frech. Langeweile ist nichts für mich.',
    'Neu hier und gespannt, wen ich treffe. Ehrlichkeit ist mir am wichtigsten.',
  ],
  fr: [
    'Spontanéité, sincérité et bonne humeur : voilà ce qui me décrit. Je cherche quelqu’un avec qui partager de bons moments.',
    'Je travaille beaucoup, mais le week-end on me trouve en terrasse ou à vélo. Écris-moi !',
    'J’adore voyager et bien manger. Mon dernier voyage était au Portugal et j’ai hâte de repartir.',
    'Un peu de timidité au début, mais une fois qu’on se connaît, on rit beaucoup.',
    'Du sport, de la bonne humeur et les pieds sur terre. J’aime les gens qui savent ce qu’ils veulent.',
    'Fan de musique, de concerts et de longues soirées autour d’un bon verre de vin.',
    'Après une année chargée, j’ai envie de nouveauté. On commence par un café ?',
    'J’aime la mer, les longues balades avec le chien et les dimanches sans réveil.',
    'L’aventure me tente toujours, et un brin de malice aussi. L’ennui, très peu pour moi.',
    'Je viens d’arriver ici et j’ai hâte de voir qui je vais rencontrer. La sincérité avant tout.',
  ],
};

export interface City {
  city: string;
  region: string;
  /** Language of the city when it differs from the country's first one (Wallonia, Romandy, Quebec). */
  language?: string;
}

/** Real cities of the countries the demo tenants serve; regions named as regionsFor() names them. */
export const CITIES: Readonly<Record<string, readonly City[]>> = {
  NL: [
    { city: 'Amsterdam', region: 'Noord-Holland' },
    { city: 'Haarlem', region: 'Noord-Holland' },
    { city: 'Alkmaar', region: 'Noord-Holland' },
    { city: 'Zaandam', region: 'Noord-Holland' },
    { city: 'Rotterdam', region: 'Zuid-Holland' },
    { city: 'Den Haag', region: 'Zuid-Holland' },
    { city: 'Leiden', region: 'Zuid-Holland' },
    { city: 'Delft', region: 'Zuid-Holland' },
    { city: 'Dordrecht', region: 'Zuid-Holland' },
    { city: 'Utrecht', region: 'Utrecht' },
    { city: 'Amersfoort', region: 'Utrecht' },
    { city: 'Eindhoven', region: 'Noord-Brabant' },
    { city: 'Tilburg', region: 'Noord-Brabant' },
    { city: 'Breda', region: 'Noord-Brabant' },
    { city: "'s-Hertogenbosch", region: 'Noord-Brabant' },
    { city: 'Groningen', region: 'Groningen' },
    { city: 'Leeuwarden', region: 'Friesland' },
    { city: 'Zwolle', region: 'Overijssel' },
    { city: 'Enschede', region: 'Overijssel' },
    { city: 'Arnhem', region: 'Gelderland' },
    { city: 'Nijmegen', region: 'Gelderland' },
    { city: 'Apeldoorn', region: 'Gelderland' },
    { city: 'Maastricht', region: 'Limburg' },
    { city: 'Venlo', region: 'Limburg' },
    { city: 'Assen', region: 'Drenthe' },
    { city: 'Emmen', region: 'Drenthe' },
    { city: 'Almere', region: 'Flevoland' },
    { city: 'Lelystad', region: 'Flevoland' },
    { city: 'Middelburg', region: 'Zeeland' },
    { city: 'Vlissingen', region: 'Zeeland' },
  ],
  BE: [
    { city: 'Brussel', region: 'Brussel / Bruxelles' },
    { city: 'Antwerpen', region: 'Antwerpen' },
    { city: 'Mechelen', region: 'Antwerpen' },
    { city: 'Gent', region: 'Oost-Vlaanderen' },
    { city: 'Aalst', region: 'Oost-Vlaanderen' },
    { city: 'Brugge', region: 'West-Vlaanderen' },
    { city: 'Kortrijk', region: 'West-Vlaanderen' },
    { city: 'Oostende', region: 'West-Vlaanderen' },
    { city: 'Leuven', region: 'Vlaams-Brabant' },
    { city: 'Hasselt', region: 'Limburg' },
    { city: 'Genk', region: 'Limburg' },
    { city: 'Liège', region: 'Liège', language: 'fr' },
    { city: 'Namur', region: 'Namur', language: 'fr' },
    { city: 'Charleroi', region: 'Hainaut', language: 'fr' },
    { city: 'Mons', region: 'Hainaut', language: 'fr' },
    { city: 'Tournai', region: 'Hainaut', language: 'fr' },
    { city: 'Wavre', region: 'Brabant wallon', language: 'fr' },
    { city: 'Arlon', region: 'Luxembourg', language: 'fr' },
  ],
  DE: [
    { city: 'Berlin', region: 'Berlin' },
    { city: 'Hamburg', region: 'Hamburg' },
    { city: 'München', region: 'Bayern' },
    { city: 'Nürnberg', region: 'Bayern' },
    { city: 'Augsburg', region: 'Bayern' },
    { city: 'Köln', region: 'Nordrhein-Westfalen' },
    { city: 'Düsseldorf', region: 'Nordrhein-Westfalen' },
    { city: 'Dortmund', region: 'Nordrhein-Westfalen' },
    { city: 'Essen', region: 'Nordrhein-Westfalen' },
    { city: 'Bonn', region: 'Nordrhein-Westfalen' },
    { city: 'Frankfurt am Main', region: 'Hessen' },
    { city: 'Wiesbaden', region: 'Hessen' },
    { city: 'Stuttgart', region: 'Baden-Württemberg' },
    { city: 'Karlsruhe', region: 'Baden-Württemberg' },
    { city: 'Freiburg im Breisgau', region: 'Baden-Württemberg' },
    { city: 'Heidelberg', region: 'Baden-Württemberg' },
    { city: 'Leipzig', region: 'Sachsen' },
    { city: 'Dresden', region: 'Sachsen' },
    { city: 'Hannover', region: 'Niedersachsen' },
    { city: 'Bremen', region: 'Bremen' },
    { city: 'Kiel', region: 'Schleswig-Holstein' },
    { city: 'Rostock', region: 'Mecklenburg-Vorpommern' },
    { city: 'Mainz', region: 'Rheinland-Pfalz' },
    { city: 'Erfurt', region: 'Thüringen' },
    { city: 'Potsdam', region: 'Brandenburg' },
    { city: 'Magdeburg', region: 'Sachsen-Anhalt' },
    { city: 'Saarbrücken', region: 'Saarland' },
  ],
  GB: [
    { city: 'London', region: 'London' },
    { city: 'Manchester', region: 'Manchester' },
    { city: 'Liverpool', region: 'Liverpool' },
    { city: 'Leeds', region: 'Leeds' },
    { city: 'Birmingham', region: 'Birmingham' },
    { city: 'Sheffield', region: 'Sheffield' },
    { city: 'Bristol', region: 'Bristol, City of' },
    { city: 'Edinburgh', region: 'Edinburgh, City of' },
    { city: 'Glasgow', region: 'Glasgow City' },
    { city: 'Cardiff', region: 'Cardiff' },
    { city: 'Belfast', region: 'Belfast City' },
    { city: 'Newcastle upon Tyne', region: 'Newcastle upon Tyne' },
    { city: 'Nottingham', region: 'Nottingham' },
    { city: 'Leicester', region: 'Leicester' },
    { city: 'Brighton', region: 'Brighton and Hove' },
    { city: 'Southampton', region: 'Southampton' },
    { city: 'York', region: 'York' },
    { city: 'Oxford', region: 'Oxfordshire' },
    { city: 'Cambridge', region: 'Cambridgeshire' },
    { city: 'Canterbury', region: 'Kent' },
    { city: 'Exeter', region: 'Devon' },
    { city: 'Norwich', region: 'Norfolk' },
    { city: 'Guildford', region: 'Surrey' },
    { city: 'Chelmsford', region: 'Essex' },
  ],
  FR: [
    { city: 'Paris', region: 'Île-de-France' },
    { city: 'Versailles', region: 'Île-de-France' },
    { city: 'Lyon', region: 'Auvergne-Rhône-Alpes' },
    { city: 'Grenoble', region: 'Auvergne-Rhône-Alpes' },
    { city: 'Marseille', region: "Provence-Alpes-Côte d'Azur" },
    { city: 'Nice', region: "Provence-Alpes-Côte d'Azur" },
    { city: 'Toulouse', region: 'Occitanie' },
    { city: 'Montpellier', region: 'Occitanie' },
    { city: 'Bordeaux', region: 'Nouvelle-Aquitaine' },
    { city: 'Nantes', region: 'Pays de la Loire' },
    { city: 'Strasbourg', region: 'Grand Est' },
    { city: 'Lille', region: 'Hauts-de-France' },
    { city: 'Rennes', region: 'Bretagne' },
    { city: 'Rouen', region: 'Normandie' },
    { city: 'Dijon', region: 'Bourgogne-Franche-Comté' },
    { city: 'Tours', region: 'Centre-Val de Loire' },
    { city: 'Ajaccio', region: 'Corse' },
  ],
  IE: [
    { city: 'Dublin', region: 'Dublin' },
    { city: 'Cork', region: 'Cork' },
    { city: 'Galway', region: 'Galway' },
    { city: 'Limerick', region: 'Limerick' },
    { city: 'Waterford', region: 'Waterford' },
    { city: 'Kilkenny', region: 'Kilkenny' },
    { city: 'Drogheda', region: 'Louth' },
    { city: 'Dundalk', region: 'Louth' },
    { city: 'Sligo', region: 'Sligo' },
    { city: 'Athlone', region: 'Westmeath' },
    { city: 'Wexford', region: 'Wexford' },
    { city: 'Tralee', region: 'Kerry' },
    { city: 'Naas', region: 'Kildare' },
    { city: 'Bray', region: 'Wicklow' },
  ],
  AT: [
    { city: 'Wien', region: 'Wien' },
    { city: 'Graz', region: 'Steiermark' },
    { city: 'Linz', region: 'Oberösterreich' },
    { city: 'Wels', region: 'Oberösterreich' },
    { city: 'Salzburg', region: 'Salzburg' },
    { city: 'Innsbruck', region: 'Tirol' },
    { city: 'Klagenfurt', region: 'Kärnten' },
    { city: 'Villach', region: 'Kärnten' },
    { city: 'St. Pölten', region: 'Niederösterreich' },
    { city: 'Bregenz', region: 'Vorarlberg' },
    { city: 'Eisenstadt', region: 'Burgenland' },
  ],
  CH: [
    { city: 'Zürich', region: 'Zürich' },
    { city: 'Winterthur', region: 'Zürich' },
    { city: 'Genève', region: 'Genève', language: 'fr' },
    { city: 'Basel', region: 'Basel-Stadt' },
    { city: 'Bern', region: 'Bern' },
    { city: 'Lausanne', region: 'Vaud', language: 'fr' },
    { city: 'Luzern', region: 'Luzern' },
    { city: 'St. Gallen', region: 'Sankt Gallen' },
    { city: 'Lugano', region: 'Ticino', language: 'it' },
    { city: 'Fribourg', region: 'Fribourg', language: 'fr' },
    { city: 'Neuchâtel', region: 'Neuchâtel', language: 'fr' },
    { city: 'Sion', region: 'Valais', language: 'fr' },
    { city: 'Zug', region: 'Zug' },
    { city: 'Chur', region: 'Graubünden' },
  ],
  CA: [
    { city: 'Toronto', region: 'Ontario' },
    { city: 'Ottawa', region: 'Ontario' },
    { city: 'Hamilton', region: 'Ontario' },
    { city: 'Montréal', region: 'Quebec', language: 'fr' },
    { city: 'Québec', region: 'Quebec', language: 'fr' },
    { city: 'Vancouver', region: 'British Columbia' },
    { city: 'Victoria', region: 'British Columbia' },
    { city: 'Calgary', region: 'Alberta' },
    { city: 'Edmonton', region: 'Alberta' },
    { city: 'Winnipeg', region: 'Manitoba' },
    { city: 'Halifax', region: 'Nova Scotia' },
    { city: 'Regina', region: 'Saskatchewan' },
    { city: 'Saskatoon', region: 'Saskatchewan' },
    { city: "St. John's", region: 'Newfoundland and Labrador' },
    { city: 'Moncton', region: 'New Brunswick' },
    { city: 'Charlottetown', region: 'Prince Edward Island' },
  ],
};

/** Interest keys (SPEC §2 profile interest icons), the tame ones that suit a demo profile. */
export const DEMO_INTERESTS = [
  'adventure', 'animals', 'art', 'barbecue', 'beach', 'beer', 'biking', 'coffee', 'cooking', 'dancing',
  'fashion', 'foodie', 'gardening', 'gym', 'hiking', 'hugging', 'kissing', 'massages', 'movies', 'music',
  'outdoors', 'party', 'photography', 'reading', 'relationship', 'shopping', 'sports', 'sushi', 'tattoos', 'tea',
  'theatre', 'travelling', 'vegetarian', 'video_games', 'wine',
] as const satisfies readonly InterestKey[];

/**
 * Keys of the descriptive profile fields (SPEC §3 leaves their values open). The interface
 * translates a key; the seed only picks among them.
 */
export const PROFILE_FIELD_KEYS = {
  hair_color: ['blond', 'brown', 'black', 'red', 'grey'],
  eye_color: ['blue', 'green', 'brown', 'grey', 'hazel'],
  body_type: ['slim', 'average', 'athletic', 'curvy', 'full'],
  relationship_status: ['single', 'divorced', 'widowed', 'relationship', 'married'],
  tattoos: ['none', 'one', 'several'],
  reason: ['dating', 'relationship', 'friendship', 'adventure', 'chat'],
} as const;
