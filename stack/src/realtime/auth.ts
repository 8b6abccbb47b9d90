// Token checks for channel joins and `access_token` pushes, with the reasons
// Supabase Realtime gives (InvalidJWTToken, MalformedJWT, JwtSignatureError).
import { JwtError, type Claims, type Keys } from "../keys.ts";

export type TokenCheck =
  | { ok: true; claims: Claims; token: string }
  | { ok: false; code: string; message: string };

function expiredAgo(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { exp?: number };
    if (typeof payload.exp === "number") return Math.max(0, Math.floor(Date.now() / 1000) - payload.exp);
  } catch {
    /* fall through */
  }
  return 0;
}

/** Maps sb_ keys to their JWT (as Supabase does: the tenant token stands in for them). */
export function resolveApiKeyToken(keys: Keys, token: string): string {
  if (token === keys.publishableKey) return keys.anonKey;
  if (token === keys.secretKey) return keys.serviceRoleKey;
  return token;
}

export async function checkToken(keys: Keys, raw: string): Promise<TokenCheck> {
  const token = resolveApiKeyToken(keys, raw);
  try {
    const claims = await keys.signing.verify(token);
    if (typeof claims.role !== "string" || typeof claims.exp !== "number") {
      return { ok: false, code: "InvalidJWTToken", message: "Fields `role` and `exp` are required in JWT" };
    }
    if (!["anon", "authenticated", "service_role"].includes(claims.role)) {
      return { ok: false, code: "Unauthorized", message: `Role "${claims.role}" is not allowed` };
    }
    return { ok: true, claims, token };
  } catch (e) {
    if (!(e instanceof JwtError)) throw e;
    if (e.code === "jwt_expired") {
      return { ok: false, code: "InvalidJWTToken", message: `Token has expired ${expiredAgo(token)} seconds ago` };
    }
    if (e.code === "jwt_malformed") return { ok: false, code: "MalformedJWT", message: "The token provided is not a valid JWT" };
    return { ok: false, code: "JwtSignatureError", message: "Failed to validate JWT signature" };
  }
}
