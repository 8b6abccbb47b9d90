import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { useMemberMutation, type MemberTarget } from "./use-member-mutation";

/** Also "leave": a member may remove themselves. */
export async function removeMember({ teamId, userId }: MemberTarget): Promise<void> {
  unwrap(await (await loadSupabase()).rpc("remove_team_member", { team_id: teamId, user_id: userId }));
}

export const useRemoveMemberMutation = () => useMemberMutation(removeMember);
