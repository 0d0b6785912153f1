/**
 * Keys of the descriptive profile fields whose values SPEC §3 leaves open. The interface shows
 * the catalogue label `option_<field>_<key>`; the database stores the key.
 */
export const PROFILE_FIELD_KEYS = {
  hair_color: ['blond', 'brown', 'black', 'red', 'grey'],
  eye_color: ['blue', 'green', 'brown', 'grey', 'hazel'],
  body_type: ['slim', 'average', 'athletic', 'curvy', 'full'],
  relationship_status: ['single', 'divorced', 'widowed', 'relationship', 'married'],
  tattoos: ['none', 'one', 'several'],
  reason: ['dating', 'relationship', 'friendship', 'adventure', 'chat'],
} as const;

export type OptionField = keyof typeof PROFILE_FIELD_KEYS;
export const OPTION_FIELDS = Object.keys(PROFILE_FIELD_KEYS) as OptionField[];

