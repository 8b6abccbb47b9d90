import { useQuery } from "@tanstack/react-query";
import { toAppError } from "../teams/errors";
import { botSettingsKeys } from "./keys";
import { BOT_COLUMNS, type Bot } from "./types";

export async function fetchTeamBots(teamId: string): Promise<Bot[]> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase().from("bots").select(BOT_COLUMNS).eq("team_id", teamId).order("updated_at", { ascending: false });
  if (error) throw toAppError(error);
  return (data ?? []) as Bot[];
}

export function useTeamBotsQuery(teamId: string | undefined) {
  return useQuery({ queryKey: botSettingsKeys.team(teamId ?? "none"), queryFn: () => fetchTeamBots(teamId!), enabled: !!teamId });
}
