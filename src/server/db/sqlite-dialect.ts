import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { writeOf, type Write } from './writes.ts';

/**
 * Kysely's own SqliteDialect over `node:sqlite`, so the embedded database needs no native
 * addon built for one Node ABI (DESIGN §2). The npm package kysely-node-sqlite returns wrong
 * results (`returning()` gives undefined), which is why this adapter exists: SqliteDialect
 * asks `stmt.reader` whether a statement yields rows and only then calls `all()`, so
 * `reader` must be true for `insert ... returning` as well as for `select`.
 */

/** How long a write waits for another process (the CLI migrating, a second server) to let go. */
const BUSY_TIMEOUT_MS = 5000;

/** The SQL function the temporary triggers of onRowWrite call with a written row's values. */
const ROW_WRITTEN = 'sitegen_row_written';

/** Prepared statements kept per connection; Kysely re-prepares the same SQL on every query. */
const STATEMENT_CACHE_SIZE = 256;

export interface NodeSqliteOptions {
  /** A file path, or `:memory:` for a private in-memory database (tests). */
  file: string;
}

/** Opens the database file and sets the pragmas every connection of the runtime relies on. */
export function openNodeSqlite(opts: NodeSqliteOptions): NodeSqliteDatabase {
  const inMemory = opts.file === ':memory:' || opts.file === '';
  const db = new DatabaseSync(opts.file, { enableForeignKeyConstraints: true, timeout: BUSY_TIMEOUT_MS });
  if (!inMemory) {
    // WAL lets readers (a second process, a backup) go on while the server writes.
    db.exec('PRAGMA journal_mode = WAL');
    // With WAL, NORMAL is durable against application crashes and much faster than FULL.
    db.exec('PRAGMA synchronous = NORMAL');
  }
  // Set explicitly, whatever the defaults of this Node build: cascades and references
  // must behave as on PostgreSQL.
  db.exec('PRAGMA foreign_keys = ON');
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return new NodeSqliteDatabase(db);
}

export { writeOf, type Write };

/** The `SqliteDatabase` shape Kysely's SqliteDialect drives, over one `DatabaseSync`. */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly raw: DatabaseSync;
  readonly #statements = new Map<string, Prepared>();
  readonly #writeListeners = new Set<(write: Write) => void>();
  readonly #rowListeners = new Map<number, (values: unknown[]) => void>();
  #nextWatch = 1;
  #versionThisTurn: number | null = null;

  constructor(raw: DatabaseSync) {
    this.raw = raw;
  }

  close(): void {
    this.#statements.clear();
    if (this.raw.isOpen) this.raw.close();
  }

  prepare(sql: string): SqliteStatement {
    // Kysely prepares each statement it runs, just before running it: a write is told here.
    const stmt = this.#statement(toSqliteSql(sql));
    if (stmt.write) for (const listener of this.#writeListeners) listener(stmt.write);
    return stmt;
  }

  /**
   * Calls `listener` before each write this connection runs through Kysely (what another process
   * writes shows in `dataVersion()`). Returns the function that stops it.
   */
  onWrite(listener: (write: Write) => void): () => void {
    this.#writeListeners.add(listener);
    return () => this.#writeListeners.delete(listener);
  }

  /**
   * Calls `listener` with the values of `columns` of each row this connection writes in `table`:
   * the new row of an insert, the old of a delete, both of an update that sets one of `updateOf`
   * (none: no update is told). Told as the row is written, by temporary triggers that live in this
   * connection only (nothing in the file; a write that is rolled back was told too, a cascade's
   * rows are told as well); what another process writes shows in dataVersion(). Unlike onWrite,
   * it says which rows, so a cache of one member's rows forgets only theirs. Returns the function
   * that stops it.
   */
  onRowWrite(table: string, columns: readonly string[], updateOf: readonly string[], listener: (values: unknown[]) => void): () => void {
    for (const name of [table, ...columns, ...updateOf]) if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`onRowWrite: ${name} is not a column name`);
    if (this.#rowListeners.size === 0) {
      this.raw.function(ROW_WRITTEN, { varargs: true, deterministic: false }, (watch, ...values) => {
        this.#rowListeners.get(Number(watch))?.(values);
        return null;
      });
    }
    const watch = this.#nextWatch++;
    this.#rowListeners.set(watch, listener);
    const told = (row: 'new' | 'old') => `select ${ROW_WRITTEN}(${watch}, ${columns.map((c) => `${row}."${c}"`).join(', ')});`;
    const triggers = [
      [`insert`, told('new')],
      [`delete`, told('old')],
      ...(updateOf.length ? [[`update of ${updateOf.map((c) => `"${c}"`).join(', ')}`, `${told('old')} ${told('new')}`]] : []),
    ].map(([event, body], i) => {
      const name = `${ROW_WRITTEN}_${watch}_${i}`;
      this.raw.exec(`create temp trigger ${name} after ${event} on main."${table}" begin ${body} end`);
      return name;
    });
    return () => {
      if (this.raw.isOpen) for (const name of triggers) this.raw.exec(`drop trigger if exists temp.${name}`);
      this.#rowListeners.delete(watch);
    };
  }

  /** SQLite's data_version: it changes when another connection (the CLI, a test) commits a write. */
  dataVersion(): number {
    const row = this.#statement('pragma data_version').get() as { data_version: number };
    return row.data_version;
  }

  /**
   * dataVersion() read at most once a turn of the event loop. The requests parsed in one turn
   * (their session look-ups, the searches' lists and cards) share one read: another process's
   * commit is seen from the next turn on, as by a request that came a moment earlier (issue 24).
   */
  dataVersionThisTurn(): number {
    if (this.#versionThisTurn === null) {
      this.#versionThisTurn = this.dataVersion();
      setImmediate(() => {
        this.#versionThisTurn = null;
      });
    }
    return this.#versionThisTurn;
  }

  #statement(sql: string): Prepared {
    const cached = this.#statements.get(sql);
    if (cached) {
      // Re-insert so the Map's order is least recently used first.
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const stmt = new Prepared(this.raw.prepare(sql), sql);
    this.#statements.set(sql, stmt);
    if (this.#statements.size > STATEMENT_CACHE_SIZE) {
      const oldest = this.#statements.keys().next().value as string;
      this.#statements.delete(oldest);
    }
    return stmt;
  }
}

/** One cached statement in the shape Kysely drives; whether it yields rows is asked once. */
class Prepared implements SqliteStatement {
  readonly reader: boolean;
  readonly write: Write | null;
  readonly #stmt: StatementSync;
  constructor(stmt: StatementSync, sql: string) {
    this.#stmt = stmt;
    this.reader = stmt.columns().length > 0;
    this.write = writeOf(sql);
  }
  get(): unknown {
    return this.#stmt.get();
  }
  all(params: ReadonlyArray<unknown>): unknown[] {
    return this.#stmt.all(...toSqliteParams(params));
  }
  run(params: ReadonlyArray<unknown>) {
    return this.#stmt.run(...toSqliteParams(params));
  }
  iterate(params: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#stmt.iterate(...toSqliteParams(params)) as IterableIterator<unknown>;
  }
}

/** Kysely's SqliteDialect over a node:sqlite database (openNodeSqlite). */
export function createNodeSqliteDialect(database: NodeSqliteDatabase): SqliteDialect {
  return new SqliteDialect({ database });
}

/**
 * Kysely opens every transaction with a plain `begin` (deferred). A deferred transaction that
 * reads a balance and then writes fails at once with SQLITE_BUSY when another process wrote
 * in between; `begin immediate` takes the write lock up front and waits busy_timeout instead.
 * Transactions here exist to move money and counters, so they all write.
 */
function toSqliteSql(sql: string): string {
  return sql.trim().toLowerCase() === 'begin' ? 'begin immediate' : sql;
}

/**
 * node:sqlite binds only null, numbers, bigints, strings and bytes. Booleans and dates are
 * turned into what the same code stores on PostgreSQL (integer 0/1 flags, ISO text). A plain
 * object would be taken as a set of named parameters, so it is refused: JSON columns are text
 * and their values are serialized by the caller on both engines.
 */
function toSqliteParams(params: ReadonlyArray<unknown>): SQLInputValue[] {
  return params.map((value, i) => {
    if (value === undefined || value === null) return null;
    switch (typeof value) {
      case 'string':
      case 'number':
      case 'bigint':
        return value;
      case 'boolean':
        return value ? 1 : 0;
    }
    if (value instanceof Date) return value.toISOString();
    if (ArrayBuffer.isView(value)) return value as SQLInputValue;
    throw new TypeError(
      `SQLite parameter ${i + 1} is ${Array.isArray(value) ? 'an array' : typeof value}: serialize JSON columns with JSON.stringify`,
    );
  });
}
