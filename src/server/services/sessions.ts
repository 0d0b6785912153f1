import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { readCookie, serializeCookie } from '../../lib/cookies.ts';
import { SIGNED_IN_COOKIE } from '../../lib/signed-in.ts';
import { newToken, parseToken, secretMatches } from './secrets.ts';
import { SITE_USER_COLUMNS, siteUserOf, type SiteUserRow, type UserViews } from './user-view.ts';
import type { SiteUser } from '../../contract/user.ts';
import { compileOnce } from '../db/compiled.ts';
import { LRUCache } from 'lru-cache';
import type { Write } from '../db/writes.ts';

type SessionRow = SiteUserRow & { id: string; tenant_id: string; secret_hash: string; expires_at: string; last_used_at: string; suspended_at: string | null };

export const SESSION_DAYS = 30; // SPEC §9: auth cookie lasts 30 days
const SESSION_MS = SESSION_DAYS * 86_400_000;

/** A logged-in member on one request. */
export interface Session {
  id: string;
  user: SiteUser;
}

/**
 * What a request's session cookie comes to: the member's session, or none; `suspended` when it
 * is the session of a member staff suspended (console, issue 22). Such a session opens nothing
 * (the member is logged out everywhere at once) but tells the request to show /pages/ban; lifting
 * the suspension deletes it.
 */
export interface SessionLookup {
  session: Session | null;
  suspended: boolean;
}

/** A session's expiry moves forward when it is used and at least a day has passed. */
const EXTEND_AFTER_MS = 86_400_000;
/** last_used_at is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60_000;

/**
 * A session's row (with its user, profile and main photo) is kept in memory after the first
 * look-up (not shown in SPEC; our choice): 10,000 sessions for at most 60 s. Any write this
 * process makes to what the row holds empties the cache as it runs. What other processes write:
 * - SQLite (one runtime; the CLI or a test beside it): SQLite's data_version changes, and the next
 *   look-up empties the cache.
 * - PostgreSQL (any number of runtimes): triggers announce each change of a session, user, profile
 *   or photo on the event bus when it commits (migration 2026-11-25-0019), and every runtime drops
 *   that member's sessions, about a millisecond later. While the bus cannot listen, no session is
 *   kept; when it listens again the cache starts empty (what it missed meanwhile is unknown).
 */
export const SESSION_CACHE_SIZE = 10_000;
export const SESSION_CACHE_MS = 60_000;

/** The columns of a session's row that the cache holds, per table; null: every column. */
const CACHED_COLUMNS: Record<string, readonly string[] | null> = {
  users: ['id', 'email', 'status', 'credits', 'paid_user', 'language', 'notifications_disabled', 'signup_date', 'invisible', 'suspended_at'],
  profiles: ['id', 'user_id', 'name', 'country', 'status'],
  photos: null,
  // Touching a session (last_used_at, expires_at) updates the cached row itself.
  sessions: ['id', 'tenant_id', 'user_id', 'secret_hash'],
};

/** Whether a write may change a cached session row: to a table it reads, or to an unknown table. */
export function touchesSessionRows(write: Write): boolean {
  if (write.table === null) return true;
  if (!(write.table in CACHED_COLUMNS)) return false;
  // A new session or user is not cached yet; a new profile or photo changes a cached row.
  if (write.kind === 'insert') return write.table !== 'sessions' && write.table !== 'users';
  if (write.columns === null) return true;
  const cached = CACHED_COLUMNS[write.table] ?? null;
  return cached === null || write.columns.some((column) => cached.includes(column));
}

/** Where the session cache learns that what it holds may have changed (see SESSION_CACHE_SIZE). */
export interface SessionCacheSource {
  /** This process's writes (the database adapter tells each). */
  onWrite(listener: (write: Write) => void): () => void;
  /**
   * What says another process may have written anything: a number that changes then (SQLite's
   * data_version, the bus's listening stretch), or null while nothing can be kept.
   */
  epoch(): number | null;
  /** The member a change of another process was about (PostgreSQL: the triggers' events). */
  onChange?(listener: (change: { user_id?: number; profile_id?: number }) => void): () => void;
}

function createSessionCache(source: SessionCacheSource) {
  /** The cached sessions of each member, by `u<user id>` and `p<profile id>`. */
  const members = new Map<string, Set<string>>();
  const keysOf = (row: SessionRow) => (row.profile_id === null ? [`u${row.user_id}`] : [`u${row.user_id}`, `p${row.profile_id}`]);
  let clearing = false;
  const rows = new LRUCache<string, SessionRow>({
    max: SESSION_CACHE_SIZE,
    ttl: SESSION_CACHE_MS,
    dispose: (row, id) => {
      if (clearing) return; // the whole index goes with it
      for (const key of keysOf(row)) {
        const ids = members.get(key);
        ids?.delete(id);
        if (ids?.size === 0) members.delete(key);
      }
    },
  });
  /** Bumped by every change that drops rows: a look-up started before it is not kept. */
  let generation = 0;
  let epoch = source.epoch();
  const clear = () => {
    generation++;
    clearing = true;
    rows.clear();
    clearing = false;
    members.clear();
  };
  source.onWrite((write) => {
    if (touchesSessionRows(write)) clear();
  });
  source.onChange?.((change) => {
    generation++;
    // A change of no member named (a truncate, a row without one): everything goes.
    const key = typeof change.user_id === 'number' ? `u${change.user_id}` : typeof change.profile_id === 'number' ? `p${change.profile_id}` : null;
    if (key === null) return clear();
    for (const id of [...(members.get(key) ?? [])]) rows.delete(id);
  });
  /** Whether rows may be kept now, emptying the cache when another process may have written. */
  const current = (): boolean => {
    const now = source.epoch();
    if (now !== epoch) {
      epoch = now;
      clear();
    }
    return now !== null;
  };
  return {
    get(id: string): SessionRow | undefined {
      return current() ? rows.get(id) : undefined;
    },
    get generation() {
      return generation;
    },
    keep(id: string, row: SessionRow, since: number): void {
      // current() first: a new listening stretch empties the cache and moves the generation on,
      // so a row read before it is not kept.
      if (!current() || since !== generation) return;
      rows.set(id, row);
      for (const key of keysOf(row)) {
        const ids = members.get(key) ?? new Set<string>();
        ids.add(id);
        members.set(key, ids);
      }
    },
    drop(id: string): void {
      rows.delete(id);
    },
  };
}

export function sessionCookieName(production: boolean): string {
  // __Host- cookies need Secure, so only in production (DESIGN §6).
  return production ? '__Host-session' : 'session';
}

export function createSessionService(deps: { db: Kysely<Database>; views: UserViews; production: boolean; cache?: SessionCacheSource | null }) {
  const { db, views, production } = deps;
  const cache = deps.cache ? createSessionCache(deps.cache) : null;
  const cookieName = sessionCookieName(production);
  // One indexed query a request (by the session's primary key): the session with its user,
  // profile and main photo joined, everything the pages and GET /api/user.php show. Compiled once.
  const SESSION_ID = '\u0000session-id';
  const sessionById = compileOnce<SessionRow, [string]>(
    db,
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .leftJoin('photos', (join) => join.onRef('photos.profile_id', '=', 'profiles.id').on('photos.is_main', '=', 1))
      .select(['sessions.id', 'sessions.tenant_id', 'sessions.secret_hash', 'sessions.expires_at', 'sessions.last_used_at', 'users.suspended_at'])
      .select(SITE_USER_COLUMNS)
      .where('sessions.id', '=', SESSION_ID)
      .orderBy('photos.id')
      .limit(1),
    [SESSION_ID],
  );

  function cookies(value: string | null): string[] {
    const maxAgeSeconds = value === null ? 0 : SESSION_MS / 1000;
    return [
      serializeCookie(cookieName, value ?? '', { maxAgeSeconds, httpOnly: true, secure: production, sameSite: 'Lax' }),
      // A random tag of the session, readable by the pages (src/lib/signed-in.ts).
      serializeCookie(SIGNED_IN_COOKIE, value === null ? '' : randomBytes(9).toString('base64url'), { maxAgeSeconds, secure: production, sameSite: 'Lax' }),
    ];
  }

  return {
    cookieName,

    /** Creates a session for a user and returns the Set-Cookie values; `ip` is the visitor's address (behind a proxy, the one it saw). */
    async create(user: { id: number; tenant_id: string }, req: IncomingMessage, ip: string): Promise<string[]> {
      const token = newToken();
      const now = new Date();
      await db
        .insertInto('sessions')
        .values({
          id: token.id,
          tenant_id: user.tenant_id,
          user_id: user.id,
          secret_hash: token.hash,
          expires_at: new Date(now.getTime() + SESSION_MS).toISOString(),
          last_used_at: now.toISOString(),
          ip: ip || null,
          user_agent: (req.headers['user-agent'] ?? '').slice(0, 300) || null,
        })
        .execute();
      return cookies(token.value);
    },

    /** The Set-Cookie values that end the session in the browser. */
    clearCookies(): string[] {
      return cookies(null);
    },

    async revoke(sessionId: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    },

    /** Revokes every session of a user except, when given, one (password change keeps the current one). */
    async revokeAll(userId: number, except?: string): Promise<void> {
      let q = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (except) q = q.where('id', '!=', except);
      await q.execute();
    },

    /** The session of a request's cookie (see SessionLookup). */
    async lookup(req: IncomingMessage, tenant: Tenant): Promise<SessionLookup> {
      const none = { session: null, suspended: false };
      const token = parseToken(readCookie(req.headers.cookie, cookieName));
      if (!token) return none;
      const now = Date.now();
      let row = cache?.get(token.id);
      // A cached row that looks expired is read again: another request may have extended it.
      if (row && Date.parse(row.expires_at) <= now) {
        cache!.drop(token.id);
        row = undefined;
      }
      if (!row) {
        const since = cache?.generation ?? 0;
        [row] = await sessionById(token.id);
        if (row) cache?.keep(token.id, row, since);
      }
      if (!row || row.tenant_id !== tenant.id || !secretMatches(token.secret, row.secret_hash)) return none;
      if (Date.parse(row.expires_at) <= now) {
        await db.deleteFrom('sessions').where('id', '=', row.id).execute();
        return none;
      }
      if (row.status === 'deletion_requested' || row.status === 'deleted') return none;
      if (row.suspended_at !== null) return { session: null, suspended: true };
      if (now - Date.parse(row.last_used_at) > TOUCH_EVERY_MS) {
        const extend = now - (Date.parse(row.expires_at) - SESSION_MS) > EXTEND_AFTER_MS;
        const touched = { last_used_at: new Date(now).toISOString(), ...(extend ? { expires_at: new Date(now + SESSION_MS).toISOString() } : {}) };
        await db.updateTable('sessions').set(touched).where('id', '=', row.id).execute();
        // The cached row (if this is it) follows, so the next request does not touch again.
        Object.assign(row, touched);
      }
      return { session: { id: row.id, user: siteUserOf(row) }, suspended: false };
    },

    async fromRequest(req: IncomingMessage, tenant: Tenant): Promise<Session | null> {
      return (await this.lookup(req, tenant)).session;
    },

    async touch(session: Session): Promise<void> {
      if (!session.user.profile) return;
      await db.updateTable('profiles').set({ last_seen_at: new Date().toISOString() }).where('id', '=', session.user.profile.id).execute();
    },
  };
}

export type SessionServiceImpl = ReturnType<typeof createSessionService>;
