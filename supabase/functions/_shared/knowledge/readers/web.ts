// Web sources: one page, or a polite crawl of one host from a start URL
// (breadth first, depth and page limits, sitemap.xml discovery, robots.txt,
// include/exclude globs, canonical URLs). Every request goes through safeFetch. A re-sync
// asks conditionally (If-None-Match / If-Modified-Since with what the page said last time);
// a 304 keeps the document and follows the links stored with it. A page whose sitemap
// `lastmod` is not newer than when it was last downloaded is not requested at all.
import robotsParserModule from "npm:robots-parser@3.0.1";

type Robots = { isAllowed(url: string, ua?: string): boolean | undefined; getSitemaps(): string[] };
// The package is CommonJS; its types describe the namespace, not the callable export.
const robotsParser = robotsParserModule as unknown as (url: string, contents: string) => Robots;
import { cachingResolver, safeFetch, SafeFetchError, type SafeFetchOptions } from "../../safe-fetch.ts";
import { extractHtml } from "./html.ts";
import type { SourceContext } from "./types.ts";

export interface WebSettings {
  url: string;
  mode?: "single" | "crawl";
  max_depth?: number;
  max_pages?: number;
  include?: string[];
  exclude?: string[];
  keep_selectors?: string[];
  drop_selectors?: string[];
  use_sitemap?: boolean;
  delay_ms?: number;
  concurrency?: number;
}

/** Pages fetched at once when a source does not say (settings.ts validates 1–8). */
export const DEFAULT_CONCURRENCY = 2;

const BOT_NAME = "ParleyBot";
const PAGE_BYTES = 5 * 1024 * 1024;
/** Same-site links stored per page, for following them when it answers 304. */
const MAX_STORED_LINKS = 2000;

/** A URL glob: `*` any run of characters except `/`, `**` anything, `?` one character. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") {
      if (glob[i + 1] === "*") {
        re += ".*";
        i++;
      } else re += "[^/]*";
    } else if (c === "?") re += ".";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "i");
}

/** Patterns match the whole URL, or its path (+ query) when they start with "/". */
export function urlMatches(url: URL, patterns: string[]): boolean {
  const full = url.href;
  const path = url.pathname + url.search;
  return patterns.some((p) => globToRegExp(p).test(p.startsWith("/") ? path : full));
}

export function normalizeUrl(href: string): string | null {
  try {
    const u = new URL(href);
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    u.hash = "";
    return u.href;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The politeness delay: requests to the host start at least `delay` ms apart, however many
 * workers there are (as a per-host download delay in Scrapy or wget --wait). Each call
 * reserves the next start time and waits for it.
 */
export function politeStarts(delay: number): () => Promise<void> {
  let next = 0;
  return async () => {
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + delay;
    if (at > now) await sleep(at - now);
  };
}

/** A sitemap entry: the page's address and its `lastmod` (ms since the epoch; undefined: none or unreadable). */
export interface SitemapEntry {
  loc: string;
  lastmod?: number;
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

/** The `<loc>` and `<lastmod>` of each `<url>` (or `<sitemap>`) entry of a sitemap. */
export function parseSitemap(text: string): SitemapEntry[] {
  const out: SitemapEntry[] = [];
  for (const m of text.matchAll(/<(url|sitemap)\b[^>]*>([\s\S]*?)<\/\1>/gi)) {
    const loc = /<loc>\s*([^<\s]+)\s*<\/loc>/i.exec(m[2])?.[1];
    if (!loc) continue;
    const raw = /<lastmod>\s*([^<]+?)\s*<\/lastmod>/i.exec(m[2])?.[1];
    const lastmod = raw ? Date.parse(raw) : NaN;
    out.push({ loc: unescapeXml(loc), lastmod: Number.isNaN(lastmod) ? undefined : lastmod });
  }
  return out;
}

async function fetchSitemapUrls(
  url: string,
  fetchOptions: SafeFetchOptions,
  budget: { left: number },
): Promise<SitemapEntry[]> {
  if (budget.left-- <= 0) return [];
  let text: string;
  try {
    const res = await safeFetch(url, { ...fetchOptions, maxBytes: 10 * 1024 * 1024 });
    if (res.status !== 200) return [];
    text = res.text();
  } catch {
    return [];
  }
  const entries = parseSitemap(text);
  if (/<sitemapindex/i.test(text)) {
    const nested: SitemapEntry[] = [];
    for (const { loc } of entries.slice(0, 20)) nested.push(...(await fetchSitemapUrls(loc, fetchOptions, budget)));
    return nested;
  }
  return entries;
}

export async function crawlWeb(settings: WebSettings, ctx: SourceContext): Promise<void> {
  const start = normalizeUrl(settings.url);
  if (!start) throw new SafeFetchError("invalid_url", "The start address is not a valid http(s) URL");
  const origin = new URL(start);
  const single = settings.mode === "single";
  const maxDepth = single ? 0 : Math.min(Math.max(settings.max_depth ?? 3, 0), 20);
  const maxPages = single ? 1 : Math.min(Math.max(settings.max_pages ?? 100, 1), 5000);
  const include = settings.include?.filter(Boolean) ?? [];
  const exclude = settings.exclude?.filter(Boolean) ?? [];
  const delay = Math.min(Math.max(settings.delay_ms ?? 200, 0), 10_000);
  const workers = single ? 1 : Math.min(Math.max(Math.trunc(settings.concurrency ?? DEFAULT_CONCURRENCY), 1), 8);
  const politely = politeStarts(delay);
  // one DNS lookup per host every 30 s, not two per page; every address is still checked per request
  const fetchOptions: SafeFetchOptions = {
    timeoutMs: 20_000,
    allowPrivate: ctx.allowPrivate,
    resolve: cachingResolver(),
  };

  // robots.txt: missing or unreadable means everything is allowed
  let robots: Robots | null = null;
  const robotsUrl = new URL("/robots.txt", origin).href;
  try {
    const res = await safeFetch(robotsUrl, { ...fetchOptions, maxBytes: 512 * 1024 });
    if (res.status === 200) robots = robotsParser(robotsUrl, res.text());
  } catch {
    robots = null;
  }
  const allowedByRobots = (u: string) => robots?.isAllowed(u, BOT_NAME) !== false;

  const inScope = (u: URL) => {
    if (u.host !== origin.host) return false;
    if (include.length && !urlMatches(u, include) && u.href !== start) return false;
    if (exclude.length && urlMatches(u, exclude)) return false;
    return !/\.(png|jpe?g|gif|webp|svg|ico|css|js|mjs|json|zip|gz|tgz|mp4|mp3|woff2?|ttf|pdf|docx?|xlsx?)$/i.test(
      u.pathname,
    );
  };

  const seen = new Set<string>();
  /** The sitemap's `lastmod` per page address. */
  const lastmods = new Map<string, number>();
  const queue: { url: string; depth: number }[] = [];
  const enqueue = (href: string, depth: number) => {
    const n = normalizeUrl(href);
    if (!n || seen.has(n)) return;
    const u = new URL(n);
    if (!inScope(u)) return;
    seen.add(n);
    queue.push({ url: n, depth });
  };
  enqueue(start, 0);
  if (!single && settings.use_sitemap !== false) {
    const sitemaps = robots?.getSitemaps().length ? robots.getSitemaps() : [new URL("/sitemap.xml", origin).href];
    const budget = { left: 30 };
    for (const sm of sitemaps) {
      for (const { loc, lastmod } of await fetchSitemapUrls(sm, fetchOptions, budget)) {
        const n = normalizeUrl(loc);
        if (n && lastmod !== undefined) lastmods.set(n, lastmod);
        enqueue(loc, 1);
      }
    }
  }

  const indexed = new Set<string>();
  let taken = 0;
  let done = 0;
  const total = () => Math.min(maxPages, done + queue.length + active);
  let active = 0;

  const visit = async (item: { url: string; depth: number }) => {
    if (!allowedByRobots(item.url)) {
      ctx.warn(item.url, "robots_disallowed", "robots.txt asks crawlers not to fetch this page");
      return;
    }
    const before = ctx.previous?.(item.url);
    const lastmod = lastmods.get(item.url);
    const fetchedAt = before?.fetchedAt ? Date.parse(before.fetchedAt) : NaN;
    if (before && lastmod !== undefined && lastmod <= fetchedAt) {
      // the sitemap says the page has not changed since we downloaded it: no request at all
      indexed.add(item.url);
      ctx.unchanged?.(item.url);
      if (item.depth < maxDepth) for (const link of before.links) enqueue(link, item.depth + 1);
      return;
    }
    const conditional: Record<string, string> = {};
    if (before?.etag) conditional["if-none-match"] = before.etag;
    if (before?.lastModified) conditional["if-modified-since"] = before.lastModified;
    let res;
    const requestedAt = new Date().toISOString();
    try {
      res = await safeFetch(item.url, {
        ...fetchOptions,
        headers: conditional,
        maxBytes: PAGE_BYTES,
        onTooLarge: "truncate",
      });
    } catch (e) {
      const err = e as SafeFetchError;
      ctx.fail(item.url, err.code ?? "fetch_failed", err.message);
      return;
    }
    if (res.status === 304 && before && !res.redirects.length) {
      indexed.add(item.url);
      ctx.unchanged?.(item.url);
      if (item.depth < maxDepth) for (const link of before.links) enqueue(link, item.depth + 1);
      return;
    }
    if (res.redirects.length) {
      ctx.warn(item.url, "redirected", `Redirected to ${res.url}`);
      const final = new URL(res.url);
      const n = normalizeUrl(res.url)!;
      if (final.host !== origin.host) return void ctx.warn(item.url, "off_site", `Redirect leaves ${origin.host}`);
      if (n !== item.url) {
        if (seen.has(n)) return; // visited (or queued) under its own address
        seen.add(n);
      }
    }
    if (res.status >= 400) return void ctx.fail(res.url, `http_${res.status}`, `The page answered HTTP ${res.status}`);
    if (res.status !== 200) return void ctx.fail(res.url, `http_${res.status}`, `Unexpected HTTP ${res.status}`);
    const type = res.headers.get("content-type") ?? "";
    if (!/html|xml/i.test(type) && type) {
      return void ctx.warn(res.url, "unsupported_type", `Not an HTML page (${type.split(";")[0]})`);
    }
    const page = extractHtml(res.text(), res.url, {
      keepSelectors: settings.keep_selectors,
      dropSelectors: settings.drop_selectors,
    });
    if (item.depth < maxDepth) for (const link of page.links) enqueue(link, item.depth + 1);
    let docUrl = normalizeUrl(res.url)!;
    if (page.canonical) {
      const c = new URL(page.canonical);
      if (c.host === origin.host) docUrl = normalizeUrl(page.canonical)!;
    }
    if (indexed.has(docUrl)) return;
    indexed.add(docUrl);
    if (page.noindex) return void ctx.warn(docUrl, "noindex", "The page asks not to be indexed");
    // validators describe the response of this address; stored under another (canonical) one
    // they would be sent for a page they do not describe
    const sameAddress = !res.redirects.length && docUrl === item.url;
    const links = [
      ...new Set(page.links.map(normalizeUrl).filter((u): u is string => !!u && new URL(u).host === origin.host)),
    ].slice(0, MAX_STORED_LINKS);
    await ctx.emit({
      url: docUrl,
      title: page.title || docUrl,
      text: page.text,
      language: page.lang ?? null,
      metadata: {},
      navigation: page.navigation,
      http: {
        etag: sameAddress ? res.headers.get("etag") : null,
        lastModified: sameAddress ? res.headers.get("last-modified") : null,
        links,
        fetchedAt: sameAddress ? requestedAt : null,
        sitemapLastmod: sameAddress && lastmod !== undefined ? new Date(lastmod).toISOString() : null,
      },
    });
  };

  // `workers` pages in flight at most, their requests started `delay` apart.
  const worker = async () => {
    while ((queue.length || active) && taken < maxPages) {
      if (await ctx.cancelled()) return;
      const item = queue.shift();
      if (!item) {
        await sleep(20); // the other worker may still find links
        continue;
      }
      taken++;
      active++;
      try {
        await politely();
        await visit(item);
      } finally {
        active--;
        done++;
        await ctx.progress(done, total());
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
}
