import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refused, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { teamKeys } from "./keys";

export async function deleteTeam(teamId: string): Promise<void> {
  const rows = unwrap(await (await loadSupabase()).from("teams").delete().eq("id", teamId).select("id"));
  if (!rows?.length) throw refused("Only team owners can delete a shared team");
}

export function useDeleteTeamMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteTeam, onSuccess: () => qc.invalidateQueries({ queryKey: teamKeys.all }) });
}
