import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
import pg from 'pg';
import { isPostgresUrl, type Engine } from './engine.ts';
import type { Database } from './schema.ts';
import { createNodeSqliteDialect } from './sqlite-dialect.ts';
import { repoRoot } from '../paths.ts';

export type { Engine } from './engine.ts';
export type { Database } from './schema.ts';

export interface Db {
  db: Kysely<Database>;
  engine: Engine;
  /** Closes the SQLite file or ends the PostgreSQL pool. */
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** postgres:// or postgresql:// URL; DATABASE_URL when not given. Anything else means SQLite. */
  url?: string;
  /**
   * SQLite file, or `:memory:`. Default DATABASE_FILE, else data/app.db in the repository.
   * Given without `url`, it wins over DATABASE_URL.
   */
  file?: string;
  /** PostgreSQL only: schema to work in (search_path), e.g. a test's private schema. */
  schema?: string;
}

/**
 * The one database connection of the process (DESIGN §2: services and the db exist once,
 * never once per tenant). PostgreSQL when a postgres URL is given or in DATABASE_URL,
 * otherwise the embedded SQLite file (DESIGN §3).
 */
export function createDb(opts: CreateDbOptions = {}): Db {
  // An explicit file asks for SQLite even when DATABASE_URL is set (tests, CLI tools).
  const url = opts.url ?? (opts.file === undefined ? process.env.DATABASE_URL : undefined);
  const engine: Engine = isPostgresUrl(url) ? 'postgres' : 'sqlite';
  const dialect: Dialect =
    engine === 'postgres'
      ? new PostgresDialect({ pool: createPool(url as string, opts.schema) })
      : createNodeSqliteDialect({ file: sqliteFile(opts.file) });
  const db = new Kysely<Database>({ dialect });
  return { db, engine, close: () => db.destroy() };
}

/** Default location of the embedded database: data/app.db at the repository root. */
export function defaultSqliteFile(): string {
  return process.env.DATABASE_FILE ?? join(repoRoot(), 'data', 'app.db');
}

function sqliteFile(file: string | undefined): string {
  const path = file ?? defaultSqliteFile();
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

function createPool(url: string, schema: string | undefined): pg.Pool {
  return new pg.Pool({
    connectionString: url,
    ...(schema ? { options: `-c search_path=${checkSchemaName(schema)}` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 || oid === PG_NUMERIC
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
}

function checkSchemaName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Invalid schema name ${name}`);
  return name;
}

