/**
 * Illustrated portraits: the demo members' photos (src/server/db/seed-photos.ts) and the teaser
 * faces of the home page and landers. Drawn from a number, so the same number is the same face,
 * and no picture of a real person ships with the product.
 */

const SKIN = ['#f6d3b8', '#eec19d', '#d9a27a', '#b97d55', '#8d5a3b', '#60402b'];
const HAIR = ['#2b1d14', '#4a2f1d', '#7a4b28', '#b07a3c', '#d9b26a', '#8a8a8a', '#6b2a1a'];
const BACKDROP: [number, number][] = [[330, 280], [200, 250], [20, 340], [160, 200], [260, 300], [40, 10]];

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

/** An illustrated head-and-shoulders portrait, 480×600 SVG. */
export function portrait(id: number, gender: 'male' | 'female'): string {
  const rand = sequence(id * 7919);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const skin = pick(SKIN);
  const hair = pick(HAIR);
  const [h1, h2] = pick(BACKDROP);
  const shirt = `hsl(${Math.floor(rand() * 360)} 45% ${35 + Math.floor(rand() * 20)}%)`;
  const longHair = gender === 'female';
  const hairBack = longHair
    ? `<path d="M150 250 C140 140 200 95 240 95 C285 95 345 140 332 250 L350 430 C300 470 180 470 130 430 Z" fill="${hair}"/>`
    : '';
  const hairTop = longHair
    ? `<path d="M168 215 C170 140 215 118 242 118 C280 118 318 145 314 215 C300 170 270 158 240 160 C205 162 180 180 168 215 Z" fill="${hair}"/>`
    : `<path d="M172 205 C170 145 212 120 242 120 C276 120 314 145 310 205 C298 172 276 160 242 160 C208 160 186 172 172 205 Z" fill="${hair}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 600" width="480" height="600">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${h1} 55% 78%)"/><stop offset="1" stop-color="hsl(${h2} 45% 52%)"/></linearGradient>
<radialGradient id="glow" cx="0.5" cy="0.3" r="0.7"><stop offset="0" stop-color="#fff" stop-opacity="0.45"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
</defs>
<rect width="480" height="600" fill="url(#bg)"/><rect width="480" height="600" fill="url(#glow)"/>
${hairBack}
<path d="M90 600 C95 470 160 420 240 420 C320 420 385 470 390 600 Z" fill="${shirt}"/>
<rect x="212" y="330" width="56" height="100" rx="26" fill="${skin}"/>
<ellipse cx="241" cy="250" rx="74" ry="92" fill="${skin}"/>
${hairTop}
<ellipse cx="214" cy="258" rx="7" ry="5" fill="#3a2a22" opacity="0.8"/><ellipse cx="268" cy="258" rx="7" ry="5" fill="#3a2a22" opacity="0.8"/>
<path d="M222 300 Q241 314 260 300" stroke="#7a3b3b" stroke-width="5" fill="none" stroke-linecap="round"/>
</svg>`;
}

/** An SVG as a compact data: URI for an <img> (the CSP allows data: images). */
export function svgDataUri(svg: string): string {
  const compact = svg.replace(/\n/g, '').replace(/"/g, "'");
  return `data:image/svg+xml,${compact.replace(/[%#<>?\[\]{}|^`]/g, (c) => encodeURIComponent(c))}`;
}
