// Runs an HTTP power-up: arguments checked against its JSON Schema, the URL, headers and body
// filled in (parameters URL-encoded into the URL, JSON-encoded into the body, secrets only into
// headers), sent through the SSRF-safe fetch with the power-up's timeout, the visible part of the
// response cut out (response_path) and capped. The engine's tool loop and the settings page's
// test console both call it; the request it reports has every secret masked.
import { SafeFetchError, safeFetch } from "../safe-fetch.ts";
import { checkArguments } from "./schema.ts";
import type { HttpSettings } from "./settings.ts";

export const MASK = "••••••";

export type ActionErrorCode =
  | "invalid_arguments"
  | "invalid_template"
  | "blocked_address"
  | "timeout"
  | "network_error"
  | "too_large"
  | "http_error"
  | "invalid_json";

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface ActionResult {
  ok: boolean;
  errorCode: ActionErrorCode | null;
  /** What the model reads: the capped result, or the error as a sentence. */
  output: string;
  status: number | null;
  /** The request as sent, secrets masked (null when arguments were refused before sending). */
  request: SentRequest | null;
  durationMs: number;
}

const PLACEHOLDER = /\{\{\s*([a-zA-Z0-9_.-]+)\s*\}\}/g;

function fillUrl(template: string, args: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => encodeURIComponent(args[name] === undefined ? "" : String(args[name])));
}

function fillHeader(template: string, args: Record<string, unknown>, secrets: Record<string, string>, mask: boolean): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    if (name.startsWith("secret.")) {
      const value = secrets[name.slice(7)] ?? "";
      return mask && value ? MASK : value;
    }
    // A header value must stay one line.
    return args[name] === undefined ? "" : String(args[name]).replace(/[\r\n]/g, " ");
  });
}

function fillBody(template: string, args: Record<string, unknown>): string {
  const value = (name: string) => JSON.stringify(args[name] ?? null);
  return template.replace(/"\{\{\s*([a-zA-Z0-9_.-]+)\s*\}\}"/g, (_, n: string) => value(n)).replace(PLACEHOLDER, (_, n: string) => value(n));
}

/** The part of a JSON value at `a.b.0.c`; undefined when it is not there. */
export function atPath(value: unknown, path: string | undefined): unknown {
  if (!path?.trim()) return value;
  let cur = value;
  for (const key of path.split(".").filter(Boolean)) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

export async function runHttpAction(
  settings: HttpSettings,
  rawArgs: Record<string, unknown> | null,
  secrets: Record<string, string>,
  options: { allowPrivate?: boolean; signal?: AbortSignal } = {},
): Promise<ActionResult> {
  const started = performance.now();
  const done = (r: Omit<ActionResult, "durationMs">): ActionResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  if (rawArgs === null) {
    return done({ ok: false, errorCode: "invalid_arguments", output: "Error: the arguments were not a valid JSON object.", status: null, request: null });
  }
  const problem = checkArguments(settings.parameters, rawArgs);
  if (problem) return done({ ok: false, errorCode: "invalid_arguments", output: `Error: ${problem}.`, status: null, request: null });

  // Parameters fill the path and the query, never the address's scheme, host or port: a model
  // (steered by whoever chats) must not choose where the secret headers go.
  if (/\{\{/.test(/^[^/?#]*(?:\/\/[^/?#]*)?/.exec(settings.url)?.[0] ?? "")) {
    return done({ ok: false, errorCode: "invalid_template", output: "Error: the action's address must not take its host from a parameter.", status: null, request: null });
  }
  const url = fillUrl(settings.url, rawArgs);
  const headers: Record<string, string> = {};
  const shown: Record<string, string> = {};
  for (const [k, v] of Object.entries(settings.headers)) {
    headers[k] = fillHeader(v, rawArgs, secrets, false);
    shown[k] = fillHeader(v, rawArgs, secrets, true);
  }
  let body: string | null = null;
  if (settings.body && settings.method !== "GET") {
    body = fillBody(settings.body, rawArgs);
    try {
      JSON.parse(body);
    } catch {
      return done({ ok: false, errorCode: "invalid_template", output: "Error: the action's body template is not valid JSON.", status: null, request: null });
    }
    headers["content-type"] ??= "application/json";
    shown["content-type"] ??= "application/json";
  }
  const request: SentRequest = { method: settings.method, url, headers: shown, body };

  let res;
  try {
    res = await safeFetch(url, {
      method: settings.method,
      headers: { accept: "application/json", ...headers },
      body: body ?? undefined,
      timeoutMs: settings.timeout_ms,
      maxBytes: 1024 * 1024,
      maxRedirects: 3,
      allowPrivate: options.allowPrivate,
    });
  } catch (e) {
    const code: ActionErrorCode = e instanceof SafeFetchError
      ? e.code === "timeout" ? "timeout"
        : e.code === "too_large" ? "too_large"
        : e.code === "blocked_address" || e.code === "unsupported_scheme" || e.code === "invalid_url" || e.code === "dns_failed" ? "blocked_address"
        : "network_error"
      : "network_error";
    const sentence = { timeout: "the service did not answer in time", too_large: "the answer was too large", blocked_address: "the address is not allowed or not reachable", network_error: "the service could not be reached" }[code as "timeout"];
    return done({ ok: false, errorCode: code, output: `Error: ${sentence}.`, status: null, request });
  }
  const text = res.text();
  if (res.status >= 400) {
    return done({ ok: false, errorCode: "http_error", output: `Error: the service answered HTTP ${res.status}: ${text.slice(0, 300)}`, status: res.status, request });
  }
  let visible: unknown = text;
  const isJson = /json/i.test(res.headers.get("content-type") ?? "") || settings.response_path;
  if (isJson) {
    try {
      visible = atPath(JSON.parse(text), settings.response_path);
    } catch {
      return done({ ok: false, errorCode: "invalid_json", output: "Error: the service's answer was not valid JSON.", status: res.status, request });
    }
    if (visible === undefined) {
      return done({ ok: false, errorCode: "invalid_json", output: `Error: the answer has nothing at "${settings.response_path}".`, status: res.status, request });
    }
  }
  const out = typeof visible === "string" ? visible : JSON.stringify(visible);
  const capped = out.length > settings.max_chars ? `${out.slice(0, settings.max_chars)}…` : out;
  return done({ ok: true, errorCode: null, output: capped, status: res.status, request });
}
