import { useQuery } from "@tanstack/react-query";
import { toAppError } from "./errors";
import { teamKeys } from "./keys";

export type TeamRole = "owner" | "admin";

export interface MyTeam {
  id: string;
  name: string;
  slug: string;
  personal: boolean;
  role: TeamRole;
}

/** The caller's teams with their role in each (read from team_members under RLS). */
export async function fetchMyTeams(): Promise<MyTeam[]> {
  const { getSupabase } = await import("../../lib/supabase");
  const client = getSupabase();
  const { data: auth } = await client.auth.getSession();
  const uid = auth.session?.user.id;
  if (!uid) return [];
  const { data, error } = await client.from("team_members").select("role, teams!inner(id, name, slug, personal)").eq("user_id", uid);
  if (error) throw toAppError(error);
  const rows = (data ?? []) as unknown as { role: TeamRole; teams: Omit<MyTeam, "role"> }[];
  return rows
    .map((r) => ({ ...r.teams, role: r.role }))
    .sort((a, b) => Number(b.personal) - Number(a.personal) || a.name.localeCompare(b.name));
}

export function useMyTeamsQuery() {
  return useQuery({ queryKey: teamKeys.mine(), queryFn: fetchMyTeams });
}
