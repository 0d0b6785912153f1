/**
 * Illustrated portraits: the demo members' photos (src/server/db/seed-photos.ts) and the teaser
 * faces of the home page and landers. Drawn from a number, so the same number is the same face,
 * and no picture of a real person ships with the product. The face (shape, skin, brows, nose,
 * mouth, hair style, beard, glasses, earrings) follows the number; what a profile states (gender,
 * age, hair colour, eye colour) is drawn as stated; the setting and the clothes follow the variant,
 * so one person has several photos that differ as photos do.
 */
import { PROFILE_FIELD_KEYS } from './profile-fields.ts';

export type HairColor = (typeof PROFILE_FIELD_KEYS.hair_color)[number];
export type EyeColor = (typeof PROFILE_FIELD_KEYS.eye_color)[number];

const SKIN = ['#f8dcc4', '#f1c7a5', '#e3ae86', '#c98e64', '#a86f47', '#845334', '#5e3b25'];
/** Shades of each hair colour a profile can state (src/lib/profile-fields.ts). */
export const HAIR_SHADES: Readonly<Record<HairColor, readonly string[]>> = {
  blond: ['#e6c983', '#d9b36b', '#f0da9e', '#c9a45c'],
  brown: ['#5a3a22', '#6e4527', '#8a5a2e', '#4a2f1c'],
  black: ['#1f1510', '#15110f', '#2a2320'],
  red: ['#a0442a', '#b5532e', '#8e3a22'],
  grey: ['#9a9a9a', '#bdbdbd', '#d8d8d8'],
};
/** The iris of each eye colour a profile can state. */
export const EYE_SHADES: Readonly<Record<EyeColor, string>> = {
  blue: '#3f78b5',
  green: '#3f7a4a',
  brown: '#5b3a22',
  grey: '#7d8893',
  hazel: '#8d6a2c',
};
/** Hair styles: men's are short (bald only from 35), women's mostly long. */
export const MALE_STYLES = ['crop', 'side-part', 'buzz', 'short-curls', 'receding'] as const;
export const FEMALE_STYLES = ['long-straight', 'long-wavy', 'bob', 'bun', 'pixie', 'curls'] as const;
/** How often each women's style is drawn (the pixie rarely). */
const FEMALE_STYLE_WEIGHTS = [3, 3, 2, 1, 0.3, 1.5];
export type HairStyle = (typeof MALE_STYLES)[number] | (typeof FEMALE_STYLES)[number];

/** A deterministic pseudo-random sequence from a number (mulberry32). */
function sequence(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PortraitOptions {
  /** Years: lines from 45; grey hair from about 50 where no hair colour is stated. */
  age?: number;
  /** The profile's hair colour; drawn from the number (and age) when not stated. */
  hair?: HairColor | null;
  /** The profile's eye colour; drawn from the number when not stated. */
  eyes?: EyeColor | null;
  /** Another photo of the same person: another setting and other clothes. */
  variant?: number;
}

/** What a portrait shows of the person, decided before drawing (and what tests compare with a profile). */
export interface PortraitFeatures {
  age: number;
  female: boolean;
  hair: HairColor;
  hairFill: string;
  eyeFill: string;
  style: HairStyle;
  beard: number;
  /** Lines around the eyes and mouth (from 45). */
  lines: boolean;
}

/**
 * The person in a portrait: gender, age and, where the profile states them, hair and eye colour
 * exactly as stated. Everything else follows the number.
 */
export function portraitFeatures(id: number, gender: 'male' | 'female', options: PortraitOptions = {}): PortraitFeatures {
  const rand = sequence(id * 7919 + 31);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const female = gender === 'female';
  const age = options.age ?? 25 + Math.floor(rand() * 30);
  // Unstated: grey for many past 50, otherwise one of the colours as often as each other.
  const drawnHair: HairColor = age >= 50 && rand() < (age - 40) / 35 ? 'grey' : pick(PROFILE_FIELD_KEYS.hair_color.filter((h) => h !== 'grey'));
  const hair = options.hair ?? drawnHair;
  const eyes = options.eyes ?? pick(PROFILE_FIELD_KEYS.eye_color);
  let style: HairStyle;
  if (female) {
    let r = rand() * FEMALE_STYLE_WEIGHTS.reduce((a, b) => a + b, 0);
    const index = FEMALE_STYLE_WEIGHTS.findIndex((w) => (r -= w) < 0);
    style = FEMALE_STYLES[index < 0 ? 0 : index]!;
  } else {
    style = pick(MALE_STYLES);
    if (style === 'receding' && age < 35) style = 'crop';
  }
  return {
    age,
    female,
    hair,
    hairFill: pick(HAIR_SHADES[hair]),
    eyeFill: EYE_SHADES[eyes],
    style,
    beard: !female && rand() < 0.5 ? Math.floor(rand() * 3) : -1,
    lines: age >= 45,
  };
}

/** The setting behind the person: a sunset beach, a city at dusk, a room with a window, a park, a studio. */
function setting(rand: () => number): string {
  const kind = Math.floor(rand() * 5);
  const hue = Math.floor(rand() * 360);
  switch (kind) {
    case 0: // beach at sunset
      return `<rect width="480" height="600" fill="url(#sky)"/><defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${20 + (hue % 30)} 85% 70%)"/><stop offset="0.55" stop-color="hsl(${330 + (hue % 20)} 70% 78%)"/><stop offset="0.56" stop-color="hsl(200 55% 55%)"/><stop offset="1" stop-color="hsl(200 50% 40%)"/></linearGradient></defs><circle cx="${120 + Math.floor(rand() * 240)}" cy="320" r="46" fill="#ffe9a8" opacity="0.9"/>`;
    case 1: {
      // city at dusk
      let towers = '';
      for (let x = 0; x < 480; x += 40 + Math.floor(rand() * 30)) {
        const h = 120 + Math.floor(rand() * 200);
        towers += `<rect x="${x}" y="${600 - h - 120}" width="${34 + Math.floor(rand() * 20)}" height="${h + 120}" fill="hsl(${230 + (hue % 40)} 30% ${18 + Math.floor(rand() * 14)}%)"/>`;
        for (let w = 0; w < 4; w++) towers += `<rect x="${x + 6 + w * 7}" y="${600 - h - 100 + Math.floor(rand() * h)}" width="4" height="6" fill="#ffd98a" opacity="0.8"/>`;
      }
      return `<rect width="480" height="600" fill="hsl(${250 + (hue % 40)} 45% 35%)"/><rect width="480" height="300" fill="hsl(${300 + (hue % 40)} 50% 55%)" opacity="0.5"/>${towers}`;
    }
    case 2: // a room with a window
      return `<rect width="480" height="600" fill="hsl(${hue} 25% 82%)"/><rect x="${rand() < 0.5 ? 30 : 300}" y="60" width="150" height="200" rx="6" fill="hsl(200 70% 85%)" stroke="#fff" stroke-width="10"/><rect x="0" y="470" width="480" height="130" fill="hsl(${hue} 20% 70%)"/>`;
    case 3: {
      // a park
      let trees = '';
      for (let i = 0; i < 5; i++) trees += `<circle cx="${Math.floor(rand() * 480)}" cy="${120 + Math.floor(rand() * 160)}" r="${50 + Math.floor(rand() * 50)}" fill="hsl(${100 + Math.floor(rand() * 40)} 40% ${35 + Math.floor(rand() * 20)}%)"/>`;
      return `<rect width="480" height="600" fill="hsl(195 60% 80%)"/>${trees}<rect y="400" width="480" height="200" fill="hsl(110 35% 45%)"/>`;
    }
    default: // studio
      return `<rect width="480" height="600" fill="url(#studio)"/><defs><radialGradient id="studio" cx="0.5" cy="0.35" r="0.8"><stop offset="0" stop-color="hsl(${hue} 45% 80%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360} 40% 45%)"/></radialGradient></defs>`;
  }
}

/** An illustrated head-and-shoulders portrait, 480×600 SVG. */
export function portrait(id: number, gender: 'male' | 'female', options: PortraitOptions = {}): string {
  const features = portraitFeatures(id, gender, options);
  const { female, age, beard, style } = features;
  const hair = features.hairFill;
  const eye = features.eyeFill;
  const grey = features.hair === 'grey';
  const rand = sequence(id * 7919);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const skin = pick(SKIN);
  const faceRx = 66 + Math.floor(rand() * 16);
  const faceRy = 84 + Math.floor(rand() * 16);
  // A man's jaw is wider and squarer.
  const jaw = female ? 0 : 8 + Math.floor(rand() * 10);
  const glasses = rand() < 0.22;
  const earrings = female && rand() < 0.5;
  const smile = rand();
  const browTilt = Math.floor(rand() * 6) - 2;
  const lip = female ? pick(['#b5485a', '#a33a48', '#c46a6a', '#8e4a4a']) : '#7a3b3b';

  // Setting and clothes: the variant's own draw.
  const scene = sequence(id * 7919 + 104_729 * ((options.variant ?? 0) + 1));
  const backdrop = setting(scene);
  const shirt = `hsl(${Math.floor(scene() * 360)} ${35 + Math.floor(scene() * 40)}% ${28 + Math.floor(scene() * 30)}%)`;
  const neckline = female ? (scene() < 0.5 ? 'M200 430 Q240 480 280 430' : 'M205 428 L240 470 L275 428') : scene() < 0.5 ? 'M210 428 L240 455 L270 428' : 'M200 430 Q240 450 280 430';

  const cx = 241;
  const cy = 250;
  const top = cy - faceRy;
  // Behind the head: a woman's long hair, a bun or curls; a man's short curls only.
  const hairBack = {
    'long-straight': `<path d="M${cx - faceRx - 20} 250 C${cx - faceRx - 30} 130 ${cx - 40} 95 ${cx} 95 C${cx + 45} 95 ${cx + faceRx + 30} 130 ${cx + faceRx + 18} 250 L${cx + faceRx + 34} 440 C${cx + 60} 480 ${cx - 60} 480 ${cx - faceRx - 34} 440 Z" fill="${hair}"/>`,
    'long-wavy': `<path d="M${cx - faceRx - 22} 240 C${cx - faceRx - 40} 120 ${cx + faceRx + 40} 120 ${cx + faceRx + 22} 240 C${cx + faceRx + 50} 300 ${cx + faceRx + 10} 360 ${cx + faceRx + 30} 420 C${cx + 40} 470 ${cx - 40} 470 ${cx - faceRx - 30} 420 C${cx - faceRx - 10} 360 ${cx - faceRx - 50} 300 ${cx - faceRx - 22} 240 Z" fill="${hair}"/>`,
    bob: `<path d="M${cx - faceRx - 14} 250 C${cx - faceRx - 20} 130 ${cx + faceRx + 20} 130 ${cx + faceRx + 14} 250 L${cx + faceRx + 14} 330 L${cx - faceRx - 14} 330 Z" fill="${hair}"/>`,
    bun: `<circle cx="${cx}" cy="${top - 18}" r="40" fill="${hair}"/>`,
    curls: `<circle cx="${cx}" cy="${cy - 30}" r="${faceRx + 55}" fill="${hair}"/>`,
    'short-curls': `<ellipse cx="${cx}" cy="${cy - 38}" rx="${faceRx + 12}" ry="${faceRy - 8}" fill="${hair}"/>`,
  }[style as string] ?? '';
  // On top of the head.
  const crown = (side: number, line: number, lift: number) =>
    `<path d="M${cx - faceRx - 4} ${side} C${cx - faceRx} ${top + 10 - lift} ${cx - 30} ${top - 12 - lift} ${cx} ${top - 12 - lift} C${cx + 35} ${top - 12 - lift} ${cx + faceRx + 6} ${top + 14 - lift} ${cx + faceRx + 2} ${side - 3} C${cx + faceRx - 20} ${top + line} ${cx + 10} ${top + line - 6} ${cx - 10} ${top + line} C${cx - 40} ${top + line + 6} ${cx - faceRx + 10} ${top + line + 20} ${cx - faceRx - 4} ${side} Z" fill="${hair}"/>`;
  const hairTop = {
    receding: `<path d="M${cx - faceRx + 2} 235 C${cx - faceRx} 215 ${cx - faceRx + 6} 205 ${cx - faceRx + 14} 200 L${cx - faceRx + 14} 250 Z M${cx + faceRx - 2} 235 C${cx + faceRx} 215 ${cx + faceRx - 6} 205 ${cx + faceRx - 14} 200 L${cx + faceRx - 14} 250 Z" fill="${hair}"/>`,
    pixie: `<path d="M${cx - faceRx - 4} 230 C${cx - faceRx} 140 ${cx + faceRx} 130 ${cx + faceRx + 6} 215 C${cx + 20} 170 ${cx - 30} 175 ${cx - faceRx - 4} 230 Z" fill="${hair}"/>`,
    crop: crown(205, 34, 0),
    'side-part': `${crown(212, 40, 4)}<path d="M${cx - 28} ${top - 8} L${cx - 22} ${top + 30}" stroke="#000" stroke-opacity="0.25" stroke-width="3"/>`,
    buzz: crown(200, 26, -6),
    'short-curls': crown(205, 30, 6),
  }[style as string] ?? crown(235, 40, 0);
  const beardPath = [
    `<path d="M${cx - faceRx + 8} 270 C${cx - faceRx + 12} 330 ${cx - 30} ${cy + faceRy + 14} ${cx} ${cy + faceRy + 14} C${cx + 30} ${cy + faceRy + 14} ${cx + faceRx - 12} 330 ${cx + faceRx - 8} 270 C${cx + 30} 300 ${cx - 30} 300 ${cx - faceRx + 8} 270 Z" fill="${hair}"/>`,
    `<path d="M${cx - faceRx + 10} 280 C${cx - 40} ${cy + faceRy + 6} ${cx + 40} ${cy + faceRy + 6} ${cx + faceRx - 10} 280" stroke="${hair}" stroke-width="14" fill="none" opacity="0.45" stroke-linecap="round"/>`,
    `<path d="M${cx - 24} 296 Q${cx} 286 ${cx + 24} 296" stroke="${hair}" stroke-width="9" fill="none" stroke-linecap="round"/>`,
  ][beard] ?? '';
  const eyeY = 250 + Math.floor(rand() * 10);
  const eyeGap = 26 + Math.floor(rand() * 6);
  const mouthY = 306 + Math.floor(rand() * 8);
  const mouth =
    smile < 0.45
      ? `<path d="M${cx - 20} ${mouthY} Q${cx} ${mouthY + 16} ${cx + 20} ${mouthY}" stroke="${lip}" stroke-width="5" fill="none" stroke-linecap="round"/>`
      : smile < 0.8
        ? `<path d="M${cx - 22} ${mouthY} Q${cx} ${mouthY + 20} ${cx + 22} ${mouthY} Q${cx} ${mouthY + 6} ${cx - 22} ${mouthY} Z" fill="${lip}"/><path d="M${cx - 16} ${mouthY + 3} Q${cx} ${mouthY + 9} ${cx + 16} ${mouthY + 3}" stroke="#fff" stroke-width="3" fill="none"/>`
        : `<path d="M${cx - 16} ${mouthY + 4} Q${cx} ${mouthY + 10} ${cx + 16} ${mouthY + 4}" stroke="${lip}" stroke-width="6" fill="none" stroke-linecap="round"/>`;
  const lines = age >= 45 ? `<path d="M${cx - eyeGap - 22} ${eyeY + 4} l-8 4 M${cx + eyeGap + 22} ${eyeY + 4} l8 4 M${cx - 30} ${mouthY - 14} q-6 10 -2 20 M${cx + 30} ${mouthY - 14} q6 10 2 20" stroke="#000" stroke-width="2" opacity="0.18" fill="none"/>` : '';
  const lashes = female ? `<path d="M${cx - eyeGap - 10} ${eyeY - 5} l-5 -4 M${cx + eyeGap + 10} ${eyeY - 5} l5 -4" stroke="#222" stroke-width="2.5"/>` : '';
  const specs = glasses
    ? `<g fill="none" stroke="${pick(['#222', '#6b3e1e', '#8a1c3a', '#c9a44a'])}" stroke-width="4"><rect x="${cx - eyeGap - 22}" y="${eyeY - 16}" width="42" height="32" rx="12"/><rect x="${cx + eyeGap - 20}" y="${eyeY - 16}" width="42" height="32" rx="12"/><path d="M${cx - eyeGap + 20} ${eyeY - 4} Q${cx} ${eyeY - 12} ${cx + eyeGap - 20} ${eyeY - 4}"/></g>`
    : '';
  const rings = earrings ? `<circle cx="${cx - faceRx + 2}" cy="292" r="6" fill="none" stroke="#e5c25a" stroke-width="3"/><circle cx="${cx + faceRx - 2}" cy="292" r="6" fill="none" stroke="#e5c25a" stroke-width="3"/>` : '';

  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 600" width="480" height="600">
${backdrop}
<g transform="translate(240 640) scale(1.28) translate(-240 -610)">
${hairBack}
<path d="M${female ? 110 : 86} 600 C${female ? 115 : 92} 478 ${female ? 170 : 158} 424 240 424 C${female ? 310 : 322} 424 ${female ? 365 : 388} 478 ${female ? 370 : 394} 600 Z" fill="${shirt}"/>
<path d="${neckline}" fill="${skin}"/>
<rect x="${cx - 27}" y="330" width="54" height="100" rx="26" fill="${skin}"/>
<ellipse cx="${cx - faceRx + 2}" cy="262" rx="12" ry="18" fill="${skin}"/><ellipse cx="${cx + faceRx - 2}" cy="262" rx="12" ry="18" fill="${skin}"/>
<path d="M${cx - faceRx} ${cy} C${cx - faceRx} ${cy - faceRy} ${cx + faceRx} ${cy - faceRy} ${cx + faceRx} ${cy} C${cx + faceRx} ${cy + faceRy * 0.62} ${cx + 24 + jaw} ${cy + faceRy} ${cx} ${cy + faceRy} C${cx - 24 - jaw} ${cy + faceRy} ${cx - faceRx} ${cy + faceRy * 0.62} ${cx - faceRx} ${cy} Z" fill="${skin}"/>
${beardPath}
${hairTop}
<ellipse cx="${cx - eyeGap}" cy="${eyeY}" rx="11" ry="7" fill="#fff"/><ellipse cx="${cx + eyeGap}" cy="${eyeY}" rx="11" ry="7" fill="#fff"/>
<circle cx="${cx - eyeGap}" cy="${eyeY}" r="5.5" fill="${eye}"/><circle cx="${cx + eyeGap}" cy="${eyeY}" r="5.5" fill="${eye}"/>
${lashes}
<path d="M${cx - eyeGap - 14} ${eyeY - 16 + browTilt} Q${cx - eyeGap} ${eyeY - 24} ${cx - eyeGap + 14} ${eyeY - 17}" stroke="${grey ? '#777' : hair}" stroke-width="${female ? 3.5 : 6}" fill="none" stroke-linecap="round"/>
<path d="M${cx + eyeGap - 14} ${eyeY - 17} Q${cx + eyeGap} ${eyeY - 24} ${cx + eyeGap + 14} ${eyeY - 16 + browTilt}" stroke="${grey ? '#777' : hair}" stroke-width="${female ? 3.5 : 6}" fill="none" stroke-linecap="round"/>
<path d="M${cx - 2} ${eyeY + 8} Q${cx - 10} ${eyeY + 34} ${cx} ${eyeY + 38} Q${cx + 8} ${eyeY + 39} ${cx + 10} ${eyeY + 34}" stroke="#000" stroke-width="2.5" opacity="0.25" fill="none"/>
${female ? `<ellipse cx="${cx - 44}" cy="${eyeY + 36}" rx="14" ry="8" fill="#e86a7a" opacity="0.18"/><ellipse cx="${cx + 44}" cy="${eyeY + 36}" rx="14" ry="8" fill="#e86a7a" opacity="0.18"/>` : ''}
${mouth}
${lines}
${specs}
${rings}
</g>
</svg>`;
}

/** An SVG as a compact data: URI for an <img> (the CSP allows data: images). */
export function svgDataUri(svg: string): string {
  const compact = svg.replace(/\n/g, '').replace(/"/g, "'");
  return `data:image/svg+xml,${compact.replace(/[%#<>?\[\]{}|^`]/g, (c) => encodeURIComponent(c))}`;
}
