// The administrator's actions. On a user (ban, unban, password reset, delete): the `admin` edge
// function, which needs the auth admin API. On a team or bot (plan, unlist, delete): the
// security-definer SQL functions. Each writes the audit log; afterwards every admin read is
// refreshed (lists, details and the log all show the change).
import { useMutation, useQueryClient, type UseMutationOptions } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { callFunction } from "../../lib/functions";
import { loadSupabase } from "../../lib/supabase-ready";
import { adminKeys } from "./keys";

export type AdminAction =
  | { kind: "ban"; userId: string; hours?: number }
  | { kind: "unban"; userId: string }
  | { kind: "reset_password"; userId: string }
  | { kind: "delete_user"; userId: string; confirm: string }
  | { kind: "set_team_plan"; teamId: string; planId: string }
  | { kind: "unlist_bot"; botId: string }
  | { kind: "delete_bot"; botId: string };

export async function runAdminAction(a: AdminAction): Promise<void> {
  switch (a.kind) {
    case "ban":
      await callFunction("admin", { action: "ban", user_id: a.userId, ...(a.hours ? { hours: a.hours } : {}) });
      return;
    case "unban":
    case "reset_password":
      await callFunction("admin", { action: a.kind, user_id: a.userId });
      return;
    case "delete_user":
      await callFunction("admin", { action: "delete_user", user_id: a.userId, confirm: a.confirm });
      return;
  }
  const db = await loadSupabase();
  if (a.kind === "set_team_plan") unwrap(await db.rpc("admin_set_team_plan", { team_id: a.teamId, plan_id: a.planId }));
  else if (a.kind === "unlist_bot") unwrap(await db.rpc("admin_unlist_bot", { bot_id: a.botId }));
  else unwrap(await db.rpc("admin_delete_bot", { bot_id: a.botId }));
}

export function useAdminActionMutation(options: Omit<UseMutationOptions<void, Error, AdminAction>, "mutationFn"> = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: runAdminAction,
    onSuccess: async (data, vars, result, context) => {
      await qc.invalidateQueries({ queryKey: adminKeys.all });
      await options.onSuccess?.(data, vars, result, context);
    },
  });
}
