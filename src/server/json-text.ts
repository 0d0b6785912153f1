/**
 * An answer's JSON text made from parts kept between requests (the search's shared cards, each
 * serialized once): the API sends the text instead of serializing the answer again
 * (bench/README.md "Fewer statements and the answer's JSON"). The text must be exactly what
 * `JSON.stringify(value)` gives; the answer check of tests (http/api.ts checkAnswer) compares the
 * two for every answer that carries one.
 */
const texts = new WeakMap<object, string>();

/** Records `text` as the JSON of `value` (made by the caller from kept parts) and returns `value`. */
export function withJsonText<T extends object>(value: T, text: string): T {
  texts.set(value, text);
  return value;
}

/** The JSON text recorded for `value`, if any. */
export function jsonTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? texts.get(value) : undefined;
}
