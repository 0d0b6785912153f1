import { sql } from 'kysely';
import { createDb, type Db } from '../../src/server/db/index.ts';

/** A database opened for one test file, and how to throw it away. */
export interface Opened {
  handle: Db;
  cleanup(): Promise<void>;
}

/** SQLite in a file (or :memory:), closed on cleanup. */
export async function openSqlite(file: string): Promise<Opened> {
  const handle = createDb({ file });
  return { handle, cleanup: () => handle.close() };
}

/**
 * A private schema in the PostgreSQL of DATABASE_URL, so test runs never see each other's rows;
 * dropped with everything in it on cleanup.
 */
export async function openPostgres(): Promise<Opened> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('PostgreSQL tests need DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)');
  const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = createDb({ url });
  await sql`create schema ${sql.id(schema)}`.execute(admin.db);
  const handle = createDb({ url, schema });
  return {
    handle,
    async cleanup() {
      await handle.close();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
      await admin.close();
    },
  };
}
