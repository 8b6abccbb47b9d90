// Who is calling: the VERIFIED claims of the bearer token. Hosted Supabase's verify_jwt gate
// knows only the legacy HS256 secret and answers 401 "Invalid JWT" to user tokens signed with
// the asymmetric signing keys (ES256/RS256) new projects use, so every function runs with
// verify_jwt = false and the caller is verified here, once per request:
//   - the project's anon and service-role keys (what the gateway hands on for sb_ keys too): by
//     exact comparison with the function's own environment;
//   - HS256 tokens: against SUPABASE_JWT_SECRET when the function has it, else by asking auth;
//   - ES256/RS256 tokens: supabase-js `auth.getClaims(token)` against the project's JWKS
//     (${SUPABASE_URL}/auth/v1/.well-known/jwks.json, cached; an unknown kid asks auth).
// Signature and `exp` are checked; a token that does not verify has no claims at all, so no
// unverified `role` is ever trusted. PostgREST verifies the token again on every query made
// with it. Nothing here decides a permission on data (Postgres does).
import { createClient, type SupabaseClient } from "npm:@supabase/supabase-js@2.119.1";
import { decodeJwt, decodeProtectedHeader, jwtVerify } from "npm:jose@6.2.17";
import { timingSafeEqual } from "./channels/crypto.ts";
import { env } from "./env.ts";
import { HttpError, serviceUnavailable } from "./http.ts";

export interface CallerClaims {
  /** anon, authenticated or service_role (null without a verified token). */
  role: string | null;
  /** The auth user's id (authenticated tokens only). */
  userId: string | null;
  isAnonymous: boolean;
  /** The raw token, to hand to auth or a client (null unless it verified). */
  token: string | null;
  /** Did the bearer token verify (false without one)? */
  verified: boolean;
}

const NO_CALLER: CallerClaims = { role: null, userId: null, isAnonymous: false, token: null, verified: false };

export function bearerToken(req: Request): string | null {
  return /^Bearer\s+(.+)$/i.exec(req.headers.get("authorization") ?? "")?.[1]?.trim() ?? null;
}

let hmacKey: Uint8Array | undefined;

/** An HS256 token signed with the legacy secret, unexpired: its claims, else null. */
async function verifyHs256(token: string, secret: string): Promise<Record<string, unknown> | null> {
  hmacKey ??= new TextEncoder().encode(secret);
  try {
    return (await jwtVerify(token, hmacKey, { algorithms: ["HS256"], requiredClaims: ["exp"] })).payload;
  } catch {
    return null;
  }
}

let authClient: SupabaseClient | undefined;

/** getClaims: ES256/RS256 against the JWKS (cached by this client), HS256 by asking auth. */
async function verifyWithAuth(token: string): Promise<Record<string, unknown> | null> {
  authClient ??= createClient(env.supabaseUrl, env.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  let result;
  try {
    result = await authClient.auth.getClaims(token);
  } catch {
    return null; // not a JWT getClaims can read (bad encoding, unknown alg)
  }
  const { data, error } = result;
  if (error) {
    const status = (error as { status?: number }).status ?? 0;
    if (error.name === "AuthRetryableFetchError" || status === 0 || status >= 500) throw serviceUnavailable();
    return null;
  }
  return data ? (data.claims as Record<string, unknown>) : null;
}

/**
 * Tokens that verified, with their claims, for a minute at most and never past their `exp`: a
 * visitor sends several messages with the same token, and a signature check costs more than the
 * lookup (issue 17). Only verified tokens are kept, keyed by the whole token.
 */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 1024;
const verified = new Map<string, { claims: Record<string, unknown>; until: number }>();

async function verify(token: string): Promise<Record<string, unknown> | null> {
  const now = Date.now();
  const hit = verified.get(token);
  if (hit && hit.until > now) return hit.claims;
  if (hit) verified.delete(token);
  const claims = await verifyUncached(token);
  const exp = typeof claims?.exp === "number" ? claims.exp * 1000 : null;
  if (claims && exp !== null && exp > now) {
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { claims, until: Math.min(exp, now + VERIFIED_TTL_MS) });
  }
  return claims;
}

async function verifyUncached(token: string): Promise<Record<string, unknown> | null> {
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(token);
    claims = decodeJwt(token);
  } catch {
    return null;
  }
  // The project's own keys, as the function's environment has them.
  if (timingSafeEqual(token, env.serviceRoleKey) || timingSafeEqual(token, env.anonKey)) return claims;
  const secret = env.optional("SUPABASE_JWT_SECRET");
  if (header.alg === "HS256" && secret) return await verifyHs256(token, secret);
  return await verifyWithAuth(token);
}

const seen = new WeakMap<Request, Promise<CallerClaims>>();

async function read(req: Request): Promise<CallerClaims> {
  const token = bearerToken(req);
  if (!token) return NO_CALLER;
  const claims = await verify(token);
  if (!claims) return NO_CALLER;
  const role = typeof claims.role === "string" ? claims.role : null;
  const userId = role === "authenticated" && typeof claims.sub === "string" ? claims.sub : null;
  return { role, userId, isAnonymous: claims.is_anonymous === true, token, verified: true };
}

/** The caller's verified claims (read once per request); all null without a token that verifies. */
export function callerClaims(req: Request): Promise<CallerClaims> {
  let claims = seen.get(req);
  if (!claims) {
    claims = read(req);
    seen.set(req, claims);
  }
  return claims;
}

/**
 * What the verify_jwt gate did, inside the function: a bearer token that verifies (the anon
 * key is enough), or only the project's anon or service-role key in `apikey`; else 401
 * session_required. `handler(name, fn, { verifyCaller: requireVerifiedCaller })` runs it before `fn`.
 */
export async function requireVerifiedCaller(req: Request): Promise<CallerClaims> {
  const claims = await callerClaims(req);
  if (claims.verified) return claims;
  const apikey = req.headers.get("apikey");
  if (!bearerToken(req) && apikey && (timingSafeEqual(apikey, env.anonKey) || timingSafeEqual(apikey, env.serviceRoleKey))) return claims;
  throw new HttpError(401, "session_required", "Sign in to continue.");
}

/** The signed-in (possibly anonymous) user's id, or 401 session_required. */
export async function requireUserId(req: Request, message = "Sign in (an anonymous session is enough) to continue."): Promise<string> {
  const { userId } = await callerClaims(req);
  if (!userId) throw new HttpError(401, "session_required", message);
  return userId;
}
