import { ofetch, FetchError } from 'ofetch';
import type { AnswerOf, BodyOf, EndpointKey } from '../contract/endpoints.ts';
import type { ApiErrorBody } from '../contract/errors.ts';
import { requestKey, takeEarlyGet } from '../lib/early-gets.ts';

/** SPEC §7: the HTTP client retries 5 times with exponential delay (only where a retry is safe). */
export const HTTP_RETRIES = 5;

/** The error an API call gives: the catalogue message in the member's language, and the field it is about. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly body: unknown;
  constructor(status: number, code: string, message: string, field: string | undefined, body: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.body = body;
  }
}

const client = ofetch.create({
  baseURL: '/api',
  credentials: 'same-origin',
  retry: HTTP_RETRIES,
  retryDelay: (ctx) => 250 * 2 ** (HTTP_RETRIES - (typeof ctx.options.retry === 'number' ? ctx.options.retry : 0)),
  // Only network failures and overload are retried: a 4xx is an answer.
  retryStatusCodes: [408, 425, 502, 503, 504],
  headers: { 'X-Request-Type': 'client' },
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The endpoints of a method as the browser calls them: `/<name>`, with the query that picks a variant (`/user.php?push=1`). */
type PathOf<M extends Method> = { [K in EndpointKey]: K extends `${M} ${infer P}` ? (P extends `${infer Path}#${string}` ? `/${Path}` : `/${P}`) : never }[EndpointKey];
/** The contract's keys a call may reach: the route, and its variants picked by the body (`#token`). */
type KeysOf<M extends Method, P extends string> = Extract<EndpointKey, `${M} ${P extends `/${infer R}` ? R : never}` | `${M} ${P extends `/${infer R}` ? R : never}#${string}`>;

/** Opens the ban page a suspended member's answers point to, unless this is one of the static pages already. */
export function showBanPage(page = '/pages/ban'): void {
  if (typeof location === 'undefined' || location.pathname.startsWith('/pages/') || !page.startsWith('/pages/')) return;
  location.assign(page);
}

/**
 * Calls /api/<path>; the body and the answer are typed from the contract's endpoint map (the
 * route table's own schemas, src/contract/endpoints.ts). GET is retried; state-changing calls
 * are sent once, so a lost answer never doubles a payment or a message. Throws ApiError with the
 * server's message. A GET that a member shell's head started early (src/lib/early-gets.ts) is
 * answered from there once; when that one failed, it is asked again here.
 */
export async function api<M extends Method, P extends PathOf<M>>(
  method: M,
  path: P,
  body?: BodyOf<KeysOf<M, P>> | FormData,
  query?: Record<string, string | number | undefined>,
): Promise<AnswerOf<KeysOf<M, P>>> {
  if (method === 'GET') {
    const early = await takeEarlyGet(requestKey(path, query));
    if (early) return early as AnswerOf<KeysOf<M, P>>;
  }
  try {
    return await client<AnswerOf<KeysOf<M, P>>>(path, {
      method,
      query,
      retry: method === 'GET' ? HTTP_RETRIES : 0,
      ...(body instanceof FormData ? { body } : body !== undefined ? { body: body as Record<string, unknown> } : {}),
    });
  } catch (error) {
    if (error instanceof FetchError && error.data && typeof error.data === 'object' && 'error' in error.data) {
      const e = (error.data as ApiErrorBody).error;
      // Suspended by staff: whatever the call, the member is shown the ban page (issue 22).
      if (e.code === 'account_suspended') showBanPage((error.data as { location?: string }).location);
      throw new ApiError(error.status ?? 0, e.code, e.message, e.field, error.data);
    }
    throw new ApiError(error instanceof FetchError ? (error.status ?? 0) : 0, 'network', (error as Error).message, undefined, undefined);
  }
}

/**
 * Orders a store's reads against the member's own changes. A list read that overlapped a change
 * (asked while one was under way, or while one began) may carry the state from before it: kept,
 * it would undo what the member just did until the next read. The CI failure it answers: the
 * photos page's first read, arriving after a quick upload's own answer, hid the new photo. A chat
 * removed while the periodic refresh is on its way, a like given then, and a notification switch
 * moved before the page's first read came back have the same shape.
 */
export interface ReadOrder {
  /** Runs one of the member's changes; reads that overlap it are not kept. */
  change<T>(work: () => Promise<T>): Promise<T>;
  /** Reads; `keep` takes the answer only when no change overlapped the read. */
  read<T>(load: () => Promise<T>, keep: (answer: T) => void): Promise<T>;
}

export function readOrder(): ReadOrder {
  // Bumped as a change begins and as it ends: a read that saw the same value at both ends and
  // started with no change under way overlapped none.
  let epoch = 0;
  let underway = 0;
  return {
    async change(work) {
      epoch += 1;
      underway += 1;
      try {
        return await work();
      } finally {
        underway -= 1;
        epoch += 1;
      }
    },
    async read(load, keep) {
      const before = epoch;
      const clear = underway === 0;
      const answer = await load();
      if (clear && epoch === before) keep(answer);
      return answer;
    },
  };
}
