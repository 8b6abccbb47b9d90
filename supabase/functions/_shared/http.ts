// JSON responses with one error shape for every function:
//   { "error": { "code": "snake_case", "message": "Human sentence.", "details"?: ... } }
import { corsHeaders } from "./cors.ts";

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, "Content-Type": "application/json", ...headers },
  });
}

export function errorResponse(status: number, code: string, message: string, details?: unknown): Response {
  return json(status, { error: { code, message, ...(details === undefined ? {} : { details }) } });
}

/** A caller's mistake, turned into a 4xx by `handleErrors`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
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

/** Parses a bounded JSON body; anything but valid JSON is a 400. */
export async function readJson(req: Request, limit = 64 * 1024): Promise<unknown> {
  const text = await readBoundedText(req, limit);
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "invalid_json", "The body must be valid JSON");
  }
}

/** Wraps a handler: preflight, HttpError → 4xx, anything else → logged 500 without internals. */
export function handler(fn: (req: Request) => Promise<Response> | Response): (req: Request) => Promise<Response> {
  return async (req) => {
    if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: corsHeaders });
    try {
      return await fn(req);
    } catch (e) {
      if (e instanceof HttpError) return errorResponse(e.status, e.code, e.message, e.details);
      console.error(JSON.stringify({ level: "error", msg: "unhandled", error: String((e as Error)?.stack ?? e) }));
      return errorResponse(500, "internal_error", "Something went wrong on our side. Please try again.");
    }
  };
}

export function bearerToken(req: Request): string | null {
  return /^Bearer\s+(.+)$/i.exec(req.headers.get("authorization") ?? "")?.[1]?.trim() ?? null;
}

/**
 * The caller's IP for rate limits: `x-real-ip`, which the gateway sets from the connection
 * (the local stack) or the platform's proxy sets (hosted Supabase); the first
 * X-Forwarded-For entry only as a fallback.
 */
export function clientIp(req: Request): string {
  return (
    req.headers.get("x-real-ip")?.trim() ||
    req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ||
    "unknown"
  );
}
