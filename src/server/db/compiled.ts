import type { CompiledQuery, Compilable, Kysely } from 'kysely';

/**
 * A query built and compiled once and run many times with new values: the hot paths (the
 * session of every request, the search's statements) skip Kysely's per-call building and
 * compiling, about 90 µs of the 380 µs a logged-in GET /api/user.php took (bench/README.md). The
 * query is written with placeholder values (`slots`, each unique, each in one or more places);
 * running it puts the given values in their places.
 */
export function compileOnce<Row, Values extends readonly unknown[]>(
  db: Kysely<any>,
  query: Compilable<Row>,
  slots: { readonly [K in keyof Values]: unknown },
): (...values: Values) => Promise<Row[]> {
  const compiled: CompiledQuery<Row> = query.compile();
  const positions = slots.map((slot) => {
    const at = compiled.parameters.flatMap((p, i) => (p === slot ? [i] : []));
    if (at.length === 0) throw new Error(`compileOnce: the placeholder ${String(slot)} does not occur in ${compiled.sql}`);
    return at;
  });
  return async (...values) => {
    const parameters = [...compiled.parameters];
    positions.forEach((places, i) => places.forEach((at) => (parameters[at] = values[i])));
    const { rows } = await db.executeQuery<Row>({ ...compiled, parameters });
    return rows;
  };
}

/**
 * A statement whose shape differs only by how many ids its `in (…)` list holds (a page of cards,
 * their photos): compiled once per count up to `keptUpTo` (compileOnce), built with the values
 * each time past it. `build` writes the statement for the ids and values it is given; `slots` are
 * the placeholders of the values other than the ids (the viewer's profile id), in the order the
 * runner takes them after the ids.
 */
export function compiledPerCount<Row, Values extends readonly unknown[] = []>(
  db: Kysely<any>,
  build: (ids: readonly number[], ...values: Values) => Compilable<Row>,
  opts: { keptUpTo: number; slots?: { readonly [K in keyof Values]: unknown } },
): (ids: readonly number[], ...values: Values) => Promise<Row[]> {
  const slots = (opts.slots ?? []) as unknown as Values;
  const kept = new Map<number, (...values: unknown[]) => Promise<Row[]>>();
  return async (ids, ...values) => {
    if (ids.length > opts.keptUpTo) return (await db.executeQuery(build(ids, ...values).compile())).rows;
    let run = kept.get(ids.length);
    if (!run) {
      const idSlots = ids.map((_, i) => `\u0000id-${i}` as unknown as number);
      run = compileOnce<Row, unknown[]>(db, build(idSlots, ...slots), [...idSlots, ...slots]);
      kept.set(ids.length, run);
    }
    return run(...ids, ...values);
  };
}
