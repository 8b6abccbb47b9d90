// caller.ts: the functions verify their caller themselves (verify_jwt = false, as hosted
// Supabase needs for ES256/RS256 user tokens), so a token's `role` counts only once the token
// verified: forged service-role tokens (HS256 with a wrong secret, ES256 with a bad signature)
// get nothing, through the functions and through callerClaims itself.
import assert from "node:assert/strict";
import { callerClaims } from "./caller.ts";
import { callFunction, signedInUser, stack } from "./testing.ts";

const b64url = (v: string | Uint8Array) =>
  btoa(typeof v === "string" ? v : String.fromCharCode(...v)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

function claims(role: string, sub?: string) {
  const now = Math.floor(Date.now() / 1000);
  return { role, aud: role === "authenticated" ? "authenticated" : undefined, sub, iat: now, exp: now + 3600, iss: "supabase" };
}

/** An HS256 token signed with a secret that is not the project's. */
async function forgedHs256(body: Record<string, unknown>): Promise<string> {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64url(JSON.stringify(body));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("not-the-project-secret-but-32-bytes!"), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${head}.${payload}`)));
  return `${head}.${payload}.${b64url(sig)}`;
}

/** An ES256 token signed with a key of our own, under the project's published kid (or any kid). */
async function forgedEs256(body: Record<string, unknown>, kid: string): Promise<string> {
  const { privateKey } = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  const head = b64url(JSON.stringify({ alg: "ES256", typ: "JWT", kid }));
  const payload = b64url(JSON.stringify(body));
  const sig = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, privateKey, new TextEncoder().encode(`${head}.${payload}`)));
  return `${head}.${payload}.${b64url(sig)}`;
}

async function publishedKid(): Promise<string> {
  const res = await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`, { headers: { apikey: stack.anonKey } });
  const jwks = await res.json() as { keys: { kid: string; alg: string }[] };
  return jwks.keys.find((k) => k.alg === "ES256")?.kid ?? crypto.randomUUID();
}

const withToken = (token: string) => new Request("http://functions.local/x", { headers: { authorization: `Bearer ${token}` } });

Deno.test("forged service-role tokens get no role and cannot call /tick", async () => {
  const kid = await publishedKid();
  const forged = {
    "HS256 with a wrong secret": await forgedHs256(claims("service_role")),
    "ES256 with a bad signature (published kid)": await forgedEs256(claims("service_role"), kid),
    "ES256 with a bad signature (unknown kid)": await forgedEs256(claims("service_role"), crypto.randomUUID()),
    "alg none": `${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${b64url(JSON.stringify(claims("service_role")))}.`,
  };
  for (const [what, token] of Object.entries(forged)) {
    const c = await callerClaims(withToken(token));
    assert.equal(c.role, null, what);
    assert.equal(c.verified, false, what);
    for (const fn of ["tasks", "ingest"]) {
      const r = await callFunction(fn, { method: "POST", path: "/tick", token, body: "{}" });
      const body = await r.json();
      assert.equal(r.status, 401, `${fn} /tick, ${what}`);
      assert.equal(body.error.code, "session_required", `${fn} /tick, ${what}`);
    }
    const deliver = await callFunction("deliver", { method: "POST", path: "/tick", token, body: "{}" });
    await deliver.body?.cancel();
    assert.equal(deliver.status, 401, `deliver /tick, ${what}`);
  }
});

Deno.test("forged user tokens are 401 session_required; real keys and sessions verify", async () => {
  const user = await signedInUser();
  const forgedUser = await forgedHs256(claims("authenticated", user.user.id));
  const forgedEs = await forgedEs256(claims("authenticated", user.user.id), await publishedKid());
  for (const token of [forgedUser, forgedEs, "not-a-jwt", `${user.token}x`]) {
    assert.equal((await callerClaims(withToken(token))).userId, null);
    const r = await callFunction("power-ups", { method: "POST", path: "/reply", token, body: "{}" });
    assert.equal(r.status, 401);
    assert.equal((await r.json()).error.code, "session_required");
  }
  const me = await callerClaims(withToken(user.token));
  assert.deepEqual([me.role, me.userId, me.verified], ["authenticated", user.user.id, true]);
  assert.equal((await callerClaims(withToken(stack.serviceRoleKey))).role, "service_role");
  assert.equal((await callerClaims(withToken(stack.anonKey))).role, "anon");
  assert.equal((await callerClaims(new Request("http://functions.local/x"))).verified, false);
});

Deno.test("a verified token is remembered only until it expires", async () => {
  // Signed with the project's own secret (the functions' SUPABASE_JWT_SECRET), expiring in 2 s.
  const now = Math.floor(Date.now() / 1000);
  const body = { ...claims("authenticated", crypto.randomUUID()), exp: now + 2 };
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64url(JSON.stringify(body));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(Deno.env.get("SUPABASE_JWT_SECRET")!), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${head}.${payload}`)));
  const token = `${head}.${payload}.${b64url(sig)}`;
  for (let i = 0; i < 2; i++) {
    const c = await callerClaims(withToken(token));
    assert.equal(c.verified, true);
    assert.equal(c.userId, body.sub);
  }
  await new Promise((r) => setTimeout(r, (body.exp + 1) * 1000 - Date.now()));
  const late = await callerClaims(withToken(token));
  assert.equal(late.verified, false);
  assert.equal(late.role, null);
});
