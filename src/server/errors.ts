/**
 * A refusal the API answers with a status and a catalogue message (API.md "Errors"). Services
 * throw it; the router turns it into `{error: {code, message, field?}}` in the member's language.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly messageKey: string;
  readonly params: Record<string, string | number>;
  readonly field: string | undefined;
  readonly extra: Record<string, unknown>;

  constructor(
    code: string,
    status: number,
    options: { key?: string; params?: Record<string, string | number>; field?: string; extra?: Record<string, unknown> } = {},
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
export const badRequest = (field?: string, key = 'error_bad_request') => new AppError('invalid_input', 400, { key, field });
export const authRequired = () => new AppError('authentication_required', 401, { key: 'error_auth_required', extra: { authentication_required: true } });
export const forbidden = (key = 'error_forbidden') => new AppError('forbidden', 403, { key });
export const notFound = () => new AppError('not_found', 404, { key: 'error_not_found_api' });
