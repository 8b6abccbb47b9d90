// A small fetch wrapper for calls that are not supabase-js (edge functions by URL, third
// parties). Safe methods get one retry on transient statuses; writes are never retried
// automatically because they may not be idempotent.
import { getConfig } from "./config";

export const RETRY_STATUSES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504];
const NO_RETRY_METHODS = new Set(["PATCH", "POST", "PUT", "DELETE"]);

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export interface HttpOptions extends Omit<RequestInit, "body"> {
  baseUrl?: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Overrides the default: 0 for writes, 1 otherwise. */
  retry?: number;
  fetch?: typeof fetch;
}

export function defaultRetries(method: string): number {
  return NO_RETRY_METHODS.has(method.toUpperCase()) ? 0 : 1;
}

export function shouldRetry(status: number): boolean {
  return RETRY_STATUSES.includes(status);
}

function buildUrl(base: string, path: string, query?: HttpOptions["query"]): string {
  const absolute = /^https?:\/\//i.test(path);
  const url = new URL(absolute ? path : `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`, "http://localhost");
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return absolute || /^https?:\/\//i.test(base) ? url.toString() : url.pathname + url.search;
}

async function parseBody(res: Response): Promise<unknown> {
  const type = res.headers.get("content-type") ?? "";
  if (res.status === 204) return undefined;
  if (type.includes("json")) return res.json().catch(() => undefined);
  return res.text();
}

export async function http<T = unknown>(path: string, options: HttpOptions = {}): Promise<T> {
  const { baseUrl = getConfig().apiBaseUrl, query, body, retry, fetch: fetchImpl = globalThis.fetch, ...init } = options;
  const method = (init.method ?? "GET").toUpperCase();
  const headers = new Headers(init.headers);
  let payload: BodyInit | undefined;
  if (body !== undefined) {
    if (typeof body === "string" || body instanceof FormData || body instanceof Blob || body instanceof URLSearchParams) {
      payload = body;
    } else {
      payload = JSON.stringify(body);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    }
  }
  const url = buildUrl(baseUrl, path, query);
  let retriesLeft = retry ?? defaultRetries(method);
  for (;;) {
    const res = await fetchImpl(url, { ...init, method, headers, body: payload });
    if (res.ok) return (await parseBody(res)) as T;
    if (retriesLeft > 0 && shouldRetry(res.status) && !init.signal?.aborted) {
      retriesLeft--;
      continue;
    }
    const data = await parseBody(res);
    const obj = (data && typeof data === "object" ? data : {}) as { code?: string; message?: string; error?: string };
    throw new HttpError(res.status, obj.code ?? `http_${res.status}`, obj.message ?? obj.error ?? (res.statusText || `HTTP ${res.status}`), data);
  }
}
