// JSON responses with one error shape for every function (contracts/errors.ts):
//   { "error": { "code": "snake_case", "message": "Human sentence.", "details"?: ... } }
import type { ErrorBody, ErrorCode } from "./contracts/errors.ts";
import { corsHeaders } from "./cors.ts";
import { createLogger, describe, type Logger, requestIdOf } from "./log.ts";

/** Lets browsers read Retry-After (and the request id) from a cross-origin answer. */
const exposeHeaders = { "Access-Control-Expose-Headers": "Retry-After, X-Request-Id" };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, ...exposeHeaders, "Content-Type": "application/json", ...headers },
  });
}

export function errorResponse(
  status: number,
  code: ErrorCode,
  message: string,
  details?: unknown,
  headers: Record<string, string> = {},
): Response {
  const body: ErrorBody = { error: { code, message, ...(details === undefined ? {} : { details }) } };
  return json(status, body, headers);
}

/** A caller's mistake (or a temporary refusal), turned into its status by `handler`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Seconds to wait: sent as Retry-After (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** 429 rate_limited with the seconds to wait (header and details). */
export function rateLimited(retryAfter: number, message = "Too many requests. Please wait a moment and try again."): HttpError {
  return new HttpError(429, "rate_limited", message, { retry_after: retryAfter }, retryAfter);
}

/** 503 while the database (or PostgREST, auth, storage) cannot be reached. */
export function serviceUnavailable(retryAfter = 5): HttpError {
  return new HttpError(
    503,
    "service_unavailable",
    "The service is unavailable for a moment. Please try again shortly.",
    { retry_after: retryAfter },
    retryAfter,
  );
}

/** Is this thrown value a failure to reach a backend (connection refused, reset, DNS)? */
export function isConnectionFailure(e: unknown): boolean {
  const text = `${(e as Error)?.name ?? ""} ${(e as Error)?.message ?? ""} ${String((e as { cause?: unknown })?.cause ?? "")}`;
  return /fetch failed|error sending request|connection (refused|reset|closed)|ECONNREFUSED|ECONNRESET|tcp connect error/i.test(
    text,
  );
}

/** The answer for an HttpError. */
export function httpErrorResponse(e: HttpError): Response {
  const headers: Record<string, string> = e.retryAfter ? { "Retry-After": String(e.retryAfter) } : {};
  return errorResponse(e.status, e.code, e.message, e.details, headers);
}

/** Reads at most `limit` bytes of the body, whatever Content-Length claims (413 past it). */
export async function readBoundedText(req: Request, limit: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new HttpError(413, "body_too_large", `The body must be at most ${limit} bytes`);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new HttpError(413, "body_too_large", `The body must be at most ${limit} bytes`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text Postgres can store: no NUL and no unpaired UTF-16 surrogate (neither can be text in the database). */
export function isStorableText(text: string): boolean {
  return !text.includes("\u0000") && !UNPAIRED_SURROGATE.test(text);
}

/** At most `max` UTF-16 units of `text`, never ending in half of a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** The path of the first key or string in a JSON value that Postgres cannot store, or null. */
export function unstorablePath(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      if (!isStorableText(v)) return path || "body";
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, `${path}[${i}]`]));
    } else if (v && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) {
        if (!isStorableText(k)) return path || "body";
        stack.push([item, path ? `${path}.${k}` : k]);
      }
    }
  }
  return null;
}

/** 400 when a JSON value holds text the database cannot store (a NUL or an unpaired surrogate). */
export function assertStorable(value: unknown): void {
  const path = unstorablePath(value);
  if (path !== null) {
    throw new HttpError(400, "invalid_request", "The text contains characters that cannot be stored (NUL or an unpaired surrogate)", {
      path,
    });
  }
}

/**
 * Parses a JSON text a client sent: anything but valid JSON is 400 invalid_json (whatever the
 * parser's complaint: its message is not shown), text the database cannot store is 400
 * invalid_request (a NUL or an unpaired surrogate, written as a \u escape).
 */
export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    // A byte order mark before the JSON (what some Windows tools write) is not the client's mistake.
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new HttpError(400, "invalid_json", "The body must be valid JSON");
  }
  assertStorable(value);
  return value;
}

/** Parses a bounded JSON body (413 past `limit`); see parseJson. */
export async function readJson(req: Request, limit = 64 * 1024): Promise<unknown> {
  return parseJson(await readBoundedText(req, limit));
}

/** What a handler gets besides the request. */
export interface RequestContext {
  log: Logger;
}

export interface HandlerOptions {
  /**
   * The verify_jwt gate, in the function (config.toml has verify_jwt = false: hosted's gate
   * refuses ES256/RS256 user tokens): the bearer token must verify (caller.ts), else 401
   * session_required before `run`. Pass caller.ts `requireVerifiedCaller` (this module does not
   * import it: code that only needs HttpError, such as the channel adapters the browser tests
   * load in Node, must not pull in supabase-js).
   */
  verifyCaller?: (req: Request) => Promise<unknown>;
}

/**
 * Wraps a function's handler: preflight, the caller's token (with `verifyCaller`), HttpError →
 * its status, a backend that cannot be reached → 503 with Retry-After, anything else → a
 * logged 500 without internals.
 */
export function handler(
  fn: string,
  run: (req: Request, ctx: RequestContext) => Promise<Response> | Response,
  options: HandlerOptions = {},
): (req: Request) => Promise<Response> {
  return async (req) => {
    if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: corsHeaders });
    const log = createLogger(fn, requestIdOf(req));
    try {
      if (options.verifyCaller) await options.verifyCaller(req);
      return await run(req, { log });
    } catch (e) {
      if (e instanceof HttpError) {
        if (e.status >= 500) log.warn("http_error", { code: e.code, status: e.status });
        return httpErrorResponse(e);
      }
      if (isConnectionFailure(e)) {
        log.warn("backend_unreachable", { error: describe(e) });
        return httpErrorResponse(serviceUnavailable());
      }
      log.error("unhandled", { error: describe(e) });
      return errorResponse(500, "internal_error", "Something went wrong on our side. Please try again.");
    }
  };
}

/**
 * The caller's IP for rate limits: `x-real-ip`, which the gateway sets from the connection
 * (the local stack) or the platform's proxy sets (hosted Supabase); the first
 * X-Forwarded-For entry only as a fallback. Not an address: "invalid".
 */
export function clientIp(req: Request): string {
  const ip = req.headers.get("x-real-ip")?.trim() || req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
  // Only what can be an address (IPv4, IPv6): anything else came from a client through a proxy
  // that trusts its header, and all such callers share one key (never a 5 000-character one).
  return /^[0-9A-Fa-f:.]{2,45}$/.test(ip) || ip === "unknown" ? ip : "invalid";
}
