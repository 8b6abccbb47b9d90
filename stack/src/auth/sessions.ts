// Sessions, refresh tokens (rotation with GoTrue's reuse interval) and the access
// token with GoTrue's claims.
import crypto from "node:crypto";
import type { SigningKeys } from "./signing-keys.ts";
import { badRequest } from "./errors.ts";
import type { AuthSettings } from "./settings.ts";
import { INSTANCE_ID, factorsOf, identitiesOf, findUserById, isBanned, userJson, type UserRow } from "./users.ts";

/** A pool or a transaction's client: anything that runs a parameterised query. */
import type { Q } from "./users.ts";

export interface SessionResponse {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

export interface Issuer {
  settings: AuthSettings;
  jwtSecret: string;
  /** Signs access tokens with the key in use (auth/signing-keys.ts). */
  signing: SigningKeys;
  /** `${apiUrl}/auth/v1` */
  issuer: string;
}

function newRefreshToken(): string {
  return crypto.randomBytes(12).toString("base64url").slice(0, 16);
}

async function amrOf(q: Q, sessionId: string) {
  const r = await q.query<{ m: string; t: string }>(
    "select authentication_method as m, extract(epoch from created_at)::bigint::text as t from auth.mfa_amr_claims where session_id = $1 order by created_at desc",
    [sessionId],
  );
  return r.rows.map((x) => ({ method: x.m, timestamp: Number(x.t) }));
}

async function aalOf(q: Q, sessionId: string): Promise<string> {
  const r = await q.query<{ aal: string | null }>("select aal::text as aal from auth.sessions where id = $1", [sessionId]);
  return r.rows[0]?.aal ?? "aal1";
}

export async function accessToken(iss: Issuer, q: Q, u: UserRow, sessionId: string) {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + iss.settings.jwtExpiry;
  const claims = {
    iss: iss.issuer,
    sub: u.id,
    aud: u.aud || "authenticated",
    exp,
    iat: now,
    email: u.email ?? "",
    phone: u.phone ?? "",
    app_metadata: u.raw_app_meta_data ?? {},
    user_metadata: u.raw_user_meta_data ?? {},
    role: u.role || "authenticated",
    aal: await aalOf(q, sessionId),
    amr: await amrOf(q, sessionId),
    session_id: sessionId,
    is_anonymous: u.is_anonymous,
  };
  return { token: await iss.signing.sign(claims), exp };
}

async function response(iss: Issuer, q: Q, u: UserRow, sessionId: string, refresh: string): Promise<SessionResponse> {
  const { token, exp } = await accessToken(iss, q, u, sessionId);
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: iss.settings.jwtExpiry,
    expires_at: exp,
    refresh_token: refresh,
    user: userJson(u, await identitiesOf(q, u.id), await factorsOf(q, u.id)),
  };
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

/** Signs a user in: a new session, its first refresh token, last_sign_in_at. */
export async function createSession(iss: Issuer, q: Q, userId: string, method: string, client: ClientInfo): Promise<SessionResponse> {
  const sessionId = crypto.randomUUID();
  const ip = /^[0-9a-f.:]+$/i.test(client.ip) ? client.ip : null;
  await q.query(
    "insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip, refreshed_at) values ($1, $2, now(), now(), 'aal1', $3, $4, now())",
    [sessionId, userId, client.userAgent.slice(0, 500), ip],
  );
  await q.query(
    "insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method) values (gen_random_uuid(), $1, now(), now(), $2)",
    [sessionId, method],
  );
  const token = newRefreshToken();
  await q.query(
    "insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id) values ($1, $2, $3, false, now(), now(), null, $4)",
    [INSTANCE_ID, token, userId, sessionId],
  );
  await q.query("update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1", [userId]);
  await q.query("update auth.identities set last_sign_in_at = now() where user_id = $1", [userId]);
  const u = (await findUserById(q, userId))!;
  return response(iss, q, u, sessionId, token);
}

/**
 * A new token pair for an existing session (after a step up to aal2): the session's other
 * refresh tokens are revoked, as GoTrue does when the session's claims change.
 */
export async function reissueSession(iss: Issuer, q: Q, userId: string, sessionId: string): Promise<SessionResponse> {
  await q.query("update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false", [sessionId]);
  const token = newRefreshToken();
  await q.query(
    "insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id) values ($1, $2, $3, false, now(), now(), null, $4)",
    [INSTANCE_ID, token, userId, sessionId],
  );
  await q.query("update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1", [sessionId]);
  const u = (await findUserById(q, userId))!;
  return response(iss, q, u, sessionId, token);
}

interface TokenRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  session_id: string | null;
  age: number;
}

/**
 * The refresh_token grant. A revoked token is accepted again only within the reuse
 * interval (answering with the session's current token, as GoTrue does); after
 * that the whole session is revoked and the answer is refresh_token_already_used.
 * Returns { error } rather than throwing so the revocation commits.
 */
export async function refreshSession(iss: Issuer, q: Q, token: string): Promise<{ session?: SessionResponse; error?: ReturnType<typeof badRequest> }> {
  const r = await q.query<TokenRow>(
    "select id::text, token, user_id, revoked, session_id, extract(epoch from now() - updated_at)::float8 as age from auth.refresh_tokens where token = $1 for update",
    [token],
  );
  const row = r.rows[0];
  if (!row || !row.session_id) return { error: badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found") };
  const s = await q.query("select id from auth.sessions where id = $1 for update", [row.session_id]);
  if (!s.rowCount) return { error: badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found") };
  const u = await findUserById(q, row.user_id);
  if (!u) return { error: badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found") };
  if (isBanned(u)) return { error: badRequest("user_banned", "User is banned") };

  if (row.revoked) {
    const active = await q.query<{ token: string }>(
      "select token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1",
      [row.session_id],
    );
    if (iss.settings.refreshTokenRotation && (row.age > iss.settings.refreshTokenReuseInterval || !active.rowCount)) {
      await q.query("update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1", [row.session_id]);
      await q.query("delete from auth.sessions where id = $1", [row.session_id]);
      return { error: badRequest("refresh_token_already_used", "Invalid Refresh Token: Already Used") };
    }
    if (active.rowCount) {
      await q.query("update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1", [row.session_id]);
      return { session: await response(iss, q, u, row.session_id, active.rows[0]!.token) };
    }
  }
  const next = newRefreshToken();
  await q.query("update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1", [row.id]);
  await q.query(
    "insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id) values ($1, $2, $3, false, now(), now(), $4, $5)",
    [INSTANCE_ID, next, u.id, row.token, row.session_id],
  );
  await q.query("update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1", [row.session_id]);
  return { session: await response(iss, q, u, row.session_id, next) };
}

export async function sessionExists(q: Q, sessionId: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(sessionId)) return false;
  const r = await q.query("select 1 from auth.sessions where id = $1 and (not_after is null or not_after > now())", [sessionId]);
  return !!r.rowCount;
}

export async function logout(q: Q, userId: string, sessionId: string | undefined, scope: "global" | "local" | "others") {
  if (scope === "global") await q.query("delete from auth.sessions where user_id = $1", [userId]);
  else if (scope === "local") await q.query("delete from auth.sessions where id = $1 and user_id = $2", [sessionId ?? null, userId]);
  else await q.query("delete from auth.sessions where user_id = $1 and id is distinct from $2", [userId, sessionId ?? null]);
}
