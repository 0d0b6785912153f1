import type { Gif } from '../../contract/chat.ts';

/**
 * The GIF search of the chat (SPEC §2 "GIF search"). A provider answers a search and finds one
 * GIF by id; a message stores only the id, so a GIF is always shown as the provider serves it.
 * The default provider works offline: a small library of animated stickers drawn here (SVG with
 * SMIL animation, served from /gifs/<id>.svg), found by words in the brand's languages. An
 * online provider (Giphy, Tenor) is another implementation of the same interface.
 */
export interface GifProvider {
  search(query: string, limit: number): Promise<Gif[]>;
  get(id: string): Promise<Gif | null>;
}

/** GIFs one search answers. */
export const GIF_RESULTS = 24;

const face = (extra: string, eyes = '<circle cx="75" cy="85" r="9" fill="#3b2a14"/><circle cx="125" cy="85" r="9" fill="#3b2a14"/>') =>
  `<circle cx="100" cy="100" r="72" fill="#fcd34d" stroke="#f59e0b" stroke-width="4"/>${eyes}${extra}`;
const heartPath = 'M100 160 C40 120 20 90 40 60 C58 34 90 40 100 64 C110 40 142 34 160 60 C180 90 160 120 100 160Z';
const pulse = (values = '1;1.15;1', dur = '0.9s') =>
  `<animateTransform attributeName="transform" type="scale" values="${values}" dur="${dur}" repeatCount="indefinite" additive="sum"/>`;
const around = (content: string) => `<g transform="translate(100 100)"><g transform="translate(-100 -100)">${content}</g></g>`;

/** The library: id, drawing, and the words it is found by (several languages, lower case). */
const STICKERS: { id: string; title: string; words: string; svg: string }[] = [
  {
    id: 'heart',
    title: 'Heart',
    words: 'heart love hart liefde herz liebe coeur amour corazón amor cuore hjerte kärlek sydän rakkaus serce',
    svg: `<g transform="translate(100 100)"><g>${pulse()}<path transform="translate(-100 -105)" d="${heartPath}" fill="#e11d48"/></g></g>`,
  },
  {
    id: 'kiss',
    title: 'Kiss',
    words: 'kiss kus kusje zoen kuss bisou baiser beso bacio kys kyss suukko pocałunek love',
    svg: `<path d="M40 100 C60 70 85 75 100 88 C115 75 140 70 160 100 C140 135 60 135 40 100Z" fill="#dc2626"/><path d="M42 100 C80 108 120 108 158 100" stroke="#7f1d1d" stroke-width="4" fill="none"/>
      ${[0, 1, 2].map((i) => `<path d="M0 10 C-8 4 -10 -4 -4 -7 C-1 -8 0 -5 0 -4 C0 -5 1 -8 4 -7 C10 -4 8 4 0 10Z" fill="#f43f5e" opacity="0"><animateMotion path="M${70 + i * 30} 70 L${60 + i * 35} 10" dur="1.8s" begin="${i * 0.6}s" repeatCount="indefinite"/><animate attributeName="opacity" values="0;1;0" dur="1.8s" begin="${i * 0.6}s" repeatCount="indefinite"/></path>`).join('')}`,
  },
  {
    id: 'wink',
    title: 'Wink',
    words: 'wink knipoog zwinkern clin d’oeil guiño occhiolino blink blinkar silmänisku flirt smile',
    svg: face(
      '<path d="M60 120 Q100 160 140 120" stroke="#3b2a14" stroke-width="8" fill="none" stroke-linecap="round"/>',
      `<circle cx="75" cy="85" r="9" fill="#3b2a14"/><g transform="translate(125 85)"><ellipse rx="10" ry="9" fill="#3b2a14"><animate attributeName="ry" values="9;9;1;9" keyTimes="0;0.7;0.8;1" dur="1.6s" repeatCount="indefinite"/></ellipse></g>`,
    ),
  },
  {
    id: 'laugh',
    title: 'Laughing',
    words: 'laugh lol haha lachen lach rire reír ridere le skratta nauraa śmiech funny grappig',
    svg: `<g>${face('<path d="M55 110 Q100 175 145 110Z" fill="#7c2d12"/><path d="M70 130 Q100 150 130 130" fill="#f87171"/>', '<path d="M62 85 L82 78 L62 72" stroke="#3b2a14" stroke-width="7" fill="none" stroke-linecap="round"/><path d="M138 85 L118 78 L138 72" stroke="#3b2a14" stroke-width="7" fill="none" stroke-linecap="round"/>')}<animateTransform attributeName="transform" type="translate" values="0 0;0 -12;0 0;0 -6;0 0" dur="0.8s" repeatCount="indefinite"/></g>`,
  },
  {
    id: 'hi',
    title: 'Hi!',
    words: 'hi hello hey hoi hallo salut bonjour hola ciao hej moi cześć welcome greeting',
    svg: `<g>${around('<path d="M30 40 H170 Q180 40 180 50 V130 Q180 140 170 140 H80 L50 170 L55 140 H30 Q20 140 20 130 V50 Q20 40 30 40Z" fill="#8b5cf6"/><text x="100" y="110" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="56" fill="#fff">Hi!</text>')}<animateTransform attributeName="transform" type="rotate" values="-6 100 100;6 100 100;-6 100 100" dur="1.2s" repeatCount="indefinite"/></g>`,
  },
  {
    id: 'fire',
    title: 'Hot',
    words: 'hot fire flame heet vuur vlam heiß feuer chaud feu caliente fuego caldo fuoco varm eld kuuma tuli gorąco sexy',
    svg: `<g transform="translate(100 175)"><g>${pulse('1 1;1.08 0.92;0.95 1.1;1 1', '0.6s')}<path transform="translate(-100 -175)" d="M100 180 C55 180 40 140 55 110 C65 90 70 70 65 40 C95 60 105 85 100 105 C112 95 118 80 115 65 C145 95 160 130 145 155 C137 170 120 180 100 180Z" fill="#f97316"/><path transform="translate(-100 -175)" d="M100 178 C80 178 72 160 80 145 C86 133 92 125 92 110 C108 122 112 135 110 145 C118 140 122 132 122 125 C132 140 132 160 122 170 C116 176 108 178 100 178Z" fill="#fde047"/></g></g>`,
  },
  {
    id: 'party',
    title: 'Party',
    words: 'party feest feestje fiesta fête festa juhla impreza celebrate confetti yay hooray',
    svg: `<path d="M40 175 L80 60 L150 130Z" fill="#a855f7"/><path d="M55 132 L118 160 M65 103 L135 138" stroke="#fde047" stroke-width="8"/>${['#ef4444', '#22c55e', '#3b82f6', '#eab308', '#ec4899', '#06b6d4']
      .map((c, i) => `<rect width="10" height="16" fill="${c}" rx="2"><animateMotion path="M${95 + i * 12} 70 Q${120 + i * 10} ${10 - i * 4} ${140 + i * 9} 200" dur="1.6s" begin="${i * 0.25}s" repeatCount="indefinite" rotate="auto"/></rect>`)
      .join('')}`,
  },
  {
    id: 'coffee',
    title: 'Coffee',
    words: 'coffee koffie kaffee café caffè kaffe kahvi kawa date drink morning goedemorgen',
    svg: `<path d="M50 100 H140 V150 Q140 175 115 175 H75 Q50 175 50 150Z" fill="#92400e"/><path d="M140 110 Q170 110 168 132 Q166 150 140 148" stroke="#92400e" stroke-width="10" fill="none"/>${[70, 95, 120]
      .map((x, i) => `<path d="M${x} 90 Q${x - 10} 70 ${x} 55 Q${x + 10} 40 ${x} 25" stroke="#a8a29e" stroke-width="6" fill="none" stroke-linecap="round" opacity="0"><animate attributeName="opacity" values="0;0.9;0" dur="2s" begin="${i * 0.5}s" repeatCount="indefinite"/><animateTransform attributeName="transform" type="translate" values="0 10;0 -10" dur="2s" begin="${i * 0.5}s" repeatCount="indefinite"/></path>`)
      .join('')}`,
  },
  {
    id: 'wow',
    title: 'Wow',
    words: 'wow omg surprised verrast überrascht surpris sorpresa sorpreso overrasket förvånad yllättynyt',
    svg: face(
      `<ellipse cx="100" cy="135" rx="16" ry="20" fill="#7c2d12"><animate attributeName="ry" values="14;22;14" dur="1s" repeatCount="indefinite"/></ellipse>`,
      `<circle cx="75" cy="82" r="14" fill="#fff"/><circle cx="125" cy="82" r="14" fill="#fff"/><circle cx="75" cy="82" r="7" fill="#3b2a14"><animate attributeName="r" values="5;9;5" dur="1s" repeatCount="indefinite"/></circle><circle cx="125" cy="82" r="7" fill="#3b2a14"><animate attributeName="r" values="5;9;5" dur="1s" repeatCount="indefinite"/></circle>`,
    ),
  },
  {
    id: 'sad',
    title: 'Sad',
    words: 'sad verdrietig jammer traurig triste triste triste trist ledsen surullinen smutny miss you mis je',
    svg: face(
      `<path d="M65 140 Q100 110 135 140" stroke="#3b2a14" stroke-width="8" fill="none" stroke-linecap="round"/><path d="M0 0 C-6 10 -6 16 0 18 C6 16 6 10 0 0Z" fill="#38bdf8"><animateMotion path="M72 95 L72 160" dur="1.4s" repeatCount="indefinite"/><animate attributeName="opacity" values="1;1;0" dur="1.4s" repeatCount="indefinite"/></path>`,
    ),
  },
  {
    id: 'cool',
    title: 'Cool',
    words: 'cool chill relax lekker cool genial guay figo kul siisti fajnie sunglasses zonnebril',
    svg: face(
      `<path d="M65 125 Q100 150 135 125" stroke="#3b2a14" stroke-width="8" fill="none" stroke-linecap="round"/><g><path d="M40 78 H160 M52 78 Q52 104 78 104 Q92 104 94 78 M106 78 Q108 104 122 104 Q148 104 148 78" stroke="#111" stroke-width="6" fill="#111"/><animateTransform attributeName="transform" type="translate" values="0 -70;0 0;0 0;0 -70" keyTimes="0;0.3;0.8;1" dur="2.4s" repeatCount="indefinite"/></g>`,
      '<circle cx="75" cy="85" r="9" fill="#3b2a14"/><circle cx="125" cy="85" r="9" fill="#3b2a14"/>',
    ),
  },
  {
    id: 'rose',
    title: 'Rose',
    words: 'rose roos bloem flower blume fleur rosa flor fiore blomst blomma kukka róża kwiat romantic romantisch',
    svg: `<path d="M100 110 V185" stroke="#16a34a" stroke-width="8"/><path d="M100 150 Q70 140 65 120 Q90 122 100 150Z" fill="#22c55e"/><g transform="translate(100 80)"><g>${pulse('1;1.08;1', '1.4s')}${[0, 72, 144, 216, 288]
      .map((a) => `<ellipse rx="22" ry="32" transform="rotate(${a}) translate(0 -18)" fill="#e11d48" opacity="0.9"/>`)
      .join('')}<circle r="16" fill="#9f1239"/></g></g>`,
  },
  {
    id: 'stars',
    title: 'Sparkle',
    words: 'stars sparkle sterren ster sterne étoiles estrellas stelle stjerner stjärnor tähdet gwiazdy beautiful mooi wonderful',
    svg: (
      [
        [100, 95, 40, 0],
        [45, 50, 18, 0.4],
        [155, 150, 22, 0.8],
        [150, 45, 14, 1.2],
      ] as const
    )
      .map(([x, y, r, d]) => `<g transform="translate(${x} ${y})"><g><path d="M0 ${-r} Q${r / 6} ${-r / 6} ${r} 0 Q${r / 6} ${r / 6} 0 ${r} Q${-r / 6} ${r / 6} ${-r} 0 Q${-r / 6} ${-r / 6} 0 ${-r}Z" fill="#facc15"/><animateTransform attributeName="transform" type="scale" values="0.4;1;0.4" dur="1.6s" begin="${d}s" repeatCount="indefinite"/></g></g>`)
      .join(''),
  },
  {
    id: 'night',
    title: 'Good night',
    words: 'night good night sleep welterusten slaap lekker nacht gute nacht bonne nuit buenas noches buonanotte god natt hyvää yötä dobranoc bed',
    svg: `<rect width="200" height="200" rx="24" fill="#1e1b4b"/><path d="M120 40 A60 60 0 1 0 160 140 A48 48 0 1 1 120 40Z" fill="#fde68a"/>${[0, 1, 2]
      .map((i) => `<text font-family="sans-serif" font-weight="700" font-size="${18 + i * 8}" fill="#c7d2fe" opacity="0"><animateMotion path="M${40 + i * 10} ${150 - i * 10} L${55 + i * 16} ${110 - i * 30}" dur="2.4s" begin="${i * 0.8}s" repeatCount="indefinite"/><animate attributeName="opacity" values="0;1;0" dur="2.4s" begin="${i * 0.8}s" repeatCount="indefinite"/>z</text>`)
      .join('')}`,
  },
];

const SIZE = 200;

/** The SVG file of a sticker, or undefined. */
export function stickerSvg(id: string): string | undefined {
  const sticker = STICKERS.find((s) => s.id === id);
  return sticker && `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">${sticker.svg}</svg>`;
}

const gifOf = (s: (typeof STICKERS)[number]): Gif => ({ id: s.id, url: `/gifs/${s.id}.svg`, width: SIZE, height: SIZE, title: s.title });

/** The offline library: every sticker for an empty query, else those with a word starting with it. */
export function localGifs(): GifProvider {
  return {
    async search(query, limit) {
      const q = query.trim().toLowerCase();
      const found = q ? STICKERS.filter((s) => s.words.split(' ').some((w) => w.startsWith(q)) || s.words.includes(q)) : STICKERS;
      return found.slice(0, limit).map(gifOf);
    },
    async get(id) {
      const sticker = STICKERS.find((s) => s.id === id);
      return sticker ? gifOf(sticker) : null;
    },
  };
}
