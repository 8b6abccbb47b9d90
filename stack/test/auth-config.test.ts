// Settings that refuse before any data is touched (signups off, email signups off,
// a provider off), checked on the auth service alone behind a plain HTTP server
// with a config.toml [auth] table of its own.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@supabase/supabase-js";
import { createService } from "../src/auth/index.ts";
import { createLogger } from "../src/log.ts";
import type { Service, ServiceContext } from "../src/service.ts";
import { nodeClientOptions } from "./helpers.ts";

async function serve(auth: Record<string, unknown>) {
  const holder: { svc?: Service } = {};
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    void holder.svc!.handle({ req, res, path: url.pathname.replace(/^\/auth\/v1/, "") || "/", query: url.searchParams, apikeyRole: "anon", claims: null });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const apiUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const ctx = {
    config: { auth }, apiUrl, keys: { jwtSecret: "test-secret-test-secret-test-secret" }, services: new Map(),
    log: createLogger("auth-config-test", true), options: {},
    // Every refusal under test happens before SQL; a query would fail the test loudly.
    db: { query: () => Promise.reject(new Error("no database in this test")), tx: () => Promise.reject(new Error("no database in this test")) },
  } as unknown as ServiceContext;
  holder.svc = await createService(ctx);
  return { server, apiUrl };
}

describe("signups disabled", () => {
  let s: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    s = await serve({ enable_signup: false, enable_anonymous_sign_ins: true, external: { google: { enabled: false } } });
  });
  afterAll(() => s.server.close());

  it("refuses email and anonymous sign-ups with signup_disabled and says so in /settings", async () => {
    const c = createClient(s.apiUrl, "anon-key", { ...nodeClientOptions, auth: { persistSession: false, autoRefreshToken: false } });
    const email = await c.auth.signUp({ email: "nobody@example.test", password: "long-enough-1" });
    expect(email.error?.code).toBe("signup_disabled");
    expect(email.error?.status).toBe(422);
    const anon = await c.auth.signInAnonymously();
    expect(anon.error?.code).toBe("signup_disabled");
    const settings = await (await fetch(`${s.apiUrl}/auth/v1/settings`)).json();
    expect(settings).toMatchObject({ disable_signup: true, mailer_autoconfirm: true, external: { google: false, notion: false, anonymous_users: true } });
  });

  it("refuses a disabled provider", async () => {
    const res = await fetch(`${s.apiUrl}/auth/v1/authorize?provider=google`, { headers: { "x-supabase-api-version": "2024-01-01" }, redirect: "manual" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "validation_failed", message: "Unsupported provider: Provider is not enabled" });
  });
});

describe("email signups disabled", () => {
  let s: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    s = await serve({ enable_signup: true, enable_anonymous_sign_ins: false, email: { enable_signup: false } });
  });
  afterAll(() => s.server.close());

  it("refuses email sign-ups with email_provider_disabled and anonymous ones with anonymous_provider_disabled", async () => {
    const c = createClient(s.apiUrl, "anon-key", { ...nodeClientOptions, auth: { persistSession: false, autoRefreshToken: false } });
    expect((await c.auth.signUp({ email: "x@example.test", password: "Long-enough-password-1" })).error?.code).toBe("email_provider_disabled");
    expect((await c.auth.signInAnonymously()).error?.code).toBe("anonymous_provider_disabled");
  });

});

describe("password policy", () => {
  let s: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    s = await serve({ minimum_password_length: 12, password_requirements: "lower_upper_letters_digits" });
  });
  afterAll(() => s.server.close());

  it("applies minimum_password_length and password_requirements", async () => {
    const post = async (password: string) =>
      (await fetch(`${s.apiUrl}/auth/v1/signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "x@example.test", password }) })).json();
    expect(await post("Short1")).toMatchObject({ code: 422, error_code: "weak_password", msg: "Password should be at least 12 characters.", weak_password: { reasons: ["length"] } });
    expect(await post("alllowercase123")).toMatchObject({ code: 422, error_code: "weak_password", weak_password: { reasons: ["characters"] } });
  });
});
