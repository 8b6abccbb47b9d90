// Settings the shared fixture cannot have: a second stack on a copy of the fixture
// project with email confirmations off (autoconfirm), anonymous sign-ins off and
// low [auth.rate_limit] values. Rate limits are counted per client address; this
// stack reads it from X-Forwarded-For (PARLEY_AUTH_RATE_LIMIT_HEADER, GoTrue's
// GOTRUE_RATE_LIMIT_HEADER) so each test has its own address.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { startStack, type RunningStack } from "../src/stack.ts";
import { freePort } from "../src/net.ts";
import { fixtureDir, nodeClientOptions } from "./helpers.ts";

let stack: RunningStack;
let workdir: string;
const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;

function setToml(toml: string, section: string, key: string, value: string): string {
  const start = toml.indexOf(`[${section}]`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = toml.indexOf("\n[", start + 1);
  const body = toml.slice(start, end < 0 ? undefined : end);
  const re = new RegExp(`^${key} = .*$`, "m");
  const next = re.test(body) ? body.replace(re, `${key} = ${value}`) : `${body.trimEnd()}\n${key} = ${value}\n`;
  return toml.slice(0, start) + next + (end < 0 ? "" : toml.slice(end));
}

beforeAll(async () => {
  workdir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-auth-limits-"));
  fs.cpSync(path.join(fixtureDir, "supabase"), path.join(workdir, "supabase"), { recursive: true });
  const file = path.join(workdir, "supabase", "config.toml");
  let toml = fs.readFileSync(file, "utf8");
  toml = setToml(toml, "auth", "enable_anonymous_sign_ins", "false");
  toml = setToml(toml, "auth.email", "enable_confirmations", "false");
  toml = setToml(toml, "auth.email", "max_frequency", '"1h"');
  for (const [k, v] of Object.entries({ email_sent: 3, sign_in_sign_ups: 4, token_refresh: 3, token_verifications: 2, anonymous_users: 2 })) {
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
    const settings = await (await fetch(`${stack.apiUrl}/auth/v1/settings`)).json();
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

  it("limits sign-in attempts per email across addresses", async () => {
    const email = uniqueEmail("target");
    for (let i = 0; i < 4; i++) {
      expect((await client().auth.signInWithPassword({ email, password: `guess-${i}-pw` })).error?.code).toBe("invalid_credentials");
    }
    expect((await client().auth.signInWithPassword({ email, password: "guess-5-pw" })).error?.code).toBe("over_request_rate_limit");
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

  it("limits emails per address (max_frequency) and per instance (email_sent)", async () => {
    const emails = [uniqueEmail("mail"), uniqueEmail("mail"), uniqueEmail("mail"), uniqueEmail("mail")];
    for (const email of emails) expect((await client().auth.signUp({ email, password: "mail-limit-1" })).error).toBeNull();
    expect((await client().auth.resetPasswordForEmail(emails[0]!)).error).toBeNull();
    const again = await client().auth.resetPasswordForEmail(emails[0]!);
    expect(again.error?.code).toBe("over_email_send_rate_limit");
    expect(again.error?.message).toMatch(/only request this after \d+ seconds/);
    expect((await client().auth.resetPasswordForEmail(emails[1]!)).error).toBeNull();
    expect((await client().auth.resetPasswordForEmail(emails[2]!)).error).toBeNull();
    const budget = await client().auth.resetPasswordForEmail(emails[3]!);
    expect(budget.error?.code).toBe("over_email_send_rate_limit");
    expect(budget.error?.message).toBe("email rate limit exceeded");
  });
});
