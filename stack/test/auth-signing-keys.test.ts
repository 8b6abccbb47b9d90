// Asymmetric access-token signing keys, as new Supabase projects have them: ES256 tokens
// with a `kid`, the public keys at /auth/v1/.well-known/jwks.json, getClaims() verifying
// locally, rotation with the old key still verifying, and the legacy HS256 secret still
// accepted by every service (gateway, REST through PostgREST, storage, realtime).
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { decodeJwt, decodeProtectedHeader } from "jose";
import ws from "ws";
import { beforeAll, describe, expect, it } from "vitest";
import { functionsAccept, mintUserToken, serviceClient, stackInfo } from "./helpers.ts";

let service: SupabaseClient;

function client(token?: string): SupabaseClient {
  const s = stackInfo();
  return createClient(s.apiUrl, s.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
    ...(token ? { global: { headers: { Authorization: `Bearer ${token}` } } } : {}),
  });
}

async function signedIn() {
  const email = `keys-${Math.random().toString(36).slice(2)}@example.test`;
  const password = "a-long-password-1";
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true });
  expect(created.error).toBeNull();
  const c = client();
  const { data, error } = await c.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return { c, token: data.session!.access_token, userId: data.user!.id };
}

async function worksEverywhere(token: string) {
  const c = client(token);
  const rest = await c.from("notebooks").select("id").limit(1);
  expect(rest.error).toBeNull();
  const storage = await c.storage.listBuckets();
  expect(storage.error).toBeNull();
  const user = await fetch(`${stackInfo().apiUrl}/auth/v1/user`, { headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${token}` } });
  expect(user.status).toBe(200);
  await functionsAccept(c, token);
  // Realtime: the channel joins with the token (a bad token is refused at join).
  c.realtime.setAuth(token);
  const joined = await new Promise<string>((resolve) => {
    const ch = c.channel(`keys-${Math.random()}`);
    ch.subscribe((status) => {
      if (status === "SUBSCRIBED" || status === "CHANNEL_ERROR" || status === "TIMED_OUT") {
        resolve(status);
        void c.removeChannel(ch);
      }
    });
  });
  expect(joined).toBe("SUBSCRIBED");
}

beforeAll(() => {
  service = serviceClient();
});

describe("asymmetric signing keys", () => {
  it("signs access tokens with ES256 and a kid published in the JWKS; getClaims() verifies them", async () => {
    const { c, token, userId } = await signedIn();
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe("ES256");
    const jwks = (await (await fetch(`${stackInfo().apiUrl}/auth/v1/.well-known/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
    const published = jwks.keys.find((k) => k.kid === header.kid);
    expect(published).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", key_ops: ["verify"] });
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true); // never a private part

    const claims = await c.auth.getClaims();
    expect(claims.error).toBeNull();
    expect(claims.data!.claims).toMatchObject({ sub: userId, role: "authenticated", aal: "aal1" });
    expect(claims.data!.header).toMatchObject({ alg: "ES256", kid: header.kid });
    await worksEverywhere(token);
  });

  it("still accepts tokens signed with the legacy HS256 secret everywhere", async () => {
    const { token } = await signedIn();
    // The same session's claims, signed with the shared secret as before signing keys.
    const { sub, iat: _iat, exp: _exp, ...claims } = decodeJwt(token);
    const legacy = await mintUserToken(sub!, claims);
    expect(decodeProtectedHeader(legacy).alg).toBe("HS256");
    await worksEverywhere(legacy);
  });

  it("refuses a token whose kid is unknown or whose signature does not match", async () => {
    const { token } = await signedIn();
    const [h, p] = token.split(".");
    const forgedHeader = Buffer.from(JSON.stringify({ ...decodeProtectedHeader(token), kid: crypto.randomUUID() })).toString("base64url");
    for (const bad of [`${forgedHeader}.${p}.${token.split(".")[2]}`, `${h}.${p}.${Buffer.from("nope").toString("base64url")}`]) {
      const res = await fetch(`${stackInfo().apiUrl}/rest/v1/notebooks?select=id`, { headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${bad}` } });
      expect(res.status).toBe(401);
      // A function that checks its caller itself refuses the forgery too (getClaims against the JWKS).
      const fn = await fetch(`${stackInfo().apiUrl}/functions/v1/claims`, { headers: { apikey: stackInfo().anonKey, authorization: `Bearer ${bad}` } });
      expect(fn.status).toBe(401);
      expect(((await fn.json()) as { error: string }).error).toBeTruthy();
      const storage = await client(bad).storage.listBuckets();
      expect(storage.error).toMatchObject({ status: 403 });
    }
  });

  it("rotates: the standby key signs from then on and the old key still verifies", async () => {
    const before = await signedIn();
    const oldKid = decodeProtectedHeader(before.token).kid;
    const jwksBefore = (await (await fetch(`${stackInfo().apiUrl}/auth/v1/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
    const refused = await fetch(`${stackInfo().apiUrl}/auth/v1/admin/signing-keys/rotate`, { method: "POST", headers: { apikey: stackInfo().anonKey } });
    expect(refused.status).toBe(403);
    const rotated = await fetch(`${stackInfo().apiUrl}/auth/v1/admin/signing-keys/rotate`, {
      method: "POST", headers: { apikey: stackInfo().serviceRoleKey, authorization: `Bearer ${stackInfo().serviceRoleKey}` },
    });
    expect(rotated.status).toBe(200);
    const { in_use } = (await rotated.json()) as { in_use: { kid: string } };
    expect(in_use.kid).not.toBe(oldKid);
    // The new key was published (as standby) before it signed anything.
    expect(jwksBefore.keys.map((k) => k.kid)).toContain(in_use.kid);

    const after = await signedIn();
    expect(decodeProtectedHeader(after.token).kid).toBe(in_use.kid);
    expect((await after.c.auth.getClaims()).error).toBeNull();
    await worksEverywhere(after.token);
    await worksEverywhere(before.token);
    expect((await before.c.auth.getClaims()).data!.claims.sub).toBe(before.userId);
  });
});

describe("admin listUsers paging", () => {
  it("rejects paging that is not a positive integer with 400, as GoTrue does", async () => {
    for (const q of ["page=0", "page=-1", "page=abc", "per_page=0", "per_page=1.5"]) {
      const res = await fetch(`${stackInfo().apiUrl}/auth/v1/admin/users?${q}`, {
        headers: { apikey: stackInfo().serviceRoleKey, authorization: `Bearer ${stackInfo().serviceRoleKey}` },
      });
      expect(res.status, q).toBe(400);
      expect(await res.json()).toMatchObject({ code: 400, error_code: "validation_failed" });
    }
    const ok = await service.auth.admin.listUsers({ page: 1, perPage: 2 });
    expect(ok.error).toBeNull();
    expect(ok.data.users.length).toBeLessThanOrEqual(2);
  });
});
