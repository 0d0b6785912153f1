import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
import pg from 'pg';
import { isPostgresUrl, type Engine } from './engine.ts';
import type { Database } from './schema.ts';
import { createNodeSqliteDialect, openNodeSqlite, type NodeSqliteDatabase } from './sqlite-dialect.ts';
import { writeOf, type Write } from './writes.ts';

export type { Engine } from './engine.ts';
export type { Database } from './schema.ts';

export interface Db {
  db: Kysely<Database>;
  engine: Engine;
  /** The PostgreSQL pool (rate limits and jobs share it); null on SQLite. */
  pool: pg.Pool | null;
  /** The SQLite connection (its writes can be watched, e.g. by the session cache); null on PostgreSQL. */
  sqlite: NodeSqliteDatabase | null;
  /**
   * Calls `listener` with each write this process runs through Kysely (on SQLite as the statement
   * is prepared, on PostgreSQL once it has run). Returns the function that stops it.
   */
  onWrite(listener: (write: Write) => void): () => void;
  /** Closes the SQLite file or ends the PostgreSQL pool. */
  close(): Promise<void>;
}

/** Distinct statements whose write is remembered (Kysely compiles a few hundred shapes). */
const KNOWN_STATEMENTS = 2_000;

export interface CreateDbOptions {
  /** postgres:// or postgresql:// URL (PostgreSQL); without it, the SQLite `file`. */
  url?: string | null;
  /** SQLite file, or `:memory:`. */
  file?: string;
  /** PostgreSQL only: schema to work in (search_path), e.g. a test's private schema. */
  schema?: string;
  /** Where a dropped idle connection is reported (PostgreSQL). */
  log?: (line: string) => void;
}

/**
 * The one database connection of the process (DESIGN §2: services and the db exist once,
 * never once per tenant). PostgreSQL when a postgres URL is given or in DATABASE_URL,
 * otherwise the embedded SQLite file (DESIGN §3).
 */
export function createDb(opts: CreateDbOptions): Db {
  // The caller says which database (src/server/config.ts reads the environment); nothing here does.
  const url = opts.url ?? undefined;
  const engine: Engine = isPostgresUrl(url) ? 'postgres' : 'sqlite';
  if (engine === 'sqlite' && opts.file === undefined) throw new Error('createDb: a PostgreSQL url or a SQLite file is needed');
  const pool = engine === 'postgres' ? createPool(url as string, opts.schema, opts.log ?? ((line) => console.error(line))) : null;
  const sqlite = pool ? null : openNodeSqlite({ file: sqliteFile(opts.file) });
  const dialect: Dialect = pool ? new PostgresDialect({ pool }) : createNodeSqliteDialect(sqlite!);
  if (sqlite) {
    const db = new Kysely<Database>({ dialect });
    return { db, engine, pool, sqlite, onWrite: (listener) => sqlite.onWrite(listener), close: () => db.destroy() };
  }
  // PostgreSQL: Kysely's query log hears every statement once it has run (before its result is
  // returned); what it writes is read from its SQL once per statement shape.
  const listeners = new Set<(write: Write) => void>();
  const known = new Map<string, Write | null>();
  const db = new Kysely<Database>({
    dialect,
    log: (event) => {
      if (event.level !== 'query' || listeners.size === 0) return;
      const text = event.query.sql;
      let write = known.get(text);
      if (write === undefined) {
        write = writeOf(text);
        if (known.size < KNOWN_STATEMENTS) known.set(text, write);
      }
      if (write) for (const listener of listeners) listener(write);
    },
  });
  return {
    db,
    engine,
    pool,
    sqlite,
    onWrite(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => db.destroy(),
  };
}

function sqliteFile(file: string | undefined): string {
  const path = file!;
  if (path === ':memory:') return path;
  mkdirSync(dirname(resolve(path)), { recursive: true });
  return path;
}

/**
 * PostgreSQL returns bigint (count(*), sum()) and numeric (avg()) as strings to keep
 * precision; SQLite returns numbers. Counts and credit sums stay far below 2^53, so they are
 * parsed to numbers here and queries read the same on both engines.
 */
const PG_INT8 = 20;
const PG_NUMERIC = 1700;

function createPool(url: string, schema: string | undefined, log: (line: string) => void): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    ...(schema ? { options: `-c search_path=${checkSchemaName(schema)}` } : {}),
    // Named, so an operator (or a test) can tell the runtime's connections apart in pg_stat_activity.
    application_name: `sitegen${schema ? `:${schema}` : ''}`,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 || oid === PG_NUMERIC
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
    // A connection is never held open forever: failovers and restarts leave no stale ones behind.
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle connection that the server ends (a restart, pg_terminate_backend, an idle cut) emits
  // 'error' on the pool; unhandled, it would end the process. The pool drops it and connects anew.
  pool.on('error', (error) => log(`database: idle connection lost: ${error.message}`));
  // A connection lent out but between two statements (a transaction, or just before its query)
  // has no pool listener: its 'error' is heard here, and its next statement fails (503) instead.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

function checkSchemaName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Invalid schema name ${name}`);
  return name;
}

