import { Migrator, NO_MIGRATIONS, PostgresAdapter, sql, type Kysely, type MigrationProvider, type MigrationResult } from 'kysely';
import { migrations } from './migrations/index.ts';
import { engineOf } from './engine.ts';

/**
 * Runs the dated migration files of ./migrations (STYLE: migrations as files), by the CLI
 * and at start. Kysely's FileMigrationProvider reads the folder at run time, which breaks once
 * the code is bundled; this provider hands over the statically imported list instead.
 */
class StaticMigrationProvider implements MigrationProvider {
  async getMigrations() {
    return migrations;
  }
}

/**
 * Kysely looks for its migration tables in every schema it can see; on PostgreSQL they are looked
 * for in the connection's own schema (search_path), so another schema's migration tables (a second
 * brand database, a test running beside) never count as this one's.
 */
async function migrator(db: Kysely<any>): Promise<Migrator> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const schema = postgres ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  return new Migrator({ db, provider: new StaticMigrationProvider(), ...(schema ? { migrationTableSchema: schema } : {}) });
}

/** Names of the migrations that ran, in order. Throws the first error, after Kysely rolled back what it could. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const ran = applied(await (await migrator(db)).migrateToLatest());
  if (ran.length) await analyze(db);
  return ran;
}

/**
 * Gathers the statistics the query planners choose indexes by, after the schema or the amount
 * of data changed (migrations, seeding). On PostgreSQL a vacuum goes with it: it marks the pages
 * all-visible, so the listings' index-only scans read no table rows (a band count of a 100,000-
 * member brand went from 5 to 1.4 ms), where autovacuum would only catch up later. Never inside
 * a transaction (PostgreSQL refuses a vacuum there).
 */
export async function analyze(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'postgres') {
    await sql`analyze`.execute(db);
    return;
  }
  // This schema's tables only: another schema in the same database (a second brand database,
  // a test beside) is not this runtime's to vacuum.
  const { rows } = await sql<{ name: string }>`select quote_ident(schemaname) || '.' || quote_ident(tablename) as name from pg_tables where schemaname = current_schema()`.execute(db);
  if (rows.length === 0) return;
  const tables = sql.raw(rows.map((r) => r.name).join(', '));
  await (db.isTransaction ? sql`analyze ${tables}` : sql`vacuum (analyze) ${tables}`).execute(db);
}

/**
 * Undoes migrations: the last one by default, or every one down to (not including) `to`,
 * or all of them with `to: 'zero'`. Returns the names undone.
 */
export async function migrateDown(db: Kysely<any>, opts: { to?: string } = {}): Promise<string[]> {
  const m = await migrator(db);
  if (opts.to === undefined) return applied(await m.migrateDown());
  return applied(await m.migrateTo(opts.to === 'zero' ? NO_MIGRATIONS : opts.to));
}

/** Names of all migrations known to the code, in the order they run. */
export function migrationNames(): string[] {
  return Object.keys(migrations).sort();
}

function applied(result: { error?: unknown; results?: MigrationResult[] }): string[] {
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const err = result.error instanceof Error ? result.error : new Error(String(result.error));
    if (failed) err.message = `migration ${failed.migrationName} failed: ${err.message}`;
    throw err;
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
