import { z } from 'zod';
import {
  BrandQuery,
  BrandRequiredQuery,
  ConversationParams,
  FictionalChanges,
  FictionalNew,
  FictionalParams,
  FictionalPhotoBody,
  FictionalPhotoParams,
  InboxQuery,
  InboxReplyBody,
  RetireBody,
} from '../../contract/inbox.ts';
import { may } from '../../contract/console.ts';
import { json, stream } from '../http/routes.ts';
import { readPhoto } from '../api/photos.ts';
import { amongBrands, brandsToQuery } from '../services/brand-scope.ts';
import { CONSOLE_TOPIC, staffTopic, type ConsoleEvent, type StaffSessionEnded } from '../services/console-events.ts';
import { consoleRoute, type AnyConsoleRoute } from './route.ts';

/** How often a quiet console stream asks whether its session still opens the console (ms; our choice). */
export const STREAM_SESSION_CHECK_MS = 30_000;

/** `?brand=&retired=1&page=` of the fictional profiles' list. */
const FictionalListQuery = BrandQuery.extend({
  retired: z.enum(['0', '1']).optional().transform((v) => v === '1'),
  page: z.string().max(5).regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(10_000)).default(1),
});

/**
 * The console's routes of fictional profiles, the fictional inbox and the console's live events
 * (issue 22), part of CONSOLE_ROUTES (the access-matrix test covers them).
 */
export const INBOX_ROUTES: AnyConsoleRoute[] = [
  consoleRoute({
    method: 'GET',
    path: 'fictional',
    roles: 'inbox',
    scoped: true,
    query: FictionalListQuery,
    handler: async ({ services, session, query }) => json(await services.fictional.list(session.staff, query)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'fictional',
    roles: 'fictional',
    scoped: true,
    query: BrandRequiredQuery,
    body: FictionalNew,
    handler: async ({ services, session, query, body, ip }) => json(await services.fictional.create(session.staff, query.brand, body, ip), { status: 201 }),
  }),
  consoleRoute({
    method: 'GET',
    path: 'fictional/:id',
    roles: 'inbox',
    scoped: true,
    params: FictionalParams,
    handler: async ({ services, session, params }) => json(await services.fictional.get(session.staff, params.id)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'fictional/:id',
    roles: 'fictional',
    scoped: true,
    params: FictionalParams,
    body: FictionalChanges,
    handler: async ({ services, session, params, body, ip }) => json(await services.fictional.update(session.staff, params.id, body, ip)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'fictional/:id/retire',
    roles: 'fictional',
    scoped: true,
    params: FictionalParams,
    body: RetireBody,
    handler: async ({ services, session, params, body, ip }) => json(await services.fictional.retire(session.staff, params.id, body.reason, ip)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'fictional/:id/photos',
    roles: 'fictional',
    scoped: true,
    params: FictionalParams,
    upload: true,
    handler: async ({ services, session, params, ip, req, res }) => json(await services.fictional.upload(session.staff, params.id, await readPhoto(req, res), ip)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'fictional/:id/photos/:photo',
    roles: 'fictional',
    scoped: true,
    params: FictionalPhotoParams,
    body: FictionalPhotoBody,
    handler: async ({ services, session, params, body, ip }) => json(await services.fictional.photo(session.staff, params.id, params.photo, body.action, ip)),
  }),
  consoleRoute({
    method: 'GET',
    path: 'inbox',
    roles: 'inbox',
    scoped: true,
    query: InboxQuery,
    handler: async ({ services, session, query }) => json(await services.inbox.list(session.staff, query)),
  }),
  consoleRoute({
    method: 'GET',
    path: 'inbox/stats',
    roles: 'inbox',
    scoped: true,
    query: BrandQuery,
    handler: async ({ services, session, query }) => json(await services.inbox.stats(session.staff, query.brand)),
  }),
  consoleRoute({
    method: 'GET',
    path: 'inbox/:id',
    roles: 'inbox',
    scoped: true,
    params: ConversationParams,
    handler: async ({ services, session, params, ip }) => json(await services.inbox.conversation(session.staff, params.id, ip)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'inbox/:id/claim',
    roles: 'inbox',
    scoped: true,
    params: ConversationParams,
    handler: async ({ services, session, params, ip }) => json(await services.inbox.claim(session.staff, params.id, ip)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'inbox/:id/release',
    roles: 'inbox',
    scoped: true,
    params: ConversationParams,
    handler: async ({ services, session, params, ip }) => json(await services.inbox.release(session.staff, params.id, ip)),
  }),
  consoleRoute({
    method: 'POST',
    path: 'inbox/:id',
    roles: 'inbox',
    scoped: true,
    params: ConversationParams,
    body: InboxReplyBody,
    handler: async ({ services, session, params, body, ip }) => json(await services.inbox.reply(session.staff, params.id, body, ip)),
  }),
  consoleRoute({
    method: 'GET',
    path: 'events',
    roles: 'self',
    scoped: true,
    query: BrandQuery,
    /**
     * The console's live events (DESIGN §9), server-sent: ids only, on every runtime, each passed on
     * only when its brand is in the staff member's scope (and `?brand=`, when given) and the role may
     * see what it is about. A page reads what changed through the JSON API. It ends, with a
     * `session_ended` event, when the session does (logout, role changed, removed).
     */
    handler: ({ console, services, session, query }) =>
      stream((sink) => {
        const staff = session.staff;
        const brands = brandsToQuery(staff, query.brand);
        const wanted = (event: ConsoleEvent) => amongBrands(brands, event.brand) && (!event.type.startsWith('inbox_') || may(staff.role, 'inbox'));
        // The session ended (logout, role changed, removed): the page is told, and the stream ends (reconnecting, it gets the 401).
        const end = () => {
          sink.send('session_ended', {});
          sink.close();
        };
        // An end no bus carried (`sitegen staff remove|role` on SQLite) is found by asking: before
        // an event is passed on, and every STREAM_SESSION_CHECK_MS on a quiet stream. One question
        // at a time; a failed one passes the event on (a database hiccup ends no session).
        let asking: Promise<boolean> | null = null;
        const live = () => (asking ??= console.sessionLive(session).catch(() => true).finally(() => (asking = null)));
        const stop = services.bus.subscribe(CONSOLE_TOPIC, (event) => {
          if (!wanted(event as ConsoleEvent)) return;
          void live().then((ok) => (ok ? sink.send((event as ConsoleEvent).type, event) : end()));
        });
        const stopSession = services.bus.subscribe(staffTopic(staff.id), (event) => {
          const ended = event as StaffSessionEnded;
          if (ended.session_id !== null && ended.session_id !== session.id) return;
          end();
        });
        const check = setInterval(() => void live().then((ok) => ok || end()), STREAM_SESSION_CHECK_MS);
        sink.onClose(() => {
          clearInterval(check);
          stop();
          stopSession();
        });
        sink.send('ready', {});
      }),
  }),
];
