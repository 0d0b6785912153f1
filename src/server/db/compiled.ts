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
