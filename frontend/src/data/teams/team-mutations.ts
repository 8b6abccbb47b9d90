import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toAppError } from "./errors";
import { teamKeys } from "./keys";

export interface Team {
  id: string;
  name: string;
  slug: string;
  personal: boolean;
}

export async function createTeam(name: string): Promise<Team> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase().rpc("create_team", { name });
  if (error) throw toAppError(error);
  return data as Team;
}

export async function renameTeam({ teamId, name }: { teamId: string; name: string }): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  // select() so a refused update (RLS filters the row) is an error, not a silent no-op.
  const { data, error } = await getSupabase().from("teams").update({ name }).eq("id", teamId).select("id");
  if (error) throw toAppError(error);
  if (!data?.length) throw toAppError({ message: "Only team owners can rename the team", code: "42501" });
}

export async function deleteTeam(teamId: string): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase().from("teams").delete().eq("id", teamId).select("id");
  if (error) throw toAppError(error);
  if (!data?.length) throw toAppError({ message: "Only team owners can delete a shared team", code: "42501" });
}

export function useCreateTeamMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createTeam, onSuccess: () => qc.invalidateQueries({ queryKey: teamKeys.mine() }) });
}

export function useRenameTeamMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: renameTeam, onSuccess: () => qc.invalidateQueries({ queryKey: teamKeys.all }) });
}

export function useDeleteTeamMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteTeam, onSuccess: () => qc.invalidateQueries({ queryKey: teamKeys.all }) });
}
