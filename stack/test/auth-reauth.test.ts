// Secure password change ([auth.email] secure_password_change = true in the fixture):
// a signed-in user changing the password gives the current one or the nonce mailed by
// reauthenticate(); recovery and invitation sessions, and users without a password, need neither.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { nodeClientOptions, serviceClient, stackInfo } from "./helpers.ts";

function client(): SupabaseClient {
  return createClient(stackInfo().apiUrl, stackInfo().anonKey, { ...nodeClientOptions, auth: { persistSession: false, autoRefreshToken: false } });
}

async function mailsTo(email: string): Promise<{ subject: string; text: string }[]> {
  const res = await fetch(`${stackInfo().apiUrl}/mail/api/messages?to=${encodeURIComponent(email)}`);
  return (await res.json()) as { subject: string; text: string }[];
}

async function signedIn(password = "first-password-1") {
  const email = `reauth-${Math.random().toString(36).slice(2)}@example.test`;
  expect((await serviceClient().auth.admin.createUser({ email, password, email_confirm: true })).error).toBeNull();
  const c = client();
  expect((await c.auth.signInWithPassword({ email, password })).error).toBeNull();
  return { c, email, password };
}

describe("secure password change", () => {
  it("asks for the current password: missing or wrong is refused, right is accepted", async () => {
    const { c, email, password } = await signedIn();
    expect((await c.auth.updateUser({ password: "second-password-2" })).error).toMatchObject({ status: 400, code: "reauthentication_needed" });
    expect((await c.auth.updateUser({ password: "second-password-2", current_password: "not-it-at-all" })).error).toMatchObject({ status: 400, code: "current_password_mismatch" });
    expect((await c.auth.updateUser({ password: "second-password-2", current_password: password })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: "second-password-2" })).error).toBeNull();
  });

  it("or the nonce mailed by reauthenticate(), once", async () => {
    const { c, email } = await signedIn();
    expect((await c.auth.reauthenticate()).error).toBeNull();
    const mails = await mailsTo(email);
    expect(mails.length).toBe(1);
    const nonce = /\b(\d{6})\b/.exec(mails[0]!.text)?.[1];
    expect(nonce).toBeTruthy();
    expect((await c.auth.updateUser({ password: "third-password-3", nonce: nonce === "000000" ? "111111" : "000000" })).error).toMatchObject({ code: "reauthentication_not_valid" });
    expect((await c.auth.updateUser({ password: "third-password-3", nonce })).error).toBeNull();
    expect((await c.auth.updateUser({ password: "fourth-password-4", nonce })).error).toMatchObject({ code: "reauthentication_not_valid" });
    expect((await client().auth.signInWithPassword({ email, password: "third-password-3" })).error).toBeNull();
  });

  it("does not ask a user who has no password yet", async () => {
    const email = `nopass-${Math.random().toString(36).slice(2)}@example.test`;
    const created = await serviceClient().auth.admin.createUser({ email, email_confirm: true });
    expect(created.error).toBeNull();
    const link = await serviceClient().auth.admin.generateLink({ type: "magiclink", email });
    const c = client();
    const verified = await c.auth.verifyOtp({ token_hash: link.data.properties!.hashed_token, type: "magiclink" });
    expect(verified.error).toBeNull();
    expect((await c.auth.updateUser({ password: "my-first-password-1" })).error).toBeNull();
  });
});
