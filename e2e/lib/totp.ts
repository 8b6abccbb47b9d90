// Authenticator-app codes for the browser journeys: RFC 6238 TOTP (HMAC-SHA1, 6 digits, 30 s)
// of the base32 secret auth shows at enrolment, and the API steps an administrator's sign-in
// needs before the admin area opens (enrol a factor, or pass the code step: aal2).
import crypto from "node:crypto";
import type { FullApp } from "./stack.ts";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Decode(secret: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of secret.replace(/[\s=]/g, "").toUpperCase()) {
    const i = BASE32.indexOf(ch);
    if (i < 0) throw new Error(`not a base32 secret: ${secret}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The six-digit code an authenticator app shows for `secret` at `atMs` (default now). */
export function totp(secret: string, atMs = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / 30)));
  const mac = crypto.createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** A code that is certainly wrong now (not the code of this, the previous or the next step). */
export function wrongTotp(secret: string): string {
  const near = new Set([-30_000, 0, 30_000].map((d) => totp(secret, Date.now() + d)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, "0");
    if (!near.has(code)) return code;
  }
}

export interface AuthSession {
  access_token: string;
  refresh_token: string;
  user: { id: string; factors?: { id: string; status: string; factor_type: string }[] };
  [k: string]: unknown;
}

async function auth<T>(app: FullApp, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${app.apiUrl}/auth/v1/${path}`, {
    method: "POST",
    headers: { apikey: app.anonKey, "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`auth ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export const passwordSession = (app: FullApp, who: { email: string; password: string }) =>
  auth<AuthSession>(app, "token?grant_type=password", who);

/** Challenges and verifies a factor with its current code: the session's aal2 token pair. */
export async function verifyFactor(app: FullApp, accessToken: string, factorId: string, secret: string): Promise<AuthSession> {
  const challenge = await auth<{ id: string }>(app, `factors/${factorId}/challenge`, {}, accessToken);
  return auth<AuthSession>(app, `factors/${factorId}/verify`, { challenge_id: challenge.id, code: totp(secret) }, accessToken);
}

/** Enrols a TOTP factor for an account through the auth API (as /app/account does) and verifies it; returns its secret. */
export async function enrollTotp(app: FullApp, who: { email: string; password: string }): Promise<string> {
  const session = await passwordSession(app, who);
  const factor = await auth<{ id: string; totp: { secret: string } }>(app, "factors", { factor_type: "totp", friendly_name: "e2e" }, session.access_token);
  await verifyFactor(app, session.access_token, factor.id, factor.totp.secret);
  return factor.totp.secret;
}

/** A password sign-in followed by the code step of the account's verified TOTP factor: an aal2 session. */
export async function aal2Session(app: FullApp, who: { email: string; password: string; totpSecret: string }): Promise<AuthSession> {
  const session = await passwordSession(app, who);
  const factor = session.user.factors?.find((f) => f.status === "verified" && f.factor_type === "totp");
  if (!factor) throw new Error(`${who.email} has no verified TOTP factor`);
  return verifyFactor(app, session.access_token, factor.id, who.totpSecret);
}
