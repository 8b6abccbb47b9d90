// /verify: a token (from an email link, GET) or a token hash / email + OTP (POST)
// confirms a signup, an invite, a recovery, a magic link or an email change, and
// signs the user in (or hands back a PKCE auth code).
import type { AuthContext, Q } from "./context.ts";
import { clientInfo } from "./context.ts";
import { AuthError, badRequest, forbidden } from "./errors.ts";
import { KINDS, tokenHash, type EmailTokenKind } from "./emails.ts";
import { createSession, type SessionResponse } from "./sessions.ts";
import { findUserByEmail, type UserRow } from "./users.ts";
import type { GatewayRequest } from "../service.ts";

export const VERIFY_TYPES = ["signup", "invite", "recovery", "magiclink", "email_change", "email"] as const;
export type VerifyType = (typeof VERIFY_TYPES)[number];

const KINDS_OF: Record<VerifyType, EmailTokenKind[]> = {
  signup: ["confirmation"],
  invite: ["invite"],
  recovery: ["recovery"],
  magiclink: ["magiclink"],
  email_change: ["email_change_new", "email_change_current"],
  email: ["confirmation", "magiclink"],
};

const AMR: Record<string, string> = { signup: "otp", invite: "invite", recovery: "recovery", magiclink: "otp", email_change: "email_change", email: "otp" };

export const SINGLE_CONFIRMATION_MSG = "Confirmation link accepted. Please proceed to confirm link sent to the other email";

export interface VerifyResult {
  session?: SessionResponse;
  /** PKCE: the auth code the client exchanges at /token?grant_type=pkce */
  code?: string;
  /** First half of a double-confirmed email change */
  message?: string;
  type: VerifyType;
  user: UserRow;
}

const expired = () => forbidden("otp_expired", "Token has expired or is invalid");

function matches(stored: string | null | undefined, hash: string): boolean {
  return !!stored && (stored === hash || stored === `pkce_${hash}`);
}

async function lookupByHash(q: Q, column: string, hash: string): Promise<UserRow | null> {
  const r = await q.query<{ u: UserRow }>(`select to_jsonb(u) as u from auth.users u where ${column} = $1 or ${column} = 'pkce_' || $1 limit 1`, [hash]);
  return r.rows[0]?.u ?? null;
}

/**
 * `session`: POST /verify (verifyOtp) always answers with a session, as GoTrue's verifyPost does,
 * also for a token issued to a PKCE flow; only the link (GET /verify) hands a PKCE flow its code.
 */
export async function verifyToken(a: AuthContext, q: Q, r: GatewayRequest, p: { type: VerifyType; tokenHash?: string; email?: string; otp?: string; session?: boolean }): Promise<VerifyResult> {
  let user: UserRow | null = null;
  let kind: EmailTokenKind | null = null;
  let stored = "";
  for (const k of KINDS_OF[p.type]) {
    const col = KINDS[k].column;
    if (p.tokenHash) {
      const h = p.tokenHash.replace(/^pkce_/, "");
      user = await lookupByHash(q, col, h);
    } else if (p.email && p.otp) {
      const email = p.email.toLowerCase();
      const hash = tokenHash(email, p.otp);
      let candidate = await findUserByEmail(q, email);
      if (!candidate && p.type === "email_change") {
        const x = await q.query<{ u: UserRow }>("select to_jsonb(u) as u from auth.users u where lower(email_change) = $1 limit 1", [email]);
        candidate = x.rows[0]?.u ?? null;
      }
      const value = candidate ? (candidate as unknown as Record<string, string | null>)[col] : null;
      user = candidate && matches(value, hash) ? candidate : null;
    }
    if (user) {
      kind = k;
      stored = (user as unknown as Record<string, string>)[col]!;
      break;
    }
  }
  if (!user || !kind) throw expired();
  // "email" type: a confirmation token only when the user is still unconfirmed.
  const sentAt = (user as unknown as Record<string, string | null>)[KINDS[kind].sentAt];
  if (!sentAt || Date.now() - new Date(sentAt).getTime() > a.settings.email.otpExpiry * 1000) throw expired();
  if (user.banned_until && new Date(user.banned_until).getTime() > Date.now()) throw badRequest("user_banned", "User is banned");

  const col = KINDS[kind].column;
  await q.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = $2`, [user.id, KINDS[kind].ott]);
  if (kind === "email_change_new" || kind === "email_change_current") {
    if (!user.email_change) throw expired();
    const other = kind === "email_change_new" ? "email_change_token_current" : "email_change_token_new";
    const otherPending = !!(user as unknown as Record<string, string | null>)[other];
    if (a.settings.email.doubleConfirmChanges && otherPending && user.email && (user.email_change_confirm_status ?? 0) === 0) {
      await q.query(`update auth.users set ${col} = '', email_change_confirm_status = 1, updated_at = now() where id = $1`, [user.id]);
      return { message: SINGLE_CONFIRMATION_MSG, type: p.type, user };
    }
    const taken = await q.query("select 1 from auth.users where lower(email) = lower($1) and id <> $2", [user.email_change, user.id]);
    if (taken.rowCount) throw new AuthError(422, "email_exists", "A user with this email address has already been registered");
    await q.query(
      `update auth.users set email = email_change, email_change = '', email_change_token_new = '', email_change_token_current = '',
         email_change_confirm_status = 0, email_confirmed_at = coalesce(email_confirmed_at, now()), is_anonymous = false, updated_at = now() where id = $1`,
      [user.id],
    );
    const fresh = (await q.query<{ email: string }>("select email from auth.users where id = $1", [user.id])).rows[0]!;
    await q.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
       values ($1::text, $3::uuid, jsonb_build_object('sub', $1::text, 'email', $2::text, 'email_verified', true, 'phone_verified', false), 'email', now(), now(), now())
       on conflict (provider_id, provider) do update set identity_data = auth.identities.identity_data || jsonb_build_object('email', $2::text, 'email_verified', true), updated_at = now()`,
      [user.id, fresh.email, user.id],
    );
    await q.query(`update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}') || '{"provider":"email"}'::jsonb || jsonb_build_object('providers', (select coalesce(jsonb_agg(distinct provider), '[]') from auth.identities where user_id = $1)) where id = $1`, [user.id]);
  } else {
    await q.query(
      `update auth.users set ${col} = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = $1`,
      [user.id],
    );
    await q.query(
      `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now() where user_id = $1 and provider = 'email'`,
      [user.id],
    );
  }

  const effectiveType: VerifyType = p.type === "email" ? (kind === "confirmation" ? "signup" : "magiclink") : p.type;
  if (stored.startsWith("pkce_") && !p.session) {
    const fs = await q.query<{ auth_code: string }>(
      `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
       where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2 order by created_at desc limit 1)
       returning auth_code`,
      [user.id, KINDS[kind].method],
    );
    if (fs.rows[0]) return { code: fs.rows[0].auth_code, type: effectiveType, user };
  }
  const session = await createSession(a.issuer, q, user.id, AMR[effectiveType] ?? "otp", clientInfo(r));
  return { session, type: effectiveType, user };
}
