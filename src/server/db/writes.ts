/**
 * What a statement writes, read from its SQL: the session cache empties itself on writes to what
 * it holds (src/server/services/sessions.ts). Both engines tell their statements here: the SQLite
 * adapter as it prepares them, PostgreSQL through Kysely's query log.
 */

/**
 * What a statement writes: its table (null when the SQL names none this reads) and, for an
 * update, the columns it sets (null: whole rows, as an insert or a delete).
 */
export interface Write {
  kind: 'insert' | 'update' | 'delete';
  table: string | null;
  columns: string[] | null;
}

const WRITE = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?(\w+)"?/i;

/** Statements that change no rows: reads and transaction control. */
const READS = new Set(['select', 'values', 'pragma', 'explain', 'begin', 'commit', 'end', 'rollback', 'savepoint', 'release']);

/** The write of a statement as Kysely compiles it (for SQLite or PostgreSQL), or null for a read. */
export function writeOf(sql: string): Write | null {
  const head = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase();
  if (head !== undefined && READS.has(head)) return null;
  if (head === 'with' && !/\b(insert|update|delete|replace)\b/i.test(sql)) return null;
  const match = WRITE.exec(sql);
  // Anything else (DDL, analyze, a statement this cannot read) may write anything.
  if (!match) return { kind: 'update', table: null, columns: null };
  const table = match[2]!.toLowerCase();
  const verb = match[1]!.toLowerCase();
  if (verb.startsWith('delete')) return { kind: 'delete', table, columns: null };
  // An insert that may change existing rows (replace, or on conflict … do update) counts as an update of whole rows.
  if (!verb.startsWith('update')) return verb.startsWith('insert') && !/\bon\s+conflict\b[\s\S]*\bdo\s+update\b/i.test(sql) && !/^insert\s+or\s+replace/i.test(verb) ? { kind: 'insert', table, columns: null } : { kind: 'update', table, columns: null };
  // A subquery may hide further columns behind its own from and where: whole rows, then.
  if (/\(\s*select\b/i.test(sql)) return { kind: 'update', table, columns: null };
  // update "t" set "a" = ?, "b" = "b" - ? where …: the columns before each "=".
  const set = /\sset\s([\s\S]*?)(?:\swhere\s|\sreturning\s|\sfrom\s|$)/i.exec(sql)?.[1] ?? '';
  const columns = [...set.matchAll(/(?:^|,)\s*"?(\w+)"?\s*=/g)].map((m) => m[1]!.toLowerCase());
  return { kind: 'update', table, columns: columns.length ? columns : null };
}
