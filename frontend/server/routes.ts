// Which URLs are pages of the app, from dist/route-manifest.json (written by the frontend
// build: every route pattern in every language, its param validation rules and the redirect
// sources), matched as react-router 7 matches them so server and browser agree.
import fs from "node:fs";
import path from "node:path";

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
