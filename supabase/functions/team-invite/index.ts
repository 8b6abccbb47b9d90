// `team-invite`: a team owner invites someone by email.
//   POST /functions/v1/team-invite  {team_id, email, role?, locale?}  as the owner
// As the caller it runs rpc('invite_team_member') — Postgres decides who may invite and
// returns the raw token once. Then the service role sends the email through auth's own
// mail path, so it goes out like every other auth email (dev mailbox or SMTP):
//   - no account yet: auth.admin.inviteUserByEmail (an "invite" mail that sets up the account),
//   - an existing account: a sign-in link (signInWithOtp, shouldCreateUser false).
// Both land on <site>/<lang>/app/auth/invite?token=..., where the invitee accepts.
// Where the functions have SMTP (PARLEY_SMTP_*; the local stack always), the links come from
// auth.admin.generateLink and Parley sends its own e-mail instead, naming who invited and to
// which team, in the invitee's language when their account has one (else the inviter's).
// Limits (429 rate_limited with Retry-After): PARLEY_TEAM_INVITE_USER_LIMIT (20) invitations an
// hour per inviter, counted before Postgres decides, and PARLEY_TEAM_INVITE_EMAIL_LIMIT (3)
// invitation e-mails a day per address, from any team: checked before the pending invitation is
// replaced, counted only once the RPC accepted the invitation (so nobody spends an address's
// budget with invitations they may not make).
import { z } from "npm:zod@3.25.76";
import { createServiceClient, createUserClient } from "../_shared/clients.ts";
import { env } from "../_shared/env.ts";
import { callerClaims, requireVerifiedCaller } from "../_shared/caller.ts";
import { LOCALES, type TeamInviteAnswer, type TeamInviteRequest } from "../_shared/contracts/team-invite.ts";
import { dbFailure, isUnavailable } from "../_shared/db.ts";
import { handler, HttpError, json, rateLimited, readJson } from "../_shared/http.ts";
import { mailConfigured, sendMail } from "../_shared/mail.ts";
import { consumeRateLimit, enforceRateLimits, limitFromEnv, peekRateLimit, type RateLimit } from "../_shared/rate-limit.ts";
import { invitationMail } from "./messages.ts";

const bodySchema = z
  .object({
    team_id: z.string().uuid("team_id must be a team id"),
    email: z.string().trim().toLowerCase().min(3).max(320).email("This is not a valid email address"),
    role: z.enum(["owner", "admin"]).default("admin"),
    locale: z.enum(LOCALES).default("en"),
  })
  .strict() satisfies z.ZodType<TeamInviteRequest, z.ZodTypeDef, unknown>;

/** Where the email's link lands: the invite page in the inviter's language (English has no prefix). */
function inviteUrl(siteUrl: string, locale: string, token: string): string {
  const prefix = locale === "en" ? "" : `/${locale}`;
  return `${siteUrl.replace(/\/+$/, "")}${prefix}/app/auth/invite?token=${encodeURIComponent(token)}`;
}

// PostgREST carries the SQLSTATE the RPC raised; map the ones invite_team_member uses.
function rpcError(error: { code?: string; message: string; details?: string | null }): Error {
  if (isUnavailable(error)) return dbFailure(error, "invite_team_member");
  switch (error.code) {
    case "42501":
      return new HttpError(403, "forbidden", error.message);
    case "22023":
    case "22P02":
      return new HttpError(400, "invalid_request", error.message);
    case "PT404":
    case "P0002":
      return new HttpError(404, "not_found", error.message);
    case "PT402":
      // The team has as many members as its plan allows (billing): the limit's name in details.
      return new HttpError(402, "plan_limit", error.message, error.details ?? "members");
    case "PGRST301":
    case "PGRST302":
      return new HttpError(401, "session_required", "Your session is not valid. Sign in again.");
    default:
      return new HttpError(400, "invite_failed", error.message);
  }
}

Deno.serve(
  handler("team-invite", async (req) => {
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    const parsed = bodySchema.safeParse(await readJson(req, 4 * 1024));
    if (!parsed.success) {
      throw new HttpError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request", parsed.error.issues);
    }
    const { team_id, email, role, locale } = parsed.data;

    // handler() verified the JWT (caller.ts); an anon key or a guest session has no team to invite to.
    const claims = await callerClaims(req);
    if (claims.role !== "authenticated") throw new HttpError(401, "session_required", "Sign in to invite team members.");
    await enforceRateLimits([
      { key: `team-invite:user:${claims.userId}`, max: limitFromEnv("PARLEY_TEAM_INVITE_USER_LIMIT", 20), windowSeconds: 3600 },
    ]);
    const mails: RateLimit = { key: `team-invite:email:${email}`, max: limitFromEnv("PARLEY_TEAM_INVITE_EMAIL_LIMIT", 3), windowSeconds: 86_400 };
    const room = await peekRateLimit(mails);
    if (!room.allowed) throw tooManyMails(room.retryAfter);
    const caller = createUserClient(req);
    const invited = await caller.rpc("invite_team_member", { team_id, email, role });
    if (invited.error) throw rpcError(invited.error);
    const token = invited.data as string;
    // Two invitations racing for this address's last e-mail: the invitation is saved, one mail goes out.
    const spent = await consumeRateLimit(mails);
    if (!spent.allowed) throw tooManyMails(spent.retryAfter);

    const service = createServiceClient();
    // The e-mail is in the invitee's language when their account has one, else the inviter's.
    const known = await service.rpc("account_notice_recipient", { email });
    const mailLocale = LOCALES.find((l) => l === known.data?.[0]?.locale) ?? locale;
    const redirectTo = inviteUrl(env.siteUrl, mailLocale, token);

    let delivery: "invite" | "sign_in_link" = "invite";
    if (mailConfigured()) {
      // Parley's own e-mail, naming who invited and to which team. Its link carries the token
      // hash to the invite page (verified there, so it works on any device).
      let link = await service.auth.admin.generateLink({ type: "invite", email, options: { redirectTo, data: { locale: mailLocale } } });
      if (link.error) {
        if (!isExistingAccount(link.error)) throw mailError(link.error);
        delivery = "sign_in_link";
        link = await service.auth.admin.generateLink({ type: "magiclink", email, options: { redirectTo } });
        if (link.error) throw mailError(link.error);
      }
      const hashed = link.data.properties?.hashed_token;
      if (!hashed) throw new Error("invite mail: auth returned no token hash");
      const [team, profile] = await Promise.all([
        caller.from("teams").select("name").eq("id", team_id).maybeSingle(),
        caller.from("profiles").select("display_name").eq("id", claims.userId!).maybeSingle(),
      ]);
      const inviterEmail = (await service.auth.admin.getUserById(claims.userId!)).data.user?.email ?? "";
      const inviter = profile.data?.display_name?.trim() ? `${profile.data.display_name.trim()} (${inviterEmail})` : inviterEmail;
      const url = `${redirectTo}#token_hash=${encodeURIComponent(hashed)}&type=${delivery === "invite" ? "invite" : "magiclink"}`;
      await sendMail({
        to: [email],
        ...invitationMail(mailLocale, { inviter, team: team.data?.name ?? "", role, link: url, existingAccount: delivery === "sign_in_link" }),
      });
    } else {
      // No SMTP for the functions: auth's own e-mails (the project's templates) carry the link.
      const invite = await service.auth.admin.inviteUserByEmail(email, { redirectTo, data: { locale: mailLocale } });
      if (invite.error) {
        if (!isExistingAccount(invite.error)) throw mailError(invite.error);
        // Already has an account: a sign-in link that lands on the same invite page.
        delivery = "sign_in_link";
        const otp = await service.auth.signInWithOtp({ email, options: { shouldCreateUser: false, emailRedirectTo: redirectTo } });
        if (otp.error) throw mailError(otp.error);
      }
    }
    return json(200, { ok: true, email, role, delivery } satisfies TeamInviteAnswer);
  }, { verifyCaller: requireVerifiedCaller }),
);

function tooManyMails(retryAfter: number): Error {
  return rateLimited(retryAfter, "This address has had several invitations recently. Try again later.");
}

function isExistingAccount(error: { status?: number; code?: string }): boolean {
  return error.code === "email_exists" || error.status === 422;
}

function mailError(error: { status?: number; code?: string; message: string }): Error {
  if (error.status === 429) {
    return new HttpError(429, "mail_rate_limited", "The invitation was saved, but no email can be sent right now. Try resending in a minute.");
  }
  return new Error(`invite mail: ${error.code ?? ""} ${error.message}`);
}
