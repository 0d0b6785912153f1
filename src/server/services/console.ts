import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import type { Database } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { nowIso, startsWith } from '../db/engine.ts';
import { AppError, authRequired, notFound } from '../errors.ts';
import type { Limits } from '../limits.ts';
import { grant, spend } from '../ledger.ts';
import { announceSuspension, liftSuspension, suspendMember } from './suspension.ts';
import type { AuditCallback } from './moderation.ts';
import type { EventBus } from '../bus.ts';
import { announceSessionEnded } from './console-events.ts';
import { brandCondition, brandsToQuery, inScope } from './brand-scope.ts';
import { involvement, partnerBrands, POOL_PHOTO_STATUS } from './pool-view.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.ts';
import { hashSecret, newToken, parseToken, secretMatches } from './secrets.ts';
import { readCookie, serializeCookie } from '../../lib/cookies.ts';
import { MAX_ID } from '../../contract/ids.ts';
import {
  CONSOLE_PAGE_SIZE,
  RECOVERY_CODES,
  STAFF_ROLES,
  STAFF_SESSION_HOURS,
  SUPPORT_MAX_CREDITS,
  may,
  type AuditInput,
  type ConsoleMembersInput,
  type StaffRole,
  type StaffView,
} from '../../contract/console.ts';

/** Wrong password or code this many times in a row locks a staff account for STAFF_LOCK_MINUTES. */
export const STAFF_LOGIN_MAX_FAILURES = 5;
export const STAFF_LOCK_MINUTES = 15;
/** How long the enrolment link of `sitegen staff add` stays valid. */
export const ENROL_LINK_HOURS = 72;
const SESSION_MS = STAFF_SESSION_HOURS * 3_600_000;
const TOTP_ISSUER = 'sitegen console';

type Executor = Kysely<Database> | Transaction<Database>;

/** A logged-in staff member on one request. */
export interface StaffSession {
  id: string;
  staff: StaffView;
}

/** What an audit entry says: who (a staff member or null for the CLI/system), what, about what, why. */
export interface AuditEntry {
  staff: Pick<StaffView, 'id' | 'role'> | null;
  action: string;
  brand?: string | null;
  object?: { type: string; id: string | number } | null;
  reason?: string | null;
  details?: unknown;
  ip?: string | null;
}

/**
 * Writes one audit entry (DESIGN §11): called by every state-changing console service in the
 * transaction of the change itself, so a change without its entry can never commit.
 */
export async function audit(trx: Executor, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      at: nowIso(),
      staff_id: entry.staff?.id ?? null,
      role: entry.staff?.role ?? null,
      brand: entry.brand ?? null,
      object_type: entry.object?.type ?? null,
      object_id: entry.object ? String(entry.object.id) : null,
      action: entry.action,
      reason: entry.reason ?? null,
      details: entry.details === undefined ? null : JSON.stringify(entry.details),
      ip: entry.ip ?? null,
    })
    .execute();
}

/**
 * The audit entry of a photo decision (moderation.ts AuditCallback), written in the decision's
 * transaction: who, which photo or chat photo, whose, why.
 */
export function auditPhotoDecision(staff: StaffView, ip: string): AuditCallback {
  return (entry, trx) => {
    const [type, id] = entry.object.split(':') as [string, string];
    return audit(trx, { staff, action: entry.action, brand: entry.brand, object: { type: type === 'message' ? 'chat_photo' : 'photo', id }, reason: entry.reason, ip, details: { member_id: entry.member_id } });
  };
}

export function staffCookieName(production: boolean): string {
  return production ? '__Host-staff' : 'staff';
}

const brandsOf = (value: string | null): string[] | null => (value === null ? null : (JSON.parse(value) as string[]));
const viewOf = (row: { id: number; email: string; role: StaffRole; brands: string | null }): StaffView => ({ id: row.id, email: row.email, role: row.role, brands: brandsOf(row.brands) });

function totpOf(email: string, secret: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

/** A recovery code as shown: two groups of five letters and digits. */
function newRecoveryCode(): string {
  const raw = encodeBase32LowerCaseNoPadding(randomBytes(7)).slice(0, 10);
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}
const normaliseRecovery = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');

export type ConsoleService = ReturnType<typeof createConsoleService>;

export function createConsoleService(deps: {
  db: Kysely<Database>;
  /** The runtime's event bus (the CLI has none: it suspends nobody). */
  bus?: EventBus;
  limits: Limits;
  production: boolean;
  /** Resends a member's activation mail (the accounts service's own, with its limits). */
  resendActivation?: (userId: number) => Promise<void>;
  /** Erases a member as their own deletion does (accounts.erase with their photos), `alongside` in its transaction. */
  erase?: (userId: number, alongside: (trx: Transaction<Database>) => Promise<void>) => Promise<void>;
  /** The brands served now, for their pools (services/pool-view.ts); without it staff see their own brands' members only. */
  tenants?: () => readonly Tenant[];
}) {
  const { db, limits } = deps;
  const cookieName = staffCookieName(deps.production);
  const loginsPerIp = limits({ name: 'console_login_ip', points: 30, windowSeconds: 900 });

  const lockedError = (minutes: number) => new AppError('login_locked', 429, { params: { minutes }, extra: { retry_after: minutes * 60 } });
  const loginFailed = () => new AppError('login_failed', 401);

  async function staffByEmail(email: string) {
    return db.selectFrom('staff').selectAll().where('email', '=', email.trim().toLowerCase()).where('removed_at', 'is', null).executeTakeFirst();
  }

  /** Counts one login check (accounts.ts reserveLoginCheck); null while the account is locked. */
  async function reserveCheck(staffId: number): Promise<number | null> {
    const now = Date.now();
    const row = await db
      .updateTable('staff')
      .set((eb) => ({
        failed_logins: eb.case().when('locked_until', 'is', null).then(eb('failed_logins', '+', 1)).else(1).end(),
        locked_until: eb
          .case()
          .when(eb.and([eb('locked_until', 'is', null), eb('failed_logins', '>=', STAFF_LOGIN_MAX_FAILURES - 1)]))
          .then(new Date(now + STAFF_LOCK_MINUTES * 60_000).toISOString())
          .else(null)
          .end(),
      }))
      .where('id', '=', staffId)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', new Date(now).toISOString())]))
      .returning('failed_logins')
      .executeTakeFirst();
    return row ? row.failed_logins : null;
  }

  /** The password check of every login and enrolment, with the lockout; answers the staff row. */
  async function checkPassword(email: string, password: string, ip: string) {
    await loginsPerIp.take(ip);
    const row = await staffByEmail(email);
    if (!row || !row.password_hash) {
      await burnPasswordCheck(password);
      throw loginFailed();
    }
    const check = await reserveCheck(row.id);
    if (check === null) {
      const left = row.locked_until ? Date.parse(row.locked_until) - Date.now() : STAFF_LOCK_MINUTES * 60_000;
      throw lockedError(Math.max(1, Math.ceil(left / 60_000)));
    }
    const failed = () => (check >= STAFF_LOGIN_MAX_FAILURES ? lockedError(STAFF_LOCK_MINUTES) : null);
    if (!(await verifyPassword(password, row.password_hash))) throw failed() ?? loginFailed();
    return { row, failed };
  }

  /** A TOTP code of the current window (±1 step), each step used once; true when it matched. */
  async function useTotp(row: { id: number; email: string; totp_secret: string | null }, code: string): Promise<boolean> {
    if (!row.totp_secret || !/^\d{6}$/.test(code)) return false;
    const delta = totpOf(row.email, row.totp_secret).validate({ token: code, window: 1 });
    if (delta === null) return false;
    const step = TOTP.counter() + delta;
    // A code seen before (the same step or an earlier one) is refused: a replayed code opens nothing.
    const used = await db
      .updateTable('staff')
      .set({ totp_last_step: step })
      .where('id', '=', row.id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(used.numUpdatedRows) > 0;
  }

  async function useRecoveryCode(staffId: number, code: string): Promise<boolean> {
    const hash = hashSecret(normaliseRecovery(code));
    const used = await db
      .updateTable('staff_recovery_codes')
      .set({ used_at: nowIso() })
      .where('staff_id', '=', staffId)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) > 0;
  }

  async function startSession(trx: Executor, row: { id: number; session_generation: number }, ip: string): Promise<string> {
    const token = newToken();
    await trx
      .insertInto('staff_sessions')
      .values({ id: token.id, staff_id: row.id, secret_hash: token.hash, generation: row.session_generation, ip, expires_at: new Date(Date.now() + SESSION_MS).toISOString() })
      .execute();
    return serializeCookie(cookieName, token.value, { maxAgeSeconds: STAFF_SESSION_HOURS * 3600, httpOnly: true, secure: deps.production, sameSite: 'Strict' });
  }

  async function enrolmentOf(row: { id: number; email: string; totp_secret: string | null }) {
    let secret = row.totp_secret;
    if (!secret) {
      secret = new Secret({ size: 20 }).base32;
      await db.updateTable('staff').set({ totp_secret: secret, totp_enabled: 0 }).where('id', '=', row.id).where('totp_enabled', '=', 0).execute();
    }
    const uri = totpOf(row.email, secret).toString();
    return { enrol: true as const, secret, otpauth: uri, qr_svg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
  }

  /** Ten fresh recovery codes (any earlier ones end), stored hashed; answered once. */
  async function newRecoveryCodes(trx: Executor, staffId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await trx.deleteFrom('staff_recovery_codes').where('staff_id', '=', staffId).execute();
    await trx
      .insertInto('staff_recovery_codes')
      .values(codes.map((code) => ({ staff_id: staffId, code_hash: hashSecret(normaliseRecovery(code)) })))
      .execute();
    return codes;
  }

  async function requireMember(staff: StaffView, id: number) {
    const user = await db.selectFrom('users').selectAll().where('id', '=', id).where('status', '!=', 'deleted').executeTakeFirst();
    // A member of a brand outside the staff member's scope does not exist for them.
    if (!user || !inScope(staff, user.tenant_id)) throw notFound();
    return user;
  }

  type UserRow = Awaited<ReturnType<typeof requireMember>>;
  type ProfileRow = Selectable<Database['profiles']>;

  const profileFacts = (profile: ProfileRow) => ({
    id: profile.id,
    name: profile.name,
    gender: profile.gender,
    sexuality: profile.sexuality,
    birth_date: profile.birth_date,
    country: profile.country,
    region: profile.region,
    city: profile.city,
    about: profile.about,
    status: profile.status,
    listed: profile.listed === 1,
    last_seen_at: profile.last_seen_at,
  });

  /** A member's photos, of any status or (`approved`: a member of another brand of the pool, pool-view.ts photosShown) approved only. */
  const photosOf = (profileId: number, shown: 'all' | 'approved' = 'all') =>
    db
      .selectFrom('photos')
      .select(['id', 'filename', 'thumb_filename', 'status', 'is_main', 'created_at'])
      .where('profile_id', '=', profileId)
      .$if(shown === 'approved', (q) => q.where('status', '=', POOL_PHOTO_STATUS))
      .orderBy('position')
      .execute();

  /**
   * A member's complaints by and about them, blocks and conversations (without their text); with
   * `partners` (a pool view) only those whose other side is a member of these brands.
   */
  async function relatedOf(profileId: number, userId: number, partners: string[] | null) {
    const otherOf = (column: 'complaints.reported_profile_id' | 'blocks.blocker_profile_id' | 'blocks.blocked_profile_id' | 'conversation_members.other_profile_id') =>
      db.selectFrom('profiles').select('profiles.id').where('profiles.id', '=', sql.ref<number>(column)).where('profiles.tenant_id', 'in', partners ?? []);
    const [complaintsBy, complaintsAbout, blocks, conversations] = await Promise.all([
      db
        .selectFrom('complaints')
        .select(['id', 'reported_profile_id', 'reason', 'subject', 'status', 'created_at'])
        .where('reporter_user_id', '=', userId)
        .$if(partners !== null, (q) => q.where((eb) => eb.exists(otherOf('complaints.reported_profile_id'))))
        .orderBy('id', 'desc')
        .execute(),
      db
        .selectFrom('complaints')
        .select(['id', 'reporter_user_id', 'reason', 'subject', 'status', 'created_at'])
        .where('reported_profile_id', '=', profileId)
        .$if(partners !== null, (q) => q.where('complaints.tenant_id', 'in', partners!))
        .orderBy('id', 'desc')
        .execute(),
      db
        .selectFrom('blocks')
        .select(['blocker_profile_id', 'blocked_profile_id', 'created_at'])
        .where((eb) => eb.or([eb('blocker_profile_id', '=', profileId), eb('blocked_profile_id', '=', profileId)]))
        .$if(partners !== null, (q) => q.where((eb) => eb.or([eb.exists(otherOf('blocks.blocker_profile_id')), eb.exists(otherOf('blocks.blocked_profile_id'))])))
        .execute(),
      db
        .selectFrom('conversation_members')
        .innerJoin('conversations', 'conversations.id', 'conversation_members.conversation_id')
        .select(['conversations.id', 'conversation_members.other_profile_id', 'conversations.started_by', 'conversations.created_at', 'conversation_members.last_message_at'])
        .select((eb) => eb.selectFrom('messages').whereRef('messages.conversation_id', '=', 'conversations.id').select(eb.fn.countAll<number>().as('n')).as('messages'))
        .where('conversation_members.profile_id', '=', profileId)
        .$if(partners !== null, (q) => q.where((eb) => eb.exists(otherOf('conversation_members.other_profile_id'))))
        .orderBy('conversation_members.last_message_at', 'desc')
        .limit(200)
        .execute(),
    ]);
    // The other side of blocks and conversations by name and brand (another of the pool, issue 24), a fictional profile marked (DESIGN §10).
    const otherIds = [...new Set([...blocks.flatMap((b) => [b.blocker_profile_id, b.blocked_profile_id]), ...conversations.map((c) => c.other_profile_id)])].filter((pid) => pid !== profileId);
    const others = new Map(
      otherIds.length ? (await db.selectFrom('profiles').select(['id', 'name', 'fictional', 'tenant_id']).where('id', 'in', otherIds).execute()).map((p) => [p.id, { name: p.name, fictional: p.fictional === 1, brand: p.tenant_id }]) : [],
    );
    const other = (pid: number) => ({ profile_id: pid, name: others.get(pid)?.name ?? null, fictional: others.get(pid)?.fictional ?? false, brand: others.get(pid)?.brand ?? null });
    return {
      complaints: { by: complaintsBy, about: complaintsAbout },
      blocks: {
        by: blocks.filter((b) => b.blocker_profile_id === profileId).map((b) => ({ ...other(b.blocked_profile_id), created_at: b.created_at })),
        of: blocks.filter((b) => b.blocked_profile_id === profileId).map((b) => ({ ...other(b.blocker_profile_id), created_at: b.created_at })),
      },
      conversations: conversations.map((c) => ({ id: c.id, other_profile_id: c.other_profile_id, other_name: other(c.other_profile_id).name, other_fictional: other(c.other_profile_id).fictional, other_brand: other(c.other_profile_id).brand, started_by_member: c.started_by === profileId, created_at: c.created_at, last_message_at: c.last_message_at, messages: Number(c.messages ?? 0) })),
    };
  }

  /** A member of a brand in scope, as their brand's staff see them. */
  async function fullView(staff: StaffView, user: UserRow) {
    const profile = await db.selectFrom('profiles').selectAll().where('user_id', '=', user.id).executeTakeFirst();
    const profileId = profile?.id ?? -1;
    const now = nowIso();
    const [photos, ledger, payments, sessions, related] = await Promise.all([
      photosOf(profileId),
      db.selectFrom('credit_ledger').select(['id', 'delta', 'reason', 'ref', 'note', 'created_at']).where('user_id', '=', user.id).orderBy('id', 'desc').limit(100).execute(),
      may(staff.role, 'members.payments')
        ? db.selectFrom('payments').select(['id', 'package_id', 'credits', 'amount', 'currency', 'method', 'provider', 'status', 'paid_at', 'created_at', 'reversed_amount']).where('user_id', '=', user.id).orderBy('id', 'desc').limit(100).execute()
        : Promise.resolve(null),
      db.selectFrom('sessions').select(['last_used_at', 'ip', 'expires_at']).where('user_id', '=', user.id).orderBy('last_used_at', 'desc').execute(),
      relatedOf(profileId, user.id, null),
    ]);
    return {
      view: 'full' as const,
      member: {
        id: user.id,
        brand: user.tenant_id,
        email: user.email,
        status: user.suspended_at ? 'suspended' : user.status,
        suspended_at: user.suspended_at,
        credits: user.credits,
        paid_user: user.paid_user === 1,
        directdebit_blocked: user.directdebit_blocked === 1,
        language: user.language,
        invisible: user.invisible === 1,
        signup_date: user.signup_date,
        source: user.tracking ? (JSON.parse(user.tracking) as unknown) : null,
        locked_until: user.locked_until,
      },
      profile: profile ? profileFacts(profile) : null,
      photos,
      ledger,
      payments,
      ...related,
      // Open sessions: unexpired ones, and none while suspended (their rows stay only to show /pages/ban).
      sessions: { count: user.suspended_at ? 0 : sessions.filter((s) => s.expires_at > now).length, last_seen: sessions[0]?.last_used_at ?? null, address: sessions[0]?.ip ?? null },
    };
  }

  /** Closes the open console streams of ended sessions on every runtime (the CLI on SQLite has no bus: each stream finds out at its next check). */
  const sessionsEnded = (staffId: number, sessionId: string | null = null) =>
    deps.bus ? announceSessionEnded(deps.bus, staffId, sessionId).catch(() => undefined) : Promise.resolve();

  /** Who changes staff: an owner on the staff page (their id and address in the audit log), or the CLI (`by`: the system user). */
  type StaffActor = { staff: StaffView | null; ip?: string; by?: string };
  const staffRow = (trx: Executor, who: { email: string } | { id: number }) =>
    trx
      .selectFrom('staff')
      .select(['id', 'role', 'brands'])
      .where((eb) => ('email' in who ? eb('email', '=', who.email.trim().toLowerCase()) : eb('id', '=', who.id)))
      .where('removed_at', 'is', null)
      .executeTakeFirst();

  /** A staff member's new role and brands: their sessions end. False when there is no such staff member. */
  async function changeStaff(who: { email: string } | { id: number }, role: StaffRole, brands: string[] | null, actor: StaffActor): Promise<boolean> {
    if (!STAFF_ROLES.includes(role)) throw new Error(`role must be one of ${STAFF_ROLES.join(', ')}`);
    const changed = await db.transaction().execute(async (trx) => {
      const row = await staffRow(trx, who);
      if (!row) return null;
      await trx
        .updateTable('staff')
        .set((eb) => ({ role, brands: brands ? JSON.stringify(brands) : null, session_generation: eb('session_generation', '+', 1) }))
        .where('id', '=', row.id)
        .execute();
      await trx.deleteFrom('staff_sessions').where('staff_id', '=', row.id).execute();
      await audit(trx, { staff: actor.staff, ip: actor.ip, action: 'staff_role', object: { type: 'staff', id: row.id }, details: { from: { role: row.role, brands: brandsOf(row.brands) }, to: { role, brands }, by: actor.by ?? null } });
      return row.id;
    });
    if (changed !== null) await sessionsEnded(changed);
    return changed !== null;
  }

  /** Removes a staff member (kept for the audit log's sake, marked removed): their sessions end. */
  async function dropStaff(who: { email: string } | { id: number }, actor: StaffActor): Promise<boolean> {
    const dropped = await db.transaction().execute(async (trx) => {
      const row = await staffRow(trx, who);
      if (!row) return null;
      await trx
        .updateTable('staff')
        .set((eb) => ({ removed_at: nowIso(), session_generation: eb('session_generation', '+', 1) }))
        .where('id', '=', row.id)
        .execute();
      await trx.deleteFrom('staff_sessions').where('staff_id', '=', row.id).execute();
      await audit(trx, { staff: actor.staff, ip: actor.ip, action: 'staff_remove', object: { type: 'staff', id: row.id }, details: { by: actor.by ?? null } });
      return row.id;
    });
    if (dropped !== null) await sessionsEnded(dropped);
    return dropped !== null;
  }

  return {
    cookieName,

    /**
     * POST /api/console/login: email + password + code (TOTP or recovery code). Before
     * enrolment the password alone answers the secret to enrol (`enrol: true`), no session.
     */
    async login(input: { email: string; password: string; code?: string }, ip: string): Promise<{ staff: StaffView; cookie: string } | Awaited<ReturnType<typeof enrolmentOf>>> {
      const { row, failed } = await checkPassword(input.email, input.password, ip);
      if (!row.totp_enabled) {
        await db.updateTable('staff').set({ failed_logins: 0, locked_until: null }).where('id', '=', row.id).execute();
        return enrolmentOf(row);
      }
      const code = input.code ?? '';
      const ok = /^\d{6}$/.test(code) ? await useTotp(row, code) : code.length > 0 && (await useRecoveryCode(row.id, code));
      if (!ok) throw failed() ?? new AppError('console_code_wrong', 401, { field: 'code' });
      return db.transaction().execute(async (trx) => {
        await trx.updateTable('staff').set({ failed_logins: 0, locked_until: null }).where('id', '=', row.id).execute();
        const cookie = await startSession(trx, row, ip);
        await audit(trx, { staff: row, action: 'login', ip, details: { recovery_code: !/^\d{6}$/.test(code) } });
        return { staff: viewOf(row), cookie };
      });
    },

    /** POST /api/console/enrol: the first code confirms the secret; TOTP is on and ten recovery codes are answered once. */
    async enrol(input: { email: string; password: string; code: string }, ip: string): Promise<{ staff: StaffView; cookie: string; recovery_codes: string[] }> {
      const { row, failed } = await checkPassword(input.email, input.password, ip);
      if (row.totp_enabled) throw new AppError('console_enrolled', 409);
      if (!(await useTotp(row, input.code))) throw failed() ?? new AppError('console_code_wrong', 401, { field: 'code' });
      return db.transaction().execute(async (trx) => {
        await trx.updateTable('staff').set({ totp_enabled: 1, failed_logins: 0, locked_until: null }).where('id', '=', row.id).execute();
        const recovery_codes = await newRecoveryCodes(trx, row.id);
        const cookie = await startSession(trx, row, ip);
        await audit(trx, { staff: row, action: 'enrol', ip });
        return { staff: viewOf(row), cookie, recovery_codes };
      });
    },

    /** POST /api/console/enrol/password: the one-time link of `sitegen staff add` sets the password. */
    async setPasswordByLink(token: string, password: string, ip: string): Promise<{ email: string }> {
      const parsed = parseToken(token);
      const invalid = () => new AppError('reset_link_invalid', 400);
      if (!parsed) throw invalid();
      const row = await db.selectFrom('staff').selectAll().where('removed_at', 'is', null).where('enrol_token_hash', 'like', `${parsed.id}:%`).executeTakeFirst();
      const stored = row?.enrol_token_hash?.split(':')[1];
      if (!row || !stored || !secretMatches(parsed.secret, stored) || !row.enrol_expires_at || row.enrol_expires_at < nowIso()) throw invalid();
      const hash = await hashPassword(password);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('staff').set({ password_hash: hash, enrol_token_hash: null, enrol_expires_at: null }).where('id', '=', row.id).execute();
        await audit(trx, { staff: row, action: 'password_set', ip });
      });
      return { email: row.email };
    },

    /** The staff member of a request's staff cookie, or null: a member's cookie is never one. */
    async fromCookie(cookieHeader: string | undefined): Promise<StaffSession | null> {
      const parsed = parseToken(readCookie(cookieHeader, cookieName));
      if (!parsed) return null;
      const row = await db
        .selectFrom('staff_sessions')
        .innerJoin('staff', 'staff.id', 'staff_sessions.staff_id')
        .select(['staff_sessions.id as sid', 'staff_sessions.secret_hash', 'staff_sessions.generation', 'staff_sessions.expires_at', 'staff.id', 'staff.email', 'staff.role', 'staff.brands', 'staff.session_generation', 'staff.removed_at', 'staff.totp_enabled'])
        .where('staff_sessions.id', '=', parsed.id)
        .executeTakeFirst();
      if (!row || !secretMatches(parsed.secret, row.secret_hash)) return null;
      if (row.removed_at !== null || row.generation !== row.session_generation || row.expires_at <= nowIso() || !row.totp_enabled) return null;
      return { id: row.sid, staff: viewOf(row) };
    },

    /** Whether a session still opens the console (not logged out, role unchanged, not removed, not expired). */
    async sessionLive(session: StaffSession): Promise<boolean> {
      const row = await db
        .selectFrom('staff_sessions')
        .innerJoin('staff', 'staff.id', 'staff_sessions.staff_id')
        .select('staff_sessions.id')
        .where('staff_sessions.id', '=', session.id)
        .where('staff.removed_at', 'is', null)
        .whereRef('staff_sessions.generation', '=', 'staff.session_generation')
        .where('staff_sessions.expires_at', '>', nowIso())
        .executeTakeFirst();
      return row !== undefined;
    },

    async logout(session: StaffSession, ip: string): Promise<string> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('staff_sessions').where('id', '=', session.id).execute();
        await audit(trx, { staff: session.staff, action: 'logout', ip });
      });
      await sessionsEnded(session.staff.id, session.id);
      return serializeCookie(cookieName, '', { maxAgeSeconds: 0, httpOnly: true, secure: deps.production, sameSite: 'Strict' });
    },

    /** The cookie that ends a staff session in the browser. */
    clearCookie: () => serializeCookie(cookieName, '', { maxAgeSeconds: 0, httpOnly: true, secure: deps.production, sameSite: 'Strict' }),

    /** A refused attempt (a role without the permission): written to the audit log. */
    async refused(staff: StaffView, route: string, ip: string): Promise<void> {
      await audit(db, { staff, action: 'forbidden', ip, details: { route } });
    },

    // ---- Staff (CLI `sitegen staff` and the console's staff page) ----------------------------------

    /**
     * Adds a staff member. With a password: TOTP on at once, its otpauth:// URI answered. Without:
     * a one-time enrolment link's token (the link sets the password, the login enrols TOTP).
     */
    async addStaff(input: { email: string; role: StaffRole; brands: string[] | null; password?: string; by?: string; actor?: { staff: StaffView; ip: string } }): Promise<{ id: number; otpauth?: string; token?: string }> {
      const email = input.email.trim().toLowerCase();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`${input.email} is not an e-mail address`);
      if (!STAFF_ROLES.includes(input.role)) throw new Error(`role must be one of ${STAFF_ROLES.join(', ')}`);
      const taken = await db.selectFrom('staff').select('id').where('email', '=', email).executeTakeFirst();
      if (taken) throw new Error(`${email} is staff already`);
      const secret = input.password ? new Secret({ size: 20 }).base32 : null;
      const token = input.password ? null : newToken();
      const passwordHash = input.password ? await hashPassword(input.password) : null;
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('staff')
          .values({
            email,
            role: input.role,
            brands: input.brands ? JSON.stringify(input.brands) : null,
            password_hash: passwordHash,
            totp_secret: secret,
            totp_enabled: secret ? 1 : 0,
            enrol_token_hash: token ? `${token.id}:${token.hash}` : null,
            enrol_expires_at: token ? new Date(Date.now() + ENROL_LINK_HOURS * 3_600_000).toISOString() : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await audit(trx, { staff: input.actor?.staff ?? null, ip: input.actor?.ip, action: 'staff_add', object: { type: 'staff', id: row.id }, details: { email, role: input.role, brands: input.brands, by: input.by ?? null } });
        return row.id;
      });
      return secret ? { id, otpauth: totpOf(email, secret).toString() } : { id, token: token!.value };
    },

    /** GET /api/console/staff and `sitegen staff list`: staff not removed, oldest first. */
    async listStaff(): Promise<(StaffView & { totp_enabled: boolean; created_at: string })[]> {
      const rows = await db.selectFrom('staff').selectAll().where('removed_at', 'is', null).orderBy('id').execute();
      return rows.map((row) => ({ ...viewOf(row), totp_enabled: row.totp_enabled === 1, created_at: row.created_at }));
    },

    /** Changes a staff member's role and brands (the CLI): their sessions end. */
    async setRole(email: string, role: StaffRole, brands: string[] | null, by?: string): Promise<boolean> {
      return changeStaff({ email }, role, brands, { staff: null, by });
    },

    /** Removes a staff member (the CLI; kept for the audit log's sake, marked removed): their sessions end. */
    async removeStaff(email: string, by?: string): Promise<boolean> {
      return dropStaff({ email }, { staff: null, by });
    },

    /** POST /api/console/staff: the staff page adds a member of staff with a one-time enrolment link. */
    async addStaffAs(actor: StaffView, input: { email: string; role: StaffRole; brands: string[] | null }, ip: string): Promise<{ id: number; token: string }> {
      const taken = await db.selectFrom('staff').select('id').where('email', '=', input.email.trim().toLowerCase()).executeTakeFirst();
      if (taken) throw new AppError('console_staff_exists', 409, { field: 'email' });
      const added = await this.addStaff({ ...input, actor: { staff: actor, ip } });
      return { id: added.id, token: added.token! };
    },

    /** POST /api/console/staff/{id}/role: never one's own (an owner cannot lock themselves out). */
    async changeStaffAs(actor: StaffView, id: number, role: StaffRole, brands: string[] | null, ip: string): Promise<void> {
      if (id === actor.id) throw new AppError('console_staff_self', 409);
      if (!(await changeStaff({ id }, role, brands, { staff: actor, ip }))) throw notFound();
    },

    /** POST /api/console/staff/{id}/remove: never oneself. */
    async removeStaffAs(actor: StaffView, id: number, ip: string): Promise<void> {
      if (id === actor.id) throw new AppError('console_staff_self', 409);
      if (!(await dropStaff({ id }, { staff: actor, ip }))) throw notFound();
    },

    // ---- Members --------------------------------------------------------------------------

    /** GET /api/console/members: only brands in the staff member's scope, newest first. */
    async members(staff: StaffView, input: ConsoleMembersInput) {
      let q = db
        .selectFrom('users')
        .leftJoin('profiles', 'profiles.user_id', 'users.id')
        .where('users.status', '!=', 'deleted');
      q = q.where(brandCondition('users.tenant_id', brandsToQuery(staff, input.brand)));
      const term = input.q?.trim();
      if (term) {
        // An id: a number no id column can hold names nobody (PostgreSQL would refuse to compare it).
        if (/^\d+$/.test(term)) q = Number(term) <= MAX_ID ? q.where((eb) => eb.or([eb('users.id', '=', Number(term)), eb('profiles.id', '=', Number(term))])) : q.where(sql<boolean>`1 = 0`);
        // A prefix of the address or the name, read from its index (migration 0029).
        else if (term.includes('@')) q = q.where(startsWith(db, sql`users.email`, term.toLowerCase()));
        // A name: the members whose profile's name starts so, from the name's index first (the
        // join alone would read every member of the brand before their profiles).
        else q = q.where('users.id', 'in', db.selectFrom('profiles').select('user_id').where(startsWith(db, sql`lower(profiles.name)`, term.toLowerCase())).where('user_id', 'is not', null).$narrowType<{ user_id: number }>());
      }
      if (input.status === 'suspended') q = q.where('users.suspended_at', 'is not', null);
      else if (input.status) q = q.where('users.status', '=', input.status).where('users.suspended_at', 'is', null);
      if (input.from) q = q.where('users.signup_date', '>=', input.from);
      if (input.to) q = q.where('users.signup_date', '<', new Date(Date.parse(`${input.to}T00:00:00Z`) + 86_400_000).toISOString());
      if (input.source) q = q.where('users.tracking', 'like', `%${input.source.replace(/[%_\\"]/g, '')}%`);
      const rows = await q
        .select(['users.id', 'users.tenant_id', 'users.email', 'users.status', 'users.suspended_at', 'users.credits', 'users.signup_date', 'users.tracking', 'profiles.id as profile_id', 'profiles.name'])
        .orderBy('users.id', 'desc')
        .limit(CONSOLE_PAGE_SIZE + 1)
        .offset((input.page - 1) * CONSOLE_PAGE_SIZE)
        .execute();
      return {
        members: rows.slice(0, CONSOLE_PAGE_SIZE).map((r) => ({
          id: r.id,
          brand: r.tenant_id,
          email: r.email,
          status: r.suspended_at ? 'suspended' : r.status,
          credits: r.credits,
          signup_date: r.signup_date,
          source: r.tracking ? (JSON.parse(r.tracking) as unknown) : null,
          profile_id: r.profile_id,
          name: r.name,
        })),
        page: input.page,
        more: rows.length > CONSOLE_PAGE_SIZE,
      };
    },

    /**
     * GET /api/console/members/{id}: everything staff need, conversations without their text
     * (`view: 'full'`). A member of another brand of a pool of the staff member's brands, involved
     * with one of their brands' members, answers `view: 'pool'` (services/pool-view.ts): the
     * profile, photos and what concerns those brands' members only, the reading audited. Any
     * other member out of scope does not exist for them (404).
     */
    async member(staff: StaffView, id: number, ip: string) {
      const user = await db.selectFrom('users').selectAll().where('id', '=', id).where('status', '!=', 'deleted').executeTakeFirst();
      if (!user) throw notFound();
      if (inScope(staff, user.tenant_id)) return fullView(staff, user);
      const partners = partnerBrands(staff, user.tenant_id, deps.tenants?.() ?? []);
      const profile = partners.length ? await db.selectFrom('profiles').selectAll().where('user_id', '=', user.id).executeTakeFirst() : undefined;
      if (!profile) throw notFound();
      const via = await involvement(db, { profileId: profile.id, userId: user.id }, partners);
      if (via.length === 0) throw notFound();
      const related = await relatedOf(profile.id, user.id, partners);
      await audit(db, { staff, action: 'member_view_pool', brand: partners[0], object: { type: 'member', id: user.id }, ip, details: { member_brand: user.tenant_id, via } });
      return {
        view: 'pool' as const,
        // Their home brand's account stays theirs: no e-mail, credits, ledger, payments, sessions or source.
        member: { id: user.id, brand: user.tenant_id, status: user.suspended_at ? 'suspended' : user.status },
        via,
        profile: profileFacts(profile),
        // Of another brand's member, the photos the pool shows (photosShown): approved ones only.
        photos: await photosOf(profile.id, 'approved'),
        ...related,
      };
    },

    /** Suspends a member: logged out everywhere at once (their streams closed), hidden from everyone, shown /pages/ban (suspension.ts). */
    async suspend(staff: StaffView, id: number, reason: string, ip: string): Promise<void> {
      const user = await requireMember(staff, id);
      await db.transaction().execute(async (trx) => {
        if (!(await suspendMember(trx, user.id))) throw new AppError('console_already', 409);
        await audit(trx, { staff, action: 'member_suspend', brand: user.tenant_id, object: { type: 'member', id: user.id }, reason, ip });
      });
      if (deps.bus) await announceSuspension(deps.bus, user.id);
    },

    /** Lifts a suspension: listed again, able to log in again (the stopped sessions are gone). */
    async unsuspend(staff: StaffView, id: number, reason: string, ip: string): Promise<void> {
      const user = await requireMember(staff, id);
      await db.transaction().execute(async (trx) => {
        if (!(await liftSuspension(trx, user.id))) throw new AppError('console_already', 409);
        await audit(trx, { staff, action: 'member_unsuspend', brand: user.tenant_id, object: { type: 'member', id: user.id }, reason, ip });
      });
    },

    /** Grants (credits > 0, ledger bonus) or takes back (credits < 0, ledger refund); support at most SUPPORT_MAX_CREDITS. */
    async moveCredits(staff: StaffView, id: number, credits: number, reason: string, ip: string): Promise<{ balance: number }> {
      const user = await requireMember(staff, id);
      if (staff.role === 'support' && Math.abs(credits) > SUPPORT_MAX_CREDITS) {
        throw new AppError('console_credits_limit', 403, { field: 'credits', params: { max: SUPPORT_MAX_CREDITS } });
      }
      return db.transaction().execute(async (trx) => {
        const move = { userId: user.id, credits: Math.abs(credits), ref: `console:${crypto.randomUUID()}`, note: `${reason} (${staff.email})` };
        const balance = credits > 0 ? (await grant(trx, { ...move, reason: 'bonus' })).balance : (await spend(trx, { ...move, reason: 'refund' })).balance;
        await audit(trx, { staff, action: credits > 0 ? 'credits_grant' : 'credits_take', brand: user.tenant_id, object: { type: 'member', id: user.id }, reason, ip, details: { credits, balance } });
        return { balance };
      });
    },

    async resendActivation(staff: StaffView, id: number, ip: string): Promise<void> {
      const user = await requireMember(staff, id);
      if (user.status !== 'not_confirmed') throw new AppError('activate_already', 409);
      if (!deps.resendActivation) throw new AppError('service_unavailable', 503, { key: 'error_unavailable' });
      await deps.resendActivation(user.id);
      await audit(db, { staff, action: 'member_resend_activation', brand: user.tenant_id, object: { type: 'member', id: user.id }, ip });
    },

    /** Erases a member at once, as their own deletion does after 14 days; the ledger and payments stay without personal data. */
    async erase(staff: StaffView, id: number, reason: string, ip: string): Promise<void> {
      const user = await requireMember(staff, id);
      if (!deps.erase) throw new AppError('service_unavailable', 503, { key: 'error_unavailable' });
      await deps.erase(user.id, (trx) => audit(trx, { staff, action: 'member_delete', brand: user.tenant_id, object: { type: 'member', id: user.id }, reason, ip }));
    },

    async blockDirectDebit(staff: StaffView, id: number, reason: string, ip: string): Promise<void> {
      const user = await requireMember(staff, id);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ directdebit_blocked: 1 }).where('id', '=', user.id).execute();
        await audit(trx, { staff, action: 'member_directdebit_block', brand: user.tenant_id, object: { type: 'member', id: user.id }, reason, ip });
      });
    },

    // ---- Audit log ------------------------------------------------------------------------

    /** GET /api/console/audit: newest first, pages of CONSOLE_PAGE_SIZE before an entry id; scoped by brand. */
    async auditLog(staff: StaffView, input: AuditInput) {
      // With the staff member's e-mail (kept after their removal), so a page names who did it.
      let q = db.selectFrom('audit_log').leftJoin('staff', 'staff.id', 'audit_log.staff_id').selectAll('audit_log').select('staff.email as staff_email');
      // A scoped staff member sees the entries of their brands only (entries of no brand are the console's own).
      q = q.where(brandCondition('audit_log.brand', brandsToQuery(staff, input.brand)));
      if (input.staff) q = q.where('audit_log.staff_id', '=', input.staff);
      if (input.action) q = q.where('audit_log.action', '=', input.action);
      if (input.q) {
        const like = `%${input.q.replace(/[%_\\]/g, '')}%`;
        q = q.where((eb) => eb.or([eb('audit_log.reason', 'like', like), eb('audit_log.object_id', '=', input.q!), eb('audit_log.details', 'like', like)]));
      }
      if (input.before) q = q.where('audit_log.id', '<', input.before);
      const rows = await q.orderBy('audit_log.id', 'desc').limit(CONSOLE_PAGE_SIZE + 1).execute();
      return {
        entries: rows.slice(0, CONSOLE_PAGE_SIZE).map((r) => ({ ...r, details: r.details ? (JSON.parse(r.details) as unknown) : null })),
        before: rows.length > CONSOLE_PAGE_SIZE ? rows[CONSOLE_PAGE_SIZE - 1]!.id : null,
      };
    },
  };
}

export { authRequired };
