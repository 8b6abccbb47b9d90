// Multi-factor authentication with TOTP, as GoTrue serves it to auth-js's `mfa` API:
// POST /factors (enroll), POST /factors/{id}/challenge, POST /factors/{id}/verify (a new
// token pair for the same session at aal2, `totp` in `amr`), DELETE /factors/{id}.
// Codes are RFC 6238 (SHA-1, 6 digits, 30 s, one step of clock skew either way).
import crypto from "node:crypto";
import QRCode from "qrcode";
import { sendJson } from "../http.ts";
import type { GatewayRequest } from "../service.ts";
import { clientInfo, limitIp, requireUser, type AuthContext, type Q } from "./context.ts";
import { AuthError, notFound, unprocessable } from "./errors.ts";
import { tx } from "./flows.ts";
import { optString, readBodyJson } from "./input.ts";
import { reissueSession } from "./sessions.ts";

const CHALLENGE_SECONDS = 300; // GoTrue's mfa.challenge_expiry_duration
const MAX_FACTORS = 10; // GoTrue's mfa.max_enrolled_factors
const STEP = 30;
const DIGITS = 6;
const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(s: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of s.replace(/=+$/, "").toUpperCase()) {
    const i = B32.indexOf(ch);
    if (i < 0) throw new Error("bad base32");
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The TOTP code of a base32 secret at a time (seconds). */
export function totp(secret: string, atSeconds = Date.now() / 1000): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atSeconds / STEP)));
  const mac = crypto.createHmac("sha1", unbase32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const n = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** DIGITS;
  return String(n).padStart(DIGITS, "0");
}

function codeMatches(secret: string, code: string): boolean {
  const now = Date.now() / 1000;
  return [-STEP, 0, STEP].some((d) => crypto.timingSafeEqual(Buffer.from(totp(secret, now + d)), Buffer.from(code.padEnd(DIGITS).slice(0, DIGITS))));
}

interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: "verified" | "unverified";
  secret: string | null;
}

async function factorOf(q: Q, userId: string, id: string): Promise<FactorRow> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound("mfa_factor_not_found", "Factor not found");
  const r = await q.query<FactorRow>("select id, user_id, friendly_name, factor_type::text, status::text, secret from auth.mfa_factors where id = $1 and user_id = $2", [id, userId]);
  if (!r.rows[0]) throw notFound("mfa_factor_not_found", "Factor not found");
  return r.rows[0];
}

/** POST /factors {factor_type: "totp", friendly_name?, issuer?} */
export async function enroll(a: AuthContext, r: GatewayRequest) {
  const { user } = await requireUser(a, r);
  const b = await readBodyJson(r.req);
  const type = optString(b, "factor_type", 32);
  if (type !== "totp") {
    throw unprocessable("mfa_factor_type_not_supported", type === "phone" || type === "webauthn" ? `MFA enroll for ${type} is disabled` : "factor_type needs to be totp, phone or webauthn");
  }
  const friendlyName = optString(b, "friendly_name", 200) ?? "";
  const given = optString(b, "issuer", 200);
  if (given && given.includes(":")) throw unprocessable("validation_failed", "issuer must not contain ':'");
  const issuer = given || new URL(a.settings.siteUrl).hostname;
  const secret = base32(crypto.randomBytes(20));
  const account = user.email || user.phone || user.id;
  const label = encodeURIComponent(`${issuer}:${account}`);
  const uri = `otpauth://totp/${label}?algorithm=SHA1&digits=${DIGITS}&issuer=${encodeURIComponent(issuer)}&period=${STEP}&secret=${secret}`;
  const id = crypto.randomUUID();
  await tx(a, async (q) => {
    // Unverified factors are attempts: a new enrolment replaces the ones of more than a challenge's lifetime ago.
    await q.query("delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and created_at < now() - make_interval(secs => $2)", [user.id, CHALLENGE_SECONDS]);
    const n = await q.query<{ n: number }>("select count(*)::int as n from auth.mfa_factors where user_id = $1", [user.id]);
    if ((n.rows[0]?.n ?? 0) >= MAX_FACTORS) throw unprocessable("too_many_enrolled_mfa_factors", "Maximum number of verified factors reached, unenroll to continue");
    if (friendlyName.trim()) {
      const dup = await q.query("select 1 from auth.mfa_factors where user_id = $1 and friendly_name = $2", [user.id, friendlyName]);
      if (dup.rowCount) throw unprocessable("mfa_factor_name_conflict", `A factor with the friendly name "${friendlyName}" for this user already exists`);
    }
    await q.query(
      "insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret) values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)",
      [id, user.id, friendlyName, secret],
    );
  });
  const qr = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
  return sendJson(r.res, 200, { id, type: "totp", friendly_name: friendlyName, totp: { qr_code: qr, secret, uri } });
}

/**
 * Challenges and verifications per minute, per address and per user (GoTrue's
 * MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: 15 a minute): a six-digit code must not be guessable
 * by trying hundreds a second. PARLEY_AUTH_MFA_PER_MINUTE changes it.
 */
function limitMfa(a: AuthContext, r: GatewayRequest, userId: string) {
  const n = Number(process.env.PARLEY_AUTH_MFA_PER_MINUTE);
  const perMinute = Number.isInteger(n) && n > 0 ? n : 15;
  a.limiter.take([
    { key: `ip:mfa:${limitIp(a, r)}`, limit: perMinute, windowSeconds: 60 },
    { key: `user:mfa:${userId}`, limit: perMinute, windowSeconds: 60 },
  ]);
}

/** POST /factors/{id}/challenge */
export async function challenge(a: AuthContext, r: GatewayRequest, factorId: string) {
  const { user } = await requireUser(a, r);
  limitMfa(a, r, user.id);
  if (!r.req.complete) r.req.resume();
  const id = crypto.randomUUID();
  const ip = clientInfo(r).ip || "0.0.0.0";
  await tx(a, async (q) => {
    await factorOf(q, user.id, factorId);
    await q.query("insert into auth.mfa_challenges (id, factor_id, created_at, ip_address) values ($1, $2, now(), $3::inet)", [id, factorId, /^[0-9a-f.:]+$/i.test(ip) ? ip : "0.0.0.0"]);
    await q.query("update auth.mfa_factors set last_challenged_at = clock_timestamp() where id = $1", [factorId]);
  });
  return sendJson(r.res, 200, { id, type: "totp", expires_at: Math.floor(Date.now() / 1000) + CHALLENGE_SECONDS });
}

/** POST /factors/{id}/verify {challenge_id, code}: the session steps up to aal2. */
export async function verify(a: AuthContext, r: GatewayRequest, factorId: string) {
  const { user, sessionId } = await requireUser(a, r);
  limitMfa(a, r, user.id);
  const b = await readBodyJson(r.req);
  const challengeId = optString(b, "challenge_id", 64) ?? "";
  const code = (optString(b, "code", 16) ?? "").trim();
  if (!sessionId) throw unprocessable("session_not_found", "A session is required to verify a factor");
  const out = await tx(a, async (q) => {
    const factor = await factorOf(q, user.id, factorId);
    const c = /^[0-9a-f-]{36}$/i.test(challengeId)
      ? (await q.query<{ age: number; verified_at: string | null }>(
          "select extract(epoch from now() - created_at)::float8 as age, verified_at from auth.mfa_challenges where id = $1 and factor_id = $2 for update",
          [challengeId, factorId],
        )).rows[0]
      : undefined;
    if (!c || c.verified_at) throw unprocessable("mfa_challenge_not_found", "Challenge not found");
    if (c.age > CHALLENGE_SECONDS) {
      await q.query("delete from auth.mfa_challenges where id = $1", [challengeId]);
      return { expired: true } as const;
    }
    if (!/^\d{6}$/.test(code) || !factor.secret || !codeMatches(factor.secret, code)) return { invalid: true } as const;
    await q.query("delete from auth.mfa_challenges where id = $1", [challengeId]);
    if (factor.status !== "verified") await q.query("update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1", [factorId]);
    await q.query("update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1", [sessionId, factorId]);
    await q.query(
      `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method) values (gen_random_uuid(), $1, now(), now(), 'totp')
       on conflict (session_id, authentication_method) do update set created_at = now(), updated_at = now()`,
      [sessionId],
    );
    return { session: await reissueSession(a.issuer, q, user.id, sessionId) } as const;
  });
  if ("expired" in out) throw unprocessable("mfa_challenge_expired", "Challenge has expired, verify against another challenge or create a new challenge.");
  if ("invalid" in out) throw unprocessable("mfa_verification_failed", "Invalid TOTP code entered");
  return sendJson(r.res, 200, out.session);
}

/** DELETE /factors/{id}: a verified factor only from an aal2 session. */
export async function unenroll(a: AuthContext, r: GatewayRequest, factorId: string) {
  const { user, claims } = await requireUser(a, r);
  if (!r.req.complete) r.req.resume();
  await tx(a, async (q) => {
    const factor = await factorOf(q, user.id, factorId);
    if (factor.status === "verified" && claims.aal !== "aal2") throw new AuthError(422, "insufficient_aal", "AAL2 required to unenroll verified factor");
    await q.query("delete from auth.mfa_factors where id = $1", [factorId]);
    // Sessions that stood on this factor step back to aal1.
    await q.query("update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now() where factor_id = $1", [factorId]);
  });
  return sendJson(r.res, 200, { id: factorId });
}
