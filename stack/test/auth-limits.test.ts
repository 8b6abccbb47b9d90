// Settings the shared fixture cannot have: a second stack on a copy of the fixture
// project with email confirmations off (autoconfirm), anonymous sign-ins and manual
// identity linking off and low [auth.rate_limit] values. Rate limits are counted per client address; this
// stack reads it from X-Forwarded-For (PARLEY_AUTH_RATE_LIMIT_HEADER, GoTrue's
// GOTRUE_RATE_LIMIT_HEADER) so each test has its own address.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { startStack, type RunningStack } from "../src/stack.ts";
import { freePort } from "../src/net.ts";
import { fixtureDir, nodeClientOptions, setToml } from "./helpers.ts";

let stack: RunningStack;
let workdir: string;
const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;

beforeAll(async () => {
  workdir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-auth-limits-"));
  fs.cpSync(path.join(fixtureDir, "supabase"), path.join(workdir, "supabase"), { recursive: true });
  const file = path.join(workdir, "supabase", "config.toml");
  let toml = fs.readFileSync(file, "utf8");
  toml = setToml(toml, "auth", "enable_anonymous_sign_ins", "false");
  toml = setToml(toml, "auth", "enable_manual_linking", "false");
  toml = setToml(toml, "auth.email", "enable_confirmations", "false");
  toml = setToml(toml, "auth.email", "max_frequency", '"1h"');
  for (const [k, v] of Object.entries({ email_sent: 10, sign_in_sign_ups: 4, token_refresh: 3, token_verifications: 2, anonymous_users: 2 })) {
    toml = setToml(toml, "auth.rate_limit", k, String(v));
  }
  fs.writeFileSync(file, toml);
  process.env.PARLEY_AUTH_RATE_LIMIT_HEADER = "X-Forwarded-For";
  try {
    stack = await startStack({ workdir, port: await freePort(), dbPort: await freePort(), dataDir: path.join(workdir, ".data"), quiet: true, noSeed: true });
  } finally {
    delete process.env.PARLEY_AUTH_RATE_LIMIT_HEADER;
  }
});

afterAll(async () => {
  await stack?.stop();
  if (workdir) fs.rmSync(workdir, { recursive: true, force: true });
});

/** POST /token?grant_type=password from an address, for the status and headers. */
function passwordSignIn(ip: string, email: string, password: string) {
  return fetch(`${stack.apiUrl}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: stack.keys.anonKey, "content-type": "application/json", "x-forwarded-for": ip, "x-supabase-api-version": "2024-01-01" },
    body: JSON.stringify({ email, password }),
  });
}

let ipCounter = 0;
/** A client whose requests come "from" its own address. */
function client(ip = `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`): SupabaseClient {
  return createClient(stack.apiUrl, stack.keys.anonKey, {
    ...nodeClientOptions,
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { "X-Forwarded-For": ip } },
  });
}

describe("autoconfirm and disabled providers", () => {
  it("signs up with a session at once and refuses a second sign-up of the address", async () => {
    const settings = await (await fetch(`${stack.apiUrl}/auth/v1/settings`, { headers: { apikey: stack.keys.anonKey } })).json();
    expect(settings).toMatchObject({ mailer_autoconfirm: true, external: { anonymous_users: false } });
    const email = uniqueEmail("auto");
    const c = client();
    const { data, error } = await c.auth.signUp({ email, password: "autoconfirm-1" });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user!.email_confirmed_at).toBeTruthy();
    const dup = await c.auth.signUp({ email, password: "autoconfirm-1" });
    expect(dup.error?.code).toBe("user_already_exists");
    expect(dup.error?.status).toBe(422);
  });

  it("refuses linking and unlinking identities when manual linking is off, as GoTrue does (404 manual_linking_disabled)", async () => {
    const c = client();
    const signedUp = await c.auth.signUp({ email: uniqueEmail("link"), password: "link-password-1" });
    expect(signedUp.error).toBeNull();
    const link = await c.auth.linkIdentity({ provider: "google", options: { skipBrowserRedirect: true } });
    expect(link.error).toMatchObject({ status: 404, code: "manual_linking_disabled" });
    const identity = (await c.auth.getUserIdentities()).data!.identities[0]!;
    const unlink = await c.auth.unlinkIdentity(identity);
    expect(unlink.error).toMatchObject({ status: 404, code: "manual_linking_disabled" });
    expect((await c.auth.getUserIdentities()).data!.identities).toHaveLength(1);
    // Without a session it is still 401 first.
    const anon = await fetch(`${stack.apiUrl}/auth/v1/user/identities/authorize?provider=google`, { headers: { apikey: stack.keys.anonKey } });
    expect(anon.status).toBe(401);
  });

  it("refuses anonymous sign-ins when they are disabled", async () => {
    const { error } = await client().auth.signInAnonymously();
    expect(error?.code).toBe("anonymous_provider_disabled");
    expect(error?.status).toBe(422);
  });
});

describe("rate limits", () => {
  it("limits sign-ins and sign-ups per IP", async () => {
    const c = client();
    for (let i = 0; i < 4; i++) {
      const r = await c.auth.signInWithPassword({ email: uniqueEmail("ip"), password: "wrong-password" });
      expect(r.error?.code).toBe("invalid_credentials");
    }
    const over = await c.auth.signUp({ email: uniqueEmail("ip"), password: "whatever-1" });
    expect(over.error?.code).toBe("over_request_rate_limit");
    expect(over.error?.status).toBe(429);
    // Another address is not affected.
    expect((await client().auth.signInWithPassword({ email: uniqueEmail("ip"), password: "x-password" })).error?.code).toBe("invalid_credentials");
  });

  it("says how long to wait: Retry-After is the time until the address's bucket has a token again", async () => {
    const ip = "10.77.0.1";
    for (let i = 0; i < 4; i++) expect((await client(ip).auth.signInWithPassword({ email: uniqueEmail("wait"), password: "wrong-password" })).error?.code).toBe("invalid_credentials");
    const res = await passwordSignIn(ip, uniqueEmail("wait"), "wrong-password");
    expect(res.status).toBe(429);
    // sign_in_sign_ups = 4 per 300 s refills one attempt every 75 s (not a fixed 60).
    const wait = Number(res.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(60);
    expect(wait).toBeLessThanOrEqual(75);
  });

  it("failed sign-ins from many addresses do not lock out the right password from a new one", async () => {
    const email = uniqueEmail("owner");
    const admin = createClient(stack.apiUrl, stack.keys.serviceRoleKey, { ...nodeClientOptions, auth: { persistSession: false } });
    expect((await admin.auth.admin.createUser({ email, password: "owner-password-1", email_confirm: true })).error).toBeNull();
    // Thirty strangers (far more than the account's four failures per 5 minutes) guess from thirty addresses.
    for (let i = 0; i < 30; i++) {
      expect((await passwordSignIn(`10.78.0.${i + 1}`, email, `guess-${i}-pw`)).status).toBe(400);
    }
    // An address that failed on the account now waits, even with the right password...
    const blocked = await passwordSignIn("10.78.0.1", email, "owner-password-1");
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).code).toBe("over_request_rate_limit");
    const wait = Number(blocked.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(75);
    // ...while the owner, from an address with no failures, signs in.
    const owner = await client("10.78.1.1").auth.signInWithPassword({ email, password: "owner-password-1" });
    expect(owner.error).toBeNull();
    expect(owner.data.session?.access_token).toBeTruthy();
    // A new address with a wrong password is still told the credentials are wrong, and then waits too.
    expect((await passwordSignIn("10.78.1.2", email, "another-guess")).status).toBe(400);
    expect((await passwordSignIn("10.78.1.2", email, "another-guess")).status).toBe(429);
  });

  it("limits token refreshes and verifications per IP", async () => {
    const email = uniqueEmail("refresh");
    const c = client();
    const { data } = await c.auth.signUp({ email, password: "refresh-pass-1" });
    let token = data.session!.refresh_token;
    for (let i = 0; i < 3; i++) {
      const r = await c.auth.refreshSession({ refresh_token: token });
      expect(r.error).toBeNull();
      token = r.data.session!.refresh_token;
    }
    const over = await c.auth.refreshSession({ refresh_token: token });
    expect(over.error?.code).toBe("over_request_rate_limit");

    const v = client();
    for (let i = 0; i < 2; i++) expect((await v.auth.verifyOtp({ email, token: "123456", type: "email" })).error?.code).toBe("otp_expired");
    expect((await v.auth.verifyOtp({ email, token: "123456", type: "email" })).error?.code).toBe("over_request_rate_limit");
  });

  it("one client address cannot spend the instance's email budget", async () => {
    // email_sent = 10 gives each address 2 emails an hour (a fifth, at least 2).
    const ip = "10.79.0.1";
    expect((await client(ip).auth.signInWithOtp({ email: uniqueEmail("spam") })).error).toBeNull();
    expect((await client(ip).auth.signInWithOtp({ email: uniqueEmail("spam") })).error).toBeNull();
    const res = await fetch(`${stack.apiUrl}/auth/v1/otp`, {
      method: "POST",
      headers: { apikey: stack.keys.anonKey, "content-type": "application/json", "x-forwarded-for": ip, "x-supabase-api-version": "2024-01-01" },
      body: JSON.stringify({ email: uniqueEmail("spam") }),
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ code: "over_email_send_rate_limit", message: "email rate limit exceeded for this client address" });
    const wait = Number(res.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1800); // 2 an hour: one every 30 minutes
    // The instance's budget is untouched by the refusal: an invitation still goes out.
    const admin = createClient(stack.apiUrl, stack.keys.serviceRoleKey, { ...nodeClientOptions, auth: { persistSession: false } });
    expect((await admin.auth.admin.inviteUserByEmail(uniqueEmail("invited"))).error).toBeNull();
  });

  it("limits emails per user (max_frequency) and per instance (email_sent)", async () => {
    const emails = [uniqueEmail("mail"), uniqueEmail("mail")];
    for (const email of emails) expect((await client().auth.signUp({ email, password: "mail-limit-1" })).error).toBeNull();
    expect((await client().auth.resetPasswordForEmail(emails[0]!)).error).toBeNull();
    const again = await client().auth.resetPasswordForEmail(emails[0]!);
    expect(again.error?.code).toBe("over_email_send_rate_limit");
    expect(again.error?.message).toMatch(/only request this after \d+ seconds/);
    // Fresh recipients from fresh addresses spend the instance's budget (10 an hour, 4 spent above).
    let sent = 0;
    let budget: Awaited<ReturnType<SupabaseClient["auth"]["resetPasswordForEmail"]>> | undefined;
    for (let i = 0; i < 10 && !budget; i++) {
      const email = uniqueEmail("budget");
      expect((await client().auth.signUp({ email, password: "mail-limit-1" })).error).toBeNull();
      const r = await client().auth.resetPasswordForEmail(email);
      if (r.error) budget = r;
      else sent++;
    }
    expect(sent).toBe(6);
    expect(budget?.error?.code).toBe("over_email_send_rate_limit");
    expect(budget?.error?.message).toBe("email rate limit exceeded");
  });
});
