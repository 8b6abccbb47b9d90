import { useQuery } from "@tanstack/react-query";
import type { Tables, TeamRole } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { teamKeys } from "./keys";

export type { TeamRole };

export type MyTeam = Pick<Tables<"teams">, "id" | "name" | "slug" | "personal"> & { role: TeamRole };

/** The caller's teams with their role in each (read from team_members under RLS). */
export async function fetchMyTeams(): Promise<MyTeam[]> {
  const client = await loadSupabase();
  const { data: auth } = await client.auth.getSession();
  const uid = auth.session?.user.id;
  if (!uid) return [];
  const rows = unwrap(await client.from("team_members").select("role, teams!inner(id, name, slug, personal)").eq("user_id", uid)) ?? [];
  return rows
    .map((r) => ({ ...r.teams, role: r.role }))
    .sort((a, b) => Number(b.personal) - Number(a.personal) || a.name.localeCompare(b.name));
}

export function useMyTeamsQuery() {
  return useQuery({ queryKey: teamKeys.mine(), queryFn: fetchMyTeams });
}
