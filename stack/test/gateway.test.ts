// The gateway's own limits in front of PostgREST and the services: the host names it
// serves (DNS rebinding), fast 413s for RPC bodies and long select lists in PostgREST's
// error shape, connections closed (not drained) when it answers before reading a body,
// and 503 with Retry-After when PostgREST or its database is down.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FunctionsRuntime } from "../src/functions.ts";
import { Gateway, defaultAllowedHosts, hostName } from "../src/gateway.ts";
import { loadKeys } from "../src/keys.ts";
import { createLogger } from "../src/log.ts";
import { freePort } from "../src/net.ts";
import { Postgrest } from "../src/postgrest.ts";
import { fixtureDir, stackInfo } from "./helpers.ts";

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Milliseconds from the request's start to its answer. */
  ms: number;
}

/** One request over its own connection, so Host and connection handling are what the test says. */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawAnswer> {
  const started = Date.now();
  // A keep-alive connection of its own: "connection: close" in an answer is the server's choice.
  const agent = new http.Agent({ keepAlive: true });
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? "GET", headers: opts.headers, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: Date.now() - started }));
    });
    req.on("error", (e) => reject(e));
    req.end(opts.body);
  }).finally(() => agent.destroy());
}

const json = (a: RawAnswer) => JSON.parse(a.body) as Record<string, unknown>;

describe("host allow-list", () => {
  it("serves the loopback names and refuses any other Host, for the API, the mailbox and WebSockets", async () => {
    const s = stackInfo();
    const port = new URL(s.apiUrl).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await raw(`${s.apiUrl}/health`, { headers: { host } })).status).toBe(200);
    }
    for (const p of ["/mail/api/messages", "/rest/v1/notebooks", "/auth/v1/settings", "/health"]) {
      const a = await raw(`${s.apiUrl}${p}`, { headers: { host: `attacker.example:${port}`, apikey: s.anonKey } });
      expect(a.status).toBe(421);
      expect(json(a)).toMatchObject({ code: "host_not_allowed" });
      expect(String(json(a).message)).toMatch(/PARLEY_ALLOWED_HOSTS/);
    }
    const ws = await new Promise<string>((resolve, reject) => {
      const req = http.request(`${s.apiUrl}/realtime/v1/websocket?apikey=${s.anonKey}&vsn=1.0.0`, {
        headers: { host: "rebound.example", connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" },
        agent: false,
      });
      req.on("response", (res) => resolve(String(res.statusCode)));
      req.on("upgrade", () => resolve("upgraded"));
      req.on("error", reject);
      req.end();
    });
    expect(ws).toBe("421");
  });

  it("adds the stack's own URLs and PARLEY_ALLOWED_HOSTS to the list", () => {
    expect(hostName("[::1]:54321")).toBe("::1");
    expect(hostName("LocalHost:3000")).toBe("localhost");
    expect(hostName("a b")).toBeNull();
    expect(defaultAllowedHosts(["http://127.0.0.1:54321", "https://app.parley.example"], "dev.box, [fe80::1]").sort()).toEqual(
      ["127.0.0.1", "::1", "app.parley.example", "dev.box", "fe80::1", "localhost"].sort(),
    );
  });
});

describe("REST limits", () => {
  it("refuses a large RPC body at once with 413 in PostgREST's shape and closes the connection", async () => {
    const s = stackInfo();
    // The probe's body: 50,000 arguments, about 728 KB.
    const args = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
    const body = JSON.stringify(args);
    expect(body.length).toBeGreaterThan(500_000);
    const a = await raw(`${s.apiUrl}/rest/v1/rpc/whoami`, { method: "POST", headers: { apikey: s.anonKey, "content-type": "application/json" }, body });
    expect(a.status).toBe(413);
    expect(json(a)).toMatchObject({ code: "payload_too_large", details: null, hint: null });
    expect(String(json(a).message)).toMatch(/RPC request body/);
    expect(a.headers.connection).toBe("close");
  });

  it("refuses an RPC body with too many arguments, and still runs a normal call", async () => {
    const s = stackInfo();
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])));
    const a = await raw(`${s.apiUrl}/rest/v1/rpc/whoami`, { method: "POST", headers: { apikey: s.anonKey, "content-type": "application/json" }, body });
    expect(a.status).toBe(413);
    expect(String(json(a).message)).toMatch(/at most 64 arguments/);
    expect(a.headers.connection).not.toBe("close"); // the body was read: the connection may stay
    const ok = await raw(`${s.apiUrl}/rest/v1/rpc/whoami`, { method: "POST", headers: { apikey: s.anonKey, "content-type": "application/json" }, body: "{}" });
    expect(ok.status).toBe(200);
    expect(json(ok)).toEqual({ role: "anon", uid: null });
  });

  it("refuses a select list of thousands of columns with 413", async () => {
    const s = stackInfo();
    const select = Array.from({ length: 3000 }, () => "id").join(",");
    const a = await raw(`${s.apiUrl}/rest/v1/notebooks?select=${select}`, { headers: { apikey: s.anonKey } });
    expect(a.status).toBe(413);
    expect(json(a)).toMatchObject({ code: "payload_too_large", hint: null });
    expect(String(json(a).message)).toMatch(/at most 250 items/);
    const fine = await raw(`${s.apiUrl}/rest/v1/notebooks?select=id,title&limit=1`, { headers: { apikey: s.anonKey } });
    expect(fine.status).toBe(200);
  });

  it("answers an oversized upload before reading it and closes the connection", async () => {
    const s = stackInfo();
    const big = Buffer.alloc(11 * 1024 * 1024, 0x61);
    const a = await raw(`${s.apiUrl}/functions/v1/nope-not-here`, { method: "POST", headers: { "content-type": "text/plain" }, body: big });
    expect(a.status).toBe(404);
    expect(a.headers.connection).toBe("close");
    const b = await raw(`${s.apiUrl}/rest/v1/notebooks`, { method: "POST", headers: { apikey: s.anonKey, "content-type": "application/json" }, body: big });
    expect(b.status).toBe(413);
    expect(b.headers.connection).toBe("close");
  });
});

describe("REST while PostgREST or its database is down", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-gw-"));
  const cleanup: (() => unknown)[] = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers 503 with Retry-After in PostgREST's shape", async () => {
    const keys = await loadKeys(dir);
    const log = createLogger("test", true);
    // A real PostgREST whose database does not answer (nothing listens on the port).
    const deadDb = `postgresql://authenticator:postgres@127.0.0.1:${await freePort()}/postgres`;
    const postgrest = new Postgrest({ dbUri: deadDb, jwtSecret: keys.jwtSecret, schemas: ["public"], extraSearchPath: ["public"], maxRows: 10, log });
    cleanup.push(() => postgrest.stop());
    await expect(postgrest.start(1500)).rejects.toThrow(/did not become ready/);
    let upstreamPort = postgrest.port;
    let trustUpstream = false;
    const gateway = new Gateway({
      keys, log, services: new Map(), health: async () => ({ ok: false }),
      functions: new FunctionsRuntime({ functionsDir: path.join(fixtureDir, "supabase", "functions"), config: {}, env: {}, cacheDir: dir, log }),
      postgrestPort: () => upstreamPort,
      // PostgREST's readiness as the stack reports it; off below to reach the connection error.
      restAvailable: () => trustUpstream || postgrest.healthy,
      maxBodyBytes: 1024 * 1024, maxUploadBytes: 1024 * 1024, maxRpcBodyBytes: 64 * 1024, maxRpcArgs: 64, maxSelectItems: 250,
      allowedHosts: ["127.0.0.1"],
    });
    const port = await gateway.listen(0);
    cleanup.push(() => gateway.close());
    const url = `http://127.0.0.1:${port}/rest/v1/notebooks`;

    const dbDown = await raw(url, { headers: { apikey: keys.anonKey } });
    expect(dbDown.status).toBe(503);
    expect(dbDown.headers["retry-after"]).toBe("5");
    expect(json(dbDown)).toMatchObject({ code: "PGRST000", hint: null });

    await postgrest.stop();
    upstreamPort = await freePort(); // nothing listens there now
    trustUpstream = true;
    const restDown = await raw(url, { headers: { apikey: keys.anonKey } });
    expect(restDown.status).toBe(503);
    expect(restDown.headers["retry-after"]).toBe("5");
    expect(json(restDown)).toMatchObject({ code: "upstream_unavailable", hint: null });
  });
});
