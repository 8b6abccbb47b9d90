// The app's one error: every failure a screen sees (an edge function's `{ error: { code,
// message, details } }`, a PostgREST/Postgres refusal, an auth or storage error, a network
// failure) becomes an AppError, so screens branch on `code` and show `message` one way.
import { errorOf } from "@shared/contracts/errors.ts";

export interface AppErrorInit {
  /** HTTP status; 0 when no answer came (network, aborted, a check in the browser). */
  status: number;
  /** The functions' snake_case code, Postgres' SQLSTATE ("42501"), PostgREST's ("PGRST116") or auth's. */
  code: string;
  message: string;
  details?: unknown;
  /** Seconds to wait before trying again (429/503: `details.retry_after` or the Retry-After header). */
  retryAfter?: number;
  /** Postgres' hint (a RAISE ... USING HINT names the rule that refused). */
  hint?: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: unknown;
  readonly retryAfter?: number;
  readonly hint?: string;

  constructor(init: AppErrorInit) {
    super(init.message);
    this.name = "AppError";
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
    this.hint = init.hint;
  }
}

/** What RLS does to a refused update or delete: no error, no row. The app says so plainly. */
export function refused(message: string, code = "42501"): AppError {
  return new AppError({ status: 403, code, message });
}

function retryAfterOf(details: unknown, header: string | null): number | undefined {
  const fromBody = (details as { retry_after?: unknown } | null | undefined)?.retry_after;
  if (typeof fromBody === "number" && fromBody > 0) return fromBody;
  const n = Number(header);
  return header && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** An edge function's failed answer (read once; not JSON keeps the status). */
export async function errorFromResponse(res: Response): Promise<AppError> {
  const body = await res.json().catch(() => undefined);
  const e = errorOf(body);
  return new AppError({
    status: res.status,
    code: e?.code ?? `http_${res.status}`,
    message: e?.message ?? (res.statusText || `HTTP ${res.status}`),
    details: e?.details,
    retryAfter: retryAfterOf(e?.details, res.headers.get("retry-after")),
  });
}

/**
 * Any error as an AppError: supabase-js's PostgrestError (`code`, `details`, `hint`), AuthError
 * (`status`, `code`), StorageError (`statusCode`, `error`), or a thrown Error (network).
 */
export function toAppError(error: unknown, fallbackCode = "request_failed"): AppError {
  if (error instanceof AppError) return error;
  if (error && typeof error === "object") {
    const e = error as { message?: unknown; code?: unknown; status?: unknown; statusCode?: unknown; details?: unknown; hint?: unknown; error?: unknown; name?: unknown };
    const status = typeof e.status === "number" ? e.status : Number(e.statusCode) || 0;
    const network = error instanceof TypeError || e.name === "AuthRetryableFetchError";
    const code =
      typeof e.code === "string" && e.code ? e.code : typeof e.error === "string" && e.error ? e.error : network ? "network_error" : status ? `http_${status}` : fallbackCode;
    return new AppError({
      status,
      code,
      message: typeof e.message === "string" && e.message ? e.message : code,
      details: e.details ?? undefined,
      hint: typeof e.hint === "string" && e.hint ? e.hint : undefined,
    });
  }
  return new AppError({ status: 0, code: fallbackCode, message: String(error ?? fallbackCode) });
}

/** The data of the success branch of a supabase-js result union. */
type SuccessData<R> = R extends { error: null; data: infer D } ? D : never;

/**
 * `{ data, error }` of supabase-js: the data, or the error thrown as an AppError. The one cast
 * of the data layer: supabase-js types the two branches, TypeScript cannot narrow a generic.
 */
export function unwrap<R extends { data: unknown; error: object | null }>(result: R): SuccessData<R> {
  if (result.error !== null) throw toAppError(result.error);
  return result.data as SuccessData<R>;
}

// ---------------------------------------------------------------------------------------------
// Codes to messages: the one table that turns any AppError into a sentence in the user's
// language (ids in i18n/messages/errors/ and the areas' own). Screens show this, never the
// server's English `message`. Sources of the codes: ERROR_CODES of the functions
// (supabase/functions/_shared/contracts/errors.ts), the ingest job's per-document codes, the
// auth server's codes, RAISE ... USING HINT names and SQLSTATEs of supabase/migrations.

/** A message id and its values, ready for `intl.formatMessage`. */
export interface ErrorMessage {
  id: string;
  values?: Record<string, string | number>;
}

const BY_CODE: Record<string, string> = {
  // functions, any
  method_not_allowed: "error.badRequest",
  invalid_json: "error.badRequest",
  invalid_request: "error.badRequest",
  invalid_body: "error.badRequest",
  invalid_event: "error.badRequest",
  invalid_redirect_uri: "error.badRequest",
  invalid_return_path: "error.badRequest",
  body_too_large: "error.tooLarge",
  not_found: "error.gone",
  session_required: "error.session",
  not_signed_in: "error.session",
  forbidden: "error.forbidden",
  rate_limited: "error.rateLimited",
  service_unavailable: "error.unavailable",
  internal_error: "error.internal",
  request_failed: "error.generic",
  network_error: "error.network",
  // chat
  bot_not_found: "error.botNotFound",
  chat_not_found: "error.chatNotFound",
  password_required: "error.passwordRequired",
  invalid_image: "error.invalidImage",
  retrieval_failed: "error.retrievalFailed",
  provider_auth: "error.providerAuth",
  provider_rate_limited: "error.provider",
  provider_unavailable: "error.provider",
  provider_bad_request: "error.provider",
  provider_timeout: "error.provider",
  provider_error: "error.provider",
  // bot-login, ingest, notion-connect, team-invite, account-delete
  incorrect_password: "error.incorrectPassword",
  sync_in_progress: "sources.error.syncInProgress",
  not_notion: "error.notNotion",
  notion_not_configured: "knowledge.notion.error.notionNotConfigured",
  too_many_connections: "knowledge.notion.error.tooManyConnections",
  invalid_state: "knowledge.notion.error.invalidState",
  notion_denied: "knowledge.notion.error.notionDenied",
  notion_oauth_failed: "knowledge.notion.error.notionOauthFailed",
  notion_unreachable: "knowledge.notion.error.notionUnreachable",
  notion_unauthorized: "knowledge.notion.error.notionUnauthorized",
  connection_not_found: "knowledge.notion.error.connectionNotFound",
  notion_error: "error.notion",
  invite_failed: "error.inviteFailed",
  mail_rate_limited: "teams.error.mailRateLimited",
  last_owner: "teams.error.lastOwner",
  // deleting a team (hint of teams_refuse_delete_while_paying) or one's account (account-delete)
  team_pays_through_stripe: "teams.error.paysThroughStripe",
  personal_team_pays_through_stripe: "account.delete.personalTeamPays",
  user_team_pays_through_stripe: "admin.users.delete.teamPays",
  no_team: "teams.error.noTeam",
  avatar_too_large: "account.avatar.tooLarge",
  avatar_wrong_type: "account.avatar.wrongType",
  // ingest jobs: one code per document that could not be read
  fetch_failed: "error.job.unreachable",
  dns_failed: "error.job.unreachable",
  timeout: "error.job.unreachable",
  blocked_address: "error.job.blockedAddress",
  link_local: "error.job.blockedAddress",
  invalid_url: "error.job.invalidUrl",
  unsupported_scheme: "error.job.invalidUrl",
  too_many_redirects: "error.job.tooManyRedirects",
  too_large: "error.job.tooLarge",
  file_too_large: "error.job.tooLarge",
  file_not_found: "error.job.fileNotFound",
  file_error: "error.job.unreadable",
  unreadable_pdf: "error.job.unreadable",
  unreadable_docx: "error.job.unreadable",
  unsupported_file: "error.job.unsupportedFile",
  unsupported_type: "error.job.unsupportedFile",
  invalid_csv: "error.job.csvColumns",
  unknown_columns: "error.job.csvColumns",
  too_many_rows: "error.job.tooManyRows",
  robots_disallowed: "error.job.robots",
  off_site: "error.job.skipped",
  forbidden_path: "error.job.skipped",
  too_many_pages: "error.job.tooManyPages",
  no_transcript: "error.job.noTranscript",
  invalid_transcript: "error.job.noTranscript",
  youtube_error: "error.job.youtube",
  youtube_unreachable: "error.job.youtube",
  youtube_not_found: "error.job.youtubeNotFound",
  invalid_youtube_url: "error.job.youtubeNotFound",
  notion_not_connected: "error.notion",
  notion_not_found: "error.notion",
  invalid_notion_id: "error.notion",
  stalled: "error.job.stalled",
  redirected: "error.job.redirected",
  noindex: "error.job.noindex",
  invalid_settings: "error.job.invalidSettings",
  // billing: a plan's limit (PT402, hint plan_limit), the chat's monthly quota, the billing function
  plan_limit: "billing.error.planLimit",
  stripe_subscription: "error.admin.stripeSubscription",
  PT402: "billing.error.planLimit",
  // tasks (private.check_task_limits, 20261201200000)
  task_too_frequent: "error.task.tooFrequent",
  too_many_tasks: "error.task.tooMany",
  // webhooks (private.check_webhook_endpoint_count, 20261201200100)
  too_many_endpoints: "error.webhook.tooMany",
  quota_exceeded: "billing.error.quotaExceeded",
  payments_not_configured: "billing.notConfigured",
  already_subscribed: "billing.error.alreadySubscribed",
  no_subscription: "billing.error.noSubscription",
  no_customer: "billing.error.noSubscription",
  plan_not_found: "error.gone",
  price_not_found: "billing.error.priceNotFound",
  stripe_refused: "billing.error.stripe",
  stripe_unavailable: "billing.error.stripe",
  payment_failed: "billing.error.stripe",
  // auth (GoTrue)
  invalid_credentials: "auth.error.invalidCredentials",
  email_not_confirmed: "auth.error.emailNotConfirmed",
  over_request_rate_limit: "auth.error.rateLimited",
  over_email_send_rate_limit: "auth.error.rateLimited",
  user_already_exists: "auth.error.userExists",
  email_exists: "auth.error.userExists",
  weak_password: "auth.error.weakPassword",
  same_password: "auth.error.samePassword",
  current_password_mismatch: "auth.error.currentPasswordWrong",
  reauthentication_needed: "auth.error.reauthenticationNeeded",
  reauthentication_not_valid: "auth.error.reauthenticationInvalid",
  mfa_verification_failed: "auth.mfa.codeWrong",
  mfa_challenge_expired: "auth.mfa.codeWrong",
  mfa_challenge_not_found: "auth.mfa.codeWrong",
  mfa_factor_not_found: "auth.mfa.factorGone",
  mfa_factor_name_conflict: "account.mfa.nameTaken",
  too_many_enrolled_mfa_factors: "account.mfa.tooMany",
  insufficient_aal: "auth.mfa.needsAal2",
  session_not_found: "auth.error.sessionMissing",
  validation_failed: "auth.error.validation",
  // PostgREST
  PGRST301: "error.session",
  PGRST303: "error.session",
  PGRST116: "error.gone",
};

/** The English sentences of RAISE EXCEPTION in supabase/migrations (start of the text). */
const BY_SQL_MESSAGE: [prefix: string, id: string][] = [
  ["A team must keep at least one owner", "teams.error.lastOwner"],
  ["Sign in to create a team", "error.sql.signInToCreateTeam"],
  ["Guest users cannot create teams", "error.sql.guestCannotCreateTeam"],
  ["Only team owners can", "error.sql.onlyOwners"],
  ["Only admins and owners of the", "error.sql.onlyAdmins"],
  ["This user is not a member of the team", "error.sql.notMember"],
  ["The new owner must already be a member", "error.sql.notMember"],
  ["You already own this team", "error.sql.alreadyOwner"],
  ["A personal team cannot have other members", "error.sql.personalTeam"],
  ["This is not a valid email address", "error.sql.invalidEmail"],
  ["Choose a role for the invitation", "error.sql.chooseRole"],
  ["Sign in to accept an invitation", "error.sql.signInToAccept"],
  ["This invitation link is not valid", "error.sql.invitationInvalid"],
  ["This invitation has already been used", "error.sql.invitationUsed"],
  ["This invitation has expired", "error.sql.invitationExpired"],
  ["This invitation was sent to another email address", "error.sql.invitationOtherEmail"],
  ["Set a chat password", "error.sql.setPasswordFirst"],
  ["A chat password has 4 to 128 characters", "error.sql.passwordLength"],
  ["Give an API key, a base URL or both", "error.sql.keyOrBaseUrl"],
  ["This bot is answering too many messages", "error.sql.botBusy"],
  ["Too many new ", "error.rateLimited"],
  ["Sign in (an anonymous session is enough)", "error.session"],
  ["Your session is not valid", "error.session"],
  ["Bot not found", "error.botNotFound"],
  ["Chat not found", "error.chatNotFound"],
];

/** SQLSTATEs (Postgres' and the PostgREST-status ones our functions raise) when nothing finer matched. */
const BY_SQLSTATE: Record<string, string> = {
  "42501": "error.forbidden",
  "22023": "error.badRequest",
  "23502": "error.badRequest",
  "23503": "error.gone",
  "23505": "error.badRequest",
  "23514": "error.badRequest",
  "22P02": "error.badRequest",
  P0002: "error.gone",
  PT401: "error.session",
  PT403: "error.forbidden",
  PT404: "error.gone",
  PT429: "error.rateLimited",
};

const BY_STATUS: Record<number, string> = {
  0: "error.network",
  400: "error.badRequest",
  401: "error.session",
  403: "error.forbidden",
  404: "error.gone",
  413: "error.tooLarge",
  429: "error.rateLimited",
  503: "error.unavailable",
};

/** The translated message for any error the app meets (AppError, a supabase-js error, a thrown Error). */
export function errorMessage(error: unknown): ErrorMessage {
  const e = toAppError(error);
  const id = (e.hint && BY_CODE[e.hint]) || BY_CODE[e.code] || BY_SQL_MESSAGE.find(([prefix]) => e.message.startsWith(prefix))?.[1] || BY_SQLSTATE[e.code];
  // A plan limit names the limit in `details` (bots, members, ...): the message says which.
  if (id === "billing.error.planLimit") return { id, values: { limit: typeof e.details === "string" ? e.details : "other" } };
  if (id) return { id };
  const http = /^http_(\d{3})$/.exec(e.code);
  const status = http ? Number(http[1]) : e.status;
  return { id: BY_STATUS[status] ?? (status >= 500 ? "error.internal" : "error.generic") };
}

/** The translated message of one problem an ingestion job recorded (`{url, code, message}`). */
export function jobErrorMessage(code: string): ErrorMessage {
  const http = /^http_(\d{3})$/.exec(code);
  if (http) return { id: "error.job.http", values: { status: Number(http[1]) } };
  return { id: BY_CODE[code] ?? "error.generic" };
}

// ---------------------------------------------------------------------------------------------
// Errors the background workers store as text on a row: a code, then (after ": ") English
// detail for the logs. task_runs.error: the tasks function (TaskFailure codes, internal_error)
// and the stale-run sweep of private.claim_due_tasks (timed_out). webhook_deliveries.error: the
// deliver worker (http_<status>, safe-fetch's codes, network_error). The screen shows the code's
// message and keeps the code for a title; the English detail never shows.

const TASK_RUN_BY_CODE: Record<string, string> = {
  invalid_task: "error.task.noPrompt",
  answer_failed: "error.task.answerFailed",
  nothing_synced: "error.task.nothingSynced",
  tests_unavailable: "error.task.testsUnavailable",
  no_test_cases: "error.task.noTestCases",
  run_in_progress: "error.task.runInProgress",
  channel_not_found: "error.task.channelNotFound",
  channel_not_connected: "error.task.channelNotConnected",
  channel_failed: "error.task.channelFailed",
  quota_exceeded: "error.task.quotaExceeded",
  no_recipient: "error.task.noRecipient",
  // A test task's run ends as its test run did: test_run_<status> (20261127020000_webhook_events_more.sql).
  test_run_failed: "error.task.testRunFailed",
  test_run_cancelled: "error.task.testRunCancelled",
  timed_out: "error.task.timedOut",
  internal_error: "error.internal",
};

const DELIVERY_BY_CODE: Record<string, string> = {
  timeout: "error.delivery.timeout",
  network_error: "error.delivery.unreachable",
  dns_failed: "error.delivery.dns",
  blocked_address: "error.delivery.blockedAddress",
  link_local: "error.delivery.blockedAddress",
  too_many_redirects: "error.delivery.redirected",
  invalid_url: "error.job.invalidUrl",
  unsupported_scheme: "error.job.invalidUrl",
  too_large: "error.job.tooLarge",
  internal_error: "error.internal",
};

/** The code at the start of a stored error ("blocked_address: example.test resolves to …"), or "". */
export function storedErrorCode(text: string | null | undefined): string {
  const t = (text ?? "").trim();
  const http = /^HTTP (\d{3})$/.exec(t);
  if (http) return `http_${http[1]}`;
  return /^([a-z][a-z0-9_]*)(?::|$)/i.exec(t)?.[1] ?? "";
}

/** A stored error as a translated message: the worker's own codes, then the app's, then the generic one. */
function storedErrorMessage(text: string | null | undefined, own: Record<string, string>, httpId?: string): ErrorMessage {
  const code = storedErrorCode(text);
  const http = /^http_(\d{3})$/.exec(code);
  if (http && httpId) return { id: httpId, values: { status: Number(http[1]) } };
  return { id: own[code] ?? BY_CODE[code] ?? "error.generic" };
}

/** The message of a task run's `error` (the run log and "run now"). */
export function taskRunErrorMessage(text: string | null | undefined): ErrorMessage {
  return storedErrorMessage(text, TASK_RUN_BY_CODE);
}

/** The message of a webhook delivery's `error`. */
export function deliveryErrorMessage(text: string | null | undefined): ErrorMessage {
  return storedErrorMessage(text, DELIVERY_BY_CODE, "error.delivery.http");
}

/**
 * A webhook endpoint's `disabled_reason`, which private.complete_webhook_delivery writes in
 * English: "Disabled after <n> failed attempts over about a day (last: <delivery error>)".
 */
export function disabledReasonMessage(text: string): { id: string; attempts: number; last: ErrorMessage; code: string } {
  const m = /^Disabled after (\d+) failed attempts[^(]*\(last: ([\s\S]*)\)\s*$/.exec(text.trim());
  if (!m) return { id: "error.delivery.disabledUnknown", attempts: 0, last: { id: "error.generic" }, code: "" };
  return { id: "error.delivery.disabled", attempts: Number(m[1]), last: deliveryErrorMessage(m[2]), code: storedErrorCode(m[2]) };
}

/** Every message id errorMessage() and the stored-error readers may return (the locale test checks all ten languages have them). */
export const ERROR_MESSAGE_IDS: readonly string[] = [
  ...new Set([...Object.values(BY_CODE), ...BY_SQL_MESSAGE.map(([, id]) => id), ...Object.values(BY_SQLSTATE), ...Object.values(BY_STATUS),
    ...Object.values(TASK_RUN_BY_CODE), ...Object.values(DELIVERY_BY_CODE),
    "error.internal", "error.generic", "error.job.http", "error.delivery.http", "error.delivery.disabled", "error.delivery.disabledUnknown"]),
];
