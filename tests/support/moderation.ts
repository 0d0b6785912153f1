/**
 * Fixtures of the console's moderation tests (issue 22): members, photos, chat photos and
 * complaints written straight to the database (fast: no password hashing or image encoding; the
 * access matrix makes hundreds), and the member-side calls that make real ones (an upload, a
 * photo sent in a chat), as a browser does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { hostFetch, type HostResponse, type TestRuntime } from './runtime.ts';
import { activeMember, type Client } from './accounts.ts';

const nowIso = () => new Date().toISOString();

/** Where the fixtures write: a started runtime, or (browser tests) the suite's database and a media folder. */
export type FixtureTarget = { db: Pick<TestRuntime['db'], 'db'>; services: Pick<TestRuntime['services'], 'mediaDir'> };

/** A member in the state a test needs, with their profile. */
export async function rawMember(rt: FixtureTarget, brand: string, state: { status?: 'active' | 'not_confirmed'; suspended?: boolean } = {}): Promise<{ userId: number; profileId: number }> {
  const db = rt.db.db;
  const email = `m-${randomBytes(6).toString('hex')}@example.com`;
  const user = await db
    .insertInto('users')
    .values({ tenant_id: brand, email, password_hash: 'x', language: 'nl', status: state.status ?? 'active', suspended_at: state.suspended ? nowIso() : null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const profile = await db
    .insertInto('profiles')
    .values({ tenant_id: brand, user_id: user.id, name: `Lid${user.id}`, gender: 'female', sexuality: 'hetero', birth_date: '1990-01-01', country: 'NL', last_seen_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: user.id, profileId: profile.id };
}

/** A stored photo file (a few bytes: staff media serves it as it is) and its name. */
function photoFile(rt: FixtureTarget, brand: string): string {
  const filename = `${brand}/${randomBytes(8).toString('hex')}.webp`;
  const path = join(rt.services.mediaDir, filename);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, 'RIFF....WEBP');
  return filename;
}

/** A profile photo waiting for screening, of a new member of the brand. */
export async function rawPendingPhoto(rt: FixtureTarget, brand: string): Promise<{ id: number; filename: string; userId: number; profileId: number }> {
  const owner = await rawMember(rt, brand);
  const filename = photoFile(rt, brand);
  const photo = await rt.db.db
    .insertInto('photos')
    .values({ profile_id: owner.profileId, filename, thumb_filename: filename.replace(/\.webp$/, '-t.webp'), status: 'pending', is_main: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: photo.id, filename, ...owner };
}

/** A message between two new members of the brand, in a conversation of its own: its id. */
async function rawMessage(rt: FixtureTarget, brand: string, message: { kind: 'text' | 'photo'; body?: string; media?: string; photo_status?: 'pending'; hold_status?: 'held'; hold_reasons?: string }): Promise<{ id: number; conversationId: number }> {
  const db = rt.db.db;
  const [from, to] = [await rawMember(rt, brand), await rawMember(rt, brand)];
  const at = nowIso();
  const conversation = await db.insertInto('conversations').values({ tenant_id: brand, started_by: from.profileId, created_at: at }).returning('id').executeTakeFirstOrThrow();
  await db
    .insertInto('conversation_members')
    .values([
      { conversation_id: conversation.id, profile_id: from.profileId, other_profile_id: to.profileId, last_message_at: at },
      { conversation_id: conversation.id, profile_id: to.profileId, other_profile_id: from.profileId, last_message_at: at },
    ])
    .execute();
  const row = await db
    .insertInto('messages')
    .values({ conversation_id: conversation.id, sender_profile_id: from.profileId, body: null, media: null, client_id: randomUUID(), created_at: at, ...message })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, conversationId: conversation.id };
}

/** A photo sent in a chat between two new members of the brand, waiting for screening: its message id. */
export const rawPendingChatPhoto = (rt: FixtureTarget, brand: string) => rawMessage(rt, brand, { kind: 'photo', media: photoFile(rt, brand), photo_status: 'pending' });

/** A text message held by the brand's safety rules, waiting for a moderator: its message id. */
export const rawHeldMessage = (rt: TestRuntime, brand: string) => rawMessage(rt, brand, { kind: 'text', body: 'Bel me op 0612345678', hold_status: 'held', hold_reasons: JSON.stringify({ reasons: ['contacts'] }) });

/** An open complaint of one new member about another, on the brand. */
export async function rawComplaint(rt: TestRuntime, brand: string): Promise<{ id: number; reporter: { userId: number; profileId: number }; reported: { userId: number; profileId: number } }> {
  const [reporter, reported] = [await rawMember(rt, brand), await rawMember(rt, brand)];
  const row = await rt.db.db
    .insertInto('complaints')
    .values({ tenant_id: brand, reporter_user_id: reporter.userId, reported_profile_id: reported.profileId, reason: 'scam', subject: 'Vraagt om geld', message: 'Vroeg om een cadeaukaart.', created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, reporter, reported };
}

/** A JPEG of one colour, as a phone would upload it. */
let colour = 0;
async function jpeg(): Promise<Buffer> {
  colour += 37;
  return sharp({ create: { width: 320, height: 320, channels: 3, background: { r: colour % 256, g: 90, b: 140 } } }).jpeg().toBuffer();
}

/** A multipart POST of one photo by a member's browser. */
async function postPhoto(client: Client, path: string): Promise<HostResponse> {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(await jpeg())], { type: 'image/jpeg' }), 'me.jpg');
  const req = new Request('http://x/', { method: 'POST', body: form });
  const body = Buffer.from(await req.arrayBuffer());
  return hostFetch(client.rt, client.tenant, path, {
    method: 'POST',
    headers: { cookie: client.cookieHeader(), 'x-forwarded-for': client.ip, origin: `http://${client.tenant}.localhost:${client.rt.port}`, 'content-type': req.headers.get('content-type')!, 'content-length': String(body.length) },
    body,
  });
}

/** POST /api/photos.php: a member uploads a profile photo. */
export const uploadPhoto = (client: Client) => postPhoto(client, '/api/photos.php');

/** POST /api/chat.php?photo=1: a member sends a photo to a profile. */
export const sendChatPhoto = (client: Client, profileId: number) => postPhoto(client, `/api/chat.php?photo=1&profile_id=${profileId}&client_id=${randomUUID()}`);

export type Member = Awaited<ReturnType<typeof activeMember>> & { profileId: number; userId: number };

/** An active member who signed up as a browser does, hetero of the gender given (velvet: in Berlin), with their ids. */
export async function screeningMember(rt: TestRuntime, gender: 'female' | 'male', tenant = 'spetter'): Promise<Member> {
  const m = await activeMember(rt, tenant, { gender, sexuality: 'hetero', ...(tenant === 'velvet' ? { country: 'DE', region: 'Berlin' } : {}) });
  const user = await m.client.user();
  return { ...m, profileId: user.profile.id, userId: user.id } as Member;
}
