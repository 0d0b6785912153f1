// Profile interests (SPEC §2 'Profile interest icons'), in SPEC order. Labels live in the
// locale catalogues under the key `interest_<key>`; keys are stable and stored on profiles.

export const INTERESTS = [
  { key: 'adventure', icon: '🧭' },
  { key: 'anal_sex', icon: '🍑' },
  { key: 'animals', icon: '🐾' },
  { key: 'art', icon: '🎨' },
  { key: 'astrology', icon: '🔮' },
  { key: 'barbecue', icon: '🍖' },
  { key: 'beach', icon: '🏖️' },
  { key: 'beer', icon: '🍺' },
  { key: 'biking', icon: '🚴' },
  { key: 'bondage', icon: '⛓️' },
  { key: 'coffee', icon: '☕' },
  { key: 'cooking', icon: '🍳' },
  { key: 'dancing', icon: '💃' },
  { key: 'exchanging_pictures', icon: '📲' },
  { key: 'fashion', icon: '👗' },
  { key: 'foodie', icon: '😋' },
  { key: 'gardening', icon: '🌱' },
  { key: 'gym', icon: '🏋️' },
  { key: 'hiking', icon: '🥾' },
  { key: 'hugging', icon: '🤗' },
  { key: 'kissing', icon: '💋' },
  { key: 'lingerie', icon: '👙' },
  { key: 'massages', icon: '💆' },
  { key: 'masturbating', icon: '🍆' },
  { key: 'movies', icon: '🎬' },
  { key: 'music', icon: '🎵' },
  { key: 'one_night_stand', icon: '🌙' },
  { key: 'oral_sex', icon: '👅' },
  { key: 'outdoors', icon: '🏕️' },
  { key: 'party', icon: '🎉' },
  { key: 'photography', icon: '📷' },
  { key: 'politics', icon: '🗳️' },
  { key: 'public_sex', icon: '👀' },
  { key: 'reading', icon: '📚' },
  { key: 'relationship', icon: '💑' },
  { key: 'sadomasochism', icon: '😈' },
  { key: 'safe_sex', icon: '🛡️' },
  { key: 'sex', icon: '🔥' },
  { key: 'sex_toys', icon: '🪄' },
  { key: 'shopping', icon: '🛍️' },
  { key: 'sports', icon: '⚽' },
  { key: 'sushi', icon: '🍣' },
  { key: 'tattoos', icon: '🖋️' },
  { key: 'tea', icon: '🍵' },
  { key: 'theatre', icon: '🎭' },
  { key: 'threesome', icon: '👥' },
  { key: 'travelling', icon: '✈️' },
  { key: 'vegetarian', icon: '🥗' },
  { key: 'video_games', icon: '🎮' },
  { key: 'wine', icon: '🍷' },
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
