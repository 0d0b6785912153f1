import { file, type Result } from '../http/routes.ts';

/**
 * CSV exports of the console's tables (issue 23: "CSV export of every table shown, with the same
 * filters"): RFC 4180 (comma, CRLF, quotes doubled), UTF-8 with a byte-order mark so spreadsheet
 * programs read accents right, and a cell that a spreadsheet would run as a formula (= + - @, tab,
 * carriage return first) prefixed with an apostrophe (OWASP "CSV injection"): a member's name or a
 * network's sub-id is text here, never a formula.
 */
export type CsvColumn<Row> = { header: string; value: (row: Row) => string | number | boolean | null | undefined };

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<Row>(rows: readonly Row[], columns: readonly CsvColumn<Row>[]): string {
  const lines = [columns.map((c) => csvCell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** A CSV download named `<name>.csv`. */
export const csv = <Row>(name: string, rows: readonly Row[], columns: readonly CsvColumn<Row>[]): Result => file(toCsv(rows, columns), 'text/csv; charset=utf-8', `${name}.csv`);
