import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toAppError } from "./errors";
import { teamKeys } from "./keys";
import type { TeamRole } from "./my-teams-query";

type Target = { teamId: string; userId: string };

async function rpc(name: string, args: Record<string, unknown>): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const { error } = await getSupabase().rpc(name, args);
  if (error) throw toAppError(error);
}

export const changeMemberRole = ({ teamId, userId, role }: Target & { role: TeamRole }) => rpc("change_member_role", { team_id: teamId, user_id: userId, role });
/** Also "leave": a member may remove themselves. */
export const removeMember = ({ teamId, userId }: Target) => rpc("remove_team_member", { team_id: teamId, user_id: userId });
export const transferOwnership = ({ teamId, userId }: Target) => rpc("transfer_team_ownership", { team_id: teamId, new_owner_id: userId });

function useMemberMutation<V extends Target>(fn: (v: V) => Promise<void>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (_d, v) => Promise.all([qc.invalidateQueries({ queryKey: teamKeys.members(v.teamId) }), qc.invalidateQueries({ queryKey: teamKeys.mine() })]),
  });
}

export const useChangeMemberRoleMutation = () => useMemberMutation(changeMemberRole);
export const useRemoveMemberMutation = () => useMemberMutation(removeMember);
export const useTransferOwnershipMutation = () => useMemberMutation(transferOwnership);
