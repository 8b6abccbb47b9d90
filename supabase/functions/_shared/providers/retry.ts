// Retries on 429 and 5xx (and network failures) before the first token, with
// exponential backoff that yields to Retry-After. Each vendor SDK's own retries
// are off so that every provider behaves the same way.
import { ProviderError, type ProviderErrorCode } from "./types.ts";

interface ErrorLike {
  status?: unknown;
  statusCode?: unknown;
  headers?: unknown;
  rawResponse?: { status?: number; headers?: Headers };
  httpMeta?: { response?: { status?: number; headers?: Headers } };
  name?: string;
  message?: string;
  code?: unknown;
}

function headerOf(headers: unknown, name: string): string | null {
  if (!headers) return null;
  if (headers instanceof Headers) return headers.get(name);
  if (typeof headers === "object") {
    const h = headers as Record<string, unknown>;
    const v = h[name] ?? h[name.toLowerCase()];
    return typeof v === "string" ? v : null;
  }
  return null;
}

function statusOf(e: ErrorLike): number | null {
  for (const s of [e.status, e.statusCode, e.rawResponse?.status, e.httpMeta?.response?.status]) {
    if (typeof s === "number" && s >= 100) return s;
  }
  // Some SDKs only put the status in the message ("got status: 429", "[429 Too Many Requests]").
  const m = /\b(?:status(?: code)?:?\s*|\[)([45]\d\d)\b/i.exec(e.message ?? "");
  return m ? Number(m[1]) : null;
}

function retryAfterOf(e: ErrorLike): number | null {
  const headers = e.headers ?? e.rawResponse?.headers ?? e.httpMeta?.response?.headers;
  const ms = headerOf(headers, "retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headerOf(headers, "retry-after");
  if (!ra) return null;
  if (/^\d+(\.\d+)?$/.test(ra.trim())) return Number(ra) * 1000;
  const at = Date.parse(ra);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** Maps any SDK error to a ProviderError. */
export function toProviderError(provider: string, err: unknown, signal?: AbortSignal): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = (err ?? {}) as ErrorLike;
  const status = statusOf(e);
  const name = String(e.name ?? "");
  const message = String(e.message ?? err);
  let code: ProviderErrorCode = "provider_error";
  if (/timeout|timed out/i.test(name + " " + message) && !signal?.aborted) code = "provider_timeout";
  else if (status === 401 || status === 403) code = "provider_auth";
  else if (status === 429) code = "provider_rate_limited";
  else if (status !== null && status >= 500) code = "provider_unavailable";
  else if (status !== null && status >= 400) code = "provider_bad_request";
  else if (/fetch failed|ECONNREFUSED|connection|network|Connection error/i.test(name + " " + message)) {
    code = "provider_unavailable";
  }
  return new ProviderError(code, provider, status, `${name || "Error"}: ${message}`.slice(0, 500), retryAfterOf(e));
}

function retryable(e: ProviderError): boolean {
  return e.code === "provider_rate_limited" || e.code === "provider_unavailable" || e.code === "provider_timeout";
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Opens something (a stream) with up to `maxRetries` retries on 429/5xx/network/timeouts. */
export async function withRetries<T>(
  provider: string,
  open: () => Promise<T>,
  opts: { maxRetries: number; backoffMs: number; signal?: AbortSignal },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await open();
    } catch (err) {
      const e = toProviderError(provider, err, opts.signal);
      if (opts.signal?.aborted || attempt >= opts.maxRetries || !retryable(e)) throw e;
      const backoff = opts.backoffMs * 2 ** attempt * (0.8 + Math.random() * 0.4);
      // Honour the server's Retry-After, but never wait more than 30 s inside a chat request.
      const wait = Math.min(e.retryAfterMs ?? backoff, 30_000);
      await sleep(wait, opts.signal);
    }
  }
}
