import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Tenant } from '../../tenant/schema.ts';
import type { Locale } from '../../lib/locales.ts';
import type { ErrorCode, MessageKey } from '../../contract/errors.ts';
import type { Services, Session } from '../services/index.ts';

/**
 * Who may call a route (DESIGN §8): anybody with a browser (`visitor`), a logged-in member
 * (`member`: 401 otherwise), or an outside caller such as a payment provider (`outside`: no
 * session is looked up, no Origin check, form bodies are read).
 */
export type Who = 'visitor' | 'member' | 'outside';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What every handler gets: the parsed input, the brand, the visitor and the services. */
export interface RouteContext<Body, Query, W extends Who> {
  /** The Node request, for what services read from it (address, user agent, host). */
  req: IncomingMessage;
  /** The Node response, for the rare header a handler sets before it answers (Connection: close). */
  res: ServerResponse;
  method: Method;
  tenant: Tenant;
  locale: Locale;
  country: string | null;
  ip: string;
  /** The brand's own address for links that leave the site and come back (http/origin.ts brandOrigin). */
  origin: string;
  services: Services;
  /** The logged-in member: always there on `member` routes, never looked up on `outside` ones. */
  session: W extends 'member' ? Session : Session | null;
  body: Body;
  query: Query;
  /** The query string as sent, for parameters a route reads without a schema. */
  params: URLSearchParams;
  /** Adds a Set-Cookie header to the answer (also to a refusal). */
  setCookie(value: string): void;
  cookie(name: string): string | null;
  header(name: string): string | undefined;
  /** A catalogue message in the visitor's language. */
  t(key: MessageKey | string, params?: Record<string, string | number>): string;
}

/** An event stream's sink (server-sent events): never compressed, never buffered. */
export interface EventSink {
  /** Sends one event; `id` lets a reconnecting browser say what it saw last (Last-Event-ID). */
  send(event: string, data: unknown, id?: string | number): void;
  /** Called once when the browser goes away or the stream is ended. */
  onClose(listener: () => void): void;
  close(): void;
}

/** A JSON answer; `Body` is what the route's answer schema takes. */
export interface JsonResult<Body = unknown> {
  kind: 'json';
  status: number;
  body: Body;
  headers?: Record<string, string>;
}
/** The answers other than JSON. */
export type OtherResult =
  | { kind: 'redirect'; status: 302 | 303; location: string }
  | { kind: 'html'; status: number; html: string }
  | { kind: 'empty'; status: 200 | 204 }
  | { kind: 'stream'; open: (sink: EventSink) => void | Promise<void> }
  /** A download (a CSV export): its media type and the file name the browser saves it under. */
  | { kind: 'file'; status: 200; type: string; filename: string; body: string };
/** The explicit answers a handler gives; nothing is guessed from the shape of a value. */
export type Result = JsonResult | OtherResult;

export const json = <Body>(body: Body, init: { status?: number; headers?: Record<string, string> } = {}): JsonResult<Body> => ({ kind: 'json', status: init.status ?? 200, body, headers: init.headers });
export const redirect = (location: string, status: 302 | 303 = 303): OtherResult => ({ kind: 'redirect', status, location });
export const html = (text: string, status = 200): OtherResult => ({ kind: 'html', status, html: text });
export const noContent = (): OtherResult => ({ kind: 'empty', status: 204 });
export const file = (body: string, type: string, filename: string): OtherResult => ({ kind: 'file', status: 200, type, filename, body });
export const stream = (open: (sink: EventSink) => void | Promise<void>): OtherResult => ({ kind: 'stream', open });

/** What a route answers other than JSON (the OpenAPI document names it; the answer check skips it). */
export type AnswerNote = 'redirect' | 'html' | 'stream' | 'empty';

/** The results a handler may give for its declared answer: JSON only when a schema is declared, and typed by it. */
export type AnswerOf<A extends z.ZodType | AnswerNote | undefined> = [A] extends [undefined] ? Result : A extends z.ZodType ? JsonResult<z.input<A>> | OtherResult : OtherResult;

export interface RouteSpec<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, W extends Who, A extends z.ZodType | AnswerNote | undefined = undefined> {
  method: Method;
  /** The endpoint's name under /api/, e.g. `user.php`. */
  path: string;
  who: W;
  /** The JSON body (a form body for `outside` routes); the handler never sees one that fails it. */
  body?: B;
  query?: Q;
  /**
   * The 2xx JSON answer (a schema of src/contract, named ...Answer): the handler's `json(...)` is
   * type-checked against it, tests check every answer sent, and the OpenAPI document shows it.
   * A route that answers no JSON names what it answers instead (a redirect, an HTML page, an
   * event stream, nothing).
   */
  answer?: A;
  /** Other kinds of answers the route gives beside its JSON one (logout: JSON, or a redirect with ?next=). */
  also?: AnswerNote[];
  /** The error code (and catalogue message of that name) for a refused field; `invalid_input` with `error_bad_request` for the rest. */
  messages?: Partial<Record<string, ErrorCode & MessageKey>>;
  /**
   * The Origin check (scheme, host and port of the page must be the request's own). On by
   * default for every state-changing method; never for `outside` callers.
   */
  origin?: boolean;
  /** A multipart upload the handler reads itself (photos): the body is left unread. */
  upload?: boolean;
  /**
   * Several routes may share a method and path (POST user.php logs in, POST user.php?push=1
   * stores a push subscription): the first whose variant matches the query answers, a route
   * without a variant last.
   */
  variant?: { query?: Record<string, string>; bodyHas?: string };
  handler: (ctx: RouteContext<B extends z.ZodType ? z.output<B> : undefined, Q extends z.ZodType ? z.output<Q> : undefined, W>) => Promise<AnswerOf<NoInfer<A>>> | AnswerOf<NoInfer<A>>;
}

/** A declared route, its types erased for the router's table. */
export type AnyRoute = Omit<RouteSpec<z.ZodType | undefined, z.ZodType | undefined, Who, z.ZodType | AnswerNote | undefined>, 'handler'> & {
  handler: (ctx: RouteContext<unknown, unknown, Who>) => Promise<Result> | Result;
};

/** Declares an API route (DESIGN §8): who may call it, its input, its Origin check, its handler. */
export function route<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, W extends Who = Who, A extends z.ZodType | AnswerNote | undefined = undefined>(
  spec: RouteSpec<B, Q, W, A>,
): AnyRoute {
  return spec as unknown as AnyRoute;
}

/** The request as the router and pages see it once the brand and visitor are known. */
export interface Visitor {
  tenant: Tenant;
  locale: Locale;
  locales: Locale[];
  country: string | null;
  ip: string;
}

export type { FastifyReply, FastifyRequest };
