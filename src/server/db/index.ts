import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, sql, type Dialect } from 'kysely';
import pg from 'pg';
import { engineOf, isPostgresUrl, type Engine } from './engine.ts';
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
   * Calls `listener` with each write this process runs (on SQLite through Kysely, as the statement
   * is prepared; on PostgreSQL any statement of the pool's connections, as it is sent and again once
   * it is committed). Returns the function that stops it.
   */
  onWrite(listener: (write: Write) => void): () => void;
  /** Closes the SQLite file or ends the PostgreSQL pool. */
  close(): Promise<void>;
}

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
  const writeListeners = new Set<(write: Write) => void>();
  const pool = engine === 'postgres' ? createPool(url as string, opts.schema, opts.log ?? ((line) => console.error(line)), writeListeners) : null;
  const sqlite = pool ? null : openNodeSqlite({ file: sqliteFile(opts.file) });
  const dialect: Dialect = pool ? new PostgresDialect({ pool }) : createNodeSqliteDialect(sqlite!);
  const db = new Kysely<Database>({ dialect });
  const onWrite = (listener: (write: Write) => void): (() => void) => {
    if (sqlite) return sqlite.onWrite(listener);
    writeListeners.add(listener);
    return () => writeListeners.delete(listener);
  };
  return { db, engine, pool, sqlite, onWrite, close: () => db.destroy() };
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

function createPool(url: string, schema: string | undefined, log: (line: string) => void, writeListeners: Set<(write: Write) => void>): pg.Pool {
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
  pool.on('connect', (client) => {
    client.on('error', () => {});
    tellWrites(client, writeListeners);
  });
  return pool;
}

/** What one connection's statements have written, told to the listeners (Db.onWrite). */
function tellWrites(client: pg.PoolClient, listeners: Set<(write: Write) => void>): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  /** The writes of the open transaction: told again once it commits (or rolls back). */
  let pending: Write[] | null = null;
  const tell = (writes: readonly Write[]) => {
    for (const write of writes) {
      for (const listener of listeners) {
        try {
          listener(write);
        } catch {
          // A listener's failure is not the statement's: the write stands.
        }
      }
    }
  };
  /** After the statement settles, either way (never a second rejection of its promise). */
  const after = (result: Promise<unknown>, then: () => void) => void result.then(then, then);
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | null)?.text;
    if (typeof text !== 'string' || listeners.size === 0 || !(result instanceof Promise)) return result;
    const head = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase();
    if (head === 'begin' || head === 'start') {
      pending = [];
      return result;
    }
    if (head === 'commit' || head === 'rollback' || head === 'end' || head === 'abort') {
      // (A savepoint's rollback leaves the transaction open: told at its end like the rest.)
      if (/^\s*rollback\s+to\b/i.test(text)) return result;
      const done = pending;
      pending = null;
      if (done?.length) after(result, () => tell(done));
      return result;
    }
    const write = writeOfCached(text);
    if (!write) return result;
    // Told as it is sent (what starts reading now is not kept), and again once it is committed:
    // at once for a statement of its own, at the commit inside a transaction.
    tell([write]);
    if (pending) pending.push(write);
    else after(result, () => tell([write]));
    return result;
  };
}

/** Distinct statements whose write is remembered (Kysely compiles a few hundred shapes). */
const KNOWN_STATEMENTS = 2_000;
const knownWrites = new Map<string, Write | null>();

function writeOfCached(text: string): Write | null {
  let write = knownWrites.get(text);
  if (write === undefined) {
    write = writeOf(text);
    if (knownWrites.size < KNOWN_STATEMENTS) knownWrites.set(text, write);
  }
  return write;
}

/**
 * PostgreSQL: makes the schema the connections work in (DATABASE_SCHEMA, their search_path) when it
 * does not exist yet, so that a fresh schema name can be migrated (`sitegen db migrate`, start).
 * Nothing on SQLite or without a schema. Another process making it at the same moment is no error.
 */
export async function createSchemaIfMissing(db: Kysely<Database>, schema: string | undefined): Promise<void> {
  if (!schema || engineOf(db) !== 'postgres') return;
  // Unquoted, as in the search_path of the connections, so PostgreSQL folds the name alike.
  try {
    await sql`create schema if not exists ${sql.raw(checkSchemaName(schema))}`.execute(db);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== '42P06' && code !== '23505') throw error;
  }
}

function checkSchemaName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Invalid schema name ${name}`);
  return name;
}

