// `account-delete`: the signed-in user deletes their own account.
//   POST /functions/v1/account-delete  {confirm: "DELETE"}  as the user
// Deleting an auth user needs the admin API (service role), so the caller's identity is
// first confirmed by auth itself from their JWT (auth.getUser), and only that user is
// deleted. The database refuses when the user is the last owner of a shared team
// (keep_last_team_owner); the function checks that first, as the caller, to answer
// with the teams to hand over. Likewise a personal team paying through Stripe (409
// personal_team_pays_through_stripe): the database refuses to delete it until its subscription is cancelled.
import { z } from "npm:zod@3.25.76";
import { createServiceClient, createUserClient } from "../_shared/clients.ts";
import { bearerToken, requireUserId, requireVerifiedCaller } from "../_shared/caller.ts";
import { dbFailure } from "../_shared/db.ts";
import { handler, HttpError, json, readJson } from "../_shared/http.ts";

const bodySchema = z.object({ confirm: z.literal("DELETE", { errorMap: () => ({ message: 'Send {"confirm":"DELETE"}' }) }) }).strict();

Deno.serve(
  handler("account-delete", async (req) => {
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    // Who first (a verified token of a user: the anon key is none), then what they sent.
    await requireUserId(req, "Sign in to delete your account.");
    const parsed = bodySchema.safeParse(await readJson(req, 1024));
    if (!parsed.success) throw new HttpError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request");

    const token = bearerToken(req);
    const service = createServiceClient();
    const { data: who, error: whoError } = token ? await service.auth.getUser(token) : { data: { user: null }, error: null };
    if (whoError || !who.user) throw new HttpError(401, "session_required", "Sign in to delete your account.");
    if (who.user.is_anonymous) throw new HttpError(403, "forbidden", "Guest sessions have no account to delete.");
    const userId = who.user.id;

    // Shared teams the caller owns alone (read as the caller: RLS shows their teams' members).
    const caller = createUserClient(req);
    const mine = await caller.from("team_members").select("team_id, role, teams!inner(name, personal)").eq("user_id", userId).eq("role", "owner");
    if (mine.error) throw dbFailure(mine.error, "team_members");
    const shared = (mine.data ?? []).filter((m) => !m.teams.personal);
    const blocking: string[] = [];
    for (const m of shared) {
      const owners = await caller.from("team_members").select("user_id", { count: "exact", head: true }).eq("team_id", m.team_id).eq("role", "owner");
      if (owners.error) throw dbFailure(owners.error, "owners");
      if ((owners.count ?? 0) <= 1) blocking.push(m.teams.name);
    }
    if (blocking.length) {
      throw new HttpError(409, "last_owner", "You are the last owner of a shared team: make another member owner first, or delete the team.", { teams: blocking });
    }

    // The personal team goes with the account, and the database refuses to delete a team that pays
    // through Stripe (teams_refuse_delete_while_paying: a paid plan, a Stripe subscription not ended
    // and no cancellation scheduled). Checked first, as the caller (owners read their subscription),
    // to answer why: hosted auth reports a refused delete only as "Database error".
    const personal = (mine.data ?? []).filter((m) => m.teams.personal).map((m) => m.team_id);
    if (personal.length) {
      const paying = await caller.from("subscriptions").select("team_id").in("team_id", personal).neq("plan_id", "free")
        .not("stripe_subscription_id", "is", null).not("status", "in", "(canceled,incomplete_expired)").eq("cancel_at_period_end", false);
      if (paying.error) throw dbFailure(paying.error, "subscriptions");
      if (paying.data.length) {
        throw new HttpError(409, "personal_team_pays_through_stripe",
          "Your personal team pays through Stripe: cancel its subscription on the billing page first, then delete your account.");
      }
    }

    const deleted = await service.auth.admin.deleteUser(userId);
    if (deleted.error) {
      if (/pays through Stripe/i.test(deleted.error.message)) throw new HttpError(409, "personal_team_pays_through_stripe", deleted.error.message);
      if (/owner/i.test(deleted.error.message)) throw new HttpError(409, "last_owner", deleted.error.message);
      throw new Error(`deleteUser: ${deleted.error.message}`);
    }
    return json(200, { ok: true });
  }, { verifyCaller: requireVerifiedCaller }),
);
