// The stack's JWT secret and API keys. One secret per data dir (or JWT_SECRET from
// the environment); the anon and service-role keys are HS256 JWTs with the claims
// Supabase puts in its keys, plus the newer opaque `sb_publishable_` / `sb_secret_` keys.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from "jose";
import { SigningKeys } from "./auth/signing-keys.ts";

export type ApiRole = "anon" | "service_role";

export interface Keys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
  /** Access-token signing and verification: the asymmetric keys (auth/signing-keys.ts) and the HS256 secret. */
  signing: SigningKeys;
}

export interface Claims extends JWTPayload {
  role?: string;
  [key: string]: unknown;
}

const TEN_YEARS = 10 * 365 * 24 * 3600;

export async function signJwt(secret: string, claims: Claims, expiresInSeconds?: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload: Claims = { iat: now, ...claims };
  if (expiresInSeconds !== undefined) payload.exp = now + expiresInSeconds;
  return new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(secret));
}

export class JwtError extends Error {
  constructor(
    public readonly code: "jwt_expired" | "jwt_invalid" | "jwt_malformed",
    message: string,
  ) {
    super(message);
  }
}

/** Verifies an HS256 token signed with the stack's secret and returns its claims. */
export async function verifyJwt(secret: string, token: string): Promise<Claims> {
  if (token.split(".").length !== 3) throw new JwtError("jwt_malformed", "Invalid JWT: token is malformed");
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ["HS256"] });
    return payload as Claims;
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired) throw new JwtError("jwt_expired", "JWT expired");
    throw new JwtError("jwt_invalid", "Invalid JWT");
  }
}

function randomKey(prefix: string): string {
  return prefix + crypto.randomBytes(24).toString("base64url");
}

/** Loads the keys of a data dir, creating them the first time. */
export async function loadKeys(dataDir: string, projectRef = "parley"): Promise<Keys> {
  const file = path.join(dataDir, "keys.json");
  let stored: { jwtSecret: string; publishableKey: string; secretKey: string } | undefined;
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!stored) {
    stored = {
      jwtSecret: crypto.randomBytes(32).toString("base64url"),
      publishableKey: randomKey("sb_publishable_"),
      secretKey: randomKey("sb_secret_"),
    };
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  const jwtSecret = process.env.JWT_SECRET || stored.jwtSecret;
  // Fixed iat so the keys printed at every start are the same string.
  const iat = 1_767_225_600; // 2026-01-01
  const base = { iss: "supabase", ref: projectRef, iat, exp: iat + TEN_YEARS };
  return {
    jwtSecret,
    anonKey: await signJwt(jwtSecret, { ...base, role: "anon" }),
    serviceRoleKey: await signJwt(jwtSecret, { ...base, role: "service_role" }),
    publishableKey: stored.publishableKey,
    secretKey: stored.secretKey,
    signing: await SigningKeys.load(dataDir, jwtSecret),
  };
}
