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
 * A store's reads kept behind the member's own changes to it. A read on its way while a change
 * began may answer the state from before that change and, arriving last, replace the change's
 * own answer with it: the photos' first read, still on its way when a quick upload returned, hid
 * the new photo; the likes' first read turned a like just given back into "Like". Such a read is
 * not set: it is made again once the changes have settled, so the store ends on the newest state.
 */
export function changeGuard() {
  /** Changes begun, ever: a read that saw this move while on its way is older than one of them. */
  let begun = 0;
  const running = new Set<Promise<unknown>>();
  return {
    /** Runs one of the member's changes: its optimistic step (if any) and its call to the server. */
    async change<T>(run: () => Promise<T>): Promise<T> {
      begun += 1;
      const change = run();
      running.add(change);
      try {
        return await change;
      } finally {
        running.delete(change);
      }
    },

    /** Reads and sets the store; read again, after the changes, when a change began meanwhile. */
    async read<T>(fetch: () => Promise<T>, set: (answer: T) => void): Promise<T> {
      for (;;) {
        // A read while a change runs may or may not see it: it waits for the change instead.
        if (running.size > 0) {
          await Promise.allSettled([...running]);
          continue;
        }
        const before = begun;
        const answer = await fetch();
        if (begun === before) {
          set(answer);
          return answer;
        }
      }
    },
  };
}
