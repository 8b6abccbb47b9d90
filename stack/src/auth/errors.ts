// GoTrue's error responses: `{code, message}` for clients that send
// X-Supabase-Api-Version 2024-01-01 (supabase-js does), the legacy
// `{code: <status>, error_code, msg}` otherwise.
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError, sendJson } from "../http.ts";

export const API_VERSION = "2024-01-01";

export class AuthError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly extra: Record<string, unknown> = {},
    /** Seconds the caller must wait (429s): sent as Retry-After. */
    public readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/**
 * GoTrue's OAuthError (`oauthError(err, description)`): always 400 `{error, error_description}`,
 * whatever X-Supabase-Api-Version says, and no error_code (the id_token grant answers with it).
 */
export class OAuthError extends AuthError {
  constructor(public readonly error: string, description: string) {
    super(400, "", description);
  }
}

export const badRequest = (code: string, msg: string) => new AuthError(400, code, msg);
export const unprocessable = (code: string, msg: string) => new AuthError(422, code, msg);
export const forbidden = (code: string, msg: string) => new AuthError(403, code, msg);
export const notFound = (code: string, msg: string) => new AuthError(404, code, msg);
export const tooMany = (code: string, msg: string, retryAfter = 60) => new AuthError(429, code, msg, {}, Math.max(1, Math.ceil(retryAfter)));

export function wantsNewShape(req: IncomingMessage): boolean {
  const v = req.headers["x-supabase-api-version"];
  const s = Array.isArray(v) ? v[0] : v;
  return !!s && /^\d{4}-\d{2}-\d{2}$/.test(s) && s >= API_VERSION;
}

/** Converts the http.ts errors (bad_json, payload_too_large) into auth errors. */
export function toAuthError(e: unknown): AuthError | null {
  if (e instanceof AuthError) return e;
  if (e instanceof HttpError) return new AuthError(e.status, e.code, e.message);
  return null;
}

export function sendError(req: IncomingMessage, res: ServerResponse, err: AuthError, opts: { oauthLegacy?: boolean } = {}) {
  if (err instanceof OAuthError) return sendJson(res, 400, { error: err.error, error_description: err.message });
  const headers: Record<string, string> = {};
  if (err.status === 429) headers["retry-after"] = String(err.retryAfter ?? 60);
  if (wantsNewShape(req)) {
    headers["x-supabase-api-version"] = API_VERSION;
    return sendJson(res, err.status, { code: err.code, message: err.message, ...err.extra }, headers);
  }
  if (opts.oauthLegacy) {
    // /token errors in the legacy API are OAuth2 errors, as GoTrue's OAuthError.
    return sendJson(res, err.status, { error: err.status >= 500 ? "server_error" : "invalid_grant", error_description: err.message, error_code: err.code, ...err.extra }, headers);
  }
  return sendJson(res, err.status, { code: err.status, error_code: err.code, msg: err.message, ...err.extra }, headers);
}
