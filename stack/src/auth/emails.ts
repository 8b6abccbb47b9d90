// Email one-time tokens as GoTrue keeps them: a numeric OTP mailed to the user and
// its hash sha224(email + otp) stored on auth.users (and auth.one_time_tokens);
// links carry the hash, prefixed `pkce_` when the request started a PKCE flow.
import crypto from "node:crypto";
import { AuthError, tooMany } from "./errors.ts";
import type { Bucket } from "./ratelimit.ts";
import type { AuthContext, Q } from "./context.ts";
import type { TemplateKind } from "./templates.ts";
import type { UserRow } from "./users.ts";

export type EmailTokenKind = "confirmation" | "invite" | "recovery" | "magiclink" | "email_change_new" | "email_change_current" | "reauthentication";

interface KindInfo {
  column: string;
  sentAt: string;
  type: string;
  ott: string;
  template: TemplateKind;
  /** authentication_method of the PKCE flow state */
  method: string;
}

export const KINDS: Record<EmailTokenKind, KindInfo> = {
  confirmation: { column: "confirmation_token", sentAt: "confirmation_sent_at", type: "signup", ott: "confirmation_token", template: "confirmation", method: "email/signup" },
  invite: { column: "confirmation_token", sentAt: "confirmation_sent_at", type: "invite", ott: "confirmation_token", template: "invite", method: "invite" },
  recovery: { column: "recovery_token", sentAt: "recovery_sent_at", type: "recovery", ott: "recovery_token", template: "recovery", method: "recovery" },
  magiclink: { column: "recovery_token", sentAt: "recovery_sent_at", type: "magiclink", ott: "recovery_token", template: "magic_link", method: "magiclink" },
  email_change_new: { column: "email_change_token_new", sentAt: "email_change_sent_at", type: "email_change", ott: "email_change_token_new", template: "email_change", method: "email_change" },
  reauthentication: { column: "reauthentication_token", sentAt: "reauthentication_sent_at", type: "reauthentication", ott: "reauthentication_token", template: "reauthentication", method: "reauthentication" },
  email_change_current: { column: "email_change_token_current", sentAt: "email_change_sent_at", type: "email_change", ott: "email_change_token_current", template: "email_change", method: "email_change" },
};

export function tokenHash(email: string, otp: string): string {
  return crypto.createHash("sha224").update(email.toLowerCase() + otp).digest("hex");
}

function newOtp(length: number): string {
  let s = "";
  while (s.length < length) s += crypto.randomInt(0, 10).toString();
  return s;
}

export interface Pkce {
  codeChallenge: string;
  method: "s256" | "plain";
}

export interface IssuedToken {
  otp: string;
  hashed: string;
  stored: string;
  link: string;
  type: string;
  redirectTo: string;
  recipient: string;
}

/** The `max_frequency` check: one email of a kind per user per interval. */
export function checkFrequency(a: AuthContext, u: UserRow, kind: EmailTokenKind) {
  const sent = (u as unknown as Record<string, string | null>)[KINDS[kind].sentAt];
  const f = a.settings.email.maxFrequencySeconds;
  if (!sent || f <= 0) return;
  const elapsed = (Date.now() - new Date(sent).getTime()) / 1000;
  if (elapsed < f) {
    const wait = Math.max(1, Math.ceil(f - elapsed));
    throw tooMany("over_email_send_rate_limit", `For security purposes, you can only request this after ${wait} seconds.`, wait);
  }
}

export async function createFlowState(q: Q, userId: string | null, pkce: Pkce, providerType: string, method: string): Promise<{ id: string; authCode: string }> {
  const id = crypto.randomUUID();
  const authCode = crypto.randomUUID();
  await q.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type, created_at, updated_at, authentication_method)
     values ($1, $2, $3, $4, $5, $6, now(), now(), $7)`,
    [id, userId, authCode, pkce.method, pkce.codeChallenge, providerType, method],
  );
  return { id, authCode };
}

/** Stores a new token of `kind` for the user and builds its link (no mail sent). */
export async function issueToken(a: AuthContext, q: Q, u: UserRow, kind: EmailTokenKind, redirectTo: string, pkce?: Pkce, recipient?: string): Promise<IssuedToken> {
  const k = KINDS[kind];
  const to = (recipient ?? u.email ?? "").toLowerCase();
  const otp = newOtp(a.settings.email.otpLength);
  const hashed = tokenHash(to, otp);
  let stored = hashed;
  if (pkce) {
    await createFlowState(q, u.id, pkce, "email", k.method);
    stored = `pkce_${hashed}`;
  }
  await q.query(`update auth.users set ${k.column} = $2, ${k.sentAt} = now(), updated_at = now() where id = $1`, [u.id, stored]);
  await q.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values (gen_random_uuid(), $1, $2, $3, $4, now(), now())
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to, updated_at = now()`,
    [u.id, k.ott, stored, to],
  );
  const link = `${a.externalUrl}/verify?token=${encodeURIComponent(stored)}&type=${k.type}&redirect_to=${encodeURIComponent(redirectTo)}`;
  return { otp, hashed, stored, link, type: k.type, redirectTo, recipient: to };
}

/**
 * Counts one email against the sender's address, the recipient and then the instance's
 * hourly budget ([auth.rate_limit] email_sent), all or nothing: one stranger cannot spend
 * the budget that confirmations, recoveries and invitations of everyone else need.
 * `from` is the client address of a request anyone may make; admin calls (invitations by
 * the service role) have none and count against the instance's budget only.
 */
export function countEmail(a: AuthContext, recipient: string, from?: string) {
  const rl = a.settings.rateLimit;
  const HOUR = 3600;
  const buckets: Bucket[] = [];
  if (from !== undefined) {
    buckets.push(
      { key: `email:from:${from}`, limit: rl.emailPerAddress, windowSeconds: HOUR, message: "email rate limit exceeded for this client address" },
      { key: `email:to:${recipient.toLowerCase()}`, limit: rl.emailPerRecipient, windowSeconds: HOUR, message: "email rate limit exceeded for this recipient" },
    );
  }
  buckets.push({ key: "email:instance", limit: rl.emailSent, windowSeconds: HOUR, message: "email rate limit exceeded" });
  a.limiter.take(buckets, "over_email_send_rate_limit");
}

/** Issues a token and mails it with the project's template (supabase/templates), in the user's language. */
export async function sendToken(
  a: AuthContext, q: Q, u: UserRow, kind: EmailTokenKind, redirectTo: string, pkce?: Pkce,
  opts: { recipient?: string; skipFrequency?: boolean; from?: string } = {},
) {
  if (!opts.skipFrequency) checkFrequency(a, u, kind);
  countEmail(a, opts.recipient ?? u.email ?? "", opts.from);
  const t = await issueToken(a, q, u, kind, redirectTo, pkce, opts.recipient);
  const mail = a.mail();
  if (!mail) throw new AuthError(500, "unexpected_failure", "No mail service is available to send the email");
  try {
    // A template that fails on this user's data fails the e-mail, as on GoTrue.
    const rendered = a.templates.render(KINDS[kind].template, {
      SiteURL: a.settings.siteUrl,
      ConfirmationURL: t.link,
      Email: u.email ?? "",
      NewEmail: u.email_change ?? opts.recipient ?? "",
      SendingTo: t.recipient,
      Token: t.otp,
      TokenHash: t.stored,
      RedirectTo: redirectTo,
      Data: (u.raw_user_meta_data ?? {}) as Record<string, unknown>,
    });
    await mail.sendMail({ to: t.recipient, ...rendered });
  } catch (e) {
    throw new AuthError(500, "unexpected_failure", `Error sending ${KINDS[kind].type} email: ${(e as Error).message}`);
  }
  return t;
}
