import { PostgresAdapter, SqliteAdapter, sql, type ColumnDefinitionBuilder, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';

/**
 * Every difference between SQLite and PostgreSQL the code must know about lives here
 * (STYLE: engine differences sit in one small module). The conventions that keep the rest
 * of the code identical on both engines:
 * - flags are integer 0/1 columns, never booleans;
 * - timestamps are ISO 8601 UTC text with milliseconds (`new Date().toISOString()`), so they
 *   compare as strings and read back as the same string on both engines;
 * - JSON values are text, serialized by the code that owns them;
 * - ids are 32-bit integers, which both drivers return as JS numbers;
 * - every insert that needs the new id uses `.returning('id')` (`insertId` exists only on SQLite);
 * - `like` is case-sensitive on PostgreSQL and not on SQLite: store e-mails lower-cased and
 *   compare with `=`;
 * - row locks: PostgreSQL transactions run side by side and lock rows (`lockMember`,
 *   `lockProfiles`, `lockingRows`); SQLite runs one write transaction at a time and needs none.
 * Services never ask which engine they run on: they call a named helper of this module.
 * Migrations may branch on `engineOf(db)` themselves: they are schema, not services.
 */

export type Engine = 'sqlite' | 'postgres';

/** True when a connection string names PostgreSQL rather than a SQLite file. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(?:ql)?:\/\//i.test(url);
}

/** The engine behind a Kysely instance, e.g. inside a migration. */
export function engineOf(db: Kysely<any>): Engine {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  throw new Error(`Unsupported database adapter ${adapter.constructor.name}`);
}

/**
 * Makes the rest of a transaction wait for any other transaction of the same member that took
 * this lock: the member's `users` row on PostgreSQL. SQLite needs none: it runs one write
 * transaction at a time.
 */
export async function lockMember(trx: Kysely<any>, userId: number): Promise<void> {
  if (engineOf(trx) === 'postgres') await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

/**
 * Makes the rest of a transaction wait for any other transaction that took the same profiles'
 * rows (PostgreSQL; SQLite needs none), locked in id order so two callers never deadlock. A
 * profile may be given as a query of its id (the other member of a conversation), found in the
 * same statement. True when it locked: what the transaction read before may have changed and is
 * read again.
 */
export async function lockProfiles(trx: Kysely<any>, profileIds: (number | Expression<number>)[]): Promise<boolean> {
  if (engineOf(trx) !== 'postgres') return false;
  await trx
    .selectFrom('profiles')
    .select('id')
    .where((eb) => eb.or(profileIds.map((id) => eb('id', '=', id))))
    .orderBy('id')
    .forUpdate()
    .execute();
  return true;
}

/**
 * A select that keeps the rows it reads locked until the transaction ends: `for update` on
 * PostgreSQL, nothing on SQLite (one write transaction at a time). Use as
 * `trx.selectFrom(…)….$call(lockingRows(trx))`.
 */
export function lockingRows(trx: Kysely<any>): <QB extends SelectQueryBuilder<any, any, any>>(qb: QB) => QB {
  const locks = engineOf(trx) === 'postgres';
  return (qb) => (locks ? (qb.forUpdate() as typeof qb) : qb);
}

/** The current time as stored in every timestamp column. */
export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * A column default equal to `nowIso()` at insert time, in the same text format.
 * Wrapped in parentheses because SQLite accepts an expression default only that way.
 */
export function sqlNowDefault(engine: Engine): RawBuilder<string> {
  return engine === 'postgres'
    ? sql<string>`(to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`
    : sql<string>`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
}

/**
 * An integer primary key the database fills in: `autoincrement` on SQLite (ids of deleted
 * rows are never handed out again), an identity column on PostgreSQL. Use with
 * `.addColumn('id', 'integer', autoIdColumn(engine))`.
 */
export function autoIdColumn(engine: Engine): (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return engine === 'postgres'
    ? (col) => col.primaryKey().generatedByDefaultAsIdentity()
    : (col) => col.primaryKey().autoIncrement();
}

export type ConstraintViolation = 'unique' | 'check' | 'foreign_key' | 'not_null';

/**
 * Which kind of constraint a failed query broke, or null for any other error, so a service
 * can answer "e-mail already in use" without parsing engine-specific messages itself.
 */
export function constraintViolation(err: unknown): ConstraintViolation | null {
  if (typeof err !== 'object' || err === null) return null;
  const e = err as { code?: unknown; errcode?: unknown; message?: unknown };
  // PostgreSQL SQLSTATE class 23 (integrity constraint violation).
  if (typeof e.code === 'string' && e.code.startsWith('23')) {
    return PG_CONSTRAINT_CODES[e.code] ?? null;
  }
  // node:sqlite puts the extended result code in errcode.
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    return SQLITE_CONSTRAINT_CODES[e.errcode] ?? null;
  }
  return null;
}

const PG_CONSTRAINT_CODES: Record<string, ConstraintViolation> = {
  '23505': 'unique',
  '23514': 'check',
  '23503': 'foreign_key',
  '23502': 'not_null',
};

const SQLITE_CONSTRAINT_CODES: Record<number, ConstraintViolation> = {
  275: 'check', // SQLITE_CONSTRAINT_CHECK
  787: 'foreign_key', // SQLITE_CONSTRAINT_FOREIGNKEY
  1299: 'not_null', // SQLITE_CONSTRAINT_NOTNULL
  1555: 'unique', // SQLITE_CONSTRAINT_PRIMARYKEY
  2067: 'unique', // SQLITE_CONSTRAINT_UNIQUE
};

/**
 * The period a timestamp column falls in, as text: its UTC day (`2026-11-26`), the Monday of its
 * ISO week (`2026-11-23`) or its month (`2026-11`). Timestamps are ISO text on both engines, so
 * the day and the month are its first characters; the week is the engine's own date arithmetic.
 */
export function periodOf(db: Kysely<any>, column: string, group: 'day' | 'week' | 'month'): RawBuilder<string> {
  const ref = sql.ref(column);
  if (group === 'day') return sql<string>`substr(${ref}, 1, 10)`;
  if (group === 'month') return sql<string>`substr(${ref}, 1, 7)`;
  return engineOf(db) === 'postgres'
    ? sql<string>`to_char(date_trunc('week', cast(substr(${ref}, 1, 10) as timestamp)), 'YYYY-MM-DD')`
    : sql<string>`date(substr(${ref}, 1, 10), 'weekday 0', '-6 days')`;
}

/**
 * Rows whose `expr` starts with `prefix`, as a range an index on `expr` answers: `like 'x%'` is
 * answered by no index on SQLite (its like ignores case; the index compares bytes) nor on
 * PostgreSQL outside the C collation. The range `prefix <= expr < prefix + U+10FFFF` compares by
 * code point: SQLite's BINARY, PostgreSQL's `collate "C"` (the collation of the indexes made for
 * it, migration 2026-11-26-0029-console-indexes). The prefix is taken literally (no wildcards).
 */
export function startsWith(db: Kysely<any>, expr: RawBuilder<string>, prefix: string): RawBuilder<boolean> {
  const value = engineOf(db) === 'postgres' ? sql<string>`(${expr}) collate "C"` : expr;
  return sql<boolean>`(${value} >= ${prefix} and ${value} < ${`${prefix}\u{10FFFF}`})`;
}
