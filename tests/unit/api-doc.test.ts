/**
 * docs/API.md stays true to the route table (src/server/api, src/server/console/routes.ts): every
 * declared route is documented, as a table row or as `METHOD /api/path` in the prose, and no
 * table row is written twice (a stale copy beside a newer one tells an integrator two stories).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { API_ROUTES } from '../../src/server/api/index.ts';
import { CONSOLE_ROUTES } from '../../src/server/console/routes.ts';

const doc = readFileSync(new URL('../../docs/API.md', import.meta.url), 'utf8');

/** A table row of a route: `| GET | /api/x.php | request | answer |`, `GET, POST` for one row of two methods. */
const rows = doc
  .split('\n')
  .map((line) => line.split('|').map((cell) => cell.trim()))
  .filter((cells) => /^(GET|POST|PUT|DELETE)(, (GET|POST|PUT|DELETE))*$/.test(cells[1] ?? ''))
  .map(([, methods = '', path = '', request = '']) => ({ methods: methods.split(', '), path, request }));

/** The documented spelling of a declared route: console paths under /api/console/ with `{id}` for `:id`. */
const declared = [
  ...API_ROUTES.map((r) => ({ method: r.method, path: `/api/${r.path}` })),
  ...CONSOLE_ROUTES.map((r) => ({ method: r.method, path: `/api/console/${r.path.replace(/:(\w+)/g, '{$1}')}` })),
];

describe('docs/API.md', () => {
  test('documents every declared route', () => {
    const missing = declared.filter(
      ({ method, path }) => !rows.some((row) => row.methods.includes(method) && row.path.replace(/\?.*$/, '') === path) && !doc.includes(`\`${method} ${path}\``),
    );
    expect(missing).toEqual([]);
  });

  test('writes each route row once', () => {
    const seen = rows.map((row) => `${row.methods.join(', ')} ${row.path} ${row.request}`);
    expect(seen.filter((key, i) => seen.indexOf(key) !== i)).toEqual([]);
  });
});
