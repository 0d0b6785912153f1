/**
 * Hostile text and ids (issue 20), driven from the route table: every string field of every
 * declared body and query schema holding NUL or another character a person cannot type, every
 * query parameter of every route (also one a handler reads itself), the text fields of an upload,
 * and every id field holding something that is not an id. Each is a 400 naming the field with
 * its catalogue message in the reader's language, and changes nothing, on both engines
 * (PostgreSQL answered NUL with a 500).
 *
 * A route added later with a body or query schema fails "every route with a schema has a valid
 * sample" until SAMPLES gives it one; its fields are then covered by themselves.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { API_ROUTES } from '../../src/server/api/index.ts';
import type { AnyRoute } from '../../src/server/http/routes.ts';
import { BodyId, QueryAfterId, QueryId } from '../../src/contract/ids.ts';
import { EMAIL_NOTIFICATION_TYPES, TRACKING_KEYS } from '../../src/contract/enums.ts';
import { PAYMENT_METHOD_IDS } from '../../src/lib/payment-methods.ts';
import { MIN_AGE } from '../../src/lib/account-rules.ts';
import { message } from '../../src/server/i18n.ts';
import { engines, type HostResponse, type TestRuntime } from '../support/runtime.ts';
import { Client, PASSWORD, activeMember, snapshot, useRuntime } from '../support/accounts.ts';

type Path = (string | number)[];
type Sample = { body?: unknown; query?: Record<string, string> };

/** What a route is called here: method, path, and its variant (a query it needs, a body field it is told by). */
function routeKey(r: AnyRoute): string {
  const q = r.variant?.query ? `?${new URLSearchParams(r.variant.query)}` : '';
  const has = r.variant?.bodyHas ? ` {${r.variant.bodyHas}}` : '';
  return `${r.method} ${r.path}${q}${has}`;
}

const CLIENT_ID = 'hostile-0001';
const TEST_CHECKOUT = `tst_${'0'.repeat(24)}`;

/** A valid request for every route with a schema (checked against it below); several where a union or a choice of fields needs them. */
const SAMPLES: Record<string, Sample[]> = {
  'POST user.php': [{ body: { email: 'iemand@example.com', password: PASSWORD } }],
  'POST user.php?push=1': [{ body: { subscription: { endpoint: 'https://push.example.com/send/abc', expirationTime: null, keys: { p256dh: 'BNcR', auth: 'tBHI' } } } }],
  'PUT user.php': [{ body: { language: 'de', invisible: false } }],
  'POST signup.php': [
    {
      body: {
        email: 'nieuw@example.com',
        password: PASSWORD,
        name: 'Hanna',
        date_of_birth: '1970-05-17',
        gender: 'female',
        sexuality: 'hetero',
        country: 'DE',
        region: 'BY',
        city: 'München',
        signup_message: 'Hallo zusammen',
        tracking: Object.fromEntries(TRACKING_KEYS.map((k) => [k, 'ad'])),
      },
    },
  ],
  'POST activate.php': [{ body: { token: 'abcdefgh.ijklmnopqrstuvwx' } }],
  'POST reset-password.php': [{ body: { email: 'iemand@example.com' } }],
  'POST reset-password.php {token}': [{ body: { token: 'abcdefgh.ijklmnopqrstuvwx', password: PASSWORD } }],
  'POST mail-change.php': [{ body: { email: 'ander@example.com', password: PASSWORD } }],
  'POST mail-change.php {token}': [{ body: { token: 'abcdefgh.ijklmnopqrstuvwx' } }],
  'POST password.php': [{ body: { old_password: PASSWORD, password: 'nieuw-wachtwoord-2', password_repeat: 'nieuw-wachtwoord-2' } }],
  'DELETE account.php': [{ body: { reason: 'other', password: PASSWORD } }],
  'POST account.php?reactivate=1': [{ body: { token: 'abcdefgh.ijklmnopqrstuvwx' } }],
  'PUT profile.php': [
    {
      body: {
        name: 'Hanna',
        gender: 'female',
        sexuality: 'hetero',
        birth_date: '1970-05-17',
        country: 'DE',
        region: 'BY',
        city: 'München',
        hair_color: 'blond',
        eye_color: 'blue',
        body_type: 'slim',
        relationship_status: 'single',
        tattoos: 'none',
        reason: 'dating',
        about: 'Über mich',
        interests: ['music'],
      },
    },
  ],
  'GET member.php': [{ query: { id: '1' } }],
  'PUT notifications.php': [{ body: { email: { [EMAIL_NOTIFICATION_TYPES[0]]: true }, push: true } }],
  'GET chat.php': [{ query: { id: '1', after: '0', read: '1' } }, { query: { profile_id: '1' } }],
  'POST chat.php?photo=1': [{ query: { conversation_id: '1', client_id: CLIENT_ID } }, { query: { profile_id: '1', client_id: CLIENT_ID } }],
  'POST chat.php': [
    { body: { profile_id: 1, kind: 'text', text: 'Hallo', gift: 'rose', gif: 'wave', client_id: CLIENT_ID } },
    { body: { conversation_id: 1, text: 'Hallo', client_id: CLIENT_ID } },
  ],
  'DELETE chat.php': [{ body: { conversation: { id: 1 } } }],
  'POST chat-typing.php': [{ body: { conversation_id: 1 } }],
  'GET gifs.php': [{ query: { q: 'katze' } }],
  'POST like.php': [{ body: { profile_id: 1 } }],
  'DELETE like.php': [{ body: { profile_id: 1 } }],
  'GET likes.php': [{ query: { type: 'received' } }],
  'POST swipe.php': [{ body: { profile_id: 1, action: 'like' } }],
  'POST block.php': [{ body: { profile_id: 1 } }],
  'DELETE block.php': [{ body: { profile_id: 1 } }],
  'POST complaint.php': [{ body: { profile_id: 1, reason: 'other', subject: 'Betreff', message: 'Eine Nachricht mit Inhalt' } }],
  'POST mail-events.php': [{ body: { event: 'bounce', email: 'iemand@example.com' } }],
  'POST payment.php': [{ body: { package_id: 'basic', method: PAYMENT_METHOD_IDS[0], discount_code: 'WELKOM' } }],
  'GET discountcode.php': [{ query: { code: 'WELKOM' } }, { query: { welcome: 'true' } }],
  'GET transactions.php': [{ query: { id: '1' } }, { query: { before: '5' } }],
  'POST directdebit.php': [
    {
      body: {
        package_id: 'basic',
        discount_code: 'WELKOM',
        holder: 'Hanna Muster',
        iban: 'DE89370400440532013000',
        street: 'Hauptstraße',
        house_number: '1a',
        postcode: '80331',
        city: 'München',
        mobile: '+4915123456789',
        consent: true,
      },
    },
  ],
  'POST directdebit.php?confirm=1': [{ body: { order_id: 1, code: '1234' } }],
  'GET payment.php': [{ query: { id: '1' } }],
  'POST payment-webhook.php': [{ body: { id: 'tr_abc123' } }],
  'GET test-checkout.php': [{ query: { id: TEST_CHECKOUT } }],
  'POST test-checkout.php': [{ body: { id: TEST_CHECKOUT, outcome: 'paid' } }],
  'PUT photos.php': [{ body: { id: 1, main: true } }],
  'DELETE photos.php': [{ body: { id: 1 } }],
  'GET geocode.php': [{ query: { lat: '52.3676', lon: '4.9041' } }],
  'POST consent.php': [{ body: { choice: 'accept', tracking: Object.fromEntries(TRACKING_KEYS.map((k) => [k, 'ad'])) } }],
  'GET members.php': [{ query: { gender: 'female', country: 'DE', region: 'BY', min_age: '30', max_age: '60', page: '1' } }],
};

// ---------------------------------------------------------------------------------------------
// The fields of a schema, found by walking zod 4's definitions

type Leaf = { path: Path; kind: 'text' | 'body id' | 'query id' };

/** Every string field (`*` for an array's items and a record's values) and every id field of a schema. */
function fieldsOf(schema: z.ZodType, path: Path = []): Leaf[] {
  if (schema === (BodyId as z.ZodType)) return [{ path, kind: 'body id' }];
  if (schema === (QueryId as z.ZodType) || schema === (QueryAfterId as z.ZodType)) return [{ path, kind: 'query id' }];
  const def = (schema as unknown as { _zod: { def: Record<string, any> } })._zod.def;
  switch (def.type) {
    case 'string':
    case 'enum':
      return [{ path, kind: 'text' }];
    case 'literal':
      return def.values.some((v: unknown) => typeof v === 'string') ? [{ path, kind: 'text' }] : [];
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, field]) => fieldsOf(field, [...path, key]));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return fieldsOf(def.innerType, path);
    case 'pipe':
      // A preprocess step reads anything: its output schema says what the field is.
      return fieldsOf((def.in as { _zod: { def: { type: string } } })._zod.def.type === 'transform' ? def.out : def.in, path);
    case 'union':
      return (def.options as z.ZodType[]).flatMap((option) => fieldsOf(option, path));
    case 'array':
      return fieldsOf(def.element, [...path, '*']);
    case 'record':
      return fieldsOf(def.valueType, [...path, '*']);
    default:
      return [];
  }
}

/** The sample's own path for a schema path (`*`: its first item), or null when the sample has no value there. */
function resolve(value: unknown, path: Path): Path | null {
  const out: Path = [];
  let current = value;
  for (const step of path) {
    if (typeof current !== 'object' || current === null) return null;
    const key = step === '*' ? (Array.isArray(current) ? 0 : Object.keys(current)[0]) : step;
    if (key === undefined || !(key in current)) return null;
    out.push(key);
    current = (current as Record<string | number, unknown>)[key];
  }
  return current === undefined ? null : out;
}

function withValue<T>(value: T, path: Path, replacement: unknown): T {
  if (path.length === 0) return replacement as T;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  const [head, ...rest] = path;
  copy[head!] = withValue(copy[head!], rest, replacement);
  return copy as T;
}

const withSchema = API_ROUTES.filter((r) => r.body || r.query);

/** Per route and field: the sample that holds the field, where, and whether it is in the body or the query. */
function cases(kind: Leaf['kind']) {
  const out: { name: string; route: AnyRoute; sample: Sample; where: 'body' | 'query'; path: Path }[] = [];
  for (const route of withSchema) {
    const samples = SAMPLES[routeKey(route)] ?? [];
    for (const where of ['body', 'query'] as const) {
      const schema = route[where];
      if (!schema) continue;
      const seen = new Set<string>();
      for (const leaf of fieldsOf(schema)) {
        if (leaf.kind !== kind || seen.has(leaf.path.join('.'))) continue;
        seen.add(leaf.path.join('.'));
        const sample = samples.find((s) => resolve(s[where], leaf.path));
        // A field no sample holds is a failure of the coverage test below, not a silent skip.
        if (!sample) continue;
        out.push({ name: `${routeKey(route)} ${where} ${leaf.path.join('.')}`, route, sample, where, path: resolve(sample[where], leaf.path)! });
      }
    }
  }
  return out;
}

describe('the route table and its samples', () => {
  test('every route with a schema has a valid sample, and every string and id field is held by one', () => {
    const problems: string[] = [];
    for (const route of withSchema) {
      const key = routeKey(route);
      const samples = SAMPLES[key];
      if (!samples) {
        problems.push(`${key}: no sample`);
        continue;
      }
      for (const where of ['body', 'query'] as const) {
        const schema = route[where];
        if (!schema) continue;
        for (const sample of samples) {
          const parsed = schema.safeParse(sample[where] ?? {});
          if (!parsed.success) problems.push(`${key}: sample ${where} ${JSON.stringify(sample[where])} is refused: ${parsed.error.message}`);
        }
        for (const leaf of fieldsOf(schema)) {
          if (!samples.some((s) => resolve(s[where], leaf.path))) problems.push(`${key}: no sample holds ${where} field ${leaf.path.join('.')}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('the walk finds the fields the attack used', () => {
    const names = cases('text').map((c) => c.name);
    for (const name of ['POST user.php body email', 'POST signup.php body city', 'POST payment-webhook.php body id', 'PUT profile.php body about', 'POST complaint.php body message', 'POST directdebit.php body holder', 'POST signup.php body tracking.ref']) {
      expect(names).toContain(name);
    }
    const ids = cases('body id').map((c) => c.name);
    expect(ids).toEqual(expect.arrayContaining(['POST block.php body profile_id', 'DELETE chat.php body conversation.id', 'POST directdebit.php?confirm=1 body order_id', 'POST chat.php body conversation_id']));
    expect(cases('query id').map((c) => c.name)).toEqual(expect.arrayContaining(['GET member.php query id', 'GET chat.php query after', 'GET transactions.php query before']));
  });
});

/** Characters a person cannot type; the lone surrogates only travel in JSON (a URL or form carries none). */
const CONTROLS = ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f'];
const SURROGATES = ['\ud800', '\udfff'];

const BAD_BODY_IDS: unknown[] = [true, '1', [1], '0x1', '1e0', 1.5, 0, -1, 2 ** 31];
const BAD_QUERY_IDS = ['1e0', '0x1', '+1', ' 1', '1.0', '', '-1', '2147483648'];

describe.each(engines())('hostile input on %s', (engine) => {
  const rt = useRuntime(engine);
  let member: Client;
  let before: Record<string, number>;

  /** Rows of everything these requests could change. */
  async function counts(r: TestRuntime): Promise<Record<string, number>> {
    const db = r.db.db;
    const count = async (table: 'blocks' | 'likes' | 'swipes' | 'complaints' | 'conversations' | 'messages' | 'payments' | 'photos' | 'push_subscriptions' | 'directdebit_orders') =>
      Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const tables = ['blocks', 'likes', 'swipes', 'complaints', 'conversations', 'messages', 'payments', 'photos', 'push_subscriptions', 'directdebit_orders'] as const;
    const rows = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)] as const)));
    return { ...(await snapshot(r)), ...rows };
  }

  beforeAll(async () => {
    // A member of a brand whose default is English, who reads German: the refusals must be German.
    ({ client: member } = await activeMember(rt(), 'velvet', { country: 'DE', region: null, city: null }));
    const res = await member.put('/api/user.php', { language: 'de' });
    expect(res.status).toBe(200);
    member.jar.set('locale', 'de');
    before = await counts(rt());
  });

  /** Sends a sample to its route as the member's browser would (an outside caller posts a form). */
  function send(route: AnyRoute, sample: Sample, extraQuery: [string, string][] = []): Promise<HostResponse> {
    const query = new URLSearchParams({ ...route.variant?.query, ...sample.query });
    for (const [k, v] of extraQuery) query.append(k, v);
    const path = `/api/${route.path}${query.size ? `?${query}` : ''}`;
    const headers: Record<string, string> = { origin: rt().tenantUrl('velvet') };
    if (sample.body === undefined || route.method === 'GET') return member.request(route.method, path, undefined, headers);
    if (route.who === 'outside') {
      const form = new URLSearchParams(sample.body as Record<string, string>).toString();
      return member.request(route.method, path, form, { ...headers, 'content-type': 'application/x-www-form-urlencoded' });
    }
    return member.request(route.method, path, sample.body, headers);
  }

  /** A 400 naming the field, with the route's code for it (or invalid_input) and its catalogue message in German. */
  function expectRefusal(res: HostResponse, route: AnyRoute, field: string, label: string) {
    expect(res.status, `${label}: ${res.text}`).toBe(400);
    const code = route.messages?.[field] ?? 'invalid_input';
    const key = route.messages?.[field] ?? 'error_bad_request';
    expect(res.json(), label).toEqual({ error: { code, message: message(key, 'de', { min_age: MIN_AGE }, 'en'), field } });
  }

  test.each(cases('text').map((c) => [c.name, c] as const))('%s holding a control character is a 400 naming it', async (_name, c) => {
    const characters = c.where === 'body' && c.route.who !== 'outside' ? [...CONTROLS, ...SURROGATES] : CONTROLS;
    for (const ch of characters) {
      const hostile = withValue(c.sample[c.where], c.path, `a${ch}b`);
      const res = await send(c.route, { ...c.sample, [c.where]: hostile });
      expectRefusal(res, c.route, String(c.path[0]), `${c.name} U+${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    }
  });

  test('a body with a control character in a field name is a 400 naming it', async () => {
    const route = API_ROUTES.find((r) => routeKey(r) === 'PUT profile.php')!;
    const res = await send(route, { body: { 'name\u0000': 'x' } });
    expectRefusal(res, route, 'name\u0000', 'key');
  });

  test.each(API_ROUTES.map((r) => [routeKey(r), r] as const))('%s: a query parameter holding NUL is a 400 naming it, also where the handler reads it itself', async (_key, route) => {
    // No body the handler could act on (the check comes first): only the field that picks the route's variant.
    const sample = { ...SAMPLES[routeKey(route)]?.[0], body: route.body ? (route.variant?.bodyHas ? { [route.variant.bodyHas]: 'x' } : {}) : undefined };
    for (const name of ['token', 'next']) {
      const res = await send(route, sample, [[name, `a\u0000b`]]);
      expectRefusal(res, route, name, `${routeKey(route)} ?${name}`);
    }
    const repeated = await send(route, sample, [['u', 'ok'], ['u', 'a\u001fb']]);
    expectRefusal(repeated, route, 'u', `${routeKey(route)} ?u twice`);
  });

  test('a text field of a photo upload holding a control character is a 400 naming it', async () => {
    for (const [path, query] of [['/api/photos.php', ''], ['/api/chat.php', `?photo=1&profile_id=1&client_id=${CLIENT_ID}`]] as const) {
      const body = [
        '--xyz\r\nContent-Disposition: form-data; name="caption"\r\n\r\na\u0000b\r\n',
        '--xyz\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nnot a photo\r\n--xyz--\r\n',
      ].join('');
      const res = await member.request('POST', path + query, body, { origin: rt().tenantUrl('velvet'), 'content-type': 'multipart/form-data; boundary=xyz' });
      expect(res.status, res.text).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid_input', field: 'caption', message: message('error_bad_request', 'de', {}, 'en') });
    }
  });

  test.each(cases('body id').map((c) => [c.name, c] as const))('%s: a body id that is not a JSON integer from 1 to 2^31-1 is a 400', async (_name, c) => {
    for (const bad of BAD_BODY_IDS) {
      const res = await send(c.route, { ...c.sample, body: withValue(c.sample.body, c.path, bad) });
      expectRefusal(res, c.route, String(c.path[0]), `${c.name} = ${JSON.stringify(bad)}`);
    }
  });

  test.each(cases('query id').map((c) => [c.name, c] as const))('%s: a query id that is not decimal digits is a 400', async (_name, c) => {
    for (const bad of BAD_QUERY_IDS) {
      const res = await send(c.route, { ...c.sample, query: withValue(c.sample.query, c.path, bad) });
      expectRefusal(res, c.route, String(c.path[0]), `${c.name} = ${JSON.stringify(bad)}`);
    }
  });

  test('none of these requests changed anything', async () => {
    expect(await counts(rt())).toEqual(before);
    expect((await member.user()).language).toBe('de');
  });
});

describe.each(engines())('ids that are not ids on %s', (engine) => {
  const rt = useRuntime(engine);

  test('blocking "profile 1" by true, "1", [1], "0x1" or "1e0" blocks nobody and keeps the conversation', async () => {
    // Profile 1 is a demo profile of the first brand seeded.
    const profile = await rt().db.db.selectFrom('profiles').select(['id', 'tenant_id', 'country']).where('id', '=', 1).executeTakeFirstOrThrow();
    const { client } = await activeMember(rt(), profile.tenant_id, { country: profile.country, region: null, city: null });
    const sent = await client.post('/api/chat.php', { profile_id: 1, kind: 'text', text: 'Hallo', client_id: 'before-block-1' });
    expect(sent.status, sent.text).toBe(200);
    for (const bad of [true, '1', [1], '0x1', '1e0', 1.5, ' 1', { id: 1 }]) {
      const res = await client.post('/api/block.php', { profile_id: bad }, { origin: rt().tenantUrl(profile.tenant_id) });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid_input', field: 'profile_id' });
    }
    expect((await client.get('/api/block.php')).json().profiles).toEqual([]);
    expect(await rt().db.db.selectFrom('blocks').selectAll().execute()).toEqual([]);
    const chats = (await client.get('/api/chats.php')).json().chats as { profile: { id: number } }[];
    expect(chats.map((c) => c.profile.id)).toEqual([1]);
    // The same id as a number blocks (the refusals above were about the form of the id, not the profile).
    expect((await client.post('/api/block.php', { profile_id: 1 }, { origin: rt().tenantUrl(profile.tenant_id) })).status).toBe(200);
    expect((await client.get('/api/block.php')).json().profiles.map((p: { id: number }) => p.id)).toEqual([1]);
  });

  test('pages read their query the same way: a code holding NUL is refused on the credits page, a complaint is about profile 1 only by "1"', async () => {
    const profile = await rt().db.db.selectFrom('profiles').select(['name', 'tenant_id', 'country']).where('id', '=', 1).executeTakeFirstOrThrow();
    const { client } = await activeMember(rt(), profile.tenant_id, { country: profile.country, region: null, city: null });
    const notFound = message('discount_not_found', rt().services.tenants().find((t) => t.id === profile.tenant_id)!.locales.default);
    const credits = await client.get('/credits?code=a%00b');
    expect(credits.status).toBe(200);
    expect(credits.text).toContain(notFound);
    expect((await client.get('/credits')).text).not.toContain(notFound);
    expect((await client.get('/complaints?profile=1')).text).toContain(profile.name);
    for (const bad of ['0x1', '1e0', '+1', '%201', '1.0']) {
      const page = await client.get(`/complaints?profile=${bad}`);
      expect(page.status, bad).toBe(200);
      expect(page.text, bad).not.toContain(profile.name);
    }
  });
});
