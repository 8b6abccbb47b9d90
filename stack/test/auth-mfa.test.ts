// TOTP multi-factor authentication through the unmodified auth-js `mfa` API: enroll,
// challenge, verify (aal2 in the token, usable in policies as auth.jwt()->>'aal'),
// getAuthenticatorAssuranceLevel, listFactors and unenroll.
import crypto from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeClientOptions, serviceClient, sql, stackInfo } from "./helpers.ts";

const table = `mfa_secret_${Math.random().toString(36).slice(2, 8)}`;

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), written here independently of the server's. */
function totpNow(secretB32: string, offsetSeconds = 0): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of secretB32) bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor((Date.now() / 1000 + offsetSeconds) / 30)));
  const mac = crypto.createHmac("sha1", key).update(counter).digest();
  const o = mac[19]! & 15;
  return String((mac.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

async function signedIn(): Promise<SupabaseClient> {
  const email = `mfa-${Math.random().toString(36).slice(2)}@example.test`;
  const password = "a-long-password-1";
  expect((await serviceClient().auth.admin.createUser({ email, password, email_confirm: true })).error).toBeNull();
  const c = createClient(stackInfo().apiUrl, stackInfo().anonKey, { auth: { persistSession: false, autoRefreshToken: false }, ...nodeClientOptions });
  expect((await c.auth.signInWithPassword({ email, password })).error).toBeNull();
  return c;
}

beforeAll(async () => {
  await sql(`
    create table public.${table} (id int primary key, body text);
    insert into public.${table} values (1, 'only with a second factor');
    alter table public.${table} enable row level security;
    grant select on public.${table} to authenticated;
    create policy "aal2 only" on public.${table} for select to authenticated using ((select auth.jwt() ->> 'aal') = 'aal2');
    notify pgrst, 'reload schema';
  `);
  await new Promise((r) => setTimeout(r, 1000));
});

afterAll(async () => {
  await sql(`drop table if exists public.${table}; notify pgrst, 'reload schema';`);
});

describe("TOTP factors", () => {
  it("enrolls, challenges and verifies: the session steps up to aal2, which policies see", async () => {
    const c = await signedIn();
    expect((await c.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal1" });
    expect((await c.from(table).select("body")).data).toEqual([]);

    const enrolled = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "phone" });
    expect(enrolled.error).toBeNull();
    const { id, totp } = enrolled.data as { id: string; totp: { qr_code: string; secret: string; uri: string } };
    expect(totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(totp.uri).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=[A-Z2-7]{32}/);
    expect(totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    // Not yet verified: no second level to reach.
    expect((await c.auth.mfa.listFactors()).data!.totp).toEqual([]);
    expect((await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "phone" })).error).toMatchObject({ code: "mfa_factor_name_conflict" });

    const ch = await c.auth.mfa.challenge({ factorId: id });
    expect(ch.error).toBeNull();
    const wrongCode = totpNow(totp.secret) === "000000" ? "111111" : "000000";
    expect((await c.auth.mfa.verify({ factorId: id, challengeId: ch.data!.id, code: wrongCode })).error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    const ok = await c.auth.mfa.verify({ factorId: id, challengeId: ch.data!.id, code: totpNow(totp.secret) });
    expect(ok.error).toBeNull();
    const claims = decodeJwt(ok.data!.access_token);
    expect(claims.aal).toBe("aal2");
    expect((claims.amr as { method: string }[]).map((m) => m.method)).toEqual(expect.arrayContaining(["password", "totp"]));
    // A challenge is used once.
    expect((await c.auth.mfa.verify({ factorId: id, challengeId: ch.data!.id, code: totpNow(totp.secret) })).error).toMatchObject({ status: 422 });

    expect((await c.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });
    expect((await c.auth.mfa.listFactors()).data!.totp).toEqual([expect.objectContaining({ id, status: "verified", friendly_name: "phone" })]);
    expect((await c.from(table).select("body")).data).toEqual([{ body: "only with a second factor" }]);
    // The level survives a refresh (it belongs to the session).
    const refreshed = await c.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe("aal2");
    const verifiedClaims = await c.auth.getClaims();
    expect(verifiedClaims.data!.claims.aal).toBe("aal2");
  });

  it("a new sign-in of an enrolled user starts at aal1 with aal2 as the next level; unenrolling needs aal2", async () => {
    const email = `mfa2-${Math.random().toString(36).slice(2)}@example.test`;
    const password = "a-long-password-1";
    await serviceClient().auth.admin.createUser({ email, password, email_confirm: true });
    const first = createClient(stackInfo().apiUrl, stackInfo().anonKey, { auth: { persistSession: false, autoRefreshToken: false }, ...nodeClientOptions });
    await first.auth.signInWithPassword({ email, password });
    const { data } = await first.auth.mfa.enroll({ factorType: "totp" });
    const factor = data as { id: string; totp: { secret: string } };
    expect((await first.auth.mfa.challengeAndVerify({ factorId: factor.id, code: totpNow(factor.totp.secret) })).error).toBeNull();

    const second = createClient(stackInfo().apiUrl, stackInfo().anonKey, { auth: { persistSession: false, autoRefreshToken: false }, ...nodeClientOptions });
    await second.auth.signInWithPassword({ email, password });
    expect((await second.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
    expect((await second.from(table).select("body")).data).toEqual([]);
    expect((await second.auth.mfa.unenroll({ factorId: factor.id })).error).toMatchObject({ status: 422, code: "insufficient_aal" });
    const stranger = await signedIn();
    expect((await stranger.auth.mfa.challenge({ factorId: factor.id })).error).toMatchObject({ status: 404, code: "mfa_factor_not_found" });

    expect((await second.auth.mfa.challengeAndVerify({ factorId: factor.id, code: totpNow(factor.totp.secret) })).error).toBeNull();
    expect((await second.auth.mfa.unenroll({ factorId: factor.id })).error).toBeNull();
    expect((await second.auth.mfa.listFactors()).data!.all).toEqual([]);
    const after = await second.auth.refreshSession();
    expect(decodeJwt(after.data.session!.access_token).aal).toBe("aal1");
  });

  // Last in this file: it empties this address's MFA bucket for a minute.
  it("challenges and verifications are limited (15 a minute per address and per user), so a code cannot be guessed", async () => {
    const c = await signedIn();
    const { data } = await c.auth.mfa.enroll({ factorType: "totp" });
    const factor = data as { id: string; totp: { secret: string } };
    const ch = await c.auth.mfa.challenge({ factorId: factor.id });
    expect(ch.error).toBeNull();
    const wrongCode = totpNow(factor.totp.secret) === "000000" ? "111111" : "000000";
    let refusedAt = 0;
    for (let i = 1; i <= 20 && !refusedAt; i++) {
      const { error } = await c.auth.mfa.verify({ factorId: factor.id, challengeId: ch.data!.id, code: wrongCode });
      if (error?.status === 429) refusedAt = i;
      else expect(error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    }
    expect(refusedAt).toBeGreaterThan(0);
    expect(refusedAt).toBeLessThanOrEqual(15);
    // Now even the right code waits: the limit is on tries, not on wrong ones.
    const token = (await c.auth.getSession()).data.session!.access_token;
    const res = await fetch(`${stackInfo().apiUrl}/auth/v1/factors/${factor.id}/verify`, {
      method: "POST",
      headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ challenge_id: ch.data!.id, code: totpNow(factor.totp.secret) }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await res.json()).error_code).toBe("over_request_rate_limit");
    expect((await c.auth.mfa.challenge({ factorId: factor.id })).error).toMatchObject({ status: 429 });
  });
});
