// Serves frontend/dist with the stack's own app server and a dummy runtime config that
// points Supabase at a small local stub (gallery rows, the event function), so browser
// tests of the shell need no database.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createAppServer } from "../../frontend/server/app-server.ts";
import { openApiDocument } from "../../supabase/functions/api/openapi.ts";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const distDir = path.join(repoRoot, "frontend", "dist");

export interface RecordedEvent {
  body: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
}

export interface ShellApp {
  baseUrl: string;
  supabaseUrl: string;
  events: RecordedEvent[];
  close(): Promise<void>;
}

/** Builds the frontend when there is no build yet (`npm test` builds before the e2e suite). */
export function ensureBuild(): void {
  if (fs.existsSync(path.join(distDir, "index.html")) && process.env.PARLEY_E2E_REBUILD !== "1") return;
  const r = spawnSync("npm", ["run", "build", "--workspace", "frontend"], { cwd: repoRoot, stdio: "inherit" });
  if (r.status !== 0) throw new Error("frontend build failed");
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
  });
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "authorization, apikey, content-type, x-client-info, accept-profile, content-profile, prefer, range",
  "access-control-allow-methods": "GET, POST, PATCH, DELETE, OPTIONS",
  "access-control-expose-headers": "content-range",
};

/**
 * Serves a private copy of the build: other test runs on this machine may rebuild
 * frontend/dist while the browser tests are running.
 */
function snapshotDist(): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "parley-e2e-dist-"));
  fs.cpSync(distDir, copy, { recursive: true });
  return copy;
}

export async function startShellApp(): Promise<ShellApp> {
  const events: RecordedEvent[] = [];
  const stub = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stub");
    if (req.method === "OPTIONS") {
      res.writeHead(204, CORS).end();
      return;
    }
    if (url.pathname === "/rest/v1/rpc/gallery_bots") {
      res.writeHead(200, { ...CORS, "content-type": "application/json", "content-range": "*/0" }).end("[]");
      return;
    }
    // /channels/api renders the HTTP API's OpenAPI document, as the api function serves it.
    if (url.pathname === "/functions/v1/api/v1/openapi.json" && req.method === "GET") {
      res.writeHead(200, { ...CORS, "content-type": "application/json" }).end(JSON.stringify(openApiDocument(`${supabaseUrl}/functions/v1/api`)));
      return;
    }
    if (url.pathname === "/functions/v1/event" && req.method === "POST") {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        try {
          events.push({ body: JSON.parse(body), headers: req.headers });
        } catch {
          /* recorded as missing */
        }
        res.writeHead(202, { ...CORS, "content-type": "application/json" }).end("{}");
      });
      return;
    }
    res.writeHead(404, { ...CORS, "content-type": "application/json" }).end('{"message":"not found"}');
  });
  const stubPort = await listen(stub);
  const supabaseUrl = `http://127.0.0.1:${stubPort}`;
  let siteUrl = "";
  const dist = snapshotDist();
  const app = createAppServer(dist, () => ({ supabaseUrl, supabaseAnonKey: "anon-test-key", siteUrl, posthogKey: "", analyticsOnLocalhost: true }));
  const port = await listen(app);
  siteUrl = `http://127.0.0.1:${port}`;
  const close = (s: http.Server) => new Promise<void>((r) => { s.close(() => r()); s.closeAllConnections(); });
  return { baseUrl: siteUrl, supabaseUrl, events, close: async () => {
    await close(app);
    await close(stub);
    fs.rmSync(dist, { recursive: true, force: true });
  } };
}
