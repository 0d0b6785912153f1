/**
 * The console's access matrix (issue 22), generated from its route table (CONSOLE_ROUTES): every
 * route × every role (scoped to one brand) × an object or `?brand=` of that brand and of another
 * × a member's cookie × no cookie, each answer checked against what the route declares. A refused
 * role's attempt is in the audit log. A /api/console/ route the table lacks fails the test, and so
 * does a route of the table without a sample request here. The member API refuses a staff cookie,
 * and a brand's host has no console.
 */
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { CONSOLE_ROUTES, type AnyConsoleRoute } from '../../src/server/console/routes.ts';
import { PERMISSIONS, STAFF_ROLES, may, type StaffRole } from '../../src/contract/console.ts';
import { engines, type TestRuntime } from '../support/runtime.ts';
import { Client, PASSWORD, activeMember, useRuntime } from '../support/accounts.ts';
import { addStaff, consoleClient, staffLogin, totpCode } from '../support/console.ts';
import { openEvents } from '../support/sse.ts';
import { rawComplaint, rawHeldMessage, rawMember, rawPendingChatPhoto, rawPendingPhoto } from '../support/moderation.ts';

const IN = 'spetter';
const OUT = 'velvet';
const key = (route: AnyConsoleRoute) => `${route.method} ${route.path}`;

/** A member in the state a route needs: their user id. */
const member = async (rt: TestRuntime, brand: string, state: Parameters<typeof rawMember>[2] = {}) => (await rawMember(rt, brand, state)).userId;

/** A fictional profile written straight to the database, with one photo when asked (its id answered too). */
async function fictionalProfile(rt: TestRuntime, brand: string, withPhoto = false): Promise<{ id: number; photo: number | null }> {
  const db = rt.db.db;
  const row = await db
    .insertInto('profiles')
    .values({ tenant_id: brand, user_id: null, fictional: 1, name: 'Persona', gender: 'female', sexuality: 'hetero', birth_date: '1992-01-01', country: brand === 'velvet' ? 'DE' : 'NL', last_seen_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (!withPhoto) return { id: row.id, photo: null };
  const photo = await db.insertInto('photos').values({ profile_id: row.id, filename: `${brand}/${row.id}.webp`, thumb_filename: `${brand}/${row.id}-t.webp`, status: 'active' }).returning('id').executeTakeFirstOrThrow();
  return { id: row.id, photo: photo.id };
}

/** A member's conversation with a fictional profile, the member's message unanswered (waiting in the inbox). */
async function waitingConversation(rt: TestRuntime, brand: string): Promise<number> {
  const db = rt.db.db;
  const userId = await member(rt, brand);
  const { id: memberProfile } = await db.selectFrom('profiles').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow();
  const { id: persona } = await fictionalProfile(rt, brand);
  const now = new Date().toISOString();
  const c = await db.insertInto('conversations').values({ tenant_id: brand, started_by: memberProfile, created_at: now, waiting_since: now }).returning('id').executeTakeFirstOrThrow();
  await db
    .insertInto('conversation_members')
    .values([
      { conversation_id: c.id, profile_id: memberProfile, other_profile_id: persona, last_message_at: now, unread: 0 },
      { conversation_id: c.id, profile_id: persona, other_profile_id: memberProfile, last_message_at: now, unread: 1 },
    ])
    .execute();
  const m = await db.insertInto('messages').values({ conversation_id: c.id, sender_profile_id: memberProfile, kind: 'text', body: 'Hoi', client_id: `access-${c.id}`, created_at: now, notified_at: now }).returning('id').executeTakeFirstOrThrow();
  await db.updateTable('conversations').set({ last_message_id: m.id }).where('id', '=', c.id).execute();
  return c.id;
}

let jpeg: Buffer | undefined;

/** A postback of the brand, written straight to the database (as if a member of a network had bought). */
async function postback(rt: TestRuntime, brand: string): Promise<number> {
  const key = `purchase:${Math.random().toString(36).slice(2)}`;
  const row = await rt.db.db.insertInto('postbacks').values({ tenant_id: brand, user_id: null, event: 'purchase', event_key: key, network: 'net', url: 'http://127.0.0.1:9/' }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

interface Sample {
  /** The member the path names (`:id`), made fresh for each call in the state the route needs. */
  member?: { status?: 'active' | 'not_confirmed'; suspended?: boolean };
  /** Another object the path names, made fresh on the brand for each call: its path parameters, and what a body may name. */
  object?: (rt: TestRuntime, brand: string) => Promise<{ params: Record<string, string | number>; body?: unknown }>;
  /** The path names a postback (`:id`) of the brand. */
  postback?: true;
  /** The staff member the path names (`:id`), added fresh for each call. */
  staff?: boolean;
  /** The body, or a function that makes a fresh one for each call (a new staff member's e-mail). */
  body?: unknown;
  /** A list route: the brand asked for goes into `?brand=`. */
  brandQuery?: boolean;
  /** The fictional profile the path names (`:id`), made fresh for each call; with `:photo`, one of its photos. */
  fictional?: { photo?: boolean };
  /** The conversation of the fictional inbox the path names (`:id`), made fresh; `claim`: the caller claims it first. */
  conversation?: { claim?: boolean };
  /** A multipart upload of a photo instead of a JSON body. */
  upload?: boolean;
  /** An event stream: the answer's status is read, then the stream closed. */
  stream?: boolean;
  /** The answer of an allowed call on an object in scope. */
  ok: number;
}

/** One valid request per console route; a route without one fails the test. */
const SAMPLES: Record<string, Sample> = {
  'POST login': { body: { email: 'nobody@example.com', password: 'wrong-password' }, ok: 401 },
  'POST enrol': { body: { email: 'nobody@example.com', password: 'wrong-password', code: '123456' }, ok: 401 },
  'POST enrol/password': { body: { token: 'aaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbb', password: 'een-lang-wachtwoord' }, ok: 400 },
  'POST logout': { ok: 204 },
  'GET me': { ok: 200 },
  'GET openapi.json': { ok: 200 },
  'GET members': { brandQuery: true, ok: 200 },
  'GET members/:id': { member: {}, ok: 200 },
  'POST members/:id/suspend': { member: {}, body: { reason: 'Oplichting' }, ok: 200 },
  'POST members/:id/unsuspend': { member: { suspended: true }, body: { reason: 'Bezwaar toegekend' }, ok: 200 },
  'POST members/:id/credits': { member: {}, body: { credits: 5, reason: 'Excuses' }, ok: 200 },
  'POST members/:id/resend-activation': { member: { status: 'not_confirmed' }, ok: 200 },
  'POST members/:id/directdebit-block': { member: {}, body: { reason: 'Stornering' }, ok: 200 },
  'POST members/:id/delete': { member: {}, body: { reason: 'Verzoek van het lid' }, ok: 200 },
  'GET audit': { brandQuery: true, ok: 200 },
  'GET fictional': { brandQuery: true, ok: 200 },
  'POST fictional': { brandQuery: true, body: { name: 'Nieuwe persona', gender: 'female', sexuality: 'hetero', birth_date: '1990-05-05', country: 'NL' }, ok: 201 },
  'GET fictional/:id': { fictional: {}, ok: 200 },
  'POST fictional/:id': { fictional: {}, body: { about: 'Een nieuw verhaal.' }, ok: 200 },
  'POST fictional/:id/retire': { fictional: {}, body: { reason: 'Persona loopt af' }, ok: 200 },
  'POST fictional/:id/photos': { fictional: {}, upload: true, ok: 200 },
  'POST fictional/:id/photos/:photo': { fictional: { photo: true }, body: { action: 'main' }, ok: 200 },
  'GET inbox': { brandQuery: true, ok: 200 },
  'GET inbox/stats': { brandQuery: true, ok: 200 },
  'GET inbox/:id': { conversation: {}, ok: 200 },
  'POST inbox/:id/claim': { conversation: {}, ok: 200 },
  'POST inbox/:id/release': { conversation: { claim: true }, ok: 200 },
  'POST inbox/:id': { conversation: { claim: true }, body: { text: 'Hoi! Leuk dat je schrijft.' }, ok: 200 },
  'GET events': { brandQuery: true, stream: true, ok: 200 },
  'GET photos': { brandQuery: true, ok: 200 },
  'POST photos/approve': { object: async (rt, brand) => ({ params: {}, body: { ids: [(await rawPendingPhoto(rt, brand)).id] } }), ok: 200 },
  'POST photos/:id': { object: async (rt, brand) => ({ params: { id: (await rawPendingPhoto(rt, brand)).id } }), body: { status: 'rejected', reason: 'copyright' }, ok: 200 },
  'GET chat-photos': { brandQuery: true, ok: 200 },
  'POST chat-photos/:id': { object: async (rt, brand) => ({ params: { id: (await rawPendingChatPhoto(rt, brand)).id } }), body: { status: 'active' }, ok: 200 },
  'GET media/:brand/:file': {
    // An approved photo, which every role reading members sees of its brand (a pending one: those that screen photos).
    object: async (rt, brand) => {
      const photo = await rawPendingPhoto(rt, brand);
      await rt.db.db.updateTable('photos').set({ status: 'active' }).where('id', '=', photo.id).execute();
      const [folder, file] = photo.filename.split('/') as [string, string];
      return { params: { brand: folder, file } };
    },
    ok: 200,
  },
  'GET complaints': { brandQuery: true, ok: 200 },
  'GET complaints/:id': { object: async (rt, brand) => ({ params: { id: (await rawComplaint(rt, brand)).id } }), ok: 200 },
  'POST complaints/:id': { object: async (rt, brand) => ({ params: { id: (await rawComplaint(rt, brand)).id } }), body: { action: 'review' }, ok: 200 },
  'GET held': { brandQuery: true, ok: 200 },
  'POST held/:id': { object: async (rt, brand) => ({ params: { id: (await rawHeldMessage(rt, brand)).id } }), body: { action: 'reject', reason: 'Contactgegevens' }, ok: 200 },
  'GET safety': { brandQuery: true, ok: 200 },
  'GET revenue': { brandQuery: true, ok: 200 },
  'GET postbacks': { brandQuery: true, ok: 200 },
  'POST postbacks/:id/resend': { postback: true, ok: 200 },
  'GET sources': { brandQuery: true, ok: 200 },
  'GET experiments': { brandQuery: true, ok: 200 },
  // spetter's alonetonight lander has the variant `direct` (tenants/spetter/landers/); ending it again answers the same.
  'POST experiments/end': { brandQuery: true, body: { variant: 'direct' }, ok: 200 },
  'GET staff': { ok: 200 },
  'POST staff': { body: () => ({ email: `nieuw-${Math.random().toString(36).slice(2)}@example.com`, role: 'moderator', brands: [IN] }), ok: 201 },
  'POST staff/:id/role': { staff: true, body: { role: 'support', brands: null }, ok: 200 },
  'POST staff/:id/remove': { staff: true, ok: 200 },
};

async function call(rt: TestRuntime, client: Client, route: AnyConsoleRoute, brand: string): Promise<{ status: number; text: string }> {
  const sample = SAMPLES[key(route)]!;
  let path = `/api/console/${route.path}`;
  let body = sample.body;
  if (sample.member) path = path.replace(':id', String(await member(rt, brand, sample.member)));
  if (sample.fictional) {
    const made = await fictionalProfile(rt, brand, sample.fictional.photo);
    path = path.replace(':id', String(made.id)).replace(':photo', String(made.photo));
  }
  if (sample.conversation) {
    const id = await waitingConversation(rt, brand);
    path = path.replace(':id', String(id));
    if (sample.conversation.claim) await client.post(`/api/console/inbox/${id}/claim`);
  }
  if (sample.object) {
    const made = await sample.object(rt, brand);
    for (const [name, value] of Object.entries(made.params)) path = path.replace(`:${name}`, String(value));
    body = made.body ?? body;
  }
  if (sample.postback) path = path.replace(':id', String(await postback(rt, brand)));
  if (sample.staff) path = path.replace(':id', String((await addStaff(rt, 'moderator')).id));
  if (sample.brandQuery) path += `?brand=${brand}`;
  if (sample.stream) {
    const opened = await openEvents(client, { path });
    opened.close();
    return { status: opened.res.statusCode ?? 0, text: '' };
  }
  if (sample.upload) {
    jpeg ??= await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 120, g: 60, b: 90 } } }).jpeg().toBuffer();
    const res = await client.upload(path, jpeg);
    return { status: res.status, text: res.text };
  }
  if (typeof body === 'function') body = (body as () => unknown)();
  const res = route.method === 'GET' ? await client.get(path) : await client.post(path, body ?? {});
  return { status: res.status, text: res.text };
}

describe.each(engines())('the console access matrix on %s', (engine) => {
  const rt = useRuntime(engine);

  test('every console route of the Fastify app is in the table, and every route of the table has a sample', () => {
    const printed = rt().app.http.app.printRoutes({ commonPrefix: false });
    // printRoutes draws a tree: the full paths are the concatenated segments; find each declared one.
    const declared = new Set(CONSOLE_ROUTES.map((r) => `/api/console/${r.path}`));
    const served = collectPaths(printed).filter((p) => p.startsWith('/api/console'));
    expect(served.length).toBeGreaterThanOrEqual(declared.size);
    for (const path of served) expect(declared, `${path} is served but not in CONSOLE_ROUTES`).toContain(path);
    for (const route of CONSOLE_ROUTES) expect(SAMPLES, `no sample request for ${key(route)}`).toHaveProperty([key(route)]);
    // Every permission a route names is declared, with the roles it allows.
    for (const route of CONSOLE_ROUTES) if (route.roles !== 'public') expect(PERMISSIONS).toHaveProperty([route.roles]);
  });

  test('no cookie and a member cookie: 401 on every route that needs staff; public routes answer as for anybody', async () => {
    const { client: memberClient } = await activeMember(rt(), IN);
    // The member's own cookie, sent to the console host.
    const withMemberCookie = consoleClient(rt());
    for (const [name, value] of memberClient.jar) withMemberCookie.jar.set(name, value);
    expect(withMemberCookie.jar.size).toBeGreaterThan(0);
    for (const route of CONSOLE_ROUTES) {
      for (const client of [consoleClient(rt()), withMemberCookie]) {
        const res = await call(rt(), client, route, IN);
        expect(res.status, `${key(route)} ${client === withMemberCookie ? 'member cookie' : 'no cookie'}: ${res.text}`).toBe(route.roles === 'public' ? SAMPLES[key(route)]!.ok : 401);
      }
    }
  });

  test.each(STAFF_ROLES)('role %s scoped to one brand: allowed routes answer in scope and 404 out of scope; others 403 and audited', async (role: StaffRole) => {
    const routes = CONSOLE_ROUTES.filter((r) => r.roles !== 'public');
    let counted = 0;
    // One session for the role's calls (a login hashes a password: seconds on a busy machine), and
    // one of its own for the logout, which ends it.
    const shared = await staffLogin(rt(), role, [IN]);
    for (const route of routes) {
      const { client, id } = route.path === 'logout' ? await staffLogin(rt(), role, [IN]) : shared;
      const allowed = may(role, route.roles as keyof typeof PERMISSIONS);
      for (const brand of [IN, OUT]) {
        const res = await call(rt(), client, route, brand);
        const label = `${role} ${key(route)} on ${brand}: ${res.text}`;
        if (!allowed) {
          expect(res.status, label).toBe(403);
          const entry = await rt()
            .db.db.selectFrom('audit_log')
            .selectAll()
            .where('staff_id', '=', id)
            .where('action', '=', 'forbidden')
            .orderBy('id', 'desc')
            .executeTakeFirst();
          expect(entry, label).toMatchObject({ role, details: JSON.stringify({ route: `${route.method} /api/console/${route.path}` }) });
        } else if (brand === OUT && route.scoped) {
          expect(res.status, label).toBe(404);
        } else {
          expect(res.status, label).toBe(SAMPLES[key(route)]!.ok);
          if (route.path === 'logout') break;
        }
        counted++;
      }
    }
    expect(counted).toBeGreaterThan(routes.length);
  });

  test('a staff member of every brand reaches both brands', async () => {
    const { client } = await staffLogin(rt(), 'admin', null);
    for (const brand of [IN, OUT]) {
      expect((await client.get(`/api/console/members/${await member(rt(), brand)}`)).status).toBe(200);
      expect((await client.get(`/api/console/members?brand=${brand}`)).status).toBe(200);
    }
  });

  test('a scoped list shows nothing of other brands, not even counts', async () => {
    const outsider = await member(rt(), OUT);
    const { client } = await staffLogin(rt(), 'support', [IN]);
    const all = (await client.get('/api/console/members')).json().members as { id: number; brand: string }[];
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((m) => m.brand === IN)).toBe(true);
    const { email } = await rt().db.db.selectFrom('users').select('email').where('id', '=', outsider).executeTakeFirstOrThrow();
    expect((await client.get(`/api/console/members?q=${encodeURIComponent(email)}`)).json().members).toEqual([]);
    expect((await client.get(`/api/console/members?q=${encodeURIComponent(email)}&brand=${OUT}`)).status).toBe(404);
  });

  test('the member API refuses a staff cookie (answers as to a visitor), and a brand host has no console', async () => {
    const staff = await staffLogin(rt(), 'owner');
    const onBrand = new Client(rt(), IN);
    for (const [name, value] of staff.client.jar) onBrand.jar.set(name, value);
    const visitor = new Client(rt(), IN);
    const me = await onBrand.get('/api/user.php');
    expect(me.status).toBe(200);
    expect(me.json().user).toBeNull();
    for (const path of ['/api/members.php', '/api/chats.php', '/api/transactions.php']) {
      expect((await onBrand.get(path)).status, path).toBe((await visitor.get(path)).status);
    }
    // The console's routes on a brand host: 404, staff cookie or not.
    expect((await onBrand.get('/api/console/me')).status).toBe(404);
    expect((await onBrand.post('/api/console/login', { email: staff.email, password: PASSWORD, code: totpCode(staff.secret, 1) })).status).toBe(404);
    // A brand's API on the console host: 404.
    expect((await staff.client.get('/api/user.php')).status).toBe(404);
  });

  test('a state-changing console call from another origin is refused (403) and changes nothing', async () => {
    const { client } = await staffLogin(rt(), 'owner');
    const id = await member(rt(), IN);
    const res = await client.post(`/api/console/members/${id}/suspend`, { reason: 'x' }, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    const row = await rt().db.db.selectFrom('users').select('suspended_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.suspended_at).toBeNull();
  });
});

/** The full paths of Fastify's printRoutes({commonPrefix: false}) tree. */
function collectPaths(printed: string): string[] {
  const paths: string[] = [];
  const stack: { depth: number; path: string }[] = [];
  for (const line of printed.split('\n')) {
    const m = /^([│\s]*)(?:[├└]── )(.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length;
    while (stack.length && stack[stack.length - 1]!.depth >= depth) stack.pop();
    const path = (stack[stack.length - 1]?.path ?? '') + m[2]!;
    stack.push({ depth, path });
    if (m[3]) paths.push(path);
  }
  return paths;
}
