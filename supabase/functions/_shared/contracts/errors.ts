// The one error shape every function answers with, and every code it may carry.
//   { "error": { "code": "snake_case", "message": "Human sentence.", "details"?: ... } }
// The app maps `code` to a translated message; `message` is the English fallback.

/** Codes a function answers with (HTTP errors and the chat's `error` event). */
export const ERROR_CODES = [
  // any function
  "method_not_allowed",
  "not_found",
  "invalid_json",
  "invalid_request",
  "invalid_body",
  "body_too_large",
  "session_required",
  "not_signed_in",
  "forbidden",
  "rate_limited",
  "service_unavailable",
  "internal_error",
  // chat
  "bot_not_found",
  "chat_not_found",
  "channel_disabled",
  "password_required",
  "invalid_image",
  "retrieval_failed",
  "provider_auth",
  "provider_rate_limited",
  "provider_unavailable",
  "provider_bad_request",
  "provider_timeout",
  "provider_error",
  // bot-login
  "incorrect_password",
  // ingest
  "sync_in_progress",
  "not_notion",
  // notion-connect
  "notion_not_configured",
  "invalid_redirect_uri",
  "invalid_return_path",
  "too_many_connections",
  "invalid_state",
  "notion_denied",
  "notion_oauth_failed",
  "notion_unreachable",
  "notion_unauthorized",
  "notion_error",
  "connection_not_found",
  // team-invite
  "invite_failed",
  "mail_rate_limited",
  // account-delete
  "last_owner",
  "personal_team_pays_through_stripe",
  // admin delete_user
  "user_team_pays_through_stripe",
  // event
  "invalid_event",
  // tests
  "run_in_progress",
  "no_test_cases",
  "invalid_csv",

  // power-ups
  "power_up_not_found",
  "power_up_not_http",
  "invalid_settings",
  // billing, stripe-webhook, and a plan's limits (plan_limit: PT402 from Postgres; quota_exceeded: a chat turn over the month's messages)
  "plan_limit",
  "quota_exceeded",
  "payments_not_configured",
  "plan_not_found",
  "price_not_found",
  "already_subscribed",
  "no_subscription",
  "no_customer",
  "stripe_refused",
  "stripe_unavailable",
  "payment_failed",
  "unknown_price",
  "invalid_signature",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetail<C extends string = ErrorCode> {
  code: C;
  message: string;
  details?: unknown;
}

/** The body of every 4xx/5xx answer. */
export interface ErrorBody<C extends string = ErrorCode> {
  error: ErrorDetail<C>;
}

/** `details` of 429 rate_limited and 503 service_unavailable (also sent as the Retry-After header, in seconds). */
export interface RetryDetails {
  retry_after: number;
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && (ERROR_CODES as readonly string[]).includes(code);
}

/** The error of a parsed answer body, or null when it is not in the one error shape. */
export function errorOf(body: unknown): ErrorDetail<string> | null {
  if (!body || typeof body !== "object") return null;
  const error = (body as { error?: unknown }).error;
  if (!error || typeof error !== "object") return null;
  const { code, message, details } = error as Record<string, unknown>;
  if (typeof code !== "string" || typeof message !== "string") return null;
  return details === undefined ? { code, message } : { code, message, details };
}
