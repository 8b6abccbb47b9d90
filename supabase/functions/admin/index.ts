// `admin`: a platform administrator's actions on a user that need the auth admin API.
//   POST /functions/v1/admin  as the administrator
//     {"action": "ban", "user_id": "...", "hours"?: 1..876000}   (no hours: until unbanned)
//     {"action": "unban", "user_id": "..."}
//     {"action": "reset_password", "user_id": "..."}            (auth sends the reset e-mail)
//     {"action": "delete_user", "user_id": "...", "confirm": "<the user's e-mail or id>"}
// Postgres decides who is an administrator: `is_platform_admin` is asked AS THE CALLER (their
// token); only then does the function act with the service role, and every action is recorded
// with `admin_log_action` (who, what, before, after). Row-change actions (a team's plan,
// unlisting or deleting a bot) are SQL functions the app calls directly (admin_set_team_plan...).
import { z } from "npm:zod@3.25.76";
import { callerClaims, requireVerifiedCaller } from "../_shared/caller.ts";
import { createServiceClient, createUserClient, type Db } from "../_shared/clients.ts";
import type { Json } from "../_shared/database.types.ts";
import { dbFailure } from "../_shared/db.ts";
import { env } from "../_shared/env.ts";
import { handler, HttpError, json, readJson } from "../_shared/http.ts";

/** "Until unbanned": GoTrue takes a duration; a hundred years is the conventional forever. */
const FOREVER_HOURS = 876000;

const userId = z.string().uuid({ message: "user_id must be a user's id (a uuid)" });
const bodySchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("ban"), user_id: userId, hours: z.number().int().min(1).max(FOREVER_HOURS).optional() }).strict(),
  z.object({ action: z.literal("unban"), user_id: userId }).strict(),
  z.object({ action: z.literal("reset_password"), user_id: userId }).strict(),
  z.object({ action: z.literal("delete_user"), user_id: userId, confirm: z.string().max(320) }).strict(),
], { errorMap: () => ({ message: "action is one of: ban, unban, reset_password, delete_user" }) });
type Action = z.infer<typeof bodySchema>;

interface Target {
  id: string;
  email: string | null;
  banned_until: string | null;
  is_anonymous: boolean;
}

/** The caller's id when Postgres, asked with the caller's own token, says they are a platform administrator. */
async function requirePlatformAdmin(req: Request): Promise<string> {
  const { userId: caller, isAnonymous } = await callerClaims(req);
  if (!caller || isAnonymous) throw new HttpError(401, "session_required", "Sign in as a platform administrator.");
  const { data, error } = await createUserClient(req).rpc("is_platform_admin");
  if (error) throw dbFailure(error, "is_platform_admin");
  if (data !== true) throw new HttpError(403, "forbidden", "Only platform administrators may do this.");
  return caller;
}

async function findTarget(service: Db, id: string): Promise<Target> {
  const { data, error } = await service.auth.admin.getUserById(id);
  if (error || !data.user) {
    if (error && (error.status ?? 0) >= 500) throw new Error(`getUserById: ${error.message}`);
    throw new HttpError(404, "not_found", "No user with this id.");
  }
  const u = data.user as typeof data.user & { banned_until?: string | null };
  return { id: u.id, email: u.email ?? null, banned_until: u.banned_until ?? null, is_anonymous: u.is_anonymous === true };
}

/** Does what the action says; answers the target's state after it (null once deleted). */
async function act(service: Db, a: Action, target: Target, actor: string): Promise<{ [key: string]: Json } | null> {
  switch (a.action) {
    case "ban":
    case "unban": {
      if (a.action === "ban" && target.id === actor) throw new HttpError(400, "invalid_request", "You cannot ban yourself.");
      const ban_duration = a.action === "ban" ? `${a.hours ?? FOREVER_HOURS}h` : "none";
      const { data, error } = await service.auth.admin.updateUserById(target.id, { ban_duration });
      if (error) throw new Error(`updateUserById: ${error.message}`);
      return { banned_until: (data.user as { banned_until?: string | null } | null)?.banned_until ?? null };
    }
    case "reset_password": {
      if (!target.email) throw new HttpError(400, "invalid_request", "This user has no e-mail address to send a reset link to.");
      const { error } = await service.auth.resetPasswordForEmail(target.email, { redirectTo: `${env.siteUrl}/app/auth/reset` });
      if (error) {
        if (error.status === 429) throw new HttpError(429, "mail_rate_limited", "Too many e-mails to this address: try again later.");
        throw new Error(`resetPasswordForEmail: ${error.message}`);
      }
      return { reset_sent_to: target.email };
    }
    case "delete_user": {
      if (target.id === actor) throw new HttpError(400, "invalid_request", "You cannot delete your own account here.");
      if (a.confirm.trim().toLowerCase() !== (target.email ?? target.id).toLowerCase()) {
        throw new HttpError(400, "invalid_request", "Type the user's e-mail address (or id, for a guest) to confirm.");
      }
      // Their personal team goes with them, and the database refuses to delete a team that pays
      // through Stripe (teams_refuse_delete_while_paying): checked first, to say why (hosted auth
      // reports a refused delete only as "Database error").
      const personal = await service.from("team_members").select("team_id, teams!inner(personal)").eq("user_id", target.id)
        .eq("role", "owner").eq("teams.personal", true);
      if (personal.error) throw dbFailure(personal.error, "team_members");
      if (personal.data.length) {
        const paying = await service.from("subscriptions").select("team_id").in("team_id", personal.data.map((m) => m.team_id))
          .neq("plan_id", "free").not("stripe_subscription_id", "is", null).not("status", "in", "(canceled,incomplete_expired)")
          .eq("cancel_at_period_end", false);
        if (paying.error) throw dbFailure(paying.error, "subscriptions");
        if (paying.data.length) {
          throw new HttpError(409, "user_team_pays_through_stripe",
            "This user's personal team pays through Stripe: cancel its subscription first (or let the user do it), then delete the user.");
        }
      }
      const { error } = await service.auth.admin.deleteUser(target.id);
      if (error) {
        if (/pays through Stripe/i.test(error.message)) throw new HttpError(409, "user_team_pays_through_stripe", error.message);
        if (/owner/i.test(error.message)) throw new HttpError(409, "last_owner", "This user is the last owner of a shared team: make another member owner first, or delete the team.");
        throw new Error(`deleteUser: ${error.message}`);
      }
      return null;
    }
  }
}

const ACTION_NAMES: Record<Action["action"], string> = {
  ban: "user.ban",
  unban: "user.unban",
  reset_password: "user.password_reset",
  delete_user: "user.delete",
};

Deno.serve(
  handler("admin", async (req) => {
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    const actor = await requirePlatformAdmin(req);
    const parsed = bodySchema.safeParse(await readJson(req, 4096));
    if (!parsed.success) throw new HttpError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request");
    const service = createServiceClient();
    const target = await findTarget(service, parsed.data.user_id);
    const before = { email: target.email, banned_until: target.banned_until };
    const after = await act(service, parsed.data, target, actor);
    const logged = await service.rpc("admin_log_action", {
      actor,
      action: ACTION_NAMES[parsed.data.action],
      target_type: "user",
      target_id: target.id,
      before,
      after: after ?? undefined,
    });
    if (logged.error) throw dbFailure(logged.error, "admin_log_action");
    return json(200, { ok: true, user_id: target.id, ...(after ?? { deleted: true }) });
  }, { verifyCaller: requireVerifiedCaller }),
);
