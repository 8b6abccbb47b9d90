import { useMutation } from "@tanstack/react-query";
import { callFunction } from "../../lib/functions";
import { loadSupabase } from "../../lib/supabase-ready";

/** The account-delete function (409 last_owner names the shared teams the caller still owns). */
export async function deleteAccount(): Promise<void> {
  await callFunction("account-delete", { confirm: "DELETE" });
  await (await loadSupabase()).auth.signOut({ scope: "local" });
}

export const useDeleteAccountMutation = () => useMutation({ mutationFn: deleteAccount });
