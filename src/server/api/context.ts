import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Tenant } from '../../tenant/schema.ts';
import type { Locale } from '../../lib/locales.ts';
import type { Services, Session } from '../services/index.ts';

/** What every API handler gets: the request as parsed data, the tenant, the visitor and the services. */
export interface ApiContext {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  url: URL;
  query: URLSearchParams;
  tenant: Tenant;
  locale: Locale;
  country: string | null;
  ip: string;
  services: Services;
  /** The logged-in member, when there is one. */
  session: Session | null;
  /** The parsed JSON body (undefined when there is none). */
  body(): Promise<unknown>;
  /** Adds a Set-Cookie header to the answer. */
  setCookie(value: string): void;
  cookie(name: string): string | null;
}

export type ApiResult = { status?: number; body?: unknown; headers?: Record<string, string> };
export type ApiHandler = (ctx: ApiContext) => Promise<ApiResult | unknown> | ApiResult | unknown;

/** Handlers by method for one path. */
export type ApiRoute = Partial<Record<'GET' | 'POST' | 'PUT' | 'DELETE', ApiHandler>>;
