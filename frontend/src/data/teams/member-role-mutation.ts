import type { TeamRole } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { useMemberMutation, type MemberTarget } from "./use-member-mutation";

export async function changeMemberRole({ teamId, userId, role }: MemberTarget & { role: TeamRole }): Promise<void> {
  unwrap(await (await loadSupabase()).rpc("change_member_role", { team_id: teamId, user_id: userId, role }));
}

export const useChangeMemberRoleMutation = () => useMemberMutation(changeMemberRole);
