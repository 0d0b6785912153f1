/**
 * Hostile input to the console's JSON API (issue 22), walked field by field from its route table
 * (CONSOLE_ROUTES), as tests/api/hostile-input.test.ts walks the member API: each field of every
 * declared body and query schema holding a wrong type, text too long, NUL and other control
 * characters, negative and huge numbers, days that do not exist, values outside its enum, an array
 * where one value goes; every path id that is not one or names nothing; every state-changing call
 * from another site. Each answer is a 4xx with a catalogue message in the staff member's language
 * (Dutch here), never a 500, and nothing changes, on both engines.
 *
 * A valid request per route is made from its schema (requiredOf), so only the field under attack is
 * wrong. A staff member without the role: 403, and the attempt in the audit log, is the access
 * matrix's (console-access.test.ts "others 403 and audited"); another brand's ids and `?brand=`: 404, too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { CONSOLE_ROUTES, type AnyConsoleRoute } from '../../src/server/console/routes.ts';
import { CONSOLE_LOCALE_COOKIE } from '../../src/lib/console-locale.ts';
import { may } from '../../src/contract/console.ts';
import { message } from '../../src/server/i18n.ts';
import { REPO, engines, type HostResponse, type TestRuntime } from '../support/runtime.ts';
import { snapshot, useRuntime, type Client } from '../support/accounts.ts';
import { staffLogin } from '../support/console.ts';

type Json = Record<string, unknown>;
const key = (route: AnyConsoleRoute) => `${route.method} ${route.path}`;

/** Every Dutch catalogue message as a pattern (its {params} as anything): an answer's message must be one. */
const DUTCH = Object.values(JSON.parse(readFileSync(join(REPO, 'locales', 'nl.json'), 'utf8')) as Record<string, string>)
  .filter((m) => typeof m === 'string')
  .map((m) => new RegExp(`^${m.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[a-z_]+\}/g, '.*')}$`, 's'));
const isDutch = (text: unknown) => typeof text === 'string' && DUTCH.some((re) => re.test(text));

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
/** An object schema's properties (of its first branch for a union of objects). */
const objectOf = (schema: Json): Json => ((schema.anyOf as Json[] | undefined)?.[0] ?? schema) as Json;
const propertiesOf = (schema: Json) => (objectOf(schema).properties ?? {}) as Record<string, Json>;

/** A valid value of a field, from its JSON schema (fields whose pattern says what they are named here). */
function validValue(name: string, field: Json, where: 'body' | 'query'): unknown {
  const s = ((field.anyOf as Json[] | undefined)?.find((b) => b.type !== 'null') ?? field) as Json;
  if (s.enum) return (s.enum as unknown[])[0];
  if (s.type === 'integer' || s.type === 'number') return where === 'query' ? '1' : 1;
  if (s.type === 'boolean') return true;
  if (s.type === 'array') return [validValue(name, s.items as Json, where)];
  const byName: Record<string, string> = { brand: 'spetter', country: 'NL', code: '123456', variant: 'a', client_id: 'hostile-0001', birth_date: '1990-01-01', email: 'nieuw@example.com', password: 'een-lang-wachtwoord', from: '2026-01-01', to: '2026-01-31' };
  if (byName[name] !== undefined) return byName[name];
  if (s.format === 'date') return '2026-01-01';
  if (typeof s.pattern === 'string' && /\\d\{1,10\}|\\d\+/.test(s.pattern)) return '1';
  if (typeof s.pattern === 'string' && s.pattern.startsWith('^[a-z0-9-]')) return 'spetter';
  return 'Een reden';
}

/** The required fields of a schema with valid values: the request the attacks start from. */
function requiredOf(schema: z.ZodType | undefined, where: 'body' | 'query'): Json | undefined {
  if (!schema) return undefined;
  const object = objectOf(jsonSchema(schema));
  const required = new Set((object.required ?? []) as string[]);
  return Object.fromEntries(Object.entries(propertiesOf(object)).filter(([name]) => required.has(name)).map(([name, field]) => [name, validValue(name, field, where)]));
}

/** Wrong values for a field of a JSON body, by what the field is. */
function hostileBodyValues(field: Json): unknown[] {
  const s = ((field.anyOf as Json[] | undefined)?.find((b) => b.type !== 'null') ?? field) as Json;
  const common = [null, {}, ['x'], 'a\u0000b', 'a\u001bb', '\ud800'];
  if (s.type === 'integer' || s.type === 'number') return [...common, -1, 0, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 53), '1', true];
  if (s.type === 'array') return [...common, 'x', [null], [[1]], Array.from({ length: 1_000 }, (_, i) => i + 1)];
  if (s.type === 'boolean') return [...common, 'true', 1];
  return [...common, 12, true, '', 'x'.repeat(30_000), 'nope-not-in-any-enum', '2026-02-30', ' '];
}

/** Wrong values for a query parameter (always text there). */
const HOSTILE_QUERY = ['', ' ', '-1', '0', '1.5', '1e3', '0x1', '99999999999', '2147483648', '2026-13-01', '2026-02-30', '0000-00-00', 'x'.repeat(5_000), 'a\u0001b', 'nope', "'; drop table users; --", '%00'];

/** Wrong path ids: not an id, or one that names nothing. */
const HOSTILE_IDS = ['0', '-1', '1.5', '1e3', '0x1', '99999999999', 'abc', '2147483647', '%00'];

describe.each(engines())('hostile input to the console on %s', (engine) => {
  const rt = useRuntime(engine);
  let owner: Client;
  let before: Json;
  const origin = () => `http://console.localhost:${rt().port}`;

  /** Rows of everything a console call could change. */
  async function counts(r: TestRuntime): Promise<Json> {
    const db = r.db.db;
    const tables = ['staff', 'staff_sessions', 'audit_log', 'photos', 'messages', 'complaints', 'statements', 'conversations', 'profiles', 'postback_attempts'] as const;
    const rows = await Promise.all(tables.map(async (t) => [t, Number((await db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)] as const));
    const users = await db.selectFrom('users').select(['suspended_at', 'credits', 'directdebit_blocked', 'status']).orderBy('id').execute();
    return { ...(await snapshot(r)), ...Object.fromEntries(rows), users: JSON.stringify(users) };
  }

  beforeAll(async () => {
    ({ client: owner } = await staffLogin(rt(), 'owner'));
    owner.jar.set(CONSOLE_LOCALE_COOKIE, 'nl');
    before = await counts(rt());
  });

  /** A path with its parameters: ids that name nothing (the attack is elsewhere), or the ones given. */
  const pathOf = (route: AnyConsoleRoute, params: Record<string, string> = {}) =>
    `/api/console/${route.path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? (name === 'brand' ? 'spetter' : name === 'file' ? 'abc.webp' : '999999'))}`;

  function send(route: AnyConsoleRoute, opts: { body?: unknown; query?: Json; params?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<HostResponse> {
    const query = new URLSearchParams(Object.entries(opts.query ?? requiredOf(route.query, 'query') ?? {}).map(([k, v]) => [k, String(v)]));
    const path = `${pathOf(route, opts.params)}${query.size ? `?${query}` : ''}`;
    const body = route.method === 'GET' ? undefined : (opts.body ?? requiredOf(route.body, 'body') ?? {});
    return owner.request(route.method, path, body, { origin: origin(), ...opts.headers });
  }

  /** A 4xx (never a 5xx) with a catalogue message in Dutch. */
  function expectRefusal(res: HostResponse, label: string) {
    expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
    expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
    const error = res.json().error;
    expect(isDutch(error?.message), `${label}: ${JSON.stringify(error)}`).toBe(true);
  }

  const withBody = CONSOLE_ROUTES.filter((r) => r.body);
  const withQuery = CONSOLE_ROUTES.filter((r) => r.query);
  const withParams = CONSOLE_ROUTES.filter((r) => /:(id|photo)\b/.test(r.path));

  test('the walk covers the route table', () => {
    expect(withBody.length).toBeGreaterThan(15);
    expect(withQuery.length).toBeGreaterThan(15);
    // Each made request passes its schema: the attacks below change one field of a valid request.
    for (const route of withBody) expect(route.body!.safeParse(requiredOf(route.body, 'body')).success, key(route)).toBe(true);
    for (const route of withQuery) expect(route.query!.safeParse(requiredOf(route.query, 'query')).success, key(route)).toBe(true);
  });

  test.each(withBody.map((r) => [key(r), r] as const))('%s: every body field holding a wrong value is a 4xx in Dutch', async (name, route) => {
    const base = requiredOf(route.body, 'body')!;
    for (const [field, schema] of Object.entries(propertiesOf(jsonSchema(route.body!)))) {
      for (const bad of hostileBodyValues(schema)) {
        // A value the schema takes is no attack on it (a name may read "nope"): it is not sent.
        if (route.body!.safeParse({ ...base, [field]: bad }).success) continue;
        expectRefusal(await send(route, { body: { ...base, [field]: bad } }), `${name} ${field}=${JSON.stringify(bad).slice(0, 40)}`);
      }
    }
    // Not an object at all, and a field nobody declared holding NUL.
    for (const bad of ['"text"', '[1,2]', '12', 'null', '{"reason":']) {
      expectRefusal(await owner.request(route.method, pathOf(route), bad, { origin: origin(), 'content-type': 'application/json' }), `${name} body ${bad}`);
    }
    expectRefusal(await send(route, { body: { ...base, 'x\u0000': 'y' } }), `${name} a key holding NUL`);
  });

  test.each(withQuery.map((r) => [key(r), r] as const))('%s: every query parameter holding a wrong value is a 4xx in Dutch, or answers as if absent', async (name, route) => {
    const base = requiredOf(route.query, 'query')!;
    for (const field of Object.keys(propertiesOf(jsonSchema(route.query!)))) {
      for (const bad of HOSTILE_QUERY) {
        const taken = route.query!.safeParse({ ...base, [field]: bad }).success;
        // A value the schema takes is sent only to a list, which must answer it (a search for "nope"), never with a 500.
        if (taken && (route.method !== 'GET' || route.path === 'events')) continue;
        const res = await send(route, { query: { ...base, [field]: bad } });
        if (taken && res.status < 400) continue;
        expectRefusal(res, `${name} ?${field}=${bad.slice(0, 40)}`);
      }
    }
    // A parameter given twice (an array where one value goes).
    if (route.method !== 'GET' || route.path === 'events') return;
    const twice = `${pathOf(route)}?${new URLSearchParams([...Object.entries(base).map(([k, v]) => [k, String(v)]), ['brand', 'spetter'], ['brand', 'velvet']])}`;
    const res = await owner.request(route.method, twice, route.method === 'GET' ? undefined : (requiredOf(route.body, 'body') ?? {}), { origin: origin() });
    if (res.status >= 400) expectRefusal(res, `${name} ?brand twice`);
    else expect(res.status).toBeLessThan(300);
  });

  test.each(withParams.map((r) => [key(r), r] as const))('%s: a path id that is not one, or names nothing, is a 4xx in Dutch', async (name, route) => {
    for (const bad of HOSTILE_IDS) {
      const params = Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map(([, p]) => [p!, p === 'id' || p === 'photo' ? bad : '1']));
      expectRefusal(await send(route, { params }), `${name} :id=${bad}`);
    }
  });

  test.each(CONSOLE_ROUTES.filter((r) => r.method !== 'GET').map((r) => [key(r), r] as const))('%s: a state-changing call from another site is a 403 in Dutch', async (name, route) => {
    for (const headers of [{ origin: rt().tenantUrl('spetter') }, { origin: 'null' }, { origin: 'http://evil.example' }]) {
      const res = await send(route, { headers });
      expect(res.status, `${name} ${headers.origin}`).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'forbidden_origin' });
      expectRefusal(res, `${name} ${headers.origin}`);
    }
    // No Origin, but the browser says it comes from another site.
    const res = await owner.request(route.method, pathOf(route), requiredOf(route.body, 'body') ?? {}, { 'sec-fetch-site': 'cross-site' });
    expect(res.status, `${name} cross-site`).toBe(403);
  });

  test('none of these requests changed anything, and the owner is still logged in', async () => {
    expect(await counts(rt())).toEqual(before);
    expect((await owner.get('/api/console/me')).status).toBe(200);
  });

  test('a staff member without the role: 403 in Dutch on every such route, each attempt one entry in the audit log, nothing else changed', async () => {
    const { client: marketer, id } = await staffLogin(rt(), 'marketer', ['spetter']);
    marketer.jar.set(CONSOLE_LOCALE_COOKIE, 'nl');
    const refused = CONSOLE_ROUTES.filter((r) => r.roles !== 'public' && !may('marketer', r.roles));
    expect(refused.length).toBeGreaterThan(30);
    const start = await counts(rt());
    const entries = () => rt().db.db.selectFrom('audit_log').selectAll().where('staff_id', '=', id).where('action', '=', 'forbidden').orderBy('id').execute();
    for (const route of refused) {
      const res = await marketer.request(route.method, pathOf(route), route.method === 'GET' ? undefined : (requiredOf(route.body, 'body') ?? {}), { origin: origin() });
      expect(res.status, key(route)).toBe(403);
      expect(res.json().error, key(route)).toEqual({ code: 'forbidden', message: message('error_forbidden', 'nl') });
      expect((await entries()).at(-1), key(route)).toMatchObject({ role: 'marketer', details: JSON.stringify({ route: `${route.method} /api/console/${route.path}` }) });
    }
    expect(await entries()).toHaveLength(refused.length);
    expect({ ...(await counts(rt())), audit_log: 0 }).toEqual({ ...start, audit_log: 0 });
  });
});
