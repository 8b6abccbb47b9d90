// An attacker's sweep of the gateway: forged and malformed tokens and API keys on every API,
// bodies of the wrong kind and size, header floods, odd methods, storage names and ranges,
// WebSocket upgrades that are not what they claim, and half-open requests. Each answer must be
// a clear 4xx in the shape hosted Supabase uses for that API, never a 5xx or a stack trace, and
// the stack must go on serving. (auth.test.ts, storage.test.ts and realtime.test.ts hold the
// per-service hostile cases this file does not repeat.)
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ws from "ws";
import { FunctionsRuntime } from "../src/functions.ts";
import { DEFAULT_TIMEOUTS, Gateway, requestUrl } from "../src/gateway.ts";
import { loadKeys, signJwt } from "../src/keys.ts";
import { createLogger } from "../src/log.ts";
import { createUser, fixtureDir, mintUserToken, stackInfo } from "./helpers.ts";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on its own connection; the path goes out byte for byte. */
function request(
  method: string,
  p: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Answer> {
  const { port } = new URL(stackInfo().apiUrl);
  return new Promise<Answer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${method} ${p.slice(0, 80)}: no answer in 20 s`)), 20_000);
    const req = http.request({ host: "127.0.0.1", port, method, path: p, headers, agent: false }, (res) => {
      let data = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (data += d));
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data });
      });
      res.on("error", reject);
    });
    // The server may answer and close before the whole body is sent (a refusal): the answer
    // still arrives; a reset without one is a failure.
    req.on("error", (e) => {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EPIPE" || code === "ECONNRESET")
        setTimeout(() => reject(new Error(`${method} ${p.slice(0, 80)}: ${code} without an answer`)), 2000).unref();
      else reject(e);
    });
    req.end(body);
  });
}

/** Raw bytes over a socket; resolves with what the server sent once it closes (or after `ms`). */
function rawSocket(
  port: number,
  data: string | Buffer,
  ms = 10_000,
  untilAnswer = false,
): Promise<{ text: string; closedMs: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const sock = net.connect(port, "127.0.0.1");
    let text = "";
    const timer = setTimeout(() => {
      sock.destroy();
      resolve({ text, closedMs: -1 });
    }, ms);
    sock.on("data", (d) => {
      text += d.toString("latin1");
      // A whole answer on a connection the server may keep open (keep-alive).
      const end = text.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
      if (untilAnswer && end > 0 && length && text.length - end - 4 >= Number(length[1])) {
        clearTimeout(timer);
        sock.destroy();
        resolve({ text, closedMs: -2 });
      }
    });
    sock.on("close", () => {
      clearTimeout(timer);
      resolve({ text, closedMs: Date.now() - started });
    });
    sock.on("error", () => {});
    sock.write(data);
  });
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const now = () => Math.floor(Date.now() / 1000);
/** An unsigned token (alg "none") that claims whatever the attacker likes. */
const unsigned = (claims: Record<string, unknown>, alg = "none") =>
  `${b64({ alg, typ: "JWT" })}.${b64({ exp: now() + 3600, ...claims })}.`;

/** No stack trace, file path or internal error text in an answer. */
function noLeak(a: Answer, what: string) {
  expect(a.body, what).not.toMatch(
    /\n\s+at |node:internal|\/stack\/src\/|\.ts:\d+|TypeError|ReferenceError|SyntaxError: Unexpected/,
  );
}

function isJson(a: Answer, what: string): Record<string, unknown> {
  expect(a.headers["content-type"] ?? "", what).toMatch(/application\/json/);
  let v: unknown;
  expect(() => (v = JSON.parse(a.body)), `${what}: ${a.body.slice(0, 200)}`).not.toThrow();
  return v as Record<string, unknown>;
}

async function stillServing() {
  const s = stackInfo();
  const h = await request("GET", "/health");
  expect(h.status).toBe(200);
  const rest = await request("GET", "/rest/v1/notebooks?select=id&limit=1", { apikey: s.anonKey });
  expect(rest.status).toBe(200);
}

const API_VERSION = { "x-supabase-api-version": "2024-01-01" };

let userId: string;
let userToken: string;
let tokens: Record<string, string>;
const bucket = `hostile-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  const s = stackInfo();
  userId = await createUser();
  userToken = await mintUserToken(userId);
  tokens = {
    "alg none (service_role)": unsigned({ role: "service_role", iss: "supabase" }),
    "alg none (user)": unsigned({ sub: userId, role: "authenticated", aud: "authenticated" }),
    "alg None (service_role)": unsigned({ role: "service_role" }, "None"),
    "HS256 header, empty signature": unsigned({ role: "service_role" }, "HS256"),
    expired: await mintUserToken(userId, {}, -120),
    "wrong secret (service_role)": await signJwt(
      "an-attackers-secret-of-thirty-two-chars!!",
      { role: "service_role" },
      3600,
    ),
    "wrong secret (user)": await signJwt(
      "an-attackers-secret-of-thirty-two-chars!!",
      { sub: userId, role: "authenticated", aud: "authenticated" },
      3600,
    ),
    garbage: "garbage",
    "three dots": "a.b.c",
    "bad base64": "eyJ!!.eyJ$$.%%",
    "header is not JSON": `${Buffer.from("not json").toString("base64url")}.${b64({ role: "service_role" })}.sig`,
    "header is an array": `${b64([1])}.${b64({ role: "service_role" })}.sig`,
    "claims are a string": `${b64({ alg: "HS256" })}.${b64("service_role")}.sig`,
    "8 KB of junk": "x".repeat(8 * 1024),
  };
  const made = await request(
    "POST",
    "/storage/v1/bucket",
    { apikey: s.serviceRoleKey, authorization: `Bearer ${s.serviceRoleKey}`, "content-type": "application/json" },
    JSON.stringify({ id: bucket, name: bucket, public: false }),
  );
  expect(made.status, made.body).toBe(200);
  const up = await request(
    "POST",
    `/storage/v1/object/${bucket}/file.txt`,
    { apikey: s.serviceRoleKey, authorization: `Bearer ${s.serviceRoleKey}`, "content-type": "text/plain" },
    "0123456789",
  );
  expect(up.status, up.body).toBe(200);
});

describe("forged, expired and malformed tokens", () => {
  it("auth: a user endpoint answers 403 bad_jwt, an admin endpoint never takes an unverified service_role", async () => {
    const s = stackInfo();
    for (const [name, t] of Object.entries(tokens)) {
      for (const [method, p] of [
        ["GET", "/auth/v1/user"],
        ["PUT", "/auth/v1/user"],
        ["POST", "/auth/v1/logout"],
        ["GET", "/auth/v1/admin/users"],
        ["POST", "/auth/v1/admin/users"],
        ["POST", "/auth/v1/admin/generate_link"],
      ] as const) {
        const a = await request(
          method,
          p,
          { ...API_VERSION, apikey: s.anonKey, authorization: `Bearer ${t}`, "content-type": "application/json" },
          method === "GET"
            ? undefined
            : JSON.stringify({ email: "x@example.test", password: "password123", type: "magiclink" }),
        );
        const what = `${method} ${p} with ${name}`;
        expect(a.status, `${what}: ${a.body}`).toBe(403);
        expect(isJson(a, what)).toMatchObject({ code: "bad_jwt", message: expect.stringMatching(/^invalid JWT/) });
        noLeak(a, what);
      }
    }
  });

  it("REST: a bad bearer is PostgREST's 401, a bad apikey is the gateway's 401 Invalid API key", async () => {
    const s = stackInfo();
    for (const [name, t] of Object.entries(tokens)) {
      const a = await request("GET", "/rest/v1/notebooks?select=id", {
        apikey: s.anonKey,
        authorization: `Bearer ${t}`,
      });
      expect(a.status, `${name}: ${a.body}`).toBe(401);
      expect(isJson(a, name)).toMatchObject({ code: expect.stringMatching(/^PGRST30/), message: expect.any(String) });
      const k = await request("GET", "/rest/v1/notebooks?select=id", {
        apikey: t,
        authorization: `Bearer ${s.serviceRoleKey}`,
      });
      expect(k.status, `apikey ${name}: ${k.body}`).toBe(401);
      expect(isJson(k, name)).toMatchObject({ message: "Invalid API key" });
    }
    const none = await request("GET", "/rest/v1/notebooks?select=id", { authorization: `Bearer ${s.serviceRoleKey}` });
    expect(none.status).toBe(401);
    expect(isJson(none, "no apikey")).toMatchObject({ message: "No API key found in request" });
    const expired = await request("GET", "/rest/v1/notebooks?select=id", {
      apikey: s.anonKey,
      authorization: `Bearer ${tokens.expired}`,
    });
    expect(isJson(expired, "expired")).toMatchObject({
      code: expect.stringMatching(/^PGRST30/),
      message: "JWT expired",
    });
    // PostgREST closes its connection after some JWT errors without saying so; the next request
    // on that kept-alive connection must not become a 503 (it did, about 1 in 50).
    const statuses = new Map<number, number>();
    for (let i = 0; i < 60; i++) {
      for (const t of [
        tokens["header is not JSON"]!,
        tokens["alg none (user)"]!,
        tokens["claims are a string"]!,
        tokens["header is an array"]!,
      ]) {
        const a = await request("GET", "/rest/v1/notebooks?select=id", {
          apikey: s.anonKey,
          authorization: `Bearer ${t}`,
        });
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      }
    }
    expect(Object.fromEntries(statuses)).toEqual({ 401: 240 });
  });

  it("storage: 403 in Storage's shape, and nothing is read or written", async () => {
    const s = stackInfo();
    for (const [name, t] of Object.entries(tokens)) {
      for (const [method, p, body] of [
        ["GET", `/storage/v1/object/${bucket}/file.txt`, undefined],
        ["POST", `/storage/v1/object/${bucket}/forged.txt`, "evil"],
        ["GET", "/storage/v1/bucket", undefined],
        ["DELETE", `/storage/v1/bucket/${bucket}`, undefined],
      ] as const) {
        const a = await request(
          method,
          p,
          { apikey: s.anonKey, authorization: `Bearer ${t}`, "content-type": "text/plain" },
          body,
        );
        const what = `${method} ${p} with ${name}`;
        expect(a.status, `${what}: ${a.body}`).toBe(403);
        expect(isJson(a, what)).toMatchObject({
          statusCode: "403",
          error: "Unauthorized",
          message: expect.any(String),
        });
        noLeak(a, what);
      }
    }
    const still = await request("GET", `/storage/v1/object/${bucket}/file.txt`, {
      apikey: s.serviceRoleKey,
      authorization: `Bearer ${s.serviceRoleKey}`,
    });
    expect(still.body).toBe("0123456789");
    const forged = await request("GET", `/storage/v1/object/${bucket}/forged.txt`, {
      apikey: s.serviceRoleKey,
      authorization: `Bearer ${s.serviceRoleKey}`,
    });
    expect(isJson(forged, "forged")).toMatchObject({ statusCode: "404" });
  });

  it("functions behind verify_jwt: 401 Invalid JWT, and the function never runs", async () => {
    for (const [name, t] of Object.entries(tokens)) {
      const a = await request(
        "POST",
        "/functions/v1/echo",
        { authorization: `Bearer ${t}`, "content-type": "application/json" },
        "{}",
      );
      expect(a.status, `${name}: ${a.body}`).toBe(401);
      expect(isJson(a, name)).toMatchObject({
        code: expect.stringMatching(/^UNAUTHORIZED_/),
        message: name === "expired" ? "JWT has expired" : "Invalid JWT",
      });
    }
    const none = await request("POST", "/functions/v1/echo", { "content-type": "application/json" }, "{}");
    expect(none.status).toBe(401);
    expect(isJson(none, "no auth")).toMatchObject({ code: "UNAUTHORIZED_NO_AUTH_HEADER" });
  });

  it("realtime: an upgrade with a forged apikey is 403; a join with a forged access_token is refused", async () => {
    const s = stackInfo();
    const base = s.apiUrl.replace(/^http/, "ws");
    for (const [name, t] of Object.entries(tokens)) {
      const status = await new Promise<number>((resolve) => {
        const sock = new ws(`${base}/realtime/v1/websocket?apikey=${encodeURIComponent(t)}&vsn=1.0.0`);
        sock.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        sock.on("open", () => {
          sock.close();
          resolve(101);
        });
        sock.on("error", () => resolve(-1));
      });
      expect(status, name).toBe(403);
    }
    const sock = new ws(`${base}/realtime/v1/websocket?apikey=${s.anonKey}&vsn=1.0.0`);
    await new Promise((r) => sock.once("open", r));
    const replies = new Map<string, Record<string, unknown>>();
    const waiting = new Map<string, (v: Record<string, unknown>) => void>();
    sock.on("message", (d) => {
      const m = JSON.parse(d.toString()) as { ref: string; event: string; payload: Record<string, unknown> };
      if (m.event !== "phx_reply") return;
      replies.set(m.ref, m.payload);
      waiting.get(m.ref)?.(m.payload);
    });
    const join = (ref: string, topic: string, payload: Record<string, unknown>) => {
      const p = new Promise<Record<string, unknown>>((resolve) =>
        replies.has(ref) ? resolve(replies.get(ref)!) : waiting.set(ref, resolve),
      );
      sock.send(JSON.stringify({ topic, event: "phx_join", ref, join_ref: ref, payload }));
      return p;
    };
    let i = 0;
    for (const [name, t] of Object.entries(tokens)) {
      const reply = await join(`f${i++}`, `realtime:forged-${i}`, { config: { private: false }, access_token: t });
      expect(reply, name).toMatchObject({ status: "error" });
    }
    // Without any token a private channel is refused; a public one is joined as anon (as hosted).
    expect(await join("p1", "realtime:private-no-token", { config: { private: true } })).toMatchObject({
      status: "error",
    });
    expect(await join("p2", "realtime:public-no-token", { config: { private: false } })).toMatchObject({
      status: "ok",
    });
    sock.close();
  });
});

describe("API keys on /auth/v1", () => {
  it("refuses a missing or unknown apikey with the gateway's 401, except on the links a browser opens", async () => {
    const s = stackInfo();
    const body = JSON.stringify({ email: "nokey@example.test", password: "password123" });
    for (const [method, p] of [
      ["POST", "/signup"],
      ["POST", "/token?grant_type=password"],
      ["POST", "/otp"],
      ["POST", "/recover"],
      ["GET", "/settings"],
      ["GET", "/user"],
      ["GET", "/admin/users"],
      ["POST", "/admin/users"],
    ] as const) {
      const none = await request(
        method,
        `/auth/v1${p}`,
        { "content-type": "application/json", authorization: `Bearer ${s.serviceRoleKey}` },
        method === "GET" ? undefined : body,
      );
      expect(none.status, `${method} ${p}: ${none.body}`).toBe(401);
      expect(isJson(none, p)).toEqual({ message: "No API key found in request", hint: expect.any(String) });
      for (const key of [
        tokens["alg none (service_role)"]!,
        tokens["wrong secret (service_role)"]!,
        userToken,
        "sb_secret_guess",
        "x",
      ]) {
        const bad = await request(
          method,
          `/auth/v1${p}`,
          { apikey: key, "content-type": "application/json" },
          method === "GET" ? undefined : body,
        );
        expect(bad.status, `${method} ${p}: ${bad.body}`).toBe(401);
        expect(isJson(bad, p)).toEqual({ message: "Invalid API key", hint: expect.any(String) });
      }
    }
    expect((await request("GET", "/auth/v1/.well-known/jwks.json")).status).toBe(200);
    expect((await request("GET", "/auth/v1/health")).status).toBe(200);
    const verify = await request("GET", "/auth/v1/verify?type=signup&token=nope&redirect_to=http://127.0.0.1:3000");
    expect(verify.status).toBe(303);
    expect((await request("GET", "/auth/v1/verify?type=x&token=nope")).status).toBe(303);
    // Nothing was created by the refused sign-up.
    const admin = await request("GET", "/auth/v1/admin/users?per_page=1000", {
      apikey: s.serviceRoleKey,
      authorization: `Bearer ${s.serviceRoleKey}`,
    });
    expect(JSON.stringify(JSON.parse(admin.body))).not.toContain("nokey@example.test");
  });
});

describe("bodies of the wrong kind and size", () => {
  it("auth: malformed JSON, wrong JSON types and wrong content types are 400 bad_json or validation_failed", async () => {
    const s = stackInfo();
    const asUser = { authorization: `Bearer ${userToken}` };
    const asAdmin = { authorization: `Bearer ${s.serviceRoleKey}` };
    const endpoints: [string, string, Record<string, string>][] = [
      ["POST", "/signup", {}],
      ["POST", "/token?grant_type=password", {}],
      ["POST", "/token?grant_type=refresh_token", {}],
      ["POST", "/recover", {}],
      ["POST", "/otp", {}],
      ["POST", "/verify", {}],
      ["PUT", "/user", asUser],
      ["POST", "/admin/users", asAdmin],
      ["PUT", `/admin/users/${userId}`, asAdmin],
      ["POST", "/admin/generate_link", asAdmin],
    ];
    const malformed = [
      "{",
      '{"email": "a@b.c",}',
      "{'email': 'a@b.c'}",
      '{"email":"a@b.c"} trailing',
      "\u00ef\u00bb\u00bf{}x",
      "nul\u0000l",
      "1e999999",
      "[".repeat(5000),
      '{"a":'.repeat(3000),
    ];
    for (const [method, p, who] of endpoints) {
      for (const body of malformed) {
        const a = await request(
          method,
          `/auth/v1${p}`,
          { ...API_VERSION, apikey: s.anonKey, "content-type": "application/json", ...who },
          body,
        );
        const what = `${method} ${p} ${JSON.stringify(body.slice(0, 20))}`;
        expect(a.status, `${what}: ${a.body}`).toBe(400);
        expect(isJson(a, what)).toMatchObject({ code: "bad_json" });
        noLeak(a, what);
      }
      const invalidUtf8 = await request(
        method,
        `/auth/v1${p}`,
        { ...API_VERSION, apikey: s.anonKey, "content-type": "application/json", ...who },
        Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
      );
      expect(invalidUtf8.status, `${method} ${p} invalid UTF-8: ${invalidUtf8.body}`).toBeLessThan(500);
      expect(invalidUtf8.status).toBeGreaterThanOrEqual(200);
    }
    const wrongTypes: [string, string, Record<string, string>, unknown][] = [
      ["POST", "/token?grant_type=refresh_token", {}, { refresh_token: 12345 }],
      ["POST", "/token?grant_type=refresh_token", {}, { refresh_token: ["a"] }],
      ["POST", "/token?grant_type=password", {}, { email: { $gt: "" }, password: "x" }],
      ["POST", "/token?grant_type=password", {}, { email: "a@example.test", password: true }],
      ["POST", "/recover", {}, { email: ["a@example.test"] }],
      ["POST", "/otp", {}, { email: "a@example.test", create_user: "yes" }],
      ["POST", "/otp", {}, { email: "a@example.test", data: [1, 2] }],
      ["POST", "/verify", {}, { type: ["signup"], token_hash: "x" }],
      ["POST", "/verify", {}, { type: "signup", token_hash: 5 }],
      ["PUT", "/user", asUser, { password: 12345678 }],
      ["PUT", "/user", asUser, { data: "not an object" }],
      ["PUT", "/user", asUser, { email: false }],
      ["POST", "/admin/users", asAdmin, { email: 5, password: "password123" }],
      ["POST", "/admin/users", asAdmin, { email: "ok@example.test", email_confirm: "true" }],
      ["POST", "/admin/users", asAdmin, { email: "ok@example.test", user_metadata: [] }],
      ["PUT", `/admin/users/${userId}`, asAdmin, { ban_duration: 5 }],
      ["PUT", `/admin/users/${userId}`, asAdmin, { app_metadata: "admin" }],
      ["POST", "/admin/generate_link", asAdmin, { type: 1, email: "a@example.test" }],
    ];
    for (const [method, p, who, body] of wrongTypes) {
      const a = await request(
        method,
        `/auth/v1${p}`,
        { ...API_VERSION, apikey: s.anonKey, "content-type": "application/json", ...who },
        JSON.stringify(body),
      );
      const what = `${method} ${p} ${JSON.stringify(body)}`;
      expect(a.status, `${what}: ${a.body}`).toBe(400);
      expect(isJson(a, what)).toMatchObject({ code: expect.stringMatching(/^(bad_json|validation_failed)$/) });
    }
    // The legacy shape (no API version header) for the same mistakes.
    const legacy = await request(
      "POST",
      "/auth/v1/recover",
      { apikey: s.anonKey, "content-type": "application/json" },
      "{",
    );
    expect(legacy.status).toBe(400);
    expect(isJson(legacy, "legacy")).toMatchObject({ code: 400, error_code: "bad_json", msg: expect.any(String) });
    const legacyToken = await request(
      "POST",
      "/auth/v1/token?grant_type=password",
      { apikey: s.anonKey, "content-type": "application/json" },
      "{",
    );
    expect(legacyToken.status).toBe(400);
    expect(isJson(legacyToken, "legacy token")).toMatchObject({ error: "invalid_grant", error_code: "bad_json" });
    // Admin endpoints without the service key.
    const asAnon = await request("GET", "/auth/v1/admin/users", {
      ...API_VERSION,
      apikey: s.anonKey,
      authorization: `Bearer ${s.anonKey}`,
    });
    expect(asAnon.status).toBe(403);
    expect(isJson(asAnon, "anon admin")).toMatchObject({ code: "not_admin" });
    const asPlainUser = await request("DELETE", `/auth/v1/admin/users/${userId}`, {
      ...API_VERSION,
      apikey: s.anonKey,
      ...asUser,
    });
    expect(asPlainUser.status).toBe(403);
    expect(isJson(asPlainUser, "user admin")).toMatchObject({ code: "not_admin" });
    await stillServing();
  });

  it("1 MB and 20 MB bodies get a 413 in each API's shape (or are refused for what they are), and the stack keeps serving", async () => {
    const s = stackInfo();
    const oneMb = Buffer.alloc(1024 * 1024, 0x61);
    const twentyMb = Buffer.alloc(20 * 1024 * 1024, 0x61);
    const jsonish = (n: number) => Buffer.from(JSON.stringify({ email: "big@example.test", password: "x".repeat(n) }));
    for (const body of [oneMb, twentyMb, jsonish(1024 * 1024)]) {
      for (const p of ["/auth/v1/signup", "/auth/v1/token?grant_type=password", "/auth/v1/otp"]) {
        const a = await request(
          "POST",
          p,
          { ...API_VERSION, apikey: s.anonKey, "content-type": "application/json" },
          body,
        );
        expect(a.status, `${p} ${body.length}: ${a.body}`).toBe(413);
        expect(isJson(a, p)).toMatchObject({ code: "request_too_large" });
      }
    }
    const rest = await request(
      "POST",
      "/rest/v1/notebooks",
      { apikey: s.anonKey, "content-type": "application/json" },
      twentyMb,
    );
    expect(rest.status).toBe(413);
    expect(isJson(rest, "rest")).toMatchObject({
      code: "payload_too_large",
      message: expect.any(String),
      details: null,
      hint: null,
    });
    const restJunk = await request(
      "POST",
      "/rest/v1/notebooks",
      { apikey: s.anonKey, "content-type": "application/json" },
      oneMb,
    );
    expect(restJunk.status).toBe(400);
    expect(isJson(restJunk, "rest junk")).toMatchObject({ code: "PGRST102" });
    const fn = await request("POST", "/functions/v1/claims", { "content-type": "application/json" }, twentyMb);
    expect(fn.status).toBe(413);
    expect(isJson(fn, "functions")).toMatchObject({ code: "payload_too_large" });
    // A chunked body (no Content-Length) past the limit is cut off as well.
    const fnChunked = await new Promise<Answer>((resolve, reject) => {
      const { port } = new URL(s.apiUrl);
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/functions/v1/echo",
          headers: { "content-type": "application/json", authorization: `Bearer ${userToken}` },
          agent: false,
        },
        (res) => {
          let data = "";
          res.on("data", (d) => (data += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
        },
      );
      req.on("error", (e) =>
        (e as NodeJS.ErrnoException).code === "EPIPE" || (e as NodeJS.ErrnoException).code === "ECONNRESET"
          ? undefined
          : reject(e),
      );
      for (let i = 0; i < 12; i++) req.write(oneMb);
      req.end();
    });
    expect(fnChunked.status).toBe(413);
    const storage = await request(
      "POST",
      `/storage/v1/object/${bucket}/big.bin`,
      { apikey: s.anonKey, authorization: `Bearer ${tokens.garbage}`, "content-type": "application/octet-stream" },
      twentyMb,
    );
    expect(storage.status).toBe(403);
    const storageJson = await request(
      "POST",
      `/storage/v1/object/list/${bucket}`,
      { apikey: s.serviceRoleKey, authorization: `Bearer ${s.serviceRoleKey}`, "content-type": "application/json" },
      twentyMb,
    );
    expect(storageJson.status).toBeGreaterThanOrEqual(400);
    expect(storageJson.status).toBeLessThan(500);
    expect(isJson(storageJson, "storage json")).toMatchObject({ statusCode: expect.stringMatching(/^4/) });
    await stillServing();
  });
});

describe("headers, methods and paths", () => {
  it("a huge header value or header block is 431 in JSON; many small headers are served", async () => {
    const s = stackInfo();
    const { port } = new URL(s.apiUrl);
    for (const headers of [
      { authorization: `Bearer ${"x".repeat(64 * 1024)}` },
      { apikey: "y".repeat(20 * 1024) },
      { cookie: "z".repeat(100 * 1024) },
    ]) {
      const name = Object.keys(headers)[0]!;
      const r = await rawSocket(
        Number(port),
        `GET /rest/v1/notebooks HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${name}: ${Object.values(headers)[0]}\r\n\r\n`,
      );
      expect(r.text, name).toMatch(/^HTTP\/1\.1 431 /);
      const body = r.text.slice(r.text.indexOf("\r\n\r\n") + 4);
      expect(JSON.parse(body), name).toMatchObject({
        code: "request_header_fields_too_large",
        message: expect.any(String),
      });
      expect(r.closedMs).toBeGreaterThanOrEqual(0);
    }
    const many: Record<string, string> = { apikey: s.anonKey };
    for (let i = 0; i < 500; i++) many[`x-h-${i}`] = String(i);
    const ok = await request("GET", "/rest/v1/notebooks?select=id&limit=1", many);
    expect(ok.status).toBe(200);
    // A bearer just under the limit is a bad token, not a crash.
    const long = await request("GET", "/auth/v1/user", {
      ...API_VERSION,
      apikey: s.anonKey,
      authorization: `Bearer ${"a.".repeat(6000)}`,
    });
    expect(long.status).toBe(403);
    await stillServing();
  });

  it("malformed requests and unknown methods get a 4xx, never a crash", async () => {
    const s = stackInfo();
    const { port } = new URL(s.apiUrl);
    const host = `Host: 127.0.0.1:${port}\r\n`;
    const cases: [string, string, RegExp][] = [
      ["unknown method", `FOO /rest/v1/notebooks HTTP/1.1\r\n${host}\r\n`, /^HTTP\/1\.1 400 /],
      ["garbage request line", `\u0001\u0002\u0003 garbage\r\n\r\n`, /^HTTP\/1\.1 400 /],
      ["bad header line", `GET /health HTTP/1.1\r\n${host}no colon here\r\n\r\n`, /^HTTP\/1\.1 400 /],
      [
        "two content lengths",
        `POST /auth/v1/signup HTTP/1.1\r\n${host}content-length: 2\r\ncontent-length: 5\r\n\r\n{}`,
        /^HTTP\/1\.1 400 /,
      ],
      [
        "bad chunked body",
        `POST /auth/v1/signup HTTP/1.1\r\n${host}transfer-encoding: chunked\r\ncontent-type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
        /^HTTP\/1\.1 400 /,
      ],
      ["HTTP/0.9", `GET /health\r\n\r\n`, /^HTTP\/1\.1 4\d\d |^$/],
      ["unparsable absolute URL", `GET http://[::1 HTTP/1.1\r\n${host}\r\n`, /^HTTP\/1\.1 400 /],
      [
        "absolute URL to another host",
        `GET http://evil.example/rest/v1/notebooks HTTP/1.1\r\nHost: evil.example\r\n\r\n`,
        /^HTTP\/1\.1 421 /,
      ],
    ];
    for (const [name, data, want] of cases) {
      const r = await rawSocket(Number(port), data, 10_000, true);
      expect(r.text, name).toMatch(want);
      expect(r.text, name).not.toMatch(/ 5\d\d /);
      const body = r.text.slice(r.text.indexOf("\r\n\r\n") + 4);
      if (r.text) expect(() => JSON.parse(body), `${name}: ${r.text}`).not.toThrow();
    }
    for (const method of ["PROPFIND", "TRACE", "MKCOL", "LINK", "PURGE", "SEARCH", "PATCH"]) {
      for (const p of [
        "/auth/v1/user",
        "/auth/v1/signup",
        `/storage/v1/object/${bucket}/file.txt`,
        "/storage/v1/bucket",
        "/realtime/v1/api/broadcast",
        "/health",
        "/nowhere",
      ]) {
        const a = await request(method, p, {
          ...API_VERSION,
          apikey: s.serviceRoleKey,
          authorization: `Bearer ${s.serviceRoleKey}`,
        });
        const what = `${method} ${p}`;
        expect(a.status, `${what}: ${a.body}`).toBeGreaterThanOrEqual(400);
        expect(a.status, `${what}: ${a.body}`).toBeLessThan(500);
        isJson(a, what);
      }
      const rest = await request(method, "/rest/v1/notebooks", { apikey: s.anonKey });
      expect(rest.status, `${method} rest: ${rest.body}`).toBeLessThan(500);
    }
    await stillServing();
  });

  it("storage: encoded traversal, NUL, backslashes and very long names are 400; bucket names too", async () => {
    const s = stackInfo();
    const headers = {
      apikey: s.serviceRoleKey,
      authorization: `Bearer ${s.serviceRoleKey}`,
      "content-type": "text/plain",
    };
    const keys = [
      "%2e%2e%2f%2e%2e%2fescape.txt",
      "%2E%2E/escape.txt",
      "a/%2e%2e%2fescape.txt",
      "..%5c..%5cescape.txt",
      "a\\..\\escape.txt",
      "%252e%252e%252fescape.txt",
      "a%00",
      "%00",
      "a/%2e",
      "a/.",
      ".",
      "..",
      "%c0%ae%c0%ae/escape.txt",
      "%ZZ",
      "a%",
      ["a", ..."b".repeat(1100)].join(""),
      Array.from({ length: 400 }, () => "ab").join("/"),
    ];
    for (const key of keys) {
      for (const [method, p] of [
        ["POST", `/storage/v1/object/${bucket}/${key}`],
        ["GET", `/storage/v1/object/${bucket}/${key}`],
        ["GET", `/storage/v1/object/info/${bucket}/${key}`],
        ["DELETE", `/storage/v1/object/${bucket}/${key}`],
        ["POST", `/storage/v1/object/sign/${bucket}/${key}`],
      ] as const) {
        const a = await request(
          method,
          p,
          headers,
          method === "POST" ? (p.includes("/sign/") ? '{"expiresIn":60}' : "evil") : undefined,
        );
        const what = `${method} ${p.slice(0, 80)}`;
        // "%252e%252e%252f" is a literal "%2e%2e%2f" name: a valid key that does not exist.
        expect(a.status, `${what}: ${a.body}`).toBeGreaterThanOrEqual(400);
        expect(a.status, `${what}: ${a.body}`).toBeLessThan(500);
        expect(isJson(a, what)).toMatchObject({ statusCode: expect.stringMatching(/^4/), message: expect.any(String) });
        noLeak(a, what);
      }
    }
    const copy = await request(
      "POST",
      "/storage/v1/object/copy",
      { ...headers, "content-type": "application/json" },
      JSON.stringify({ bucketId: bucket, sourceKey: "file.txt", destinationKey: "../../escape.txt" }),
    );
    expect(copy.status).toBe(400);
    const move = await request(
      "POST",
      "/storage/v1/object/move",
      { ...headers, "content-type": "application/json" },
      JSON.stringify({ bucketId: bucket, sourceKey: "../file.txt", destinationKey: "x.txt" }),
    );
    expect(move.status).toBe(400);
    const moveNul = await request(
      "POST",
      "/storage/v1/object/move",
      { ...headers, "content-type": "application/json" },
      JSON.stringify({ bucketId: bucket, sourceKey: "file.txt", destinationKey: "a\u0000b" }),
    );
    expect(moveNul.status).toBe(400);
    for (const name of ["..", ".", "a/b", "a\\b", "x".repeat(101), "", " ", "a\u0000b", "Ünïcode-☃", "<script>"]) {
      const a = await request(
        "POST",
        "/storage/v1/bucket",
        { ...headers, "content-type": "application/json" },
        JSON.stringify({ name, id: name }),
      );
      expect(a.status, `bucket ${JSON.stringify(name)}: ${a.body}`).toBe(400);
      expect(isJson(a, name)).toMatchObject({ statusCode: "400", message: expect.any(String) });
    }
    for (const id of ["%2e%2e", "a%2Fb", "%00", "x".repeat(300)]) {
      const a = await request("GET", `/storage/v1/bucket/${id}`, headers);
      expect(a.status, `GET bucket ${id}: ${a.body}`).toBeGreaterThanOrEqual(400);
      expect(a.status).toBeLessThan(500);
    }
    await stillServing();
  });

  it("storage: malformed Range headers are ignored or 416, never a 5xx", async () => {
    const s = stackInfo();
    const headers = { apikey: s.serviceRoleKey, authorization: `Bearer ${s.serviceRoleKey}` };
    const cases: [string, number, string?][] = [
      ["bytes=abc", 200],
      ["bytes=5-1", 200],
      ["bytes=--", 200],
      ["bytes=", 200],
      ["items=0-1", 200],
      ["bytes=0-1,3-4", 200],
      ["bytes=1-2-3", 200],
      ["bytes= 1-2", 200],
      ["bytes=-0", 416],
      ["bytes=10-", 416],
      ["bytes=99999999999999999999999-", 416],
      ["bytes=0-99999999999999999999999", 206, "0123456789"],
      ["bytes=-99999999999999999999", 206, "0123456789"],
      ["bytes=2-4", 206, "234"],
      ["x".repeat(8000), 200],
    ];
    for (const [range, status, body] of cases) {
      const a = await request("GET", `/storage/v1/object/${bucket}/file.txt`, { ...headers, range });
      expect(a.status, `${range.slice(0, 40)}: ${a.body}`).toBe(status);
      if (status === 200) expect(a.body).toBe("0123456789");
      if (body) expect(a.body).toBe(body);
      if (status === 416) expect(isJson(a, range)).toMatchObject({ statusCode: "416" });
    }
  });

  it("realtime: upgrades that are not WebSocket handshakes, and no apikey, are refused", async () => {
    const s = stackInfo();
    const { port } = new URL(s.apiUrl);
    const host = `Host: 127.0.0.1:${port}\r\n`;
    const cases: [string, string, RegExp][] = [
      [
        "no apikey",
        `GET /realtime/v1/websocket?vsn=1.0.0 HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
        /^HTTP\/1\.1 403 /,
      ],
      [
        "no key header",
        `GET /realtime/v1/websocket?vsn=1.0.0&apikey=${s.anonKey} HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        /^HTTP\/1\.1 400 /,
      ],
      [
        "wrong version",
        `GET /realtime/v1/websocket?vsn=1.0.0&apikey=${s.anonKey} HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 7\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
        /^HTTP\/1\.1 4\d\d /,
      ],
      [
        "not websocket",
        `GET /realtime/v1/websocket?vsn=1.0.0&apikey=${s.anonKey} HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: h2c\r\n\r\n`,
        /^HTTP\/1\.1 4\d\d /,
      ],
      [
        "upgrade to REST",
        `GET /rest/v1/notebooks HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
        /^HTTP\/1\.1 404 /,
      ],
      [
        "bad vsn",
        `GET /realtime/v1/websocket?vsn=9&apikey=${s.anonKey} HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
        /^HTTP\/1\.1 400 /,
      ],
    ];
    for (const [name, data, want] of cases) {
      const r = await rawSocket(Number(port), data);
      expect(r.text, name).toMatch(want);
      expect(r.closedMs, name).toBeGreaterThanOrEqual(0);
    }
    // Garbage bytes after a good handshake (not WebSocket frames) close that socket only.
    const sock = new ws(`${s.apiUrl.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=${s.anonKey}&vsn=1.0.0`);
    await new Promise((r) => sock.once("open", r));
    const closed = new Promise<number>((resolve) => sock.once("close", (code) => resolve(code)));
    sock.on("error", () => {});
    (sock as unknown as { _socket: net.Socket })._socket.write(
      Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
    );
    expect(await closed).toBeGreaterThanOrEqual(1000);
    await stillServing();
  });
});

describe("half-open requests (slowloris)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-hostile-"));
  let gateway: Gateway;
  let port: number;
  beforeAll(async () => {
    const keys = await loadKeys(dir);
    const log = createLogger("test", true);
    const echo = {
      async handle(r: { req: http.IncomingMessage; res: http.ServerResponse }) {
        const chunks: Buffer[] = [];
        for await (const c of r.req) chunks.push(c as Buffer);
        r.res.writeHead(200, { "content-type": "application/json" });
        r.res.end(JSON.stringify({ got: Buffer.concat(chunks).length }));
      },
    };
    gateway = new Gateway({
      keys,
      log,
      services: new Map([["storage", echo]]),
      health: async () => ({ ok: true }),
      functions: new FunctionsRuntime({
        functionsDir: path.join(fixtureDir, "supabase", "functions"),
        config: {},
        env: {},
        cacheDir: dir,
        log,
      }),
      postgrestPort: () => 1,
      maxBodyBytes: 1024 * 1024,
      maxUploadBytes: 1024 * 1024,
      maxRpcBodyBytes: 64 * 1024,
      maxRpcArgs: 64,
      maxSelectItems: 250,
      allowedHosts: ["127.0.0.1"],
      timeouts: { headersMs: 1000, requestMs: 2000, checkEveryMs: 250 },
    });
    port = await gateway.listen(0);
  });
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("closes a connection whose headers never end, and one whose body never ends, with 408 in JSON", async () => {
    const headers = rawSocket(port, `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nx-slow: 1\r\n`);
    const body = rawSocket(
      port,
      `POST /storage/v1/object/b/k HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"email":`,
    );
    const chunked = rawSocket(
      port,
      `POST /storage/v1/object/b/k HTTP/1.1\r\nHost: 127.0.0.1\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n`,
    );
    for (const [name, r] of [
      ["headers", await headers],
      ["body", await body],
      ["chunked", await chunked],
    ] as const) {
      expect(r.closedMs, name).toBeGreaterThan(0);
      expect(r.closedMs, name).toBeLessThan(6000);
      expect(r.text, name).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(r.text.slice(r.text.indexOf("\r\n\r\n") + 4)), name).toMatchObject({ code: "request_timeout" });
    }
    // An idle keep-alive connection after a full request is not a half-open one: it was served.
    const ok = await rawSocket(
      port,
      `POST /storage/v1/object/b/k HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`,
    );
    expect(ok.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(ok.text).toContain('{"got":2}');
  });

  it("a gateway has header and request timeouts unless told otherwise", async () => {
    expect(gateway.server.headersTimeout).toBe(1000);
    expect(gateway.server.requestTimeout).toBe(2000);
    const log = createLogger("test", true);
    const plain = new Gateway({
      keys: await loadKeys(dir),
      log,
      services: new Map(),
      health: async () => ({ ok: true }),
      functions: new FunctionsRuntime({
        functionsDir: path.join(fixtureDir, "supabase", "functions"),
        config: {},
        env: {},
        cacheDir: dir,
        log,
      }),
      postgrestPort: () => 1,
      maxBodyBytes: 1,
      maxUploadBytes: 1,
      maxRpcBodyBytes: 1,
      maxRpcArgs: 1,
      maxSelectItems: 1,
      allowedHosts: [],
    });
    expect(plain.server.headersTimeout).toBe(DEFAULT_TIMEOUTS.headersMs);
    expect(plain.server.requestTimeout).toBe(DEFAULT_TIMEOUTS.requestMs);
    expect(DEFAULT_TIMEOUTS.requestMs).toBeGreaterThan(0);
    expect(DEFAULT_TIMEOUTS.requestMs).toBeLessThanOrEqual(300_000);
  });
});

describe("after the sweep", () => {
  it("the stack still serves every API", async () => {
    await stillServing();
    const s = stackInfo();
    const a = await request("GET", "/auth/v1/settings", { apikey: s.anonKey });
    expect(a.status).toBe(200);
    const st = await request("GET", `/storage/v1/object/${bucket}/file.txt`, {
      apikey: s.serviceRoleKey,
      authorization: `Bearer ${s.serviceRoleKey}`,
    });
    expect(st.body).toBe("0123456789");
    const fn = await request("GET", "/functions/v1/claims", { authorization: `Bearer ${userToken}` });
    expect(fn.status).toBeLessThan(500);
  });
});

describe("request targets", () => {
  it("keeps backslashes and a leading // as parts of the path, and refuses what cannot be parsed", () => {
    expect(requestUrl("/storage/v1/object/b/a\\..\\x.txt?q=\\")!.pathname).toBe("/storage/v1/object/b/a%5C..%5Cx.txt");
    expect(requestUrl("//evil.example/rest/v1/x")!.pathname).toBe("//evil.example/rest/v1/x");
    expect(requestUrl("/a/../b?x=1")!.pathname).toBe("/b"); // dot segments resolve, as behind nginx
    expect(requestUrl("http://127.0.0.1/rest/v1/x")!.pathname).toBe("/rest/v1/x");
    expect(requestUrl("http://[::1")).toBeNull();
    expect(requestUrl(undefined)!.pathname).toBe("/");
  });
});
