import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { Permission } from '../../contract/console.ts';
import type { ConsoleService, StaffSession } from '../services/console.ts';
import type { Services } from '../services/index.ts';
import type { Method, Result } from '../http/routes.ts';

/** A console answer: a route's Result, or a stored photo staff screen (`media`). */
export type ConsoleResult = Result | { kind: 'media'; name: string; type: string };

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
  /** A multipart upload (a photo): the handler reads it from `req` (api/photos.ts readPhoto). */
  upload?: boolean;
  handler: (ctx: ConsoleContext<B extends z.ZodType ? z.output<B> : undefined, Q extends z.ZodType ? z.output<Q> : undefined, P extends z.ZodType ? z.output<P> : undefined, R>) => Promise<ConsoleResult> | ConsoleResult;
}

export interface ConsoleContext<Body, Query, Params, R> {
  console: ConsoleService;
  /** The other services staff act through (DESIGN §11: the same services as members). */
  services: Services;
  /** Always there on routes with a permission. */
  session: R extends 'public' ? StaffSession | null : StaffSession;
  body: Body;
  query: Query;
  params: Params;
  ip: string;
  setCookie(value: string): void;
  /** The raw request and response (an upload reads its body from them). */
  req: IncomingMessage;
  res: ServerResponse;
}

export type AnyConsoleRoute = ConsoleRouteSpec<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, Permission | 'public'>;

export function consoleRoute<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, P extends z.ZodType | undefined = undefined, R extends Permission | 'public' = Permission | 'public'>(
  spec: ConsoleRouteSpec<B, Q, P, R>,
): AnyConsoleRoute {
  return spec as unknown as AnyConsoleRoute;
}
