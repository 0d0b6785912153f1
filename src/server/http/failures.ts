import { AppError, unavailable } from '../errors.ts';

/**
 * SQLSTATE classes and socket errors that mean the database is out of reach for a moment (a
 * restart, a failover, terminated connections, an idle cut): the request fails with 503 and
 * the pool connects anew for the next one.
 */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[123]|53300)/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_TEXT = /Connection terminated|connection error|Client has encountered a connection error|timeout exceeded when trying to connect|terminating connection|database is locked/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string' && (UNAVAILABLE_ERRNO.has(e.code) || UNAVAILABLE_SQLSTATE.test(e.code))) return true;
  return typeof e.message === 'string' && UNAVAILABLE_TEXT.test(e.message);
}

/** Fastify's own refusals (body parsing, limits) by code, as the API's errors. */
const FASTIFY_CODES: Record<string, () => AppError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new AppError('unsupported_media_type', 415, { key: 'error_bad_request' }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new AppError('invalid_input', 400, { key: 'error_bad_request' }),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AppError('payload_too_large', 413, { key: 'error_payload_too_large' }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new AppError('invalid_json', 400, { key: 'error_bad_request' }),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError('invalid_json', 400, { key: 'error_bad_request' }),
  FST_ERR_BAD_URL: () => new AppError('not_found', 404, { key: 'error_not_found_api' }),
};

/**
 * Any failure as the refusal the visitor gets: a service's AppError as it is, the database out
 * of reach as 503, a malformed request as its 4xx; null for a fault of the runtime (500).
 */
export function asAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) return unavailable();
  const e = error as { code?: unknown; statusCode?: unknown } | null;
  if (e && typeof e.code === 'string' && FASTIFY_CODES[e.code]) return FASTIFY_CODES[e.code]!();
  if (e instanceof SyntaxError) return new AppError('invalid_json', 400, { key: 'error_bad_request' });
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status === 413) return new AppError('payload_too_large', 413, { key: 'error_payload_too_large' });
  if (status >= 400 && status < 500) return new AppError('invalid_input', status, { key: 'error_bad_request' });
  return null;
}
