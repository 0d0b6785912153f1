import { OkAnswer } from '../../contract/public.ts';
import { AppError } from '../errors.ts';
import { GENDERS, SEXUALITIES, DELETE_REASONS, EMAIL_NOTIFICATION_TYPES, type DeleteReason, type EmailNotificationType } from '../../contract/enums.ts';
import { PROFILE_FIELD_KEYS, OPTION_FIELDS } from '../../lib/profile-fields.ts';
import { safeNext } from '../../lib/routes.ts';
import { LoggedInAnswer, LoginBody, PushBody, UserAnswer, UserSettingsBody } from '../../contract/user.ts';
import {
  DeleteBody,
  DeleteReasonsAnswer,
  NotificationSettings,
  MailChangeBody,
  NotificationsBody,
  PasswordBody,
  ResetBody,
  ResetRequestBody,
  SIGNUP_MESSAGES,
  SignupBody,
  TokenBody,
} from '../../contract/accounts.ts';
import { MemberAnswer, MemberQuery, PROFILE_MESSAGES, ProfileAnswer, ProfileBody, ProfileOptionsAnswer, SignupMatchesAnswer } from '../../contract/profile.ts';
import { fromOwnPage } from '../http/origin.ts';
import { html, json, redirect, route, type RouteContext } from '../http/routes.ts';
import { readCookie } from '../../lib/cookies.ts';
import { ATTRIBUTION_COOKIE, readAttribution } from '../../lib/attribution.ts';

const SOLUTION_HREF: Record<DeleteReason, string> = {
  expensive: '/credits',
  found_someone: '/profile#account',
  too_many_mails: '/notifications',
  privacy: '/profile#account',
  no_matches: '/members',
  other: '/pages/service',
};

/** Ends the session of this browser; then back to `next` (a same-site path) or `{ok: true}`. */
async function logout(ctx: RouteContext<undefined, undefined, 'visitor'>) {
  if (ctx.session) await ctx.services.sessions.revoke(ctx.session.id);
  ctx.services.sessions.clearCookies().forEach(ctx.setCookie);
  const next = ctx.params.get('next');
  return next ? redirect(safeNext(next, '/')) : json({ ok: true as const });
}

export const accountRoutes = [
  route({ method: 'GET', path: 'user.php', answer: UserAnswer, who: 'visitor', handler: (ctx) => json({ user: ctx.session?.user ?? null }) }),
  route({
    method: 'POST',
    path: 'user.php',
    answer: LoggedInAnswer,
    who: 'visitor',
    body: LoginBody,
    messages: { email: 'login_failed', password: 'login_failed' },
    handler: async (ctx) => {
      const { user, cookies } = await ctx.services.accounts.login(ctx.tenant, ctx.body.email, ctx.body.password, ctx.ip, ctx.req);
      // Rotated at login: the session this browser had (say, from signup) ends with it.
      if (ctx.session) await ctx.services.sessions.revoke(ctx.session.id);
      cookies.forEach(ctx.setCookie);
      return json({ user });
    },
  }),
  route({
    method: 'POST',
    path: 'user.php',
    answer: OkAnswer,
    variant: { query: { push: '1' } },
    who: 'member',
    body: PushBody,
    handler: async (ctx) => {
      if (!(await ctx.services.notifications.subscribePush(ctx.session.user.id, ctx.body.subscription))) {
        throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'subscription' });
      }
      return json({ ok: true });
    },
  }),
  route({
    method: 'PUT',
    path: 'user.php',
    answer: LoggedInAnswer,
    who: 'member',
    body: UserSettingsBody,
    handler: async (ctx) => {
      if (ctx.body.language && !ctx.tenant.locales.available.includes(ctx.body.language)) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'language' });
      return json({ user: await ctx.services.accounts.saveSettings(ctx.session.user.id, ctx.body) });
    },
  }),
  // Logging out changes state: a POST from the brand's pages (Origin checked), or a GET only when
  // the browser says it comes from the brand's own page, so another site cannot log a member out.
  route({ method: 'POST', path: 'logout.php', answer: OkAnswer, also: ['redirect'], who: 'visitor', handler: logout }),
  route({
    method: 'GET',
    path: 'logout.php',
    answer: OkAnswer, also: ['redirect'],
    who: 'visitor',
    handler: (ctx) => {
      if (fromOwnPage(ctx.req)) return logout(ctx);
      // A link from elsewhere (or a browser that does not say where it comes from) changes nothing:
      // a navigation still lands on the page it names, a program is refused.
      const next = ctx.params.get('next');
      if (next) return redirect(safeNext(next, '/'));
      throw new AppError('forbidden_origin', 403, { key: 'error_origin' });
    },
  }),
  route({
    method: 'POST',
    path: 'signup.php',
    answer: LoggedInAnswer,
    who: 'visitor',
    body: SignupBody,
    messages: SIGNUP_MESSAGES,
    handler: async (ctx) => {
      // The attribution cookie of the first visit (issue 23), read by the runtime only (HttpOnly).
      const visit = readAttribution(readCookie(ctx.req.headers.cookie, ATTRIBUTION_COOKIE));
      const { user, cookies } = await ctx.services.accounts.signup(ctx.tenant, ctx.locale, ctx.body, ctx.req, ctx.ip, visit);
      cookies.forEach(ctx.setCookie);
      return json({ user }, { status: 201 });
    },
  }),
  route({
    // The link in the activation mail.
    method: 'GET',
    path: 'activate.php',
    answer: 'redirect',
    who: 'visitor',
    handler: async (ctx) => {
      try {
        await ctx.services.accounts.activate(ctx.tenant, ctx.params.get('token'), { again: true });
        return redirect('/activate/done');
      } catch (error) {
        if (error instanceof AppError && error.status < 500) return redirect('/activate/error');
        throw error;
      }
    },
  }),
  route({
    method: 'POST',
    path: 'activate.php',
    answer: LoggedInAnswer,
    who: 'visitor',
    body: TokenBody,
    messages: { token: 'activate_failed' },
    handler: async (ctx) => json({ user: await ctx.services.accounts.activate(ctx.tenant, ctx.body.token) }),
  }),
  route({
    method: 'POST',
    path: 'activate.php',
    answer: OkAnswer,
    variant: { query: { resend: '1' } },
    who: 'member',
    handler: async (ctx) => {
      await ctx.services.accounts.resendActivation(ctx.tenant, ctx.session.user.id, ctx.req, ctx.ip);
      return json({ ok: true });
    },
  }),
  route({
    method: 'POST',
    path: 'reset-password.php',
    answer: OkAnswer,
    who: 'visitor',
    body: ResetRequestBody,
    messages: { email: 'signup_email_invalid' },
    handler: async (ctx) => {
      await ctx.services.accounts.requestReset(ctx.tenant, ctx.body.email, ctx.req, ctx.ip);
      return json({ ok: true });
    },
  }),
  route({
    method: 'POST',
    path: 'reset-password.php',
    answer: OkAnswer,
    variant: { bodyHas: 'token' },
    who: 'visitor',
    body: ResetBody,
    messages: { token: 'reset_link_invalid', password: 'password_too_short' },
    handler: async (ctx) => {
      await ctx.services.accounts.resetPassword(ctx.tenant, ctx.body.token, ctx.body.password);
      return json({ ok: true });
    },
  }),
  route({
    method: 'POST',
    path: 'mail-change.php',
    answer: OkAnswer,
    who: 'member',
    body: MailChangeBody,
    messages: { email: 'mail_new_invalid', password: 'password_old_wrong' },
    handler: async (ctx) => {
      await ctx.services.accounts.requestMailChange(ctx.tenant, ctx.session.user.id, ctx.body.email, ctx.body.password, ctx.req, ctx.ip);
      return json({ ok: true });
    },
  }),
  route({
    // The link in the confirmation mail, opened in any browser, logged in or not.
    method: 'POST',
    path: 'mail-change.php',
    answer: OkAnswer,
    variant: { bodyHas: 'token' },
    who: 'visitor',
    body: TokenBody,
    messages: { token: 'reset_link_invalid' },
    handler: async (ctx) => {
      await ctx.services.accounts.confirmMailChange(ctx.tenant, ctx.body.token);
      return json({ ok: true });
    },
  }),
  route({
    method: 'POST',
    path: 'password.php',
    answer: OkAnswer,
    who: 'member',
    body: PasswordBody,
    messages: { old_password: 'password_old_wrong', password: 'password_too_short', password_repeat: 'password_mismatch' },
    handler: async (ctx) => {
      if (ctx.body.password !== ctx.body.password_repeat) throw new AppError('password_mismatch', 400, { field: 'password_repeat' });
      const cookies = await ctx.services.accounts.changePassword(ctx.session.user.id, ctx.session.id, ctx.body.old_password, ctx.body.password, ctx.req, ctx.ip);
      cookies.forEach(ctx.setCookie);
      return json({ ok: true });
    },
  }),
  route({
    method: 'GET',
    path: 'account.php',
    answer: DeleteReasonsAnswer,
    who: 'visitor',
    handler: async (ctx) => {
      const percent = ctx.tenant.company.delete_discount;
      // A member who starts deleting the account is offered the retention discount: a real,
      // personal code that the credits page applies.
      const retention = ctx.session ? await ctx.services.discounts.retention(ctx.tenant, ctx.session.user) : null;
      const href = (key: DeleteReason) => (key === 'expensive' && retention ? `/credits?code=${encodeURIComponent(retention.code)}` : SOLUTION_HREF[key]);
      return json({
        delete_discount: percent,
        reasons: DELETE_REASONS.map((key) => ({
          key,
          label: ctx.t(`delete_reason_${key}`),
          solution: { label: ctx.t(`delete_solution_${key}`, { percent }), href: href(key) },
        })),
      });
    },
  }),
  route({
    method: 'DELETE',
    path: 'account.php',
    answer: OkAnswer,
    who: 'member',
    body: DeleteBody,
    messages: { reason: 'choose_reason', password: 'password_wrong' },
    handler: async (ctx) => {
      await ctx.services.accounts.requestDeletion(ctx.tenant, ctx.session.user.id, ctx.body.reason, ctx.body.password, ctx.req);
      ctx.services.sessions.clearCookies().forEach(ctx.setCookie);
      return json({ ok: true });
    },
  }),
  route({
    method: 'POST',
    path: 'account.php',
    answer: LoggedInAnswer,
    variant: { query: { reactivate: '1' } },
    who: 'visitor',
    body: TokenBody,
    messages: { token: 'reactivate_failed' },
    handler: async (ctx) => {
      const { user, cookies } = await ctx.services.accounts.reactivate(ctx.tenant, ctx.body.token, ctx.req, ctx.ip);
      cookies.forEach(ctx.setCookie);
      return json({ user });
    },
  }),
  route({ method: 'GET', path: 'profile.php', answer: ProfileAnswer, who: 'member', handler: async (ctx) => json({ profile: await ctx.services.profiles.get(ctx.session.user.id) }) }),
  route({
    method: 'PUT',
    path: 'profile.php',
    answer: ProfileAnswer,
    who: 'member',
    body: ProfileBody,
    messages: PROFILE_MESSAGES,
    handler: async (ctx) => json({ profile: await ctx.services.profiles.update(ctx.tenant, ctx.session.user.id, ctx.session.user.email, ctx.body) }),
  }),
  route({
    method: 'GET',
    path: 'profile-options.php',
    answer: ProfileOptionsAnswer,
    who: 'visitor',
    handler: (ctx) => {
      const fields = Object.fromEntries(
        [['gender', GENDERS] as const, ['sexuality', SEXUALITIES] as const, ...OPTION_FIELDS.map((f) => [f, PROFILE_FIELD_KEYS[f]] as const)].map(([field, keys]) => [
          field,
          (keys as readonly string[]).map((key) => ({ key, label: ctx.t(`option_${field}_${key}`) })),
        ]),
      );
      return json({ fields, visible_profile_fields: ctx.tenant.visible_profile_fields, labels: Object.fromEntries(Object.keys(fields).map((f) => [f, ctx.t(`field_${f}`)])) });
    },
  }),
  route({
    method: 'GET',
    path: 'member.php',
    answer: MemberAnswer,
    who: 'visitor',
    query: MemberQuery,
    handler: async (ctx) => {
      const viewer = ctx.session ? { id: ctx.session.user.id, paid_user: ctx.session.user.paid_user, profileId: ctx.session.user.profile?.id ?? null } : null;
      return json(await ctx.services.profiles.publicProfile(ctx.tenant, ctx.query.id, viewer));
    },
  }),
  route({
    method: 'GET',
    path: 'signup-matches.php',
    answer: SignupMatchesAnswer,
    who: 'member',
    handler: async (ctx) => json({ profiles: await ctx.services.profiles.signupMatches(ctx.tenant, ctx.session.user.id) }),
  }),
  route({ method: 'GET', path: 'notifications.php', answer: NotificationSettings, who: 'member', handler: async (ctx) => json(await ctx.services.notifications.get(ctx.session.user.id)) }),
  route({
    method: 'PUT',
    path: 'notifications.php',
    answer: NotificationSettings,
    who: 'member',
    body: NotificationsBody,
    handler: async (ctx) => json(await ctx.services.notifications.update(ctx.session.user.id, ctx.body)),
  }),
  route({
    // One-click unsubscribe (RFC 8058): mail programs POST, without an Origin of the brand's site.
    method: 'POST',
    path: 'unsubscribe.php',
    answer: OkAnswer, also: ['html'],
    who: 'visitor',
    origin: false,
    handler: async (ctx) => {
      const ok = await ctx.services.notifications.unsubscribe(ctx.tenant, ctx.params.get('u'), emailType(ctx.params.get('type')));
      if ((ctx.header('accept') ?? '').includes('text/html')) return unsubscribePage(ctx, ok ? 'done' : 'invalid');
      if (!ok) throw new AppError('reset_link_invalid', 400);
      return json({ ok: true });
    },
  }),
  // A person's click GETs a confirmation page first, so link scanners that open every link change nothing.
  route({ method: 'GET', path: 'unsubscribe.php', answer: 'html', who: 'visitor', handler: (ctx) => unsubscribePage(ctx, 'confirm') }),
];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The e-mail type a link names (`type=`), or undefined for every type. */
function emailType(value: string | null): EmailNotificationType | undefined {
  return (EMAIL_NOTIFICATION_TYPES as readonly string[]).includes(value ?? '') ? (value as EmailNotificationType) : undefined;
}

/** The small page of the unsubscribe link: a confirmation form, then the outcome; for one e-mail type or all. */
function unsubscribePage(ctx: RouteContext<unknown, unknown, 'visitor'>, state: 'confirm' | 'done' | 'invalid') {
  const type = emailType(ctx.params.get('type'));
  const t = (key: string) => escapeHtml(ctx.t(key, { brand: ctx.tenant.name, type: type ? ctx.t(`notification_${type}`) : '' }));
  const token = encodeURIComponent(ctx.params.get('u') ?? '');
  const action = `/api/unsubscribe.php?u=${token}${type ? `&amp;type=${type}` : ''}`;
  const body =
    state === 'confirm'
      ? `<p>${t(type ? 'unsubscribe_type_question' : 'unsubscribe_question')}</p><form method="post" action="${action}"><button type="submit">${t('unsubscribe_confirm')}</button></form>`
      : `<p>${t(state === 'done' ? (type ? 'unsubscribe_type_done' : 'unsubscribe_done') : 'reset_link_invalid')}</p><p><a href="/">${t('error_back_home')}</a></p>`;
  return html(`<!doctype html><html lang="${ctx.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t('unsubscribe_title')}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1d1a22">
<h1 style="color:${ctx.tenant.theme.primary}">${escapeHtml(ctx.tenant.name)}</h1><h2>${t('unsubscribe_title')}</h2>${body}
<style>button{background:${ctx.tenant.theme.primary};color:#fff;border:0;border-radius:999px;padding:.7rem 1.4rem;font-weight:600;cursor:pointer}</style></body></html>`);
}
