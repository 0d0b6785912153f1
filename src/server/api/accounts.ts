import { z } from 'zod';
import type { ApiContext, ApiRoute } from './context.ts';
import { AppError, authRequired } from '../errors.ts';
import { LOCALES } from '../../lib/locales.ts';
import { PASSWORD_MAX, PASSWORD_MIN, ABOUT_MAX, MIN_AGE } from '../../lib/account-rules.ts';
import { GENDERS, SEXUALITIES, PROFILE_FIELD_KEYS, OPTION_FIELDS } from '../../lib/profile-fields.ts';
import { safeNext } from '../../lib/routes.ts';
import { EMAIL_TYPES } from '../services/notifications.ts';
import { message } from '../i18n.ts';
import type { Session } from '../services/index.ts';

/**
 * Parses a body with a schema; the first problem becomes a 400 with the message of its field:
 * each schema names, per field, the catalogue key to show.
 */
function parse<T extends z.ZodType>(schema: T, value: unknown, keys: Record<string, string> = {}): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? String(issue.path[0]) : undefined;
  throw new AppError(keys[field ?? ''] ?? 'invalid_input', 400, {
    key: keys[field ?? ''] ?? 'error_bad_request',
    field,
    params: { min_age: MIN_AGE },
  });
}

function member(ctx: ApiContext): Session {
  if (!ctx.session) throw authRequired();
  return ctx.session;
}

const password = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
const text = (max: number) => z.string().max(max);
/** Tracking values are kept up to this length; a longer click id from an ad is cut, never refused. */
const TRACKING_MAX = 200;
const trackingValue = z.string().max(10_000).transform((v) => v.slice(0, TRACKING_MAX)).optional();

const SignupBody = z.object({
  email: z.string().max(254),
  password,
  name: z.string().max(100),
  // Absent counts as empty, which the service answers with "fill in your birth date".
  date_of_birth: z.string().max(10).default(''),
  gender: z.enum(GENDERS),
  sexuality: z.enum(SEXUALITIES),
  country: z.string().regex(/^[A-Z]{2}$/),
  region: text(100).nullish(),
  city: text(100).nullish(),
  signup_message: text(ABOUT_MAX).nullish(),
  tracking: z.object({ network: trackingValue, ref: trackingValue, sub1: trackingValue, sub2: trackingValue, sub3: trackingValue }).strip().nullish(),
});
const SIGNUP_KEYS = { email: 'signup_email_invalid', password: 'password_too_short', date_of_birth: 'birth_date_invalid', name: 'name_length' };

const LoginBody = z.object({ email: z.string().max(254), password: z.string().min(1).max(PASSWORD_MAX) });
const TokenBody = z.object({ token: z.string().min(1).max(200) });
const ResetRequestBody = z.object({ email: z.string().max(254) });
const ResetBody = z.object({ token: z.string().min(1).max(200), password });
const MailChangeBody = z.object({ email: z.string().max(254), password: z.string().min(1).max(PASSWORD_MAX) });
const PasswordBody = z.object({ old_password: z.string().min(1).max(PASSWORD_MAX), password, password_repeat: z.string().max(PASSWORD_MAX) });
const UserSettingsBody = z.object({ language: z.enum(LOCALES).optional(), invisible: z.boolean().optional() }).strict();
/** A browser's PushSubscription.toJSON() (W3C Push API): an https endpoint and two base64url keys. */
const base64url = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+=*$/);
/** A push service on the public internet: a named host, never an address or a local name the runtime could reach inside. */
const pushHost = /^(?=.*[a-z])(?!localhost$)(?!.*\.(local|internal|localhost)$)[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const PushBody = z.object({
  subscription: z.object({
    endpoint: z.url({ protocol: /^https$/, hostname: pushHost }).max(2048),
    expirationTime: z.number().nullish(),
    keys: z.object({ p256dh: base64url(200), auth: base64url(64) }),
  }),
});
const DeleteBody = z.object({ reason: z.string().min(1).max(40), password: z.string().min(1).max(PASSWORD_MAX) });

const option = (field: keyof typeof PROFILE_FIELD_KEYS) => z.enum(PROFILE_FIELD_KEYS[field]).nullable();
const ProfileBody = z
  .object({
    name: z.string().max(100),
    gender: z.enum(GENDERS),
    sexuality: z.enum(SEXUALITIES),
    birth_date: z.string().max(10),
    country: z.string().regex(/^[A-Z]{2}$/),
    region: text(100).nullable(),
    city: text(100).nullable(),
    hair_color: option('hair_color'),
    eye_color: option('eye_color'),
    body_type: option('body_type'),
    relationship_status: option('relationship_status'),
    tattoos: option('tattoos'),
    reason: option('reason'),
    about: text(ABOUT_MAX).nullable(),
    interests: z.array(z.string().max(40)).max(50),
  })
  .partial()
  .strict();

const NotificationsBody = z
  .object({
    email: z.partialRecord(z.enum(EMAIL_TYPES as [string, ...string[]]), z.boolean()).optional(),
    push: z.boolean().optional(),
    reenable: z.literal(true).optional(),
  })
  .strict();

/** Reasons offered when deleting, each with the solution that may keep the member (issue: deletion flow). */
export const DELETE_REASONS = ['expensive', 'found_someone', 'too_many_mails', 'privacy', 'no_matches', 'other'] as const;
const SOLUTION_HREF: Record<(typeof DELETE_REASONS)[number], string> = {
  expensive: '/credits',
  found_someone: '/profile#account',
  too_many_mails: '/notifications',
  privacy: '/profile#account',
  no_matches: '/members',
  other: '/pages/service',
};

export const accountRoutes: Record<string, ApiRoute> = {
  'user.php': {
    GET: (ctx) => ({ user: ctx.session?.user ?? null }),
    POST: async (ctx) => {
      if (ctx.query.get('push') === '1') {
        const session = member(ctx);
        const { subscription } = parse(PushBody, await ctx.body());
        if (!(await ctx.services.notifications.subscribePush(session.user.id, subscription))) {
          throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'subscription' });
        }
        return { ok: true };
      }
      const body = parse(LoginBody, await ctx.body(), { email: 'login_failed', password: 'login_failed' });
      const { user, cookies } = await ctx.services.accounts.login(ctx.tenant, body.email, body.password, ctx.ip, ctx.req);
      // Rotated at login: the session this browser had (say, from signup) ends with it.
      if (ctx.session) await ctx.services.sessions.revoke(ctx.session.id);
      cookies.forEach(ctx.setCookie);
      return { user };
    },
    PUT: async (ctx) => {
      const session = member(ctx);
      const body = parse(UserSettingsBody, await ctx.body());
      if (body.language && !ctx.tenant.locales.available.includes(body.language)) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'language' });
      return { user: await ctx.services.accounts.saveSettings(session.user.id, body) };
    },
  },
  'logout.php': {
    GET: async (ctx) => {
      if (ctx.session) await ctx.services.sessions.revoke(ctx.session.id);
      ctx.services.sessions.clearCookies().forEach(ctx.setCookie);
      const next = ctx.query.get('next');
      if (next) return { status: 303, headers: { Location: safeNext(next, '/') } };
      return { ok: true };
    },
  },
  'signup.php': {
    POST: async (ctx) => {
      const body = parse(SignupBody, await ctx.body(), SIGNUP_KEYS);
      const { user, cookies } = await ctx.services.accounts.signup(ctx.tenant, ctx.locale, body, ctx.req);
      cookies.forEach(ctx.setCookie);
      return { status: 201, body: { user } };
    },
  },
  'activate.php': {
    // The link in the activation mail.
    GET: async (ctx) => {
      try {
        await ctx.services.accounts.activate(ctx.tenant, ctx.query.get('token'), { again: true });
        return { status: 303, headers: { Location: '/activate/done' } };
      } catch (error) {
        if (error instanceof AppError) return { status: 303, headers: { Location: '/activate/error' } };
        throw error;
      }
    },
    POST: async (ctx) => {
      if (ctx.query.get('resend') === '1') {
        const session = member(ctx);
        await ctx.body();
        await ctx.services.accounts.resendActivation(ctx.tenant, session.user.id, ctx.req);
        return { ok: true };
      }
      const body = parse(TokenBody, await ctx.body(), { token: 'activate_failed' });
      return { user: await ctx.services.accounts.activate(ctx.tenant, body.token) };
    },
  },
  'reset-password.php': {
    POST: async (ctx) => {
      const raw = await ctx.body();
      if (raw && typeof raw === 'object' && 'token' in raw) {
        const body = parse(ResetBody, raw, { token: 'reset_link_invalid', password: 'password_too_short' });
        await ctx.services.accounts.resetPassword(ctx.tenant, body.token, body.password);
        return { ok: true };
      }
      const body = parse(ResetRequestBody, raw, { email: 'signup_email_invalid' });
      await ctx.services.accounts.requestReset(ctx.tenant, body.email, ctx.req);
      return { ok: true };
    },
  },
  'mail-change.php': {
    POST: async (ctx) => {
      const raw = await ctx.body();
      if (raw && typeof raw === 'object' && 'token' in raw) {
        const body = parse(TokenBody, raw, { token: 'reset_link_invalid' });
        await ctx.services.accounts.confirmMailChange(ctx.tenant, body.token);
        return { ok: true };
      }
      const session = member(ctx);
      const body = parse(MailChangeBody, raw, { email: 'mail_new_invalid', password: 'password_old_wrong' });
      await ctx.services.accounts.requestMailChange(ctx.tenant, session.user.id, body.email, body.password, ctx.req);
      return { ok: true };
    },
  },
  'password.php': {
    POST: async (ctx) => {
      const session = member(ctx);
      const body = parse(PasswordBody, await ctx.body(), { old_password: 'password_old_wrong', password: 'password_too_short', password_repeat: 'password_mismatch' });
      if (body.password !== body.password_repeat) throw new AppError('password_mismatch', 400, { field: 'password_repeat' });
      const cookies = await ctx.services.accounts.changePassword(session.user.id, session.id, body.old_password, body.password, ctx.req);
      cookies.forEach(ctx.setCookie);
      return { ok: true };
    },
  },
  'account.php': {
    GET: (ctx) => {
      const t = (key: string, params: Record<string, string | number> = {}) => message(key, ctx.locale, params, ctx.tenant.locales.fallback);
      const percent = ctx.tenant.company.delete_discount;
      return {
        delete_discount: percent,
        reasons: DELETE_REASONS.map((key) => ({
          key,
          label: t(`delete_reason_${key}`),
          solution: { label: t(`delete_solution_${key}`, { percent }), href: SOLUTION_HREF[key] },
        })),
      };
    },
    DELETE: async (ctx) => {
      const session = member(ctx);
      const body = parse(DeleteBody, await ctx.body(), { reason: 'choose_reason', password: 'password_old_wrong' });
      if (!(DELETE_REASONS as readonly string[]).includes(body.reason)) throw new AppError('choose_reason', 400, { field: 'reason' });
      await ctx.services.accounts.requestDeletion(ctx.tenant, session.user.id, body.reason, body.password, ctx.req);
      ctx.services.sessions.clearCookies().forEach(ctx.setCookie);
      return { ok: true };
    },
    POST: async (ctx) => {
      if (ctx.query.get('reactivate') !== '1') throw new AppError('method_not_allowed', 405, { key: 'error_method' });
      const body = parse(TokenBody, await ctx.body(), { token: 'reactivate_failed' });
      const { user, cookies } = await ctx.services.accounts.reactivate(ctx.tenant, body.token, ctx.req);
      cookies.forEach(ctx.setCookie);
      return { user };
    },
  },
  'profile.php': {
    GET: async (ctx) => ({ profile: await ctx.services.profiles.get(member(ctx).user.id) }),
    PUT: async (ctx) => {
      const session = member(ctx);
      const body = parse(ProfileBody, await ctx.body(), { birth_date: 'birth_date_invalid', name: 'name_length' });
      return { profile: await ctx.services.profiles.update(ctx.tenant, session.user.id, session.user.email, body) };
    },
  },
  'profile-options.php': {
    GET: (ctx) => {
      const t = (key: string) => message(key, ctx.locale, {}, ctx.tenant.locales.fallback);
      const fields = Object.fromEntries(
        [['gender', GENDERS] as const, ['sexuality', SEXUALITIES] as const, ...OPTION_FIELDS.map((f) => [f, PROFILE_FIELD_KEYS[f]] as const)].map(([field, keys]) => [
          field,
          keys.map((key) => ({ key, label: t(`option_${field}_${key}`) })),
        ]),
      );
      return { fields, visible_profile_fields: ctx.tenant.visible_profile_fields, labels: Object.fromEntries(Object.keys(fields).map((f) => [f, t(`field_${f}`)])) };
    },
  },
  'member.php': {
    GET: async (ctx) => {
      const id = z.coerce.number().int().positive().max(2_147_483_647).safeParse(ctx.query.get('id'));
      if (!id.success) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'id' });
      const viewer = ctx.session ? { id: ctx.session.user.id, paid_user: ctx.session.user.paid_user } : null;
      return ctx.services.profiles.publicProfile(ctx.tenant, id.data, viewer);
    },
  },
  'signup-matches.php': {
    GET: async (ctx) => ({ profiles: await ctx.services.profiles.signupMatches(ctx.tenant, member(ctx).user.id) }),
  },
  'notifications.php': {
    GET: async (ctx) => ctx.services.notifications.get(member(ctx).user.id),
    PUT: async (ctx) => {
      const session = member(ctx);
      const body = parse(NotificationsBody, await ctx.body());
      return ctx.services.notifications.update(session.user.id, body as never);
    },
  },
  'unsubscribe.php': {
    // One-click unsubscribe (RFC 8058): mail programs POST. A person's click GETs a confirmation
    // page first, so link scanners that open every link change nothing.
    POST: async (ctx) => {
      const ok = await ctx.services.notifications.unsubscribe(ctx.tenant, ctx.query.get('u'));
      if ((ctx.req.headers.accept ?? '').includes('text/html')) return unsubscribePage(ctx, ok ? 'done' : 'invalid');
      if (!ok) throw new AppError('reset_link_invalid', 400);
      return { ok: true };
    },
    GET: (ctx) => unsubscribePage(ctx, 'confirm'),
  },
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The small page of the unsubscribe link: a confirmation form, then the outcome. */
function unsubscribePage(ctx: ApiContext, state: 'confirm' | 'done' | 'invalid') {
  const t = (key: string) => escapeHtml(message(key, ctx.locale, { brand: ctx.tenant.name }, ctx.tenant.locales.fallback));
  const token = escapeHtml(ctx.query.get('u') ?? '');
  const body =
    state === 'confirm'
      ? `<p>${t('unsubscribe_question')}</p><form method="post" action="/api/unsubscribe.php?u=${token}"><button type="submit">${t('unsubscribe_confirm')}</button></form>`
      : `<p>${t(state === 'done' ? 'unsubscribe_done' : 'reset_link_invalid')}</p><p><a href="/">${t('error_back_home')}</a></p>`;
  const html = `<!doctype html><html lang="${ctx.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t('unsubscribe_title')}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1d1a22">
<h1 style="color:${ctx.tenant.theme.primary}">${escapeHtml(ctx.tenant.name)}</h1><h2>${t('unsubscribe_title')}</h2>${body}
<style>button{background:${ctx.tenant.theme.primary};color:#fff;border:0;border-radius:999px;padding:.7rem 1.4rem;font-weight:600;cursor:pointer}</style></body></html>`;
  return { status: 200, body: html, headers: { 'Content-Type': 'text/html; charset=utf-8' } };
}
