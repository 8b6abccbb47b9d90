import { describe, expect, it, vi } from "vitest";
import { CHUNK_RELOAD_KEY, isChunkLoadError, reloadOnceForChunkError } from "../src/app/chunkReload";
import { headLinks, formatTitle } from "../src/app/head";

function env(start = 100_000) {
  const store = new Map<string, string>();
  let now = start;
  const reload = vi.fn();
  return {
    env: { storage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) }, now: () => now, reload },
    advance: (ms: number) => (now += ms),
    reload,
    store,
  };
}

const chunkError = new TypeError("Failed to fetch dynamically imported module: https://x/assets/Page-abc.js");

describe("reload after a failed chunk", () => {
  it("recognises chunk load errors only", () => {
    expect(isChunkLoadError(chunkError)).toBe(true);
    expect(isChunkLoadError(new Error("boom"))).toBe(false);
  });
  it("reloads once, then not again within 10 s, then again after", () => {
    const e = env();
    expect(reloadOnceForChunkError(chunkError, e.env)).toBe(true);
    expect(e.store.get(CHUNK_RELOAD_KEY)).toBe("100000");
    e.advance(9_999);
    expect(reloadOnceForChunkError(chunkError, e.env)).toBe(false);
    e.advance(2);
    expect(reloadOnceForChunkError(chunkError, e.env)).toBe(true);
    expect(e.reload).toHaveBeenCalledTimes(2);
  });
  it("never reloads for other errors", () => {
    const e = env();
    expect(reloadOnceForChunkError(new Error("x"), e.env)).toBe(false);
    expect(e.reload).not.toHaveBeenCalled();
  });
});

describe("head links", () => {
  it("canonical is the site URL plus the full path; alternates cover ten languages and x-default", () => {
    const links = headLinks("https://parley.test/", "/de/blog/x", "?a=1");
    expect(links[0]).toEqual({ rel: "canonical", href: "https://parley.test/de/blog/x?a=1" });
    const alt = Object.fromEntries(links.filter((l) => l.rel === "alternate").map((l) => [l.hreflang, l.href]));
    expect(alt).toMatchObject({ en: "https://parley.test/blog/x", de: "https://parley.test/de/blog/x", ja: "https://parley.test/jp/blog/x", zh: "https://parley.test/cn/blog/x", "x-default": "https://parley.test/blog/x" });
    expect(Object.keys(alt)).toHaveLength(11);
  });
  it("formats titles with the brand", () => {
    expect(formatTitle("FAQ")).toBe("FAQ | Parley");
    expect(formatTitle("Parley")).toBe("Parley");
  });
});
