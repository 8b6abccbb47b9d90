import { useMutation, useQueryClient } from "@tanstack/react-query";
import { teamKeys } from "./keys";

export type MemberTarget = { teamId: string; userId: string };

/**
 * A change to a membership refreshes the team's members and the caller's own teams, without
 * holding the mutation until the refetch ends: after leaving a team its members are no longer the
 * caller's to read, and waiting for that refetch (with its retries) held the way to the bots page.
 */
export function useMemberMutation<V extends MemberTarget>(fn: (v: V) => Promise<void>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (_d, v) => {
      void qc.invalidateQueries({ queryKey: teamKeys.members(v.teamId) });
      void qc.invalidateQueries({ queryKey: teamKeys.mine() });
    },
  });
}
