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
