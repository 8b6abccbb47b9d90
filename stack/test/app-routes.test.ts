// The app server (frontend/server, which the stack starts) and its status codes: with a route manifest in dist (written by the frontend
// build), known routes are 200, paths matching no route and routes whose params fail their
// rule are 404 (still with the SPA's HTML, which shows the 404 page), prerendered files and
// assets as before; without a manifest every SPA path is 200 (the browser's router decides).
// The manifest here has the shape the build writes (frontend/src/app/router.tsx
// routeManifest); e2e/routes.spec.ts checks the real one against every route of the table.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  appRuntimeConfig, createAppServer, createRouteMatcher, ROUTE_MANIFEST, startAppServer, type RouteManifest,
} from "../../frontend/server/app-server.ts";

const SPA = '<!doctype html><html lang="en"><head><script src="/config.js"></script></head><body><div id="root">home</div></body></html>';
const FAQ = '<!doctype html><html lang="en"><body><div id="root">faq</div></body></html>';
const UUID = "c0000000-0000-4000-8000-000000000001";
const SLUG = "[a-z0-9]+(?:-[a-z0-9]+)*";

const PREFIXES = ["", "/de", "/jp"];
const localized = (id: string, p: string, validate?: Record<string, string>) =>
  PREFIXES.map((prefix) => ({ id: `${prefix.slice(1) || "en"}:${id}`, path: prefix && p === "/" ? prefix : prefix + p, ...(validate ? { validate } : {}) }));

const MANIFEST: RouteManifest = {
  version: 1,
  rules: {
    uuid: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
    slug: `^${SLUG}$`,
    slugPath: `^${SLUG}(?:/${SLUG})*$`,
    segments: "^(?=[^]{1,512}$)(?!\\.{1,2}(?:/|$))[^/]+(?:/(?!\\.{1,2}(?:/|$))[^/]+)*$",
  },
  routes: [
    ...localized("home", "/"),
    ...localized("faq", "/faq"),
    ...localized("blog.post", "/blog/:slug", { slug: "slug" }),
    ...localized("pages", "/pages/*", { "*": "slugPath" }),
    ...localized("bots.chat", "/bots/:botId", { botId: "uuid" }),
    ...localized("bots.chat.detail", "/bots/:botId/chats/:chatId", { botId: "uuid", chatId: "uuid" }),
    ...localized("app.bots", "/app/bots"),
    // Listed after the param route on purpose: the static segment still wins on rank.
    ...localized("app.bot", "/app/bots/:botId", { botId: "uuid" }),
    ...localized("app.bots.wizard", "/app/bots/wizard"),
    ...localized("app.conversations", "/app/conversations/*", { "*": "segments" }),
  ],
  redirects: [
    ...PREFIXES.map((p) => ({ from: `${p}/login`, prefix: false })),
    ...PREFIXES.map((p) => ({ from: `${p}/old-docs`, prefix: true })),
  ],
};

function makeDist(manifest?: string): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), "parley-app-dist-"));
  fs.writeFileSync(path.join(dist, "index.html"), SPA);
  fs.mkdirSync(path.join(dist, "faq"));
  fs.writeFileSync(path.join(dist, "faq", "index.html"), FAQ);
  fs.mkdirSync(path.join(dist, "assets"));
  fs.writeFileSync(path.join(dist, "assets", "app-abc123.js"), "console.log(1)");
  if (manifest !== undefined) fs.writeFileSync(path.join(dist, ROUTE_MANIFEST), manifest);
  return dist;
}

async function serve(dist: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createAppServer(dist, () => ({ supabaseUrl: "http://api.test", supabaseAnonKey: "anon", siteUrl: "http://site.test" }));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, close: () => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }) };
}

/** GET (or HEAD) with the raw path as given: fetch would not keep every byte of it. */
function request(base: string, rawPath: string, method = "GET"): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/`, { method, path: rawPath }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, type: String(res.headers["content-type"]), body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("app server with a route manifest", () => {
  let app: { url: string; close: () => Promise<void> };
  let dist: string;
  beforeAll(async () => {
    dist = makeDist(JSON.stringify(MANIFEST));
    app = await serve(dist);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it("refuses to be framed by other sites, except the chat embeds", async () => {
    const head = async (p: string) => {
      const res = await fetch(`${app.url}${p}`);
      await res.body?.cancel();
      return [res.headers.get("content-security-policy"), res.headers.get("x-frame-options")];
    };
    for (const p of ["/app/bots", `/bots/${UUID}`, "/de/app/auth/login"]) expect(await head(p)).toEqual(["frame-ancestors 'self'", "SAMEORIGIN"]);
    for (const p of [`/bots/${UUID}/embed`, `/de/bots/${UUID}/embed-center`]) expect(await head(p)).toEqual([null, null]);
  });

  it("answers known routes in every language with the SPA and 200", async () => {
    for (const p of ["/app/bots", "/de/app/bots", "/jp/app/bots", `/bots/${UUID}`, `/de/bots/${UUID}/chats/${UUID}`, "/de", "/jp/", "/blog/hello-world", "/pages/company/about", "/app/conversations/bot/x/chat/y"]) {
      const res = await request(app.url, p);
      expect([p, res.status]).toEqual([p, 200]);
      expect(res.body).toBe(SPA);
      expect(res.type).toBe("text/html; charset=utf-8");
    }
  });

  it("matches like react-router: case-insensitive, trailing slashes, percent-decoded, static before param", async () => {
    for (const p of ["/APP/Bots", "/app/bots/", "/app/bots//", "/blog/%68ello-world", "/app/bots/wizard", "/de/app/bots/wizard", `/app/bots/${UUID.toUpperCase()}`]) {
      expect([p, (await request(app.url, p)).status]).toEqual([p, 200]);
    }
  });

  it("answers paths that match no route with the SPA (its 'Page not found') and 404", async () => {
    for (const p of ["/no/such/page", "/fr/faq", "/en/faq", "/de/no-such", "/app/bots/wizard/extra", "/bots", "/%ZZ"]) {
      const res = await request(app.url, p);
      expect([p, res.status]).toEqual([p, 404]);
      expect(res.body).toBe(SPA);
    }
  });

  it("answers routes whose params fail their validation rule with the SPA and 404", async () => {
    for (const p of ["/bots/not-a-uuid", `/de/bots/${UUID}/chats/123`, "/app/bots/new", "/blog/Bad_Slug", "/blog/a%2Fb", "/pages", "/pages/company//about", "/pages/../etc", "/app/conversations", `/app/conversations/${"x".repeat(600)}`]) {
      const res = await request(app.url, p);
      expect([p, res.status]).toEqual([p, 404]);
      expect(res.body).toBe(SPA);
    }
  });

  it("answers the sources of the redirect table with 200 (the app redirects them)", async () => {
    for (const p of ["/login", "/de/login", "/jp/login/", "/old-docs", "/de/old-docs/a/b"]) {
      expect([p, (await request(app.url, p)).status]).toEqual([p, 200]);
    }
    expect((await request(app.url, "/login/extra")).status).toBe(404);
  });

  it("keeps prerendered pages, assets, /config.js and HEAD as they were", async () => {
    const faq = await request(app.url, "/faq");
    expect([faq.status, faq.body]).toEqual([200, FAQ]);
    expect((await request(app.url, "/de/faq/")).status).toBe(200);
    expect((await request(app.url, "/assets/app-abc123.js")).status).toBe(200);
    const missing = await request(app.url, "/assets/missing-1.js");
    expect([missing.status, missing.type, missing.body]).toEqual([404, "text/plain; charset=utf-8", "Not found"]);
    const config = await request(app.url, "/config.js");
    expect(config.status).toBe(200);
    expect(config.body).toContain('"supabaseUrl":"http://api.test"');
    const head = await request(app.url, "/no/such/page", "HEAD");
    expect([head.status, head.body]).toEqual([404, ""]);
    expect((await request(app.url, "/app/bots", "HEAD")).status).toBe(200);
    expect((await request(app.url, "/app/bots", "POST")).status).toBe(405);
  });
});

describe("app server without a usable route manifest", () => {
  it("answers every SPA path with 200 when dist has no manifest (the router shows its 404)", async () => {
    const dist = makeDist();
    const app = await serve(dist);
    try {
      for (const p of ["/no/such/page", "/bots/not-a-uuid", "/app/bots"]) expect([p, (await request(app.url, p)).status]).toEqual([p, 200]);
      expect((await request(app.url, "/assets/missing-1.js")).status).toBe(404);
    } finally {
      await app.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it("ignores a malformed manifest with a warning and keeps serving", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const bad = [
      "{not json",
      JSON.stringify({ ...MANIFEST, version: 2 }),
      JSON.stringify({ ...MANIFEST, routes: [{ id: "x", path: "/x/:id", validate: { id: "no-such-rule" } }] }),
      JSON.stringify({ ...MANIFEST, routes: [{ id: "x", path: "/x/:id?" }] }),
    ];
    try {
      for (const text of bad) {
        const dist = makeDist(text);
        const app = await serve(dist);
        try {
          expect((await request(app.url, "/no/such/page")).status).toBe(200);
        } finally {
          await app.close();
          fs.rmSync(dist, { recursive: true, force: true });
        }
      }
      expect(warn).toHaveBeenCalledTimes(bad.length);
      expect(String(warn.mock.calls[2]![0])).toContain('unknown validation rule "no-such-rule"');
      expect(String(warn.mock.calls[3]![0])).toContain("optional segments are not supported");
    } finally {
      warn.mockRestore();
    }
  });
});

describe("createRouteMatcher", () => {
  it("tells pages, redirects, failed rules and unknown paths apart", () => {
    const match = createRouteMatcher(MANIFEST);
    expect(match("/jp/app/bots")).toBe("page");
    expect(match("/de/login")).toBe("redirect");
    expect(match("/jp/bots/nope")).toBe("invalid");
    expect(match("/cn/app/bots")).toBe("unknown");
  });
});

describe("starting the app server", () => {
  it("listens on a free port, serves the runtime configuration and stops", async () => {
    const dist = makeDist();
    const app = await startAppServer({
      distDir: dist,
      port: 0,
      config: () => appRuntimeConfig({ supabaseUrl: "http://api.test", supabaseAnonKey: "anon</script>", siteUrl: "http://site.test" }, { PARLEY_POSTHOG_KEY: "phc_test" }),
    });
    try {
      expect(app.url).toBe(`http://127.0.0.1:${app.port}`);
      const res = await fetch(`${app.url}/config.js`);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const body = await res.text();
      expect(body).toContain('"posthogKey":"phc_test"');
      expect(body).toContain('"analyticsOnLocalhost":false');
      expect(body).toContain("anon\\u003c/script>"); // no way out of the script element
    } finally {
      await app.stop();
      fs.rmSync(dist, { recursive: true, force: true });
    }
    await expect(fetch(`${app.url}/config.js`)).rejects.toThrow();
  });
});

describe("app server and the visitor's lean entry", () => {
  it("answers the chat page and the embeds, in every language, with visitor.html; other paths with the SPA", async () => {
    const dist = makeDist(JSON.stringify(MANIFEST));
    const VISITOR = "<!doctype html><title>visitor</title>";
    fs.writeFileSync(path.join(dist, "visitor.html"), VISITOR);
    const app = await serve(dist);
    try {
      for (const p of [`/bots/${UUID}`, `/de/bots/${UUID}/chats/${UUID}`]) expect((await request(app.url, p)).status).toBe(200);
      for (const p of [`/bots/${UUID}`, `/de/bots/${UUID}`, `/bots/${UUID}/chats/${UUID}`, `/jp/bots/${UUID}/embed`, `/bots/${UUID}/embed-center/`]) {
        // (The status stays the route table's: this test's table has no embed routes.)
        expect([p, (await request(app.url, p)).body]).toEqual([p, VISITOR]);
      }
      // Not a visitor's page (a bot's login, the embed-code page, a bad id): the app decides.
      for (const p of [`/bots/${UUID}/login`, `/bots/${UUID}/sdk`, "/bots/not-a-uuid", "/app/bots"]) {
        expect([p, (await request(app.url, p)).body]).toEqual([p, SPA]);
      }
    } finally {
      await app.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it("puts /config.js' script into visitor.html and sends text gzipped to browsers that accept it", async () => {
    const dist = makeDist(JSON.stringify(MANIFEST));
    fs.writeFileSync(path.join(dist, "visitor.html"), '<head><script src="/config.js"></script><script>early()</script></head>');
    const app = await serve(dist);
    try {
      const page = await request(app.url, `/bots/${UUID}`);
      expect(page.body).toBe(
        '<head><script>window.__PARLEY_CONFIG__ = {"supabaseUrl":"http://api.test","supabaseAnonKey":"anon","siteUrl":"http://site.test"};\n</script><script>early()</script></head>',
      );
      // The SPA keeps its tag (and a static host serves visitor.html as it is).
      expect((await request(app.url, "/app/bots")).body).toBe(SPA);
      for (const p of ["/assets/app-abc123.js", `/bots/${UUID}`, "/faq"]) {
        const res = await new Promise<http.IncomingMessage & { raw: Buffer }>((resolve, reject) => {
          http.get(`${app.url}${p}`, { headers: { "accept-encoding": "gzip, br" } }, (r) => {
            const parts: Buffer[] = [];
            r.on("data", (d: Buffer) => parts.push(d));
            r.on("end", () => resolve(Object.assign(r, { raw: Buffer.concat(parts) })));
          }).on("error", reject);
        });
        expect([p, res.headers["content-encoding"], res.headers.vary]).toEqual([p, "gzip", "accept-encoding"]);
        expect(zlib.gunzipSync(res.raw).toString("utf8")).toBe(p === "/faq" ? FAQ : (await request(app.url, p)).body);
      }
    } finally {
      await app.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
