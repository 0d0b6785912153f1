import type { ErrorCode, MessageKey } from '../contract/errors.ts';

export type { ErrorCode, MessageKey };

/**
 * A refusal the API answers with a status and a catalogue message (API.md "Errors"). Services
 * throw it; the router turns it into `{error: {code, message, field?}}` in the member's language.
 * The message key is the code unless named.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly messageKey: MessageKey | string;
  readonly params: Record<string, string | number>;
  readonly field: string | undefined;
  readonly extra: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    status: number,
    options: { key?: MessageKey; params?: Record<string, string | number>; field?: string; extra?: Record<string, unknown> } = {},
  ) {
    super(code);
    this.code = code;
    this.status = status;
    this.messageKey = options.key ?? code;
    this.params = options.params ?? {};
    this.field = options.field;
    this.extra = options.extra ?? {};
  }
}

/** The common refusals, each with its catalogue key. */
export const badRequest = (field?: string, key: MessageKey = 'error_bad_request') => new AppError('invalid_input', 400, { key, field });
export const authRequired = () => new AppError('authentication_required', 401, { key: 'error_auth_required', extra: { authentication_required: true } });
export const forbidden = (key: MessageKey = 'error_forbidden') => new AppError('forbidden', 403, { key });
export const notFound = () => new AppError('not_found', 404, { key: 'error_not_found_api' });
/** Too many attempts: 429 with Retry-After in seconds (API.md). */
export const tooMany = (retryAfterSeconds: number, key: MessageKey = 'error_too_many') =>
  new AppError('too_many_requests', 429, { key, extra: { retry_after: Math.max(1, Math.ceil(retryAfterSeconds)) } });
/** The database is out of reach for a moment (a restart, a failover): 503, try again. */
export const unavailable = () => new AppError('service_unavailable', 503, { key: 'error_unavailable', extra: { retry_after: 5 } });
