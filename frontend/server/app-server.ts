// The app's own server: serves the built SPA (frontend/dist) with its runtime
// configuration at /config.js, so one build works against any Supabase project. Node
// built-ins only; the local stack starts it (startAppServer) and so can any Node host.
// Status codes follow the app's route table: the build writes dist/route-manifest.json
// (every route pattern in every language, its param validation rules and the redirect
// sources); a path that matches no route, or whose params fail the route's rule, gets the
// SPA's HTML (which shows "Page not found: {path}") with status 404. Without a manifest
// every unknown path is answered 200 and left to the browser's router. The visitor's pages
// (src/visitor/paths.ts) get visitor.html, the lean entry, instead of the SPA's HTML, with
// /config.js' script inlined. Text files go gzipped when the browser accepts it.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { loadRouteMatcher } from "./routes.ts";
import { VISITOR_HTML, visitorScreen } from "../src/visitor/paths.ts";

export { createRouteMatcher, loadRouteMatcher, ROUTE_MANIFEST, type RouteManifest, type RouteMatch } from "./routes.ts";

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

/** The app's runtime configuration: the project's URLs and key, and the analytics settings of the environment. */
export function appRuntimeConfig(base: { supabaseUrl: string; supabaseAnonKey: string; siteUrl: string }, env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  return {
    ...base,
    posthogKey: env.PARLEY_POSTHOG_KEY ?? "",
    analyticsOnLocalhost: env.PARLEY_ANALYTICS_LOCALHOST === "1",
    // Bytes above which the app uploads files resumably (unset: the app's default, 6 MB).
    ...(env.PARLEY_RESUMABLE_UPLOAD_THRESHOLD && /^\d+$/.test(env.PARLEY_RESUMABLE_UPLOAD_THRESHOLD)
      ? { resumableUploadThreshold: Number(env.PARLEY_RESUMABLE_UPLOAD_THRESHOLD) }
      : {}),
  };
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

/** Text files go gzipped to browsers that accept it, as static hosts send them (kept per file and modification time). */
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".xml", ".map", ".webmanifest"]);
const gzipped = new Map<string, { mtimeMs: number; body: Buffer }>();

function gzippedFile(file: string): Buffer {
  const { mtimeMs } = fs.statSync(file);
  const hit = gzipped.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.body;
  const body = zlib.gzipSync(fs.readFileSync(file), { level: 9 });
  gzipped.set(file, { mtimeMs, body });
  return body;
}

const CONFIG_TAG = '<script src="/config.js"></script>';
let visitorPage: { mtimeMs: number; script: string; html: Buffer; gzipped: Buffer } | undefined;

/** visitor.html with /config.js' script in place of its tag, plain and gzipped (kept while the file and the config stay). */
function visitorHtml(file: string, script: string): { html: Buffer; gzipped: Buffer } {
  const { mtimeMs } = fs.statSync(file);
  if (visitorPage && visitorPage.mtimeMs === mtimeMs && visitorPage.script === script) return visitorPage;
  const html = Buffer.from(fs.readFileSync(file, "utf8").replace(CONFIG_TAG, () => `<script>${script}</script>`));
  visitorPage = { mtimeMs, script, html, gzipped: zlib.gzipSync(html, { level: 9 }) };
  return visitorPage;
}

/** Starts the app server on host:port (0 = a free port) and resolves with its URL and a stop function. */
export async function startAppServer(o: { distDir: string; port: number; host?: string; config: () => RuntimeConfig }): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const server = createAppServer(o.distDir, o.config);
  const host = o.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    stop: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
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
      // The visitor's pages (the hosted chat page, the embeds) have their own lean entry.
      file = isAsset ? null : (visitorScreen(url.pathname) && resolveFile(dist, `/${VISITOR_HTML}`)) || resolveFile(dist, "/index.html");
      if (!file) {
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
        return;
      }
      const verdict = matchRoute?.(url.pathname) ?? "page";
      if (verdict === "invalid" || verdict === "unknown") status = 404;
    }
    const ext = path.extname(file).toLowerCase();
    const immutable = url.pathname.startsWith("/assets/");
    const gzip = COMPRESSIBLE.has(ext) && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    res.writeHead(status, {
      "content-type": TYPES[ext] ?? "application/octet-stream",
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      "x-content-type-options": "nosniff",
      ...(COMPRESSIBLE.has(ext) ? { vary: "accept-encoding" } : {}),
      ...(gzip ? { "content-encoding": "gzip" } : {}),
      // No other site may frame the app's pages (clickjacking), except the chat embeds the
      // widget puts in an iframe on customers' sites.
      ...(ext === ".html" && !EMBED_PATH.test(url.pathname)
        ? { "content-security-policy": "frame-ancestors 'self'", "x-frame-options": "SAMEORIGIN" }
        : {}),
    });
    if (req.method === "HEAD") res.end();
    else if (path.basename(file) === VISITOR_HTML) {
      // The lean entry's page gets /config.js' script in place of the tag: its head script then
      // asks for the bot at once, not one round trip later (static hosts serve the file as is).
      const page = visitorHtml(file, runtimeConfigScript(config()));
      res.end(gzip ? page.gzipped : page.html);
    } else if (gzip) res.end(gzippedFile(file));
    else fs.createReadStream(file).pipe(res);
  });
}
