import { describe, expect, it, vi } from "vitest";
import { IGNORE_FLAG, isLocalHost, skipReason, trackEvent } from "../src/lib/analytics";
import { resolveConfig } from "../src/lib/config";

const config = resolveConfig({ supabaseUrl: "https://proj.supabase.co/", supabaseAnonKey: "anon-key", siteUrl: "https://parley.test" }, {}, "");
const loc = (href: string) => {
  const u = new URL(href);
  return { href: u.href, hostname: u.hostname, protocol: u.protocol, host: u.host };
};
const storage = (flag?: string) => ({ getItem: (k: string) => (k === IGNORE_FLAG ? (flag ?? null) : null) });

describe("privacy-friendly page views", () => {
  it("recognises local hosts", () => {
    for (const h of ["localhost", "127.0.0.1", "app.localhost", "::1"]) expect(isLocalHost(h), h).toBe(true);
    expect(isLocalHost("parley.test")).toBe(false);
  });

  it("skips localhost unless enabled, file: pages and the ignore flag", () => {
    expect(skipReason({ location: loc("http://localhost:3000/"), storage: storage(), config })).toBe("localhost");
    expect(skipReason({ location: loc("http://localhost:3000/"), storage: storage(), config: { ...config, analyticsOnLocalhost: true } })).toBeNull();
    expect(skipReason({ location: loc("file:///tmp/x.html"), storage: storage(), config })).toBe("file");
    expect(skipReason({ location: loc("https://parley.test/"), storage: storage("1"), config })).toBe("ignored");
    expect(skipReason({ location: loc("https://parley.test/"), storage: storage(), config })).toBeNull();
  });

  it("posts the event to the event edge function with the anon key", async () => {
    const fetch = vi.fn(async () => new Response("{}", { status: 202 }));
    const ok = await trackEvent("pageview", { props: { plan: "free" } }, { location: loc("https://parley.test/de/faq?x=1"), referrer: "https://search.test/", width: 1280, storage: storage(), config, fetch: fetch as never });
    expect(ok).toBe(true);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("https://proj.supabase.co/functions/v1/event");
    expect(init.method).toBe("POST");
    expect((init.headers as Record<string, string>).apikey).toBe("anon-key");
    expect(JSON.parse(init.body as string)).toEqual({
      name: "pageview", url: "https://parley.test/de/faq?x=1", domain: "parley.test", referrer: "https://search.test/",
      width: 1280, hash_mode: false, props: { plan: "free" }, revenue: null,
    });
  });

  it("swallows a failing post", async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError("network down");
    });
    await expect(trackEvent("pageview", {}, { location: loc("https://parley.test/"), referrer: "", width: 800, storage: storage(), config, fetch: fetch as never })).resolves.toBe(false);
  });

  it("does not post when skipped", async () => {
    const fetch = vi.fn();
    await trackEvent("pageview", {}, { location: loc("http://127.0.0.1:3000/"), referrer: "", width: 800, storage: storage(), config, fetch: fetch as never });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe("runtime config", () => {
  it("prefers window config, then VITE_ env, and defaults PostHog to the EU host", () => {
    const c = resolveConfig(undefined, { VITE_SUPABASE_URL: "http://127.0.0.1:54321", VITE_SUPABASE_ANON_KEY: "k" }, "http://127.0.0.1:5173");
    expect(c.supabaseUrl).toBe("http://127.0.0.1:54321");
    expect(c.siteUrl).toBe("http://127.0.0.1:5173");
    expect(c.posthogHost).toBe("https://eu.i.posthog.com");
    expect(c.apiBaseUrl).toBe("http://127.0.0.1:54321/functions/v1");
    expect(resolveConfig({ supabaseUrl: "https://a.test" }, { VITE_SUPABASE_URL: "http://b" }, "").supabaseUrl).toBe("https://a.test");
  });
});
