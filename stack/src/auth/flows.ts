// The user-facing endpoints: signup, token, user, logout, recover, otp, resend,
// verify and settings, following GoTrue's handlers.
import crypto from "node:crypto";
import type { GatewayRequest } from "../service.ts";
import { sendJson } from "../http.ts";
import { clientInfo, limitIp, requireUser, type AuthContext, type Q } from "./context.ts";
import { checkFrequency, createFlowState, sendToken, tokenHash, type Pkce } from "./emails.ts";
import { AuthError, badRequest, forbidden, notFound, tooMany, unprocessable } from "./errors.ts";
import { idTokenGrant } from "./idtoken.ts";
import type { Bucket } from "./ratelimit.ts";
import { optBool, optObject, optString, readBodyJson, validateEmail, type Body } from "./input.ts";
import { redirectTarget, withFragment, withQuery } from "./redirect.ts";
import { createSession, logout, refreshSession, type SessionResponse } from "./sessions.ts";
import {
  checkPassword, factorsOf, findUserByEmail, findUserById, hashPassword, identitiesOf, insertEmailIdentity, insertUser, isBanned,
  isConfirmed, userJson, type UserRow,
} from "./users.ts";
import { SINGLE_CONFIRMATION_MSG, VERIFY_TYPES, verifyToken, type VerifyType } from "./verify.ts";

const FIVE_MIN = 300;

export function tx<T>(a: AuthContext, fn: (q: Q) => Promise<T>): Promise<T> {
  return a.ctx.db.tx(fn);
}

export function checkPasswordStrength(a: AuthContext, pw: string) {
  const reasons: string[] = [];
  if (pw.length < a.settings.minimumPasswordLength) reasons.push("length");
  const req = a.settings.passwordRequirements;
  const sets: [RegExp, string][] = [];
  if (req === "letters_digits" || req === "lower_upper_letters_digits" || req === "lower_upper_letters_digits_symbols") sets.push([/[0-9]/, "characters"]);
  if (req === "letters_digits") sets.push([/[a-zA-Z]/, "characters"]);
  if (req.startsWith("lower_upper")) sets.push([/[a-z]/, "characters"], [/[A-Z]/, "characters"]);
  if (req.endsWith("symbols")) sets.push([/[^a-zA-Z0-9]/, "characters"]);
  if (sets.some(([re]) => !re.test(pw)) && !reasons.includes("characters")) reasons.push("characters");
  if (pw.length > 72) throw unprocessable("validation_failed", "Password cannot be longer than 72 characters");
  if (reasons.length) {
    const msg = reasons.includes("length")
      ? `Password should be at least ${a.settings.minimumPasswordLength} characters.`
      : "Password should contain at least one character of each required kind.";
    throw new AuthError(422, "weak_password", msg, { weak_password: { reasons } });
  }
}

export function readPkce(b: Body): Pkce | undefined {
  const challenge = optString(b, "code_challenge", 256);
  const method = optString(b, "code_challenge_method", 16);
  if (!challenge && !method) return undefined;
  if (!challenge || !method) throw badRequest("validation_failed", "PKCE flow requires code_challenge_method and code_challenge");
  const m = method.toLowerCase();
  if (m !== "s256" && m !== "plain") throw badRequest("validation_failed", "Unsupported PKCE code challenge method");
  if (challenge.length < 43 || challenge.length > 128) throw badRequest("validation_failed", "PKCE code challenge must be between 43 and 128 characters");
  return { codeChallenge: challenge, method: m };
}

function redirectOf(a: AuthContext, r: GatewayRequest, b?: Body): string {
  const asked = r.query.get("redirect_to") ?? (b ? optString(b, "redirect_to", 2048) : undefined) ?? (b ? optString(b, "email_redirect_to", 2048) : undefined);
  return redirectTarget(a.settings, asked);
}

const bucket = (key: string, limit: number, windowSeconds: number): Bucket => ({ key, limit, windowSeconds });

/** Every sign-in and sign-up attempt counts against its client address ([auth.rate_limit] sign_in_sign_ups). */
const limitSignIn = (a: AuthContext, r: GatewayRequest) =>
  a.limiter.take([bucket(`ip:signin:${limitIp(a, r)}`, a.settings.rateLimit.signInSignUps, FIVE_MIN)]);

/** An account's failed password sign-ins, from any address. */
const accountFailures = (a: AuthContext, email: string) => bucket(`fail:signin:${email}`, a.settings.rateLimit.signInSignUps, FIVE_MIN);
const failureMark = (a: AuthContext, r: GatewayRequest, email: string) => `${email}\n${limitIp(a, r)}`;

/**
 * Password sign-ins. When an account has taken more failed attempts than its bucket holds,
 * the addresses that failed on it wait until the bucket refills; an address with no failures
 * on the account still gets its attempt, so strangers guessing from many addresses cannot
 * lock the owner out. Successful sign-ins never count against the account.
 */
function limitPasswordSignIn(a: AuthContext, r: GatewayRequest, email: string) {
  const wait = a.limiter.wait(accountFailures(a, email));
  if (wait > 0 && a.failedSignIns.has(failureMark(a, r, email))) {
    throw tooMany("over_request_rate_limit", "Too many failed sign-in attempts for this account from this address", wait);
  }
  limitSignIn(a, r);
}

function countFailedSignIn(a: AuthContext, r: GatewayRequest, email: string) {
  a.limiter.spend(accountFailures(a, email));
  a.failedSignIns.mark(failureMark(a, r, email), FIVE_MIN);
}

/** A fake user for a sign-up with a taken address, so sign-up does not reveal who has an account. */
function obfuscatedUser(email: string, data: Record<string, unknown>) {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(), aud: "authenticated", role: "authenticated", email, phone: "", confirmation_sent_at: now,
    app_metadata: { provider: "email", providers: ["email"] }, user_metadata: data, identities: [], created_at: now, updated_at: now, is_anonymous: false,
  };
}

export async function signup(a: AuthContext, r: GatewayRequest) {
  const b = await readBodyJson(r.req);
  const emailRaw = optString(b, "email", 1024);
  const password = optString(b, "password", 1024);
  const phone = optString(b, "phone", 64);
  const data = optObject(b, "data") ?? {};
  const pkce = readPkce(b);
  if (JSON.stringify(data).length > 16 * 1024) throw badRequest("validation_failed", "User metadata is too large");
  if (!a.settings.enableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");

  if (!emailRaw && !password && !phone) {
    if (!a.settings.enableAnonymous) throw unprocessable("anonymous_provider_disabled", "Anonymous sign-ins are disabled");
    a.limiter.take([bucket(`ip:anon:${limitIp(a, r)}`, a.settings.rateLimit.anonymousUsers, 3600)]);
    const session = await tx(a, async (q) => {
      const u = await insertUser(q, { appMetadata: {}, userMetadata: data, isAnonymous: true });
      return createSession(a.issuer, q, u.id, "anonymous", clientInfo(r));
    });
    return sendJson(r.res, 200, session);
  }
  if (phone && !emailRaw) throw unprocessable("phone_provider_disabled", "Phone signups are disabled");
  if (!emailRaw) throw badRequest("validation_failed", "To signup, please provide your email");
  if (!password) throw badRequest("validation_failed", "Signup requires a valid password");
  if (!a.settings.email.enableSignup) throw unprocessable("email_provider_disabled", "Email signups are disabled");
  const email = validateEmail(emailRaw);
  checkPasswordStrength(a, password);
  limitSignIn(a, r);
  const redirectTo = redirectOf(a, r, b);
  const autoconfirm = !a.settings.email.enableConfirmations;
  const hash = await hashPassword(password);

  const result = await tx(a, async (q): Promise<{ status: number; body: unknown }> => {
    await q.query("select pg_advisory_xact_lock(hashtext('auth.signup:' || $1))", [email]);
    const existing = await findUserByEmail(q, email);
    if (existing && isConfirmed(existing)) {
      if (autoconfirm) throw unprocessable("user_already_exists", "User already registered");
      return { status: 200, body: obfuscatedUser(email, data) };
    }
    let u: UserRow;
    if (existing) {
      // As GoTrue: an unconfirmed account is left as it is ("we can't be sure of their
      // claimed identity"); only the confirmation is sent again.
      u = existing;
    } else {
      u = await insertUser(q, { email, passwordHash: hash, emailConfirmed: autoconfirm, appMetadata: { provider: "email", providers: ["email"] }, userMetadata: data });
      await insertEmailIdentity(q, u);
    }
    if (autoconfirm) return { status: 200, body: await createSession(a.issuer, q, u.id, "password", clientInfo(r)) };
    await sendToken(a, q, u, "confirmation", redirectTo, pkce, { from: limitIp(a, r) });
    const fresh = (await findUserById(q, u.id))!;
    return { status: 200, body: userJson(fresh, await identitiesOf(q, u.id)) };
  });
  return sendJson(r.res, result.status, result.body);
}

async function passwordGrant(a: AuthContext, r: GatewayRequest, b: Body): Promise<SessionResponse> {
  const emailRaw = optString(b, "email", 1024);
  const password = optString(b, "password", 1024);
  const phone = optString(b, "phone", 64);
  if (phone && !emailRaw) throw badRequest("phone_provider_disabled", "Phone logins are disabled");
  if (!emailRaw || password === undefined) throw badRequest("validation_failed", "Email and password are required");
  const email = emailRaw.trim().toLowerCase();
  limitPasswordSignIn(a, r, email);
  const invalid = () => {
    countFailedSignIn(a, r, email);
    return badRequest("invalid_credentials", "Invalid login credentials");
  };
  return tx(a, async (q) => {
    const u = await findUserByEmail(q, email);
    // GoTrue's order: no such user or no password, then banned, then the password itself.
    if (!u || u.deleted_at || !u.encrypted_password) throw invalid();
    if (isBanned(u)) throw badRequest("user_banned", "User is banned");
    if (!(await checkPassword(password, u.encrypted_password))) throw invalid();
    if (!u.email_confirmed_at && a.settings.email.enableConfirmations) throw badRequest("email_not_confirmed", "Email not confirmed");
    return createSession(a.issuer, q, u.id, "password", clientInfo(r));
  });
}

function pkceMatches(method: string, challenge: string, verifier: string): boolean {
  if (method === "plain") return verifier === challenge;
  return crypto.createHash("sha256").update(verifier).digest("base64url") === challenge.replace(/=+$/, "");
}

async function pkceGrant(a: AuthContext, r: GatewayRequest, b: Body): Promise<SessionResponse> {
  const authCode = optString(b, "auth_code", 256);
  const verifier = optString(b, "code_verifier", 256);
  if (!authCode || !verifier) throw badRequest("validation_failed", "invalid request: both auth code and code verifier should be non-empty");
  limitSignIn(a, r);
  return tx(a, async (q) => {
    const fs = await q.query<{ id: string; user_id: string | null; code_challenge: string; code_challenge_method: string; authentication_method: string; age: number }>(
      `select id, user_id, code_challenge, code_challenge_method::text, authentication_method,
              extract(epoch from now() - coalesce(auth_code_issued_at, created_at))::float8 as age
       from auth.flow_state where auth_code = $1 for update`,
      [authCode],
    );
    const f = fs.rows[0];
    if (!f || !f.user_id) throw notFound("flow_state_not_found", "invalid flow state, no valid flow state found");
    if (f.age > FIVE_MIN) {
      await q.query("delete from auth.flow_state where id = $1", [f.id]);
      throw new AuthError(403, "flow_state_expired", "invalid flow state, flow state has expired");
    }
    if (!pkceMatches(f.code_challenge_method, f.code_challenge, verifier)) throw forbidden("bad_code_verifier", "code challenge does not match previously saved code verifier");
    await q.query("delete from auth.flow_state where id = $1", [f.id]);
    const u = await findUserById(q, f.user_id);
    if (!u) throw notFound("user_not_found", "User not found");
    if (isBanned(u)) throw badRequest("user_banned", "User is banned");
    const amr = f.authentication_method === "email/signup" || f.authentication_method === "magiclink" ? "otp" : f.authentication_method;
    return createSession(a.issuer, q, u.id, amr, clientInfo(r));
  });
}

export async function token(a: AuthContext, r: GatewayRequest) {
  const grant = r.query.get("grant_type");
  const b = await readBodyJson(r.req);
  let session: SessionResponse;
  if (grant === "password") session = await passwordGrant(a, r, b);
  else if (grant === "refresh_token") {
    const rt = optString(b, "refresh_token", 512);
    if (!rt) throw badRequest("validation_failed", "refresh_token required");
    a.limiter.take([bucket(`ip:refresh:${limitIp(a, r)}`, a.settings.rateLimit.tokenRefresh, FIVE_MIN)]);
    const out = await tx(a, (q) => refreshSession(a.issuer, q, rt));
    if (out.error) throw out.error;
    session = out.session!;
  } else if (grant === "pkce") session = await pkceGrant(a, r, b);
  else if (grant === "id_token") {
    limitSignIn(a, r);
    session = await idTokenGrant(a, r, b);
  } else throw badRequest("unsupported_grant_type", "unsupported_grant_type");
  return sendJson(r.res, 200, session);
}

export async function getUser(a: AuthContext, r: GatewayRequest) {
  const { user } = await requireUser(a, r);
  r.req.resume();
  return sendJson(r.res, 200, userJson(user, await identitiesOf(a.ctx.db, user.id), await factorsOf(a.ctx.db, user.id)));
}

/** GET /reauthenticate: mails a code (the reauthentication template's {{ .Token }}) that a password change then gives as `nonce`. */
export async function reauthenticate(a: AuthContext, r: GatewayRequest) {
  const { user } = await requireUser(a, r);
  if (!r.req.complete) r.req.resume();
  if (!user.email) throw unprocessable("validation_failed", "Reauthentication requires the user to have an email address");
  await tx(a, (q) => sendToken(a, q, user, "reauthentication", a.settings.siteUrl, undefined, { from: limitIp(a, r) }));
  return sendJson(r.res, 200, {});
}

/**
 * With [auth.email] secure_password_change on, changing a password needs proof beyond the
 * session: the current password (`current_password`, as GoTrue's
 * update_password_require_current_password) or the code mailed by /reauthenticate (`nonce`,
 * unused and at most otp_expiry old). A user without a password yet (an invitation's first
 * password) and a session opened by a recovery or invitation link need neither: the link was the proof.
 */
async function mustProvePasswordChange(a: AuthContext, q: Q, user: UserRow, claims: Record<string, unknown>, currentPassword: string | undefined, nonce: string | undefined) {
  if (!a.settings.email.securePasswordChange) return;
  if (!user.encrypted_password) return;
  const amr = Array.isArray(claims.amr) ? (claims.amr as { method?: string }[]) : [];
  const latest = amr[0]?.method;
  if (latest === "recovery" || latest === "invite") return;
  if (nonce) {
    const r = await q.query<{ ok: boolean }>(
      `select reauthentication_token = $2 and reauthentication_sent_at > now() - make_interval(secs => $3) as ok from auth.users where id = $1`,
      [user.id, tokenHash(user.email ?? "", nonce), a.settings.email.otpExpiry],
    );
    if (!r.rows[0]?.ok) throw badRequest("reauthentication_not_valid", "Requested nonce is invalid or expired");
    await q.query("update auth.users set reauthentication_token = '', reauthentication_sent_at = null where id = $1", [user.id]);
    await q.query("delete from auth.one_time_tokens where user_id = $1 and token_type = 'reauthentication_token'", [user.id]);
    return;
  }
  if (currentPassword !== undefined) {
    if (!(await checkPassword(currentPassword, user.encrypted_password))) throw badRequest("current_password_mismatch", "Current password required when setting new password.");
    return;
  }
  throw badRequest("reauthentication_needed", "Password update requires reauthentication");
}

export async function updateUser(a: AuthContext, r: GatewayRequest) {
  const { user, claims } = await requireUser(a, r);
  const b = await readBodyJson(r.req);
  const emailRaw = optString(b, "email", 1024);
  const password = optString(b, "password", 1024);
  const data = optObject(b, "data");
  const nonce = optString(b, "nonce", 64);
  const currentPassword = optString(b, "current_password", 1024);
  optString(b, "phone", 64);
  const pkce = readPkce(b);
  if (password !== undefined) checkPasswordStrength(a, password);
  if (data && JSON.stringify(data).length > 16 * 1024) throw badRequest("validation_failed", "User metadata is too large");
  const email = emailRaw !== undefined ? validateEmail(emailRaw) : undefined;
  const redirectTo = redirectOf(a, r, b);

  const out = await tx(a, async (q) => {
    if (password !== undefined) {
      await mustProvePasswordChange(a, q, user, claims, currentPassword, nonce);
      if (await checkPassword(password, user.encrypted_password)) throw unprocessable("same_password", "New password should be different from the old password.");
      await q.query("update auth.users set encrypted_password = $2, updated_at = now() where id = $1", [user.id, await hashPassword(password)]);
    }
    if (data) {
      // GoTrue merges top-level keys; a null value removes the key.
      await q.query(
        `update auth.users set raw_user_meta_data = (select coalesce(jsonb_object_agg(key, value) filter (where value <> 'null'::jsonb), '{}')
           from jsonb_each(coalesce(raw_user_meta_data, '{}') || $2::jsonb)), updated_at = now() where id = $1`,
        [user.id, JSON.stringify(data)],
      );
    }
    if (email && email !== (user.email ?? "").toLowerCase()) {
      const taken = await findUserByEmail(q, email);
      if (taken && taken.id !== user.id) throw unprocessable("email_exists", "A user with this email address has already been registered");
      if (!a.settings.email.enableConfirmations) {
        await q.query("update auth.users set email = $2, email_confirmed_at = now(), is_anonymous = false, updated_at = now() where id = $1", [user.id, email]);
        const u2 = (await findUserById(q, user.id))!;
        await insertEmailIdentity(q, u2);
      } else {
        await q.query("update auth.users set email_change = $2, email_change_confirm_status = 0, email_change_token_current = '', updated_at = now() where id = $1", [user.id, email]);
        const u2 = (await findUserById(q, user.id))!;
        checkFrequency(a, user, "email_change_new");
        await sendToken(a, q, u2, "email_change_new", redirectTo, pkce, { recipient: email, skipFrequency: true, from: limitIp(a, r) });
        if (a.settings.email.doubleConfirmChanges && user.email && !user.is_anonymous) {
          await sendToken(a, q, (await findUserById(q, user.id))!, "email_change_current", redirectTo, undefined, { recipient: user.email, skipFrequency: true, from: limitIp(a, r) });
        }
      }
    }
    const fresh = (await findUserById(q, user.id))!;
    return userJson(fresh, await identitiesOf(q, user.id));
  });
  return sendJson(r.res, 200, out);
}

export async function logoutHandler(a: AuthContext, r: GatewayRequest) {
  const { user, sessionId } = await requireUser(a, r);
  r.req.resume();
  const scope = r.query.get("scope") ?? "global";
  if (scope !== "global" && scope !== "local" && scope !== "others") throw badRequest("validation_failed", "Unsupported logout scope");
  await logout(a.ctx.db, user.id, sessionId, scope);
  r.res.writeHead(204);
  r.res.end();
}

export async function recover(a: AuthContext, r: GatewayRequest) {
  const b = await readBodyJson(r.req);
  const email = validateEmail(optString(b, "email", 1024) ?? "");
  const pkce = readPkce(b);
  limitSignIn(a, r);
  const redirectTo = redirectOf(a, r, b);
  await tx(a, async (q) => {
    const u = await findUserByEmail(q, email);
    if (!u || u.deleted_at) return; // GoTrue answers the same whether the address exists or not
    await sendToken(a, q, u, "recovery", redirectTo, pkce, { from: limitIp(a, r) });
  });
  return sendJson(r.res, 200, {});
}

export async function otp(a: AuthContext, r: GatewayRequest) {
  const b = await readBodyJson(r.req);
  const emailRaw = optString(b, "email", 1024);
  const phone = optString(b, "phone", 64);
  const createUser = optBool(b, "create_user") ?? true;
  const data = optObject(b, "data") ?? {};
  const pkce = readPkce(b);
  if (phone && !emailRaw) throw badRequest("sms_send_failed", "Phone OTP is not available on this server");
  const email = validateEmail(emailRaw ?? "");
  limitSignIn(a, r);
  const redirectTo = redirectOf(a, r, b);
  await tx(a, async (q) => {
    await q.query("select pg_advisory_xact_lock(hashtext('auth.signup:' || $1))", [email]);
    let u = await findUserByEmail(q, email);
    if (!u) {
      if (!createUser) throw unprocessable("otp_disabled", "Signups not allowed for otp");
      if (!a.settings.enableSignup || !a.settings.email.enableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
      u = await insertUser(q, {
        email, passwordHash: "", emailConfirmed: !a.settings.email.enableConfirmations,
        appMetadata: { provider: "email", providers: ["email"] }, userMetadata: data,
      });
      await insertEmailIdentity(q, u);
    }
    if (isBanned(u)) throw badRequest("user_banned", "User is banned");
    if (!isConfirmed(u)) await sendToken(a, q, u, "confirmation", redirectTo, pkce, { from: limitIp(a, r) });
    else await sendToken(a, q, u, "magiclink", redirectTo, pkce, { from: limitIp(a, r) });
  });
  return sendJson(r.res, 200, {});
}

export async function resend(a: AuthContext, r: GatewayRequest) {
  const b = await readBodyJson(r.req);
  const type = optString(b, "type", 32);
  const email = validateEmail(optString(b, "email", 1024) ?? "");
  const pkce = readPkce(b);
  if (type !== "signup" && type !== "email_change") throw badRequest("validation_failed", "Missing one of these types: signup, email_change, sms, phone_change");
  limitSignIn(a, r);
  const redirectTo = redirectOf(a, r, b);
  await tx(a, async (q) => {
    if (type === "signup") {
      const u = await findUserByEmail(q, email);
      if (!u) return;
      if (isConfirmed(u)) throw badRequest("email_address_not_authorized", "Email address already confirmed");
      await sendToken(a, q, u, "confirmation", redirectTo, pkce, { from: limitIp(a, r) });
    } else {
      const x = await q.query<{ id: string }>("select id from auth.users where lower(email_change) = $1 limit 1", [email]);
      if (!x.rows[0]) return;
      const u = (await findUserById(q, x.rows[0].id))!;
      await sendToken(a, q, u, "email_change_new", redirectTo, pkce, { recipient: email, from: limitIp(a, r) });
    }
  });
  return sendJson(r.res, 200, {});
}

function parseVerifyType(t: string | undefined | null): VerifyType {
  if (!t || !(VERIFY_TYPES as readonly string[]).includes(t)) throw badRequest("validation_failed", "Verify requires a verification type");
  return t as VerifyType;
}

function sessionFragment(s: SessionResponse, type: string): Record<string, string> {
  return {
    access_token: s.access_token, expires_at: String(s.expires_at), expires_in: String(s.expires_in),
    refresh_token: s.refresh_token, token_type: s.token_type, type,
  };
}

export async function verifyGet(a: AuthContext, r: GatewayRequest) {
  r.req.resume();
  const redirectTo = redirectTarget(a.settings, r.query.get("redirect_to"));
  const token = r.query.get("token") ?? "";
  const pkceFlow = token.startsWith("pkce_");
  const fail = (e: AuthError) => {
    const params = { error: e.status === 403 ? "access_denied" : e.status >= 500 ? "server_error" : "invalid_request", error_code: e.code, error_description: e.code === "otp_expired" ? "Email link is invalid or has expired" : e.message };
    const to = pkceFlow ? withFragment(withQuery(redirectTo, params), params) : withFragment(redirectTo, params);
    r.res.writeHead(303, { location: to });
    r.res.end();
  };
  try {
    const type = parseVerifyType(r.query.get("type"));
    if (type === "email") throw badRequest("validation_failed", "Verify requires a verification type");
    if (!token) throw badRequest("validation_failed", "Verify requires a token or a token hash");
    a.limiter.take([bucket(`ip:verify:${limitIp(a, r)}`, a.settings.rateLimit.tokenVerifications, FIVE_MIN)]);
    const out = await tx(a, (q) => verifyToken(a, q, r, { type, tokenHash: token }));
    let to: string;
    if (out.message) to = withFragment(redirectTo, { message: out.message });
    else if (out.code) to = withQuery(redirectTo, { code: out.code });
    else to = withFragment(redirectTo, sessionFragment(out.session!, out.type));
    r.res.writeHead(303, { location: to });
    r.res.end();
  } catch (e) {
    if (e instanceof AuthError) return fail(e);
    throw e;
  }
}

export async function verifyPost(a: AuthContext, r: GatewayRequest) {
  const b = await readBodyJson(r.req);
  const type = parseVerifyType(optString(b, "type", 32));
  const tokenHash = optString(b, "token_hash", 256);
  const token = optString(b, "token", 64);
  const emailRaw = optString(b, "email", 1024);
  if (!tokenHash && !(token && emailRaw)) throw badRequest("validation_failed", "Verify requires either a token hash or an email and a token");
  a.limiter.take([bucket(`ip:verify:${limitIp(a, r)}`, a.settings.rateLimit.tokenVerifications, FIVE_MIN)]);
  const out = await tx(a, (q) => verifyToken(a, q, r, { type, tokenHash, email: emailRaw?.trim().toLowerCase(), otp: token?.trim(), session: true }));
  if (out.message) return sendJson(r.res, 200, { msg: SINGLE_CONFIRMATION_MSG, code: 200 });
  return sendJson(r.res, 200, out.session);
}

export { createFlowState };
