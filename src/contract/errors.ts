import type catalogue from '../../locales/nl.json';
import { z } from 'zod';

/**
 * The stable error codes of the API (API.md "Errors"): `{error: {code, message, field?}}`. A code
 * is a union member, so a misspelt one fails `npm run typecheck`. The message shown with it comes
 * from the catalogue, in the member's language.
 */
export const ERROR_CODES = [
  // Requests
  'invalid_input',
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'method_not_allowed',
  'not_found',
  'forbidden',
  'forbidden_origin',
  'authentication_required',
  'too_many_requests',
  'service_unavailable',
  'server_error',
  // Accounts
  'signup_exists',
  'signup_deleted',
  'signup_email_invalid',
  'email_disposable',
  'signup_invite_only',
  'login_failed',
  'login_locked',
  'activate_failed',
  'activate_already',
  'reactivate_failed',
  'reset_link_invalid',
  'reset_not_found',
  'reset_too_many',
  'mail_in_use',
  'mail_new_invalid',
  'password_old_wrong',
  'password_wrong',
  'password_mismatch',
  'password_too_short',
  'choose_reason',
  'name_no_at',
  'name_not_email',
  'name_length',
  'birth_date_required',
  'birth_date_invalid',
  // Profiles and photos
  'premium_only',
  'photo_limit',
  'photo_type',
  'photo_too_large',
  'photo_dimensions',
  'photo_missing',
  'photo_already_decided',
  'photo_reject_reason',
  // Likes, the swipe game, complaints
  'swipe_limit',
  'complaint_subject',
  'complaint_message',
  'complaint_reason',
  // Chat
  'message_empty',
  'message_too_long',
  'gift_unknown',
  'gif_unknown',
  'email_unconfirmed',
  // Credits and payments
  'not_enough_credits',
  'discount_not_found',
  'discount_used',
  'discount_expired',
  'discount_not_applicable',
  'directdebit_blocked',
  'directdebit_limit',
  'sms_code_invalid',
  'sms_code_expired',
  // The member's suspension, the operator console
  'account_suspended',
  'console_code_wrong',
  'console_enrolled',
  'console_already',
  'console_credits_limit',
  // Fictional profiles and the fictional inbox (issue 22)
  'profile_retired',
  'conversation_closed',
  'inbox_claimed',
  'inbox_claim_needed',
  'inbox_reply_refused',
  'complaint_handled',
  'complaint_decision_reason',
  'complaint_no_member',
  'complaint_other_brand',
  'complaint_photo',
  // Lander experiments (issue 23)
  'experiment_control',
  'console_staff_exists',
  'console_staff_self',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A key of the message catalogue (locales/nl.json is the reference). */
export type MessageKey = Exclude<keyof typeof catalogue, '$schema'>;

/** The body of every refusal (API.md "Errors"). */
export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; field?: string };
  /** A 401/403 for a logged-out caller (SPEC §7). */
  authentication_required?: true;
}

/** The body of every refusal as a schema (the OpenAPI document's `Error`). */
export const ErrorAnswer = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    /** The catalogue message in the visitor's language. */
    message: z.string(),
    /** The refused field of the body or query. */
    field: z.string().optional(),
  }),
  authentication_required: z.literal(true).optional(),
});

/** GET /api/openapi.json: the OpenAPI 3.1 document of the API, generated from the route table. */
export const OpenApiAnswer = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({}),
});
export type OpenApiAnswer = z.infer<typeof OpenApiAnswer>;
