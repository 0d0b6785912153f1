import { z } from 'zod';
import {
  AuditQuery,
  BulkApproveBody,
  ComplaintActionBody,
  ComplaintParams,
  ComplaintsQuery,
  ConsoleEnrolBody,
  ConsoleEnrolPasswordBody,
  ConsoleLoginBody,
  ConsoleMembersQuery,
  CreditsBody,
  EndVariantBody,
  EndVariantQuery,
  ExperimentsQuery,
  HeldDecisionBody,
  HeldParams,
  HeldQuery,
  MemberParams,
  PhotoDecisionBody,
  PhotoParams,
  PhotoQueueQuery,
  PostbackParams,
  PostbacksQuery,
  ReasonBody,
  RevenueQuery,
  SafetyQuery,
  SourcesQuery,
  StaffAddBody,
  StaffParams,
  StaffRoleBody,
  may,
  type ConsoleBrand,
  type StaffView,
} from '../../contract/console.ts';
import { auditPhotoDecision } from '../services/console.ts';
import { amongBrands, brandsToQuery } from '../services/brand-scope.ts';
import { photosShown, poolBrands } from '../services/pool-view.ts';
import type { Tenant } from '../../tenant/schema.ts';
import { AppError, notFound } from '../errors.ts';
import type { BrandScope } from '../services/moderation.ts';
import type { PhotoRejectReason } from '../../lib/photo-screening.ts';
import { json, noContent } from '../http/routes.ts';
import { postbacksCsv, revenueCsv } from './revenue-csv.ts';
import { experimentsCsv, sourcesCsv } from './traffic-csv.ts';
import { consoleRoute, type AnyConsoleRoute } from './route.ts';
import { INBOX_ROUTES } from './inbox-routes.ts';
import { consoleOpenApiDocument } from './openapi.ts';

export { consoleRoute, type AnyConsoleRoute, type ConsoleContext, type ConsoleResult, type ConsoleRouteSpec } from './route.ts';

/** The brands a photo list or decision reads (brandsToQuery), as the moderation service names every brand. */
const brandsOf = (staff: StaffView, brand?: string): BrandScope => brandsToQuery(staff, brand) ?? 'all';
/** The staff member as the moderation service knows them. */
const actor = (staff: StaffView) => ({ id: staff.id, role: staff.role });

/** A stored photo's name in a staff media path: `<brand>/<hex>.webp` or its `-t` thumbnail. */
const MediaParams = z.object({ brand: z.string().regex(/^[a-z0-9-]{1,40}$/), file: z.string().regex(/^[a-f0-9]{1,64}(?:-t)?\.webp$/) });


/** Brands named for a staff member must be brands this runtime serves. */
function knownBrands(brands: string[] | null, tenants: Tenant[]): string[] | null {
  if (brands && brands.some((id) => !tenants.some((t) => t.id === id))) throw new AppError('invalid_input', 400, { key: 'error_bad_request', field: 'brands' });
  return brands;
}

const consoleBrand = (t: Tenant): ConsoleBrand => ({ id: t.id, name: t.name, domain: t.domain });
/** The brands a staff member may see, as GET me answers them. */
const brandsInScope = (staff: StaffView, tenants: Tenant[]): ConsoleBrand[] => tenants.filter((t) => amongBrands(brandsToQuery(staff), t.id)).map(consoleBrand);

/** POST photos/{id} and chat-photos/{id}: one decision on a profile photo or a photo sent in a chat, audited. */
function photoDecisionRoute(path: string, decide: 'decidePhoto' | 'decideChatPhoto'): AnyConsoleRoute {
  return consoleRoute({
    method: 'POST',
    path,
    roles: 'photos',
    scoped: true,
    params: PhotoParams,
    body: PhotoDecisionBody,
    handler: async ({ services, session, params, body, ip }) => {
      // The reason is checked against PHOTO_REJECT_REASONS by the service (400 photo_reject_reason).
      const decision = { status: body.status, reason: body.reason as PhotoRejectReason | undefined };
      const { id, status } = await services.moderation[decide](actor(session.staff), params.id, decision, brandsOf(session.staff), auditPhotoDecision(session.staff, ip));
      return json({ id, status });
    },
  });
}

/** The console's OpenAPI document, made from the table on first ask. */
let consoleDocument: ReturnType<typeof consoleOpenApiDocument> | undefined;

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
    // The OpenAPI 3.1 document of this table (console/openapi.ts), for integrators with a staff account.
    method: 'GET',
    path: 'openapi.json',
    roles: 'self',
    scoped: false,
    handler: () => json((consoleDocument ??= consoleOpenApiDocument(CONSOLE_ROUTES))),
  }),
  consoleRoute({
    method: 'GET',
    path: 'me',
    roles: 'self',
    scoped: false,
    // The brands in the staff member's scope, for the console's brand filters, and the other brands of
    // their pools, for naming a member of the pool they meet (issue 24): any other brand does not exist for them.
    handler: ({ session, services }) => json({ staff: session.staff, brands: brandsInScope(session.staff, services.tenants()), pool_brands: poolBrands(session.staff, services.tenants()).map(consoleBrand) }),
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
    handler: async ({ console, session, params, ip }) => json(await console.member(session.staff, params.id, ip)),
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
  ...INBOX_ROUTES,
  // ---- Photo screening (issue 22): the queues, decisions, and the photos themselves -------
  consoleRoute({
    method: 'GET',
    path: 'photos',
    roles: 'photos',
    scoped: true,
    query: PhotoQueueQuery,
    handler: async ({ services, session, query }) => {
      const brands = brandsOf(session.staff, query.brand);
      const [page, counts] = await Promise.all([
        services.moderation.photoQueue({ brands, status: query.status, before: query.before, limit: query.limit }),
        services.moderation.queueCounts({ brands: brandsOf(session.staff), status: query.status }),
      ]);
      return json({ ...page, counts });
    },
  }),
  consoleRoute({
    method: 'POST',
    path: 'photos/approve',
    roles: 'photos',
    scoped: true,
    body: BulkApproveBody,
    handler: async ({ services, session, body, ip }) => {
      const { approved, skipped } = await services.moderation.bulkApprove(actor(session.staff), body.ids, brandsOf(session.staff), auditPhotoDecision(session.staff, ip));
      return json({ approved, skipped });
    },
  }),
  photoDecisionRoute('photos/:id', 'decidePhoto'),
  consoleRoute({
    method: 'GET',
    path: 'chat-photos',
    roles: 'photos',
    scoped: true,
    query: PhotoQueueQuery,
    handler: async ({ services, session, query }) => json(await services.moderation.chatPhotoQueue({ brands: brandsOf(session.staff, query.brand), status: query.status, before: query.before, limit: query.limit })),
  }),
  photoDecisionRoute('chat-photos/:id', 'decideChatPhoto'),
  consoleRoute({
    // A photo as the member's page and a complaint show it (pool-view.ts photosShown): whatever its
    // status (a pending photo is never public) to its brand's screening staff; an approved profile
    // photo to other staff of its brand and to staff of another brand of its pool (of a member
    // shown on the pool's brands: not one who chose their own brand only).
    method: 'GET',
    path: 'media/:brand/:file',
    roles: 'members.read',
    scoped: true,
    params: MediaParams,
    handler: async ({ services, session, params }) => {
      const shown = photosShown(session.staff, params.brand, services.tenants());
      if (!shown) throw notFound();
      // Staff of another brand of the pool: not the photo of a member shown on their own brand only.
      const mode = shown === 'approved' ? 'pool' : may(session.staff.role, 'photos') ? 'all' : 'approved';
      const name = await services.moderation.staffMediaFile(`${params.brand}/${params.file}`, [params.brand], mode);
      if (!name) throw notFound();
      return { kind: 'media', name, type: 'image/webp' };
    },
  }),

  // ---- Complaints (issue 22) ------------------------------------------------------------
  consoleRoute({
    method: 'GET',
    path: 'complaints',
    roles: 'complaints',
    scoped: true,
    query: ComplaintsQuery,
    handler: async ({ services, session, query }) => json(await services.complaints.queue(session.staff, query)),
  }),
  consoleRoute({
    method: 'GET',
    path: 'complaints/:id',
    roles: 'complaints',
    scoped: true,
    params: ComplaintParams,
    handler: async ({ services, session, params, ip }) => json(await services.complaints.complaint(session.staff, params.id, ip)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'complaints/:id',
    roles: 'complaints',
    scoped: true,
    params: ComplaintParams,
    body: ComplaintActionBody,
    handler: async ({ services, session, params, body, ip }) => json(await services.complaints.act(session.staff, params.id, body, ip)),
  }),
];
