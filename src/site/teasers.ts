import type { Niche } from '../lib/slugs.ts';

/** A made-up member shown on the home page and landers: a drawn face, an initial and an age. */
export interface Teaser {
  initial: string;
  age: number;
  /** Backdrop hue while the face loads. */
  hue: number;
  /** Which drawn portrait (src/lib/portrait.ts). */
  face: number;
  gender: 'male' | 'female';
}

const PEOPLE = [
  { initial: 'S', age: 29, hue: 330, face: 11 },
  { initial: 'M', age: 34, hue: 280, face: 23 },
  { initial: 'L', age: 41, hue: 12, face: 37 },
  { initial: 'E', age: 26, hue: 200, face: 42 },
  { initial: 'J', age: 38, hue: 300, face: 58 },
  { initial: 'A', age: 45, hue: 20, face: 64 },
];

/** Older faces for the niches named after age: gilf (5) and milf (6). */
const AGE_OFFSET: Partial<Record<Niche, number>> = { 5: 28, 6: 12 };

/**
 * The teasers for a brand's niche: men on a gay site (niche 7), women on the niches named after
 * women (2 to 6), both on a general site (niche 1).
 */
export function teasers(niche: Niche): Teaser[] {
  return PEOPLE.map((person, i) => ({
    ...person,
    age: person.age + (AGE_OFFSET[niche] ?? 0),
    gender: niche === 7 ? 'male' : niche === 1 && i % 2 === 1 ? 'male' : 'female',
  }));
}

/** The backdrop of a teaser's tile, a gradient in its hue. */
export function teaserTile(hue: number): string {
  return `background: linear-gradient(160deg, hsl(${hue} 70% 70%), hsl(${hue + 40} 60% 40%))`;
}
