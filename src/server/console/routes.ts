import type { z } from 'zod';
import {
  AuditQuery,
  ConsoleEnrolBody,
  ConsoleEnrolPasswordBody,
  ConsoleLoginBody,
  ConsoleMembersQuery,
  CreditsBody,
  HeldDecisionBody,
  HeldParams,
  HeldQuery,
  EndVariantBody,
  EndVariantQuery,
  ExperimentsQuery,
  MemberParams,
  PostbackParams,
  PostbacksQuery,
  ReasonBody,
  RevenueQuery,
  SafetyQuery,
  SourcesQuery,
  StaffAddBody,
  StaffParams,
  StaffRoleBody,
  type ConsoleBrand,
  type Permission,
  type StaffView,
} from '../../contract/console.ts';
import { inScope, type ConsoleService, type StaffSession } from '../services/console.ts';
import type { Services } from '../services/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { AppError } from '../errors.ts';
import { json, noContent, type Method, type Result } from '../http/routes.ts';
import { postbacksCsv, revenueCsv } from './revenue-csv.ts';
import { experimentsCsv, sourcesCsv } from './traffic-csv.ts';

/**
 * A console route (DESIGN §11), declared like a member route (`route()` in http/routes.ts) with
 * `roles` in place of `who`: the permission (contract/console.ts PERMISSIONS) that names the roles
 * allowed, or 'public' for the calls before a session (login, enrolment). `scoped` says that the
 * route's object or `?brand=` belongs to a brand: a brand outside the staff member's scope is 404.
 */
export interface ConsoleRouteSpec<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, P extends z.ZodType | undefined, R extends Permission | 'public'> {
  method: Method;
  /** Under /api/console/, Fastify's syntax for a path parameter (`members/:id`). */
  path: string;
  roles: R;
  scoped: boolean;
  body?: B;
  query?: Q;
  params?: P;
  handler: (ctx: ConsoleContext<B extends z.ZodType ? z.output<B> : undefined, Q extends z.ZodType ? z.output<Q> : undefined, P extends z.ZodType ? z.output<P> : undefined, R>) => Promise<Result> | Result;
}

export interface ConsoleContext<Body, Query, Params, R> {
  console: ConsoleService;
  /** The runtime's other services (the brands served, moderation, chat, figures): staff act through them (DESIGN §11). */
  services: Services;
  /** Always there on routes with a permission. */
  session: R extends 'public' ? StaffSession | null : StaffSession;
  body: Body;
  query: Query;
  params: Params;
  ip: string;
  setCookie(value: string): void;
}

/** Brands named for a staff member must be brands this runtime serves. */
function knownBrands(brands: string[] | null, tenants: Tenant[]): string[] | null {
  if (brands && brands.some((id) => !tenants.some((t) => t.id === id))) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'brands' });
  return brands;
}

/** The brands a staff member may see, as GET me answers them. */
const brandsInScope = (staff: StaffView, tenants: Tenant[]): ConsoleBrand[] => tenants.filter((t) => inScope(staff, t.id)).map((t) => ({ id: t.id, name: t.name }));

export type AnyConsoleRoute = ConsoleRouteSpec<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, Permission | 'public'>;

export function consoleRoute<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, P extends z.ZodType | undefined = undefined, R extends Permission | 'public' = Permission | 'public'>(
  spec: ConsoleRouteSpec<B, Q, P, R>,
): AnyConsoleRoute {
  return spec as unknown as AnyConsoleRoute;
}

/** The console's JSON API: every route, its permission and scope (the access-matrix test reads this table). */
export const CONSOLE_ROUTES: AnyConsoleRoute[] = [
  consoleRoute({
    method: 'POST',
    path: 'login',
    roles: 'public',
    scoped: false,
    body: ConsoleLoginBody,
    handler: async ({ console, body, ip, setCookie }) => {
      const result = await console.login(body, ip);
      if ('enrol' in result) return json(result);
      setCookie(result.cookie);
      return json({ staff: result.staff });
    },
  }),
  consoleRoute({
    method: 'POST',
    path: 'enrol',
    roles: 'public',
    scoped: false,
    body: ConsoleEnrolBody,
    handler: async ({ console, body, ip, setCookie }) => {
      const result = await console.enrol(body, ip);
      setCookie(result.cookie);
      return json({ staff: result.staff, recovery_codes: result.recovery_codes });
    },
  }),
  consoleRoute({
    method: 'POST',
    path: 'enrol/password',
    roles: 'public',
    scoped: false,
    body: ConsoleEnrolPasswordBody,
    handler: async ({ console, body, ip }) => json(await console.setPasswordByLink(body.token, body.password, ip)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'logout',
    roles: 'self',
    scoped: false,
    handler: async ({ console, session, ip, setCookie }) => {
      setCookie(await console.logout(session, ip));
      return noContent();
    },
  }),
  consoleRoute({
    method: 'GET',
    path: 'me',
    roles: 'self',
    scoped: false,
    // The brands in the staff member's scope, for the console's brand filters: the others do not exist for them.
    handler: ({ session, services }) => json({ staff: session.staff, brands: brandsInScope(session.staff, services.tenants()) }),
  }),
  consoleRoute({
    method: 'GET',
    path: 'members',
    roles: 'members.read',
    scoped: true,
    query: ConsoleMembersQuery,
    handler: async ({ console, session, query }) => json(await console.members(session.staff, query)),
  }),
  consoleRoute({
    method: 'GET',
    path: 'members/:id',
    roles: 'members.read',
    scoped: true,
    params: MemberParams,
    handler: async ({ console, session, params }) => json(await console.member(session.staff, params.id)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'members/:id/suspend',
    roles: 'members.suspend',
    scoped: true,
    params: MemberParams,
    body: ReasonBody,
    handler: async ({ console, session, params, body, ip }) => {
      await console.suspend(session.staff, params.id, body.reason, ip);
      return json({ ok: true });
    },
  }),
  consoleRoute({
    method: 'POST',
    path: 'members/:id/unsuspend',
    roles: 'members.suspend',
    scoped: true,
    params: MemberParams,
    body: ReasonBody,
    handler: async ({ console, session, params, body, ip }) => {
      await console.unsuspend(session.staff, params.id, body.reason, ip);
      return json({ ok: true });
    },
  }),
  consoleRoute({
    method: 'POST',
    path: 'members/:id/credits',
    roles: 'members.credits',
    scoped: true,
    params: MemberParams,
    body: CreditsBody,
    handler: async ({ console, session, params, body, ip }) => json(await console.moveCredits(session.staff, params.id, body.credits, body.reason, ip)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'members/:id/resend-activation',
    roles: 'members.activation',
    scoped: true,
    params: MemberParams,
    handler: async ({ console, session, params, ip }) => {
      await console.resendActivation(session.staff, params.id, ip);
      return json({ ok: true });
    },
  }),
  consoleRoute({
    method: 'POST',
    path: 'members/:id/directdebit-block',
    roles: 'members.directdebit',
    scoped: true,
    params: MemberParams,
    body: ReasonBody,
    handler: async ({ console, session, params, body, ip }) => {
      await console.blockDirectDebit(session.staff, params.id, body.reason, ip);
      return json({ ok: true });
    },
  }),
  consoleRoute({
    method: 'POST',
    path: 'members/:id/delete',
    roles: 'members.delete',
    scoped: true,
    params: MemberParams,
    body: ReasonBody,
    handler: async ({ console, session, params, body, ip }) => {
      await console.erase(session.staff, params.id, body.reason, ip);
      return json({ ok: true });
    },
  }),
  consoleRoute({
    method: 'GET',
    path: 'held',
    roles: 'held',
    scoped: true,
    query: HeldQuery,
    handler: async ({ services, session, query }) => json(await services.messageSafety.queue(session.staff, query)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'held/:id',
    roles: 'held',
    scoped: true,
    params: HeldParams,
    body: HeldDecisionBody,
    handler: async ({ services, session, params, body, ip }) => json(await services.messageSafety.decide(session.staff, params.id, body, ip)),
  }),
  consoleRoute({
    method: 'GET',
    path: 'safety',
    roles: 'safety',
    scoped: true,
    query: SafetyQuery,
    handler: ({ services, session, query }) => json(services.messageSafety.settings(session.staff, query.brand)),
  }),
  consoleRoute({
    method: 'GET',
    path: 'audit',
    roles: 'audit',
    scoped: true,
    query: AuditQuery,
    handler: async ({ console, session, query }) => json(await console.auditLog(session.staff, query)),
  }),
  consoleRoute({
    method: 'GET',
    path: 'revenue',
    roles: 'revenue',
    scoped: true,
    query: RevenueQuery,
    handler: async ({ services, session, query }) => {
      const figures = await services.revenue.revenue(session.staff, query);
      return query.format === 'csv' ? revenueCsv(figures, query.table) : json(figures);
    },
  }),
  consoleRoute({
    method: 'GET',
    path: 'sources',
    roles: 'sources',
    scoped: true,
    query: SourcesQuery,
    handler: async ({ services, session, query }) => {
      const figures = await services.traffic.sources(session.staff, query);
      return query.format === 'csv' ? sourcesCsv(figures) : json(figures);
    },
  }),
  consoleRoute({
    method: 'GET',
    path: 'postbacks',
    roles: 'postbacks',
    scoped: true,
    query: PostbacksQuery,
    handler: async ({ services, session, query }) => {
      const log = await services.postbacks.list(session.staff, query);
      return query.format === 'csv' ? postbacksCsv(log.attempts) : json(log);
    },
  }),
  consoleRoute({
    method: 'GET',
    path: 'experiments',
    roles: 'experiments',
    scoped: true,
    query: ExperimentsQuery,
    handler: async ({ services, session, query }) => {
      const figures = await services.traffic.experiments(session.staff, query);
      return query.format === 'csv' ? experimentsCsv(figures) : json(figures);
    },
  }),
  consoleRoute({
    method: 'POST',
    path: 'postbacks/:id/resend',
    roles: 'postbacks',
    scoped: true,
    params: PostbackParams,
    handler: async ({ services, session, params, ip }) => json(await services.postbacks.resend(session.staff, params.id, ip)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'experiments/end',
    roles: 'experiments',
    scoped: true,
    query: EndVariantQuery,
    body: EndVariantBody,
    handler: async ({ services, session, query, body, ip }) => json(await services.traffic.endVariant(session.staff, query.brand, body.variant, ip)),
  }),
  consoleRoute({ method: 'GET', path: 'staff', roles: 'staff', scoped: false, handler: async ({ console }) => json({ staff: await console.listStaff() }) }),
  consoleRoute({
    method: 'POST',
    path: 'staff',
    roles: 'staff',
    scoped: false,
    body: StaffAddBody,
    handler: async ({ console, services, session, body, ip }) => {
      const added = await console.addStaffAs(session.staff, { ...body, brands: knownBrands(body.brands, services.tenants()) }, ip);
      // The link on this host: the page prints it once for the owner to pass on.
      return json({ id: added.id, enrol_path: `/console/enrol?token=${added.token}` }, { status: 201 });
    },
  }),
  consoleRoute({
    method: 'POST',
    path: 'staff/:id/role',
    roles: 'staff',
    scoped: false,
    params: StaffParams,
    body: StaffRoleBody,
    handler: async ({ console, services, session, params, body, ip }) => {
      await console.changeStaffAs(session.staff, params.id, body.role, knownBrands(body.brands, services.tenants()), ip);
      return json({ ok: true });
    },
  }),
  consoleRoute({
    method: 'POST',
    path: 'staff/:id/remove',
    roles: 'staff',
    scoped: false,
    params: StaffParams,
    handler: async ({ console, session, params, ip }) => {
      await console.removeStaffAs(session.staff, params.id, ip);
      return json({ ok: true });
    },
  }),
];
