// Serves the built SPA (frontend/dist) on the app port with its runtime
// configuration at /config.js, so one build works against any Supabase project.
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

export function createAppServer(distDir: string, config: () => RuntimeConfig): http.Server {
  const dist = path.resolve(distDir);
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
    const status = 200;
    if (!file) {
      // Unknown paths get the SPA shell (the router shows its own 404); missing assets are 404s.
      const isAsset = /\.[a-z0-9]{1,8}$/i.test(url.pathname);
      file = isAsset ? null : resolveFile(dist, "/index.html");
      if (!file) {
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
        return;
      }
    }
    const ext = path.extname(file).toLowerCase();
    const immutable = url.pathname.startsWith("/assets/");
    res.writeHead(status, {
      "content-type": TYPES[ext] ?? "application/octet-stream",
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      "x-content-type-options": "nosniff",
    });
    if (req.method === "HEAD") res.end();
    else fs.createReadStream(file).pipe(res);
  });
}
