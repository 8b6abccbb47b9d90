// POST /token?grant_type=id_token: signInWithIdToken(), as GoTrue's IdTokenGrant. The
// provider's ID token (Google One Tap, a native Google sign-in) is verified against the
// provider's published keys, found by OpenID discovery at the issuer
// (`<issuer>/.well-known/openid-configuration` → `jwks_uri`, as go-oidc does); then iss, exp,
// sub, aud (the configured client id) and the nonce (the token carries sha256 of the raw nonce,
// in hex) are checked, and the user and identity are created or linked as the OAuth callback
// does. Refusals are GoTrue's OAuthErrors (400 `{error, error_description}`).
import crypto from "node:crypto";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import type { GatewayRequest } from "../service.ts";
import { clientInfo, type AuthContext } from "./context.ts";
import { AuthError, badRequest, OAuthError } from "./errors.ts";
import { optString, type Body } from "./input.ts";
import { upsertUser, type ProviderUser } from "./oauth.ts";
import { createSession, type SessionResponse } from "./sessions.ts";
import { findUserById, isBanned } from "./users.ts";

export const GOOGLE_ISSUER = "https://accounts.google.com";

/** The providers GoTrue knows by name for this grant; the stack has keys for Google only. */
const OTHER_ISSUERS: Record<string, string> = {
  apple: "https://appleid.apple.com",
  azure: "https://login.microsoftonline.com/common/v2.0",
  facebook: "https://www.facebook.com",
  kakao: "https://kauth.kakao.com",
  keycloak: "",
};

/** Algorithms go-oidc verifies; discovery's id_token_signing_alg_values_supported narrows them (default RS256). */
const SUPPORTED_ALGS = new Set(["RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "EdDSA"]);

interface Provider {
  issuer: string;
  algorithms: string[];
  keys: ReturnType<typeof createRemoteJWKSet>;
}

/** One discovery per issuer (the key set itself refetches on an unknown kid, at most every 30 s). */
const discovered = new Map<string, Promise<Provider>>();

async function discover(issuer: string): Promise<Provider> {
  const url = `${issuer}/.well-known/openid-configuration`;
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000), headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown; id_token_signing_alg_values_supported?: unknown };
  // go-oidc: the document must name the issuer it was fetched for (Google's may omit the scheme).
  const named = typeof doc.issuer === "string" ? doc.issuer : "";
  if (named !== issuer && !(issuer === GOOGLE_ISSUER && named === "accounts.google.com")) {
    throw new Error(`oidc: issuer did not match the issuer returned by provider, expected "${issuer}" got "${named}"`);
  }
  if (typeof doc.jwks_uri !== "string") throw new Error(`${url} has no jwks_uri`);
  const listed = Array.isArray(doc.id_token_signing_alg_values_supported)
    ? doc.id_token_signing_alg_values_supported.filter((x): x is string => typeof x === "string" && SUPPORTED_ALGS.has(x))
    : [];
  return {
    issuer,
    algorithms: listed.length ? listed : ["RS256"],
    keys: createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration: 10_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 }),
  };
}

function providerFor(issuer: string): Promise<Provider> {
  let p = discovered.get(issuer);
  if (!p) {
    p = discover(issuer);
    discovered.set(issuer, p);
    p.catch(() => discovered.delete(issuer)); // a failed discovery is tried again next time
  }
  return p;
}

/** OpenID Connect's at_hash: the left half of the access token's SHA-2 digest, base64url. */
function accessTokenHash(alg: string, accessToken: string): string {
  const bits = /(\d{3})$/.exec(alg)?.[1] ?? "256";
  const digest = crypto.createHash(`sha${alg === "EdDSA" ? "512" : bits}`).update(accessToken).digest();
  return digest.subarray(0, digest.length / 2).toString("base64url");
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

export async function idTokenGrant(a: AuthContext, r: GatewayRequest, b: Body): Promise<SessionResponse> {
  const idToken = optString(b, "id_token", 16 * 1024) ?? "";
  const accessToken = optString(b, "access_token", 16 * 1024) ?? "";
  const nonce = optString(b, "nonce", 1024) ?? "";
  const providerName = (optString(b, "provider", 64) ?? "").toLowerCase();
  const issuerParam = optString(b, "issuer", 1024) ?? "";
  const clientIdParam = optString(b, "client_id", 1024) ?? "";
  if (!idToken) throw new OAuthError("invalid request", "id_token required");
  if (!providerName && (!clientIdParam || !issuerParam)) throw new OAuthError("invalid request", "provider or client_id and issuer required");

  const google = a.settings.providers.google;
  const googleIssuer = google.url || GOOGLE_ISSUER;
  if (providerName !== "google" && issuerParam !== googleIssuer) {
    const known = Object.keys(OTHER_ISSUERS).find((k) => k === providerName || (OTHER_ISSUERS[k] && OTHER_ISSUERS[k] === issuerParam));
    if (known) throw badRequest("provider_disabled", `Provider (issuer "${OTHER_ISSUERS[known]}") is not enabled`);
    throw badRequest("validation_failed", `Custom OIDC provider "${providerName}" not allowed`);
  }
  if (!google.enabled) throw badRequest("provider_disabled", `Provider (issuer "${googleIssuer}") is not enabled`);

  let provider: Provider;
  try {
    provider = await providerFor(googleIssuer);
  } catch (e) {
    a.ctx.log.error("id_token: provider discovery failed", { issuer: googleIssuer, error: (e as Error).message });
    throw new AuthError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information");
  }

  // Signature, iss and exp (go-oidc's verifier; the audience is checked below, as GoTrue does).
  let claims: JWTPayload;
  let alg: string;
  try {
    const verified = await jwtVerify(idToken, provider.keys, {
      algorithms: provider.algorithms,
      issuer: googleIssuer === GOOGLE_ISSUER ? [GOOGLE_ISSUER, "accounts.google.com"] : googleIssuer,
    });
    claims = verified.payload;
    alg = verified.protectedHeader.alg;
    if (accessToken && typeof claims.at_hash === "string" && claims.at_hash !== accessTokenHash(alg, accessToken)) {
      throw new Error("access token hash does not match value in ID token");
    }
  } catch (e) {
    a.ctx.log.info("id_token refused", { error: (e as Error).message });
    throw new OAuthError("invalid request", "Bad ID token");
  }
  if (!claims.sub) throw new OAuthError("invalid request", "Missing sub claim in id_token");
  const audiences = Array.isArray(claims.aud) ? claims.aud : claims.aud ? [claims.aud] : [];
  const accepted = google.clientId.split(",").map((x) => x.trim()).filter(Boolean);
  if (!audiences.some((x) => accepted.includes(x))) throw new OAuthError("invalid request", "Unacceptable audience in id_token");
  if (!google.skipNonceCheck) {
    const tokenNonce = str(claims.nonce);
    if (!!tokenNonce !== !!nonce) throw new OAuthError("invalid request", "Passed nonce and nonce in id_token should either both exist or not.");
    if (tokenNonce && crypto.createHash("sha256").update(nonce).digest("hex") !== tokenNonce) throw new OAuthError("invalid nonce", "Nonces mismatch");
  }

  const pu: ProviderUser = {
    id: claims.sub,
    email: str(claims.email).toLowerCase(),
    emailVerified: claims.email_verified === true || claims.email_verified === "true",
    name: str(claims.name),
    avatarUrl: str(claims.picture),
    iss: str(claims.iss),
  };
  return a.ctx.db.tx(async (q) => {
    const userId = await upsertUser(q, "google", pu);
    const u = await findUserById(q, userId);
    if (u && isBanned(u)) throw badRequest("user_banned", "User is banned");
    return createSession(a.issuer, q, userId, "oauth", clientInfo(r));
  });
}
