import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refused, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { invitationKeys } from "./keys";

export async function revokeInvitation(v: { teamId: string; id: string }): Promise<void> {
  const rows = unwrap(await (await loadSupabase()).from("team_invitations").delete().eq("id", v.id).select("id"));
  if (!rows?.length) throw refused("Only team owners can revoke invitations");
}

export function useRevokeInvitationMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: revokeInvitation, onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: invitationKeys.team(v.teamId) }) });
}
