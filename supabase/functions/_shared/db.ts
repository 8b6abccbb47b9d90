// What a failed database call means for the caller. PostgREST answers 503 with PGRST000-003
// while it cannot reach Postgres (and supabase-js reports "fetch failed" when PostgREST itself
// is down): that is a 503 with Retry-After, never a 500. A value Postgres refuses (REFUSED_VALUE)
// is the caller's 400. Anything else unexpected is an Error (a logged 500). Known refusals (42501, PT4xx) are mapped by the caller first.
import { HttpError, isConnectionFailure, serviceUnavailable } from "./http.ts";

export interface DbError {
  code?: string;
  message: string;
  details?: string | null;
  hint?: string | null;
}

const UNAVAILABLE = new Set(["PGRST000", "PGRST001", "PGRST002", "PGRST003", "57P01", "57P03", "08000", "08003", "08006"]);

export function isUnavailable(error: DbError): boolean {
  return UNAVAILABLE.has(error.code ?? "") || (!error.code && isConnectionFailure({ message: error.message }));
}

/**
 * SQLSTATEs of a value the database refuses (data exceptions a caller's input can cause that a
 * function's checks missed): text it cannot store (22P05 a NUL in jsonb, 22021 bytes not in
 * UTF-8), text that is not of its type (22P02, 22007, 22008), too long or too large (22001,
 * 22003), and PostgREST's invalid body (PGRST102). A 400, not a 500.
 */
const REFUSED_VALUE = new Set(["22P05", "22021", "22P02", "22007", "22008", "22001", "22003", "PGRST102"]);

/** The error to throw for a failed call: 503 when the database is out of reach, 400 for a value it refuses, else an internal Error. */
export function dbFailure(error: DbError, what: string): Error {
  if (isUnavailable(error)) return serviceUnavailable();
  if (REFUSED_VALUE.has(error.code ?? "")) {
    return new HttpError(400, "invalid_request", "A value in the request cannot be stored. Check the text and numbers you sent.");
  }
  return new Error(`${what}: ${error.code ?? ""} ${error.message}`);
}

/**
 * The data of a supabase-js result (typed as on success: a .single() row, a .maybeSingle() row
 * or null, a list, an RPC's value), or the failure thrown.
 */
export function must<R extends { data: unknown; error: DbError | null }>(res: R, what: string): Extract<R, { error: null }>["data"] {
  if (res.error) throw dbFailure(res.error, what);
  return res.data as Extract<R, { error: null }>["data"];
}

/** PT401 from an RPC, or a JWT PostgREST refuses: the session is not valid (e.g. a deleted user). */
export function isSessionInvalid(error: DbError): boolean {
  return error.code === "PT401" || error.code === "PGRST301" || error.code === "PGRST302";
}

export function sessionInvalid(): HttpError {
  return new HttpError(401, "session_required", "Your session is not valid. Sign in again.");
}
