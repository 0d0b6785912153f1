import type { IncomingMessage } from 'node:http';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/index.ts';
import type { User } from '../db/schema.ts';
import type { TokenKind, Tracking } from '../db/schema.ts';
import { constraintViolation, nowIso } from '../db/engine.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { Locale } from '../../lib/locales.ts';
import { AppError, type ErrorCode } from '../errors.ts';
import { hashPassword, verifyPassword, burnPasswordCheck } from './passwords.ts';
import { newToken, parseToken, secretMatches } from './secrets.ts';
import { findRegion } from '../data/regions.ts';
import { hostName } from '../../tenant/resolve.ts';
import { birthDateProblem, nameProblem, normalizeEmail, isValidEmail, MIN_AGE } from '../../lib/account-rules.ts';
import { isDisposableEmail } from '../../lib/disposable-email.ts';
import type { MailService } from './mail.ts';
import type { SessionServiceImpl } from './sessions.ts';
import type { UserViews } from './user-view.ts';
import type { SiteUser } from '../../contract/user.ts';
import type { SignupInput } from '../../contract/accounts.ts';
import type { EventBus } from '../bus.ts';
import type { Limits } from '../limits.ts';
import { publishToMember } from './events.ts';
import { grant } from '../ledger.ts';
import { relist, setProfileStatus } from './visibility.ts';
import { suspendedError } from './suspension.ts';
import type { PostbackService } from './postbacks.ts';
import type { CountMemberEvent } from './traffic.ts';
import { hasTracking, type Attribution } from '../../lib/attribution.ts';

// Lockout and throttling, chosen here (SPEC §6: "temporarily blocked after too many failed logins").
export const LOGIN_MAX_FAILURES = 5;
/** Window of the per-IP login throttle. */
export const LOGIN_WINDOW_MINUTES = 15;
export const LOCK_MINUTES = 15;
export const LOGIN_ATTEMPTS_PER_IP = 20;
export const RESET_MAILS_PER_DAY = 3; // SPEC §8: "try again tomorrow"
/** Wrong passwords a logged-in member may give in the login window (password and e-mail change, deletion). */
export const PASSWORD_CHECKS_PER_MEMBER = 10;
export const DELETION_WINDOW_DAYS = 14; // SPEC §4, §9

// Mail and abuse limits (issue: "Nothing bounds mail sending"), chosen here and in docs/API.md.
// Each mail a request can make a member or a stranger receive is limited per account and per
// address; look-ups that tell whether an address has an account are limited per address.
export const ABUSE_LIMITS = {
  /** Activation mails sent again: per account and per IP address, an hour. */
  activationResendsPerHour: 3,
  activationResendsPerIpHour: 10,
  /** Address changes asked (each mails the new address): per account and per IP address, a day. */
  mailChangesPerDay: 5,
  mailChangesPerIpDay: 20,
  /** Password-reset requests (each looks an address up) per IP address, an hour; mails per account: RESET_MAILS_PER_DAY. */
  resetLookupsPerIpHour: 10,
  /** New accounts per IP address, an hour (a household or an office may share one). */
  signupsPerIpHour: 5,
};
export type AbuseLimits = typeof ABUSE_LIMITS;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How long each kind of mail link works. */
export const TOKEN_LIFETIME_MS: Record<TokenKind, number> = {
  activate: 7 * DAY,
  reset: HOUR,
  mail_change: DAY,
  reactivate: DELETION_WINDOW_DAYS * DAY,
  unsubscribe: 100 * 365 * DAY,
};

export type { SignupInput };

const fail = (code: ErrorCode, status: number, field?: string, params?: Record<string, string | number>) =>
  new AppError(code, status, { field, params });

/** Whether signups are open for this request (SPEC §5). */
export function signupsOpen(tenant: Tenant, tracking: Tracking | null | undefined): boolean {
  if (tenant.signups === 'all') return true;
  const hasSource = !!tracking && Object.values(tracking).some((v) => typeof v === 'string' && v.length > 0);
  return tenant.signups === 'with_trafficsource' && hasSource;
}

export function createAccountService(deps: {
  db: Kysely<Database>;
  mail: MailService;
  sessions: SessionServiceImpl;
  views: UserViews;
  /** A lasting one-click unsubscribe token for a member (notifications service). */
  unsubscribeToken: (user: { id: number; tenant_id: string }) => Promise<string>;
  /** Production: mail links use https. */
  production?: boolean;
  bus: EventBus;
  limits: Limits;
  /** The numbers of the mail and abuse limits (ABUSE_LIMITS unless configured). */
  abuse?: Partial<AbuseLimits>;
  /** Postbacks of signups and activations to the networks members came from (issue 23). */
  postbacks?: Pick<PostbackService, 'record' | 'dispatch'>;
  /** Counts a signup and an activation for the member's lander and source (traffic.ts), in their transaction. */
  countMember?: CountMemberEvent;
}) {
  const abuse = { ...ABUSE_LIMITS, ...deps.abuse };
  const { db, mail, sessions, views, bus, limits } = deps;
  const HOUR_S = 3600;
  const DAY_S = 86_400;
  const loginsPerIp = limits({ name: 'login_ip', points: LOGIN_ATTEMPTS_PER_IP, windowSeconds: LOGIN_WINDOW_MINUTES * 60 });
  const passwordChecks = limits({ name: 'password_check', points: PASSWORD_CHECKS_PER_MEMBER, windowSeconds: LOGIN_WINDOW_MINUTES * 60 });
  const resends = limits({ name: 'activation_resend', points: abuse.activationResendsPerHour, windowSeconds: HOUR_S });
  const resendsPerIp = limits({ name: 'activation_resend_ip', points: abuse.activationResendsPerIpHour, windowSeconds: HOUR_S });
  const mailChanges = limits({ name: 'mail_change', points: abuse.mailChangesPerDay, windowSeconds: DAY_S });
  const mailChangesPerIp = limits({ name: 'mail_change_ip', points: abuse.mailChangesPerIpDay, windowSeconds: DAY_S });
  const resetLookups = limits({ name: 'reset_ip', points: abuse.resetLookupsPerIpHour, windowSeconds: HOUR_S });
  const signups = limits({ name: 'signup_ip', points: abuse.signupsPerIpHour, windowSeconds: HOUR_S });

  /**
   * The password check of a logged-in member (password change, e-mail change, deletion): a
   * stolen session must not make guessing cheap, so wrong answers are limited per member.
   */
  async function checkOwnPassword(user: User, password: string, field: string, code: 'password_old_wrong' | 'password_wrong' = 'password_old_wrong'): Promise<void> {
    // Counted before the check (atomically in the limit's store), so that no more than the limit
    // is ever checked, however many arrive at once; a right password gives its count back.
    await passwordChecks.take(user.id);
    if (await verifyPassword(password, user.password_hash)) {
      await passwordChecks.giveBack(user.id);
      return;
    }
    throw fail(code, 400, field);
  }

  const locked = (minutes: number) => new AppError('login_locked', 429, { params: { minutes }, extra: { retry_after: minutes * 60 } });

  /**
   * Counts a login's password check before it is made, in one conditional UPDATE of the member's
   * row, so that no more than LOGIN_MAX_FAILURES are ever checked however many logins arrive at
   * once on however many runtimes: both engines apply concurrent UPDATEs of one row one after the
   * other, and PostgreSQL evaluates the WHERE and SET of a waiting one on the row as the first left
   * it. `failed_logins` counts the wrong and in-flight checks since the last success; the check
   * that reaches the limit locks the account for LOCK_MINUTES at once (a right password still
   * unlocks it), and a lock that has run out starts the count again. Null: the account is locked.
   */
  async function reserveLoginCheck(userId: number): Promise<number | null> {
    const now = Date.now();
    const row = await db
      .updateTable('users')
      .set((eb) => ({
        failed_logins: eb.case().when('locked_until', 'is', null).then(eb('failed_logins', '+', 1)).else(1).end(),
        locked_until: eb
          .case()
          .when(eb.and([eb('locked_until', 'is', null), eb('failed_logins', '>=', LOGIN_MAX_FAILURES - 1)]))
          .then(new Date(now + LOCK_MINUTES * 60_000).toISOString())
          .else(null)
          .end(),
      }))
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', new Date(now).toISOString())]))
      .returning('failed_logins')
      .executeTakeFirst();
    return row ? row.failed_logins : null;
  }

  /**
   * Where links in mails point: the host the member used when it is one of the brand's own
   * (a domain, or <id>.localhost and localhost on one machine), else the brand's main domain.
   * Never a Host header as sent: a forged one would carry reset tokens to someone else's site.
   */
  function origin(tenant: Tenant, req: IncomingMessage): string {
    const host = req.headers.host ?? '';
    const name = hostName(host);
    const own = tenant.domains.includes(name) || name === `${tenant.id}.localhost` || name === 'localhost' || name === '127.0.0.1';
    const proto = deps.production ? 'https' : 'http';
    return `${proto}://${own && /^[a-z0-9.:[\]-]+$/i.test(host) ? host : tenant.domain}`;
  }

  async function issueToken(trx: Kysely<Database> | Transaction<Database>, user: Pick<User, 'id' | 'tenant_id'>, kind: TokenKind, payload?: unknown): Promise<string> {
    const token = newToken();
    await trx
      .insertInto('tokens')
      .values({
        id: token.id,
        tenant_id: user.tenant_id,
        user_id: user.id,
        kind,
        secret_hash: token.hash,
        payload: payload === undefined ? null : JSON.stringify(payload),
        expires_at: new Date(Date.now() + TOKEN_LIFETIME_MS[kind]).toISOString(),
      })
      .execute();
    return token.value;
  }

  /** A genuine, unexpired link of this kind and brand, used or not. */
  async function findToken(tenant: Tenant, kind: TokenKind, value: unknown, trx: Kysely<Database> = db) {
    const parsed = parseToken(value);
    if (!parsed) return null;
    const row = await trx.selectFrom('tokens').selectAll().where('id', '=', parsed.id).executeTakeFirst();
    if (!row || row.kind !== kind || row.tenant_id !== tenant.id || Date.parse(row.expires_at) <= Date.now()) return null;
    return secretMatches(parsed.secret, row.secret_hash) ? row : null;
  }

  /**
   * Uses a mail link once: the token's row when it is valid for this tenant and kind, else null.
   * Given a transaction, the link counts as used only when it commits, and a second use of the
   * same link waits for it on PostgreSQL (the row is locked by the update).
   */
  async function consumeToken(tenant: Tenant, kind: TokenKind, value: unknown, trx: Kysely<Database> = db) {
    const row = await findToken(tenant, kind, value, trx);
    if (!row || row.used_at) return null;
    const used = await trx.updateTable('tokens').set({ used_at: nowIso() }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst();
    return Number(used.numUpdatedRows) === 1 ? row : null;
  }

  /** Ends every unused link of a kind for a user: a password or address change makes older links stale. */
  async function retireTokens(userId: number, kind: TokenKind): Promise<void> {
    await db.updateTable('tokens').set({ used_at: nowIso() }).where('user_id', '=', userId).where('kind', '=', kind).where('used_at', 'is', null).execute();
  }

  async function userByEmail(tenant: Tenant, email: string) {
    return db.selectFrom('users').selectAll().where('tenant_id', '=', tenant.id).where('email', '=', normalizeEmail(email)).executeTakeFirst();
  }

  async function requireUser(id: number): Promise<User> {
    const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('authentication_required', 401, { key: 'error_auth_required', extra: { authentication_required: true } });
    return row;
  }

  async function sendActivation(tenant: Tenant, user: User, req: IncomingMessage): Promise<void> {
    const token = await issueToken(db, user, 'activate');
    const unsubscribe = `${origin(tenant, req)}/api/unsubscribe.php?u=${await deps.unsubscribeToken(user)}`;
    await mail.send({ tenant, to: user.email, locale: user.language, kind: 'mail_activate', link: `${origin(tenant, req)}/api/activate.php?token=${token}`, unsubscribe });
  }

  /**
   * Removes a member for good (the purge below, or staff's erasure at once): photos, profile,
   * sessions, links and push subscriptions go; the account row stays without personal data, for
   * the ledger and invoices the law keeps. `alongside` runs in the same transaction (the audit entry).
   */
  async function erase(id: number, erasePhotos: (profileId: number) => Promise<void>, alongside?: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
    const profile = await db.selectFrom('profiles').select('id').where('user_id', '=', id).executeTakeFirst();
    if (profile) await erasePhotos(profile.id);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
      await trx.deleteFrom('tokens').where('user_id', '=', id).execute();
      await trx.deleteFrom('push_subscriptions').where('user_id', '=', id).execute();
      await trx.deleteFrom('statements').where('user_id', '=', id).execute();
      await trx.deleteFrom('profiles').where('user_id', '=', id).execute();
      await trx
        .updateTable('users')
        .set({ status: 'deleted', email: `deleted-${id}@invalid`, password_hash: '!', tracking: null, notifications_disabled: '[]', email_preferences: '{}', deletion_reason: null })
        .where('id', '=', id)
        .execute();
      await alongside?.(trx);
    });
  }

  /** The activation's postbacks, in its transaction (issue 23). */
  const activated = async (trx: Transaction<Database>, tenant: Tenant, userId: number) =>
    (await deps.postbacks?.record(trx, { tenantId: tenant.id, userId, event: 'activation', key: `activation:${userId}`, txid: userId })) ?? [];

  return {
    /**
     * SPEC §4 signup: validates, refuses existing accounts, creates user and profile, grants signup
     * credits once. The visit's attribution (the cookie of the first visit, issue 23) gives the
     * member's tracking parameters before those the page sent, and the lander they first saw.
     */
    async signup(tenant: Tenant, locale: Locale, input: SignupInput, req: IncomingMessage, ip: string, visit: Attribution | null = null): Promise<{ user: SiteUser; cookies: string[] }> {
      const tracking = visit && hasTracking(visit.tracking) ? visit.tracking : input.tracking;
      const landing = visit?.landing ?? null;
      if (!signupsOpen(tenant, tracking)) throw new AppError('signup_invite_only', 403);
      await signups.take(ip);
      const email = normalizeEmail(input.email);
      if (!isValidEmail(email)) throw fail('signup_email_invalid', 400, 'email');
      if (tenant.safety.disposable_email && isDisposableEmail(email)) throw fail('email_disposable', 400, 'email');
      const nameIssue = nameProblem(input.name, email);
      if (nameIssue) throw fail(nameIssue, 400, 'name');
      const birthIssue = birthDateProblem(input.date_of_birth);
      if (birthIssue) throw fail(birthIssue, 400, 'date_of_birth', { min_age: MIN_AGE });
      if (!tenant.countries.includes(input.country)) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'country' });
      const region = input.region ? findRegion(input.country, input.region) : null;
      if (input.region && !region) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'region' });
      const existing = await userByEmail(tenant, email);
      if (existing) {
        throw existing.status === 'deletion_requested'
          ? fail('signup_deleted', 409, 'email')
          : fail('signup_exists', 409, 'email');
      }
      const password_hash = await hashPassword(input.password);
      let user: User;
      let postbacks: number[] = [];
      try {
        user = await db.transaction().execute(async (trx) => {
          const created = await trx
            .insertInto('users')
            .values({
              tenant_id: tenant.id,
              email,
              password_hash,
              status: 'not_confirmed',
              language: locale,
              tracking: tracking && Object.keys(tracking).length ? JSON.stringify(tracking) : null,
              lander: landing?.lander ?? null,
              lander_variant: landing?.variant ?? null,
              lander_niche: landing?.niche ?? null,
              lander_locale: landing?.locale ?? null,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('profiles')
            .values({
              tenant_id: tenant.id,
              user_id: created.id,
              name: input.name.trim(),
              gender: input.gender,
              sexuality: input.sexuality,
              birth_date: input.date_of_birth,
              country: input.country,
              region: region?.name ?? null,
              city: input.city?.trim() || null,
              about: input.signup_message?.trim() || null,
              status: 'disabled',
              last_seen_at: nowIso(),
            })
            .execute();
          if (tenant.signup_credits > 0) {
            created.credits = (await grant(trx, { userId: created.id, credits: tenant.signup_credits, reason: 'signup' })).balance;
          }
          postbacks = (await deps.postbacks?.record(trx, { tenantId: tenant.id, userId: created.id, event: 'signup', key: `signup:${created.id}`, txid: created.id })) ?? [];
          await deps.countMember?.(trx, created.id, { kind: 'signup' });
          return created;
        });
      } catch (error) {
        // Two signups with one e-mail at once: the unique constraint decides.
        if (constraintViolation(error) === 'unique') throw fail('signup_exists', 409, 'email');
        throw error;
      }
      deps.postbacks?.dispatch(postbacks);
      await sendActivation(tenant, user, req);
      const cookies = await sessions.create(user, req, ip);
      return { user: await views.toSite(user), cookies };
    },

    async resendActivation(tenant: Tenant, userId: number, req: IncomingMessage, ip: string): Promise<void> {
      const user = await requireUser(userId);
      if (user.status !== 'not_confirmed') throw new AppError('activate_already', 409);
      await resends.take(user.id);
      await resendsPerIp.take(ip);
      await sendActivation(tenant, user, req);
    },

    /**
     * Confirms the e-mail from the mail's link: status active, profile enabled. With `again`, a
     * link that was used already still counts while its account is active: a mail scanner opens
     * links before the member does, and the member's own click must not say 'Activeren mislukt'.
     * Only the mail link's redirect passes it; the JSON answer, which carries the user, does not.
     */
    async activate(tenant: Tenant, token: unknown, { again = false } = {}): Promise<SiteUser> {
      // The link is used and the account activated in one transaction: a second opening of the
      // link at the same moment (a mail scanner, a browser retrying) sees both or neither, never a
      // used link on an account that is not active yet.
      let postbacks: number[] = [];
      const fresh = await db.transaction().execute(async (trx) => {
        const used = await consumeToken(tenant, 'activate', token, trx);
        if (!used) return null;
        const user = await trx.selectFrom('users').select(['id', 'status']).where('id', '=', used.user_id).executeTakeFirst();
        if (user?.status === 'not_confirmed') {
          await trx.updateTable('users').set({ status: 'active', activated_at: nowIso() }).where('id', '=', user.id).execute();
          await setProfileStatus(trx, user.id, 'active');
          postbacks = await activated(trx, tenant, user.id);
          await deps.countMember?.(trx, user.id, { kind: 'activation' });
        }
        return used;
      });
      deps.postbacks?.dispatch(postbacks);
      const row = fresh ?? (again ? await findToken(tenant, 'activate', token) : null);
      if (!row) throw new AppError('activate_failed', 400);
      // Only an unused link changes anything; a used or retired one can at most confirm an active account.
      const user = await requireUser(row.user_id);
      if (user.status !== 'active') throw new AppError('activate_failed', 400);
      return views.toSite(user);
    },

    /** POST /api/user.php: checks the password, with the per-account lockout and per-IP throttle. */
    async login(tenant: Tenant, emailInput: string, password: string, ip: string, req: IncomingMessage): Promise<{ user: SiteUser; cookies: string[] }> {
      await loginsPerIp.take(ip);
      const user = await userByEmail(tenant, emailInput);
      if (!user || user.status === 'deleted') {
        await burnPasswordCheck(password);
        throw new AppError('login_failed', 401);
      }
      const check = await reserveLoginCheck(user.id);
      if (check === null) {
        // Locked: refused without checking the password, the right one included.
        const row = await db.selectFrom('users').select('locked_until').where('id', '=', user.id).executeTakeFirst();
        const left = row?.locked_until ? Date.parse(row.locked_until) - Date.now() : LOCK_MINUTES * 60_000;
        throw locked(Math.max(1, Math.ceil(left / 60_000)));
      }
      if (!(await verifyPassword(password, user.password_hash))) {
        // The check that reached the limit locked the account when it was reserved.
        if (check >= LOGIN_MAX_FAILURES) throw locked(LOCK_MINUTES);
        throw new AppError('login_failed', 401);
      }
      await db.updateTable('users').set({ failed_logins: 0, locked_until: null }).where('id', '=', user.id).execute();
      if (user.status === 'deletion_requested') throw new AppError('signup_deleted', 403);
      // Suspended by staff (console): the ban page with the brand's support address, no session.
      if (user.suspended_at) throw suspendedError(tenant);
      const cookies = await sessions.create(user, req, ip);
      return { user: await views.toSite(user), cookies };
    },

    /** Sends a reset link; refuses unknown addresses and more than 3 mails a day (SPEC §8). */
    async requestReset(tenant: Tenant, emailInput: string, req: IncomingMessage, ip: string): Promise<void> {
      if (!isValidEmail(emailInput)) throw fail('signup_email_invalid', 400, 'email');
      // The answer tells whether an address has an account: look-ups are limited per address.
      await resetLookups.take(ip);
      const user = await userByEmail(tenant, emailInput);
      if (!user || user.status === 'deleted' || user.status === 'deletion_requested') throw fail('reset_not_found', 404, 'email');
      const since = new Date(Date.now() - DAY).toISOString();
      const sent = await db
        .selectFrom('tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', user.id)
        .where('kind', '=', 'reset')
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      if (Number(sent.n) >= RESET_MAILS_PER_DAY) throw new AppError('reset_too_many', 429, { extra: { retry_after: 86400 } });
      const token = await issueToken(db, user, 'reset');
      await mail.send({ tenant, to: user.email, locale: user.language, kind: 'mail_reset', link: `${origin(tenant, req)}/reset-password/do?token=${token}` });
    },

    /** Sets a new password from a reset link; every session of the member ends. */
    async resetPassword(tenant: Tenant, token: unknown, password: string): Promise<void> {
      const row = await consumeToken(tenant, 'reset', token);
      if (!row) throw new AppError('reset_link_invalid', 400);
      await db.updateTable('users').set({ password_hash: await hashPassword(password), failed_logins: 0, locked_until: null }).where('id', '=', row.user_id).execute();
      await retireTokens(row.user_id, 'reset');
      await sessions.revokeAll(row.user_id);
    },

    /** Changes the password: the old one must be right; other sessions end, this one is rotated. */
    async changePassword(userId: number, sessionId: string, oldPassword: string, password: string, req: IncomingMessage, ip: string): Promise<string[]> {
      const user = await requireUser(userId);
      await checkOwnPassword(user, oldPassword, 'old_password');
      await db.updateTable('users').set({ password_hash: await hashPassword(password) }).where('id', '=', userId).execute();
      await retireTokens(userId, 'reset');
      await sessions.revokeAll(userId);
      void sessionId;
      return sessions.create(user, req, ip);
    },

    /** Starts an e-mail change: a confirmation link goes to the new address. */
    async requestMailChange(tenant: Tenant, userId: number, newEmail: string, password: string, req: IncomingMessage, ip: string): Promise<void> {
      const user = await requireUser(userId);
      const email = normalizeEmail(newEmail);
      if (!isValidEmail(email) || email === user.email) throw fail('mail_new_invalid', 400, 'email');
      if (tenant.safety.disposable_email && isDisposableEmail(email)) throw fail('email_disposable', 400, 'email');
      // The password first: whether an address has an account is told only to its owner's session.
      await checkOwnPassword(user, password, 'password');
      if (await userByEmail(tenant, email)) throw fail('mail_in_use', 409, 'email');
      await mailChanges.take(user.id);
      await mailChangesPerIp.take(ip);
      const token = await issueToken(db, user, 'mail_change', { email });
      await mail.send({ tenant, to: email, locale: user.language, kind: 'mail_change', link: `${origin(tenant, req)}/mail-change/do?token=${token}` });
    },

    async confirmMailChange(tenant: Tenant, token: unknown): Promise<void> {
      let postbacks: number[] = [];
      const row = await consumeToken(tenant, 'mail_change', token);
      if (!row) throw new AppError('reset_link_invalid', 400);
      const { email } = JSON.parse(row.payload ?? '{}') as { email?: string };
      if (!email) throw new AppError('reset_link_invalid', 400);
      try {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('users').set({ email }).where('id', '=', row.user_id).execute();
          // Proving the new address confirms it, like the activation link does: account and profile.
          const confirmed = await trx.updateTable('users').set({ status: 'active', activated_at: nowIso() }).where('id', '=', row.user_id).where('status', '=', 'not_confirmed').executeTakeFirst();
          if (Number(confirmed.numUpdatedRows) === 1) {
            await setProfileStatus(trx, row.user_id, 'active');
            postbacks = await activated(trx, tenant, row.user_id);
          }
        });
        deps.postbacks?.dispatch(postbacks);
      } catch (error) {
        if (constraintViolation(error) === 'unique') throw fail('mail_in_use', 409, 'email');
        throw error;
      }
      await retireTokens(row.user_id, 'mail_change');
      await retireTokens(row.user_id, 'reset');
      await retireTokens(row.user_id, 'activate'); // links sent to the old address
    },

    /** PUT /api/user.php: language (SPEC §1), invisible mode and being shown on the own brand only (issue 24). */
    async saveSettings(userId: number, settings: { language?: Locale; invisible?: boolean; own_brand_only?: boolean }): Promise<SiteUser> {
      const set: { language?: string; invisible?: 0 | 1; own_brand_only?: 0 | 1 } = {};
      if (settings.language) set.language = settings.language;
      if (settings.invisible !== undefined) set.invisible = settings.invisible ? 1 : 0;
      if (settings.own_brand_only !== undefined) set.own_brand_only = settings.own_brand_only ? 1 : 0;
      if (Object.keys(set).length) {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('users').set(set).where('id', '=', userId).execute();
          if (set.invisible !== undefined || set.own_brand_only !== undefined) await relist(trx, userId);
        });
        // The member's other tabs (on any runtime process) reload the user.
        await publishToMember(bus, userId, { type: 'user' });
      }
      return views.toSite(await requireUser(userId));
    },

    /** Asks to delete the account: logged out everywhere, reactivation by mail link for 14 days. */
    async requestDeletion(tenant: Tenant, userId: number, reason: string, password: string, req: IncomingMessage): Promise<void> {
      const user = await requireUser(userId);
      await checkOwnPassword(user, password, 'password', 'password_wrong');
      const token = await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ status: 'deletion_requested', deletion_requested_at: nowIso(), deletion_reason: reason }).where('id', '=', userId).execute();
        await setProfileStatus(trx, userId, 'disabled');
        return issueToken(trx, user, 'reactivate', { previous_status: user.status });
      });
      await sessions.revokeAll(userId);
      await mail.send({ tenant, to: user.email, locale: user.language, kind: 'mail_reactivate', link: `${origin(tenant, req)}/account-deleted?token=${token}` });
    },

    /** Undoes a deletion request within the window and logs the member in. */
    async reactivate(tenant: Tenant, token: unknown, req: IncomingMessage, ip: string): Promise<{ user: SiteUser; cookies: string[] }> {
      const row = await consumeToken(tenant, 'reactivate', token);
      if (!row) throw new AppError('reactivate_failed', 400);
      const user = await requireUser(row.user_id);
      if (user.status !== 'deletion_requested') throw new AppError('reactivate_failed', 400);
      const { previous_status } = JSON.parse(row.payload ?? '{}') as { previous_status?: 'active' | 'not_confirmed' };
      const status = previous_status === 'not_confirmed' ? 'not_confirmed' : 'active';
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ status, deletion_requested_at: null, deletion_reason: null }).where('id', '=', user.id).execute();
        await setProfileStatus(trx, user.id, status === 'active' ? 'active' : 'disabled');
      });
      const fresh = await requireUser(user.id);
      return { user: await views.toSite(fresh), cookies: await sessions.create(fresh, req, ip) };
    },

    /**
     * Removes for good the accounts whose deletion window has passed: personal data, profile,
     * photos (rows and files through `erasePhotos`), sessions and tokens. The credit ledger keeps
     * its rows for the accounts (DESIGN §3: append-only) but loses the link to a person.
     */
    async purgeExpired(erasePhotos: (profileId: number) => Promise<void>, now = new Date()): Promise<number> {
      const cutoff = new Date(now.getTime() - DELETION_WINDOW_DAYS * DAY).toISOString();
      const due = await db.selectFrom('users').select(['id']).where('status', '=', 'deletion_requested').where('deletion_requested_at', '<=', cutoff).execute();
      for (const { id } of due) await erase(id, erasePhotos);
      return due.length;
    },

    erase,
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
