// Serves the built SPA (frontend/dist) on the app port with its runtime
// configuration at /config.js, so one build works against any Supabase project.
// Status codes follow the app's route table: the build writes dist/route-manifest.json
// (every route pattern in every language, its param validation rules and the redirect
// sources); a path that matches no route, or whose params fail the route's rule, gets the
// SPA's HTML (which shows "Page not found: {path}") with status 404. Without a manifest
// every unknown path is answered 200 and left to the browser's router.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8", ".json": "application/json; charset=utf-8", ".svg": "image/svg+xml",
  ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
  ".ico": "image/x-icon", ".woff2": "font/woff2", ".woff": "font/woff", ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8", ".map": "application/json; charset=utf-8", ".webmanifest": "application/manifest+json",
};

export interface RuntimeConfig {
  supabaseUrl: string;
  supabaseAnonKey: string;
  siteUrl: string;
  [key: string]: unknown;
}

export function runtimeConfigScript(cfg: RuntimeConfig): string {
  return `window.__PARLEY_CONFIG__ = ${JSON.stringify(cfg).replace(/</g, "\\u003c")};\n`;
}

/** Resolves a URL path to a file in dist: the file, a prerendered `path/index.html`, or null. */
function resolveFile(dist: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const target = path.resolve(dist, "." + path.posix.normalize("/" + decoded));
  if (target !== dist && !target.startsWith(dist + path.sep)) return null;
  for (const candidate of [target, path.join(target, "index.html")]) {
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch { /* next */ }
  }
  return null;
}

export const ROUTE_MANIFEST = "route-manifest.json";

export interface RouteManifest {
  version: 1;
  /** Rule name → regular expression source (no flags). */
  rules: Record<string, string>;
  /** Page routes in react-router's tree order: full path pattern ("/de/bots/:botId") and rules. */
  routes: { id: string; path: string; validate?: Record<string, string> }[];
  /** Paths the app redirects from (exact, or with everything below when prefix). */
  redirects: { from: string; prefix: boolean }[];
}

/** What a path is to the app: a page, a redirect source, a page whose params fail its rule, or nothing. */
export type RouteMatch = "page" | "redirect" | "invalid" | "unknown";

interface CompiledRoute {
  id: string;
  matcher: RegExp;
  params: string[];
  score: number;
  validate: [string, RegExp][];
}

// Path matching as react-router 7 does it (compilePath, computeScore, decodePath), so the
// server and the browser's router agree on which route a URL is: case-insensitive, trailing
// slashes allowed, the best-ranked match wins (static segment 10, param 3, splat -2).
function compileRoutePath(pattern: string): { matcher: RegExp; params: string[] } {
  // react-router expands optional segments into several ranked routes; the route table has none.
  if (pattern.includes("?")) throw new Error(`route path ${pattern}: optional segments are not supported`);
  const params: string[] = [];
  let source = "^" + pattern.replace(/\/*\*?$/, "").replace(/^\/*/, "/").replace(/[\\.*+^${}|()[\]]/g, "\\$&")
    .replace(/\/:([\w-]+)/g, (_m, name: string) => {
      params.push(name);
      return "/([^\\/]+)";
    });
  if (pattern.endsWith("*")) {
    params.push("*");
    source += pattern === "*" || pattern === "/*" ? "(.*)$" : "(?:\\/(.+)|\\/*)$";
  } else {
    source += "\\/*$";
  }
  return { matcher: new RegExp(source, "i"), params };
}

function routeScore(pattern: string): number {
  const segments = pattern.split("/");
  let score = segments.length + (segments.includes("*") ? -2 : 0);
  for (const s of segments) if (s !== "*") score += /^:[\w-]+$/.test(s) ? 3 : s === "" ? 1 : 10;
  return score;
}

function decodePathname(pathname: string): string {
  try {
    return pathname.split("/").map((v) => decodeURIComponent(v).replace(/\//g, "%2F")).join("/");
  } catch {
    return pathname;
  }
}

/** Builds the matcher of a manifest; throws on a malformed one. */
export function createRouteMatcher(manifest: RouteManifest): (pathname: string) => RouteMatch {
  if (manifest?.version !== 1 || !Array.isArray(manifest.routes) || !Array.isArray(manifest.redirects) || typeof manifest.rules !== "object") {
    throw new Error("unsupported route manifest (expected version 1 with rules, routes and redirects)");
  }
  const rules = new Map(Object.entries(manifest.rules).map(([name, source]) => [name, new RegExp(source)]));
  const routes: CompiledRoute[] = manifest.routes.map((r) => ({
    id: r.id,
    ...compileRoutePath(r.path),
    score: routeScore(r.path),
    validate: Object.entries(r.validate ?? {}).map(([param, rule]) => {
      const re = rules.get(rule);
      if (!re) throw new Error(`route ${r.id}: unknown validation rule "${rule}"`);
      return [param, re];
    }),
  }));
  // A stable sort: equal scores keep the manifest's (the route tree's) order, as in react-router.
  routes.sort((a, b) => b.score - a.score);
  const exact = new Set(manifest.redirects.filter((r) => !r.prefix).map((r) => r.from));
  const prefixes = manifest.redirects.filter((r) => r.prefix).map((r) => r.from);
  return (pathname) => {
    // The app consults its redirect table before anything else (app/redirects.ts).
    const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
    if (exact.has(normalized) || prefixes.some((p) => normalized === p || normalized.startsWith(p + "/"))) return "redirect";
    const decoded = decodePathname(pathname);
    for (const route of routes) {
      const m = route.matcher.exec(decoded);
      if (!m) continue;
      const values = new Map(route.params.map((name, i) => [name, (m[i + 1] ?? "").replace(/%2F/g, "/")]));
      return route.validate.every(([param, re]) => values.has(param) && re.test(values.get(param)!)) ? "page" : "invalid";
    }
    return "unknown";
  };
}

/** The matcher of dist/route-manifest.json, or null (no manifest: every path is the SPA's). */
export function loadRouteMatcher(dist: string): ((pathname: string) => RouteMatch) | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dist, ROUTE_MANIFEST), "utf8");
  } catch {
    return null;
  }
  try {
    return createRouteMatcher(JSON.parse(text) as RouteManifest);
  } catch (e) {
    console.warn(`app: ignoring ${path.join(dist, ROUTE_MANIFEST)}: ${(e as Error).message}`);
    return null;
  }
}

export function createAppServer(distDir: string, config: () => RuntimeConfig): http.Server {
  const dist = path.resolve(distDir);
  const matchRoute = loadRouteMatcher(dist);
  /** /bots/{id}/embed and /embed-center, in any language: framed by customers' sites. */
  const EMBED_PATH = /^(?:\/[a-z]{2})?\/bots\/[^/]+\/embed(?:-center)?\/?$/;
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://app");
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    if (url.pathname === "/config.js") {
      const body = runtimeConfigScript(config());
      res.writeHead(200, { "content-type": TYPES[".js"]!, "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : body);
      return;
    }
    let file = resolveFile(dist, url.pathname);
    let status = 200;
    if (!file) {
      // Other paths get the SPA shell (the router shows the page or its own 404), with the
      // route table's verdict as status; missing assets are plain 404s.
      const isAsset = /\.[a-z0-9]{1,8}$/i.test(url.pathname);
      file = isAsset ? null : resolveFile(dist, "/index.html");
      if (!file) {
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
        return;
      }
      const verdict = matchRoute?.(url.pathname) ?? "page";
      if (verdict === "invalid" || verdict === "unknown") status = 404;
    }
    const ext = path.extname(file).toLowerCase();
    const immutable = url.pathname.startsWith("/assets/");
    res.writeHead(status, {
      "content-type": TYPES[ext] ?? "application/octet-stream",
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      "x-content-type-options": "nosniff",
      // No other site may frame the app's pages (clickjacking), except the chat embeds the
      // widget puts in an iframe on customers' sites.
      ...(ext === ".html" && !EMBED_PATH.test(url.pathname)
        ? { "content-security-policy": "frame-ancestors 'self'", "x-frame-options": "SAMEORIGIN" }
        : {}),
    });
    if (req.method === "HEAD") res.end();
    else fs.createReadStream(file).pipe(res);
  });
}
