import { describe, expect, it, vi } from "vitest";
import { defaultRetries, http, HttpError, RETRY_STATUSES, shouldRetry } from "../src/lib/http";
import { createQueryClient, queryRetryDelay, QUERY_GC_TIME } from "../src/lib/queryClient";

function fakeFetch(statuses: number[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fn = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const status = statuses[Math.min(calls.length - 1, statuses.length - 1)]!;
    return new Response(status === 204 ? null : JSON.stringify(status < 400 ? { ok: true } : { code: "boom", message: "Boom" }), {
      status,
      headers: { "content-type": "application/json" },
    });
  });
  return { fn: fn as unknown as typeof fetch, calls };
}

describe("http helper", () => {
  it("retries safe methods once on transient statuses", async () => {
    const f = fakeFetch([503, 200]);
    await expect(http("/things", { baseUrl: "https://api.test/v1", fetch: f.fn })).resolves.toEqual({ ok: true });
    expect(f.calls).toHaveLength(2);
    expect(f.calls[0]!.url).toBe("https://api.test/v1/things");
  });

  it("gives up after one retry", async () => {
    const f = fakeFetch([502, 502, 200]);
    await expect(http("/x", { baseUrl: "https://api.test", fetch: f.fn })).rejects.toMatchObject({ status: 502, code: "boom", message: "Boom" });
    expect(f.calls).toHaveLength(2);
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])("does not retry %s", async (method) => {
    const f = fakeFetch([503, 200]);
    await expect(http("/x", { method, baseUrl: "https://api.test", body: { a: 1 }, fetch: f.fn })).rejects.toBeInstanceOf(HttpError);
    expect(f.calls).toHaveLength(1);
    expect(f.calls[0]!.init.body).toBe('{"a":1}');
  });

  it("does not retry on other errors", async () => {
    const f = fakeFetch([404, 200]);
    await expect(http("/x", { baseUrl: "https://api.test", fetch: f.fn })).rejects.toMatchObject({ status: 404 });
    expect(f.calls).toHaveLength(1);
  });

  it("retries on exactly 408, 409, 425, 429, 500, 502, 503, 504", () => {
    expect([...RETRY_STATUSES]).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
    for (let s = 400; s < 600; s++) expect(shouldRetry(s)).toBe(RETRY_STATUSES.includes(s));
    expect(defaultRetries("get")).toBe(1);
    expect(defaultRetries("HEAD")).toBe(1);
    expect(defaultRetries("post")).toBe(0);
  });

  it("adds query parameters and honours an explicit retry count", async () => {
    const f = fakeFetch([429, 429, 429, 200]);
    await http("/search", { baseUrl: "https://api.test", query: { q: "a b", page: 2, skip: undefined }, retry: 3, fetch: f.fn });
    expect(f.calls).toHaveLength(4);
    expect(f.calls[0]!.url).toBe("https://api.test/search?q=a+b&page=2");
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
