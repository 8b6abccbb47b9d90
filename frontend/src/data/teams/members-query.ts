import { useQuery } from "@tanstack/react-query";
import type { RpcRow } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { teamKeys } from "./keys";

/** get_team_members: the profile columns may be null (the CLI cannot tell for an RPC). */
export type TeamMember = Omit<RpcRow<"get_team_members">, "display_name" | "avatar_url" | "email"> & {
  display_name: string | null;
  avatar_url: string | null;
  email: string | null;
};

export async function fetchTeamMembers(teamId: string): Promise<TeamMember[]> {
  return unwrap(await (await loadSupabase()).rpc("get_team_members", { team_id: teamId })) ?? [];
}

export function useTeamMembersQuery(teamId: string) {
  return useQuery({ queryKey: teamKeys.members(teamId), queryFn: () => fetchTeamMembers(teamId) });
}
