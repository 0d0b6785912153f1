// Profile interests (SPEC §2 'Profile interest icons'), in SPEC order. Labels live in the
// locale catalogues under the key `interest_<key>`; keys are stable and stored on profiles.
// Icons are Tabler icon ids (src/lib/icons.ts).

export const INTERESTS = [
  { key: 'adventure', icon: 'tabler:compass' },
  { key: 'anal_sex', icon: 'tabler:cherry' },
  { key: 'animals', icon: 'tabler:paw' },
  { key: 'art', icon: 'tabler:palette' },
  { key: 'astrology', icon: 'tabler:crystal-ball' },
  { key: 'barbecue', icon: 'tabler:grill' },
  { key: 'beach', icon: 'tabler:beach' },
  { key: 'beer', icon: 'tabler:beer' },
  { key: 'biking', icon: 'tabler:bike' },
  { key: 'bondage', icon: 'tabler:link' },
  { key: 'coffee', icon: 'tabler:coffee' },
  { key: 'cooking', icon: 'tabler:chef-hat' },
  { key: 'dancing', icon: 'tabler:music-heart' },
  { key: 'exchanging_pictures', icon: 'tabler:photo-share' },
  { key: 'fashion', icon: 'tabler:hanger' },
  { key: 'foodie', icon: 'tabler:tools-kitchen-2' },
  { key: 'gardening', icon: 'tabler:plant-2' },
  { key: 'gym', icon: 'tabler:barbell' },
  { key: 'hiking', icon: 'tabler:mountain' },
  { key: 'hugging', icon: 'tabler:heart-handshake' },
  { key: 'kissing', icon: 'tabler:mood-heart' },
  { key: 'lingerie', icon: 'tabler:butterfly' },
  { key: 'massages', icon: 'tabler:massage' },
  { key: 'masturbating', icon: 'tabler:pepper' },
  { key: 'movies', icon: 'tabler:movie' },
  { key: 'music', icon: 'tabler:music' },
  { key: 'one_night_stand', icon: 'tabler:moon-stars' },
  { key: 'oral_sex', icon: 'tabler:mood-tongue-wink' },
  { key: 'outdoors', icon: 'tabler:tent' },
  { key: 'party', icon: 'tabler:confetti' },
  { key: 'photography', icon: 'tabler:camera' },
  { key: 'politics', icon: 'tabler:building-bank' },
  { key: 'public_sex', icon: 'tabler:eye' },
  { key: 'reading', icon: 'tabler:books' },
  { key: 'relationship', icon: 'tabler:hearts' },
  { key: 'sadomasochism', icon: 'tabler:bolt' },
  { key: 'safe_sex', icon: 'tabler:shield-check' },
  { key: 'sex', icon: 'tabler:flame' },
  { key: 'sex_toys', icon: 'tabler:wand' },
  { key: 'shopping', icon: 'tabler:shopping-bag' },
  { key: 'sports', icon: 'tabler:ball-football' },
  { key: 'sushi', icon: 'tabler:fish' },
  { key: 'tattoos', icon: 'tabler:needle' },
  { key: 'tea', icon: 'tabler:cup' },
  { key: 'theatre', icon: 'tabler:masks-theater' },
  { key: 'threesome', icon: 'tabler:users-group' },
  { key: 'travelling', icon: 'tabler:plane' },
  { key: 'vegetarian', icon: 'tabler:salad' },
  { key: 'video_games', icon: 'tabler:device-gamepad-2' },
  { key: 'wine', icon: 'tabler:glass-full' },
] as const satisfies readonly { key: string; icon: string }[];

export type InterestKey = (typeof INTERESTS)[number]['key'];

export const INTEREST_KEYS: readonly InterestKey[] = INTERESTS.map((i) => i.key);

const KEY_SET: ReadonlySet<string> = new Set(INTEREST_KEYS);

export function isInterestKey(x: unknown): x is InterestKey {
  return typeof x === 'string' && KEY_SET.has(x);
}

/** Catalogue key of an interest's label, e.g. 'interest_anal_sex'. */
export function interestLabelKey(key: InterestKey): string {
  return `interest_${key}`;
}
