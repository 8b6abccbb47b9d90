// The one edge-function caller (lib/functions) and the one error (lib/errors): the session's
// token, the retry rule of SPEC §7, the functions' error shape and supabase-js errors as AppError.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

let session: { access_token: string } | null = { access_token: "user-token" };
vi.mock("../src/lib/supabase", () => ({ getSupabase: () => ({ auth: { getSession: async () => ({ data: { session } }) } }) }));
vi.mock("../src/lib/config", () => ({ getConfig: () => ({ supabaseUrl: "https://api.test", supabaseAnonKey: "anon", apiBaseUrl: "https://api.test/functions/v1" }) }));

import { callFunction, defaultRetries, requestFunction, RETRY_STATUSES, shouldRetry, streamFunction } from "../src/lib/functions";
import { AppError, refused, toAppError, unwrap } from "../src/lib/errors";
import { fetchTranscript } from "../src/data/chats/transcript-download";
import { createQueryClient, queryRetryDelay, QUERY_GC_TIME } from "../src/lib/queryClient";

const calls: { url: string; init: RequestInit }[] = [];
function answer(responses: (() => Response)[]) {
  calls.length = 0;
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return responses[Math.min(calls.length - 1, responses.length - 1)]!();
  });
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

beforeEach(() => {
  session = { access_token: "user-token" };
});
afterEach(() => vi.unstubAllGlobals());

describe("callFunction", () => {
  it("posts JSON with the session's token and the anon key", async () => {
    answer([json(200, { job_id: "j1" })]);
    await expect(callFunction("ingest/sources/s1/sync", { trigger: "manual" })).resolves.toEqual({ job_id: "j1" });
    expect(calls[0]!.url).toBe("https://api.test/functions/v1/ingest/sources/s1/sync");
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.authorization).toBe("Bearer user-token");
    expect(headers.apikey).toBe("anon");
    expect(calls[0]!.init.body).toBe('{"trigger":"manual"}');
  });

  it("fails before sending without a session", async () => {
    session = null;
    answer([json(200, {})]);
    await expect(callFunction("team-invite", {})).rejects.toMatchObject({ status: 401, code: "session_required" });
    expect(calls).toHaveLength(0);
  });

  it("turns the functions' error shape into an AppError with retry-after", async () => {
    answer([json(429, { error: { code: "rate_limited", message: "Slow down", details: { retry_after: 12 } } })]);
    const e = await callFunction("chat", {}).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    expect(e).toMatchObject({ status: 429, code: "rate_limited", message: "Slow down", details: { retry_after: 12 }, retryAfter: 12 });
  });

  it("reads Retry-After from the header and keeps the status when the body is not JSON", async () => {
    answer([() => new Response("busy", { status: 503, headers: { "retry-after": "7" } })]);
    await expect(requestFunction("health-check", { method: "GET", retry: 0 })).rejects.toMatchObject({ status: 503, code: "http_503", retryAfter: 7 });
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"] as const)("does not retry %s", async (method) => {
    answer([json(503, {}), json(200, {})]);
    await expect(requestFunction("x", { method })).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(1);
  });

  it("retries a GET once on a transient status, with its query", async () => {
    answer([json(502, {}), json(200, { ok: true })]);
    const res = await requestFunction("transcript", { method: "GET", query: { chat_id: "c1", format: "md", skip: undefined } });
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.url).toBe("https://api.test/functions/v1/transcript?chat_id=c1&format=md");
    answer([json(404, {}), json(200, {})]);
    await expect(requestFunction("transcript", { method: "GET" })).rejects.toMatchObject({ status: 404 });
    expect(calls).toHaveLength(1);
  });

  it("retries on exactly 408, 409, 425, 429, 500, 502, 503, 504", () => {
    expect([...RETRY_STATUSES]).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
    for (let s = 400; s < 600; s++) expect(shouldRetry(s)).toBe(RETRY_STATUSES.includes(s));
    expect(defaultRetries("get")).toBe(1);
    expect(defaultRetries("HEAD")).toBe(1);
    expect(defaultRetries("post")).toBe(0);
  });

  it("streams Server-Sent Events", async () => {
    answer([() => new Response('event: token\ndata: {"text":"Hi"}\n\n', { status: 200, headers: { "content-type": "text/event-stream" } })]);
    const events = [];
    for await (const e of streamFunction("chat", { bot_id: "b" })) events.push(e);
    expect(events).toEqual([{ event: "token", data: '{"text":"Hi"}' }]);
    expect((calls[0]!.init.headers as Record<string, string>).accept).toBe("text/event-stream");
  });
});

describe("fetchTranscript", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));
  const file = () => new Response("Chat", { status: 200, headers: { "content-disposition": 'attachment; filename="chat-1.txt"' } });

  it("asks for the transcript in the app's language (the page's locale), not the browser's", async () => {
    window.history.replaceState(null, "", "/el/bots/b1/chat");
    answer([file]);
    await expect(fetchTranscript("c1", "txt")).resolves.toMatchObject({ filename: "chat-1.txt" });
    expect(calls[0]!.url).toBe("https://api.test/functions/v1/transcript?chat_id=c1&format=txt&lang=el");
    window.history.replaceState(null, "", "/bots/b1/embed");
    answer([file]);
    await fetchTranscript("c1", "md");
    expect(new URL(calls[0]!.url).searchParams.get("lang")).toBe("en");
  });

  it("takes the language from its caller when given", async () => {
    window.history.replaceState(null, "", "/de/bots/b1/chat");
    answer([file]);
    await fetchTranscript("c1", "md", "jp");
    expect(new URL(calls[0]!.url).searchParams.get("lang")).toBe("jp");
  });
});

describe("AppError", () => {
  it("maps PostgREST, auth, storage and network errors", () => {
    expect(toAppError({ message: "denied", code: "42501", details: null, hint: "team_admin" })).toMatchObject({ code: "42501", message: "denied", hint: "team_admin", status: 0 });
    expect(toAppError({ name: "AuthApiError", message: "Bad", status: 422, code: "weak_password" })).toMatchObject({ status: 422, code: "weak_password" });
    expect(toAppError({ message: "too big", statusCode: "413", error: "Payload too large" })).toMatchObject({ status: 413, code: "Payload too large" });
    expect(toAppError(new TypeError("Failed to fetch"))).toMatchObject({ code: "network_error", message: "Failed to fetch" });
    expect(refused("No")).toMatchObject({ status: 403, code: "42501" });
    const same = new AppError({ status: 1, code: "x", message: "y" });
    expect(toAppError(same)).toBe(same);
  });

  it("unwraps supabase-js results", () => {
    expect(unwrap({ data: [1], error: null })).toEqual([1]);
    expect(() => unwrap({ data: null, error: { message: "nope", code: "PGRST116" } })).toThrow(AppError);
  });
});

describe("query client defaults", () => {
  it("retries 3 times with doubling delay capped at 30 s and collects garbage after 5 minutes", () => {
    const opts = createQueryClient().getDefaultOptions().queries!;
    expect(opts.retry).toBe(3);
    expect(opts.gcTime).toBe(5 * 60 * 1000);
    expect(QUERY_GC_TIME).toBe(300_000);
    expect([0, 1, 2, 3, 4, 5, 10].map(queryRetryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(opts.retryDelay).toBe(queryRetryDelay);
  });
});
