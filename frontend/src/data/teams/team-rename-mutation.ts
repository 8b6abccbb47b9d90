import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refused, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { teamKeys } from "./keys";

export async function renameTeam({ teamId, name }: { teamId: string; name: string }): Promise<void> {
  // select() so a refused update (RLS filters the row) is an error, not a silent no-op.
  const rows = unwrap(await (await loadSupabase()).from("teams").update({ name }).eq("id", teamId).select("id"));
  if (!rows?.length) throw refused("Only team owners can rename the team");
}

export function useRenameTeamMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: renameTeam, onSuccess: () => qc.invalidateQueries({ queryKey: teamKeys.all }) });
}
