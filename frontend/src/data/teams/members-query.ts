import { useQuery } from "@tanstack/react-query";
import { toAppError } from "./errors";
import { teamKeys } from "./keys";
import type { TeamRole } from "./my-teams-query";

export interface TeamMember {
  user_id: string;
  role: TeamRole;
  display_name: string | null;
  avatar_url: string | null;
  email: string | null;
  is_current_user: boolean;
  joined_at: string;
}

export async function fetchTeamMembers(teamId: string): Promise<TeamMember[]> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase().rpc("get_team_members", { team_id: teamId });
  if (error) throw toAppError(error);
  return (data ?? []) as TeamMember[];
}

export function useTeamMembersQuery(teamId: string) {
  return useQuery({ queryKey: teamKeys.members(teamId), queryFn: () => fetchTeamMembers(teamId) });
}
