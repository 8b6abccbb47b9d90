import { useMutation, useQueryClient } from "@tanstack/react-query";
import { teamKeys } from "./keys";

export type MemberTarget = { teamId: string; userId: string };

/** A change to a membership refreshes the team's members and the caller's own teams. */
export function useMemberMutation<V extends MemberTarget>(fn: (v: V) => Promise<void>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (_d, v) => Promise.all([qc.invalidateQueries({ queryKey: teamKeys.members(v.teamId) }), qc.invalidateQueries({ queryKey: teamKeys.mine() })]),
  });
}
