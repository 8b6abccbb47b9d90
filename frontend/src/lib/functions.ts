// The one way the app calls an edge function: `/functions/v1/<name>/<path>` with the
// session's token (Postgres' policies then decide as the caller), JSON in, JSON or a
// Server-Sent Events stream out, every failure an AppError in the functions' error shape.
// Retries follow the generic HTTP helper's rule (SPEC §7): writes (POST, PUT, PATCH, DELETE)
// never, other methods once, and only on a transient status; an aborted call never.
import { getConfig } from "./config";
import { AppError, errorFromResponse } from "./errors";
import { readSse, type SseEvent } from "./sse";
import { loadSupabase } from "./supabase-ready";

export const RETRY_STATUSES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504];
const NO_RETRY_METHODS = new Set(["PATCH", "POST", "PUT", "DELETE"]);

export function defaultRetries(method: string): number {
  return NO_RETRY_METHODS.has(method.toUpperCase()) ? 0 : 1;
}

export function shouldRetry(status: number): boolean {
  return RETRY_STATUSES.includes(status);
}

export interface FunctionCall {
  /** Default POST. */
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON (POST without a body sends `{}`). */
  body?: unknown;
  query?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Overrides the default retries (0 for writes, 1 otherwise). */
  retry?: number;
  accept?: string;
  /** A call that needs no session (a public function or route): sent with the anon key only. */
  anonymous?: boolean;
}

/** The session's access token; a function call without one fails before it is sent. */
async function accessToken(): Promise<string> {
  const { data } = await (await loadSupabase()).auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new AppError({ status: 401, code: "session_required", message: "Sign in again to continue." });
  return token;
}

export function functionUrl(name: string, query?: FunctionCall["query"]): string {
  const { apiBaseUrl, supabaseUrl } = getConfig();
  const base = apiBaseUrl || `${supabaseUrl}/functions/v1`;
  const search = new URLSearchParams(Object.entries(query ?? {}).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return `${base}/${name.replace(/^\/+/, "")}${search ? `?${search}` : ""}`;
}

/** Sends the call; resolves with the successful Response, or throws an AppError. */
export async function requestFunction(name: string, call: FunctionCall = {}): Promise<Response> {
  const method = call.method ?? "POST";
  const headers: Record<string, string> = { apikey: getConfig().supabaseAnonKey };
  if (!call.anonymous) headers.authorization = `Bearer ${await accessToken()}`;
  if (call.accept) headers.accept = call.accept;
  const hasBody = method !== "GET" && method !== "DELETE";
  if (hasBody) headers["content-type"] = "application/json";
  const init: RequestInit = { method, headers, signal: call.signal, ...(hasBody ? { body: JSON.stringify(call.body ?? {}) } : {}) };
  const url = functionUrl(name, call.query);
  let retriesLeft = call.retry ?? defaultRetries(method);
  for (;;) {
    let res: Response;
    try {
      res = await fetch(url, init);
    } catch (e) {
      if (call.signal?.aborted) throw e;
      throw new AppError({ status: 0, code: "network_error", message: e instanceof Error ? e.message : String(e) });
    }
    if (res.ok) return res;
    if (retriesLeft > 0 && shouldRetry(res.status) && !call.signal?.aborted) {
      retriesLeft--;
      continue;
    }
    throw await errorFromResponse(res);
  }
}

/** A JSON call: the answer's body as `T` (the contract in supabase/functions/_shared/contracts). */
export async function callFunction<T>(name: string, body?: unknown, call: Omit<FunctionCall, "body"> = {}): Promise<T> {
  const res = await requestFunction(name, { ...call, body });
  return (await res.json().catch(() => undefined)) as T;
}

/** A streaming call: the answer's Server-Sent Events as they arrive. */
export async function* streamFunction(name: string, body: unknown, call: Omit<FunctionCall, "body" | "accept"> = {}): AsyncGenerator<SseEvent> {
  const res = await requestFunction(name, { ...call, body, accept: "text/event-stream" });
  if (!res.body) throw new AppError({ status: 502, code: "empty_stream", message: "The answer stream was empty" });
  yield* readSse(res.body);
}
