import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { botKeys } from "./keys";
import { BOT_COLUMNS, toBot, type Bot } from "./types";

/** The team's bots, most recently changed first. */
export async function fetchTeamBots(teamId: string): Promise<Bot[]> {
  const rows = unwrap(await (await loadSupabase()).from("bots").select(BOT_COLUMNS).eq("team_id", teamId).order("updated_at", { ascending: false }));
  return (rows ?? []).map(toBot);
}

export function useTeamBotsQuery(teamId: string | undefined) {
  return useQuery({ queryKey: botKeys.team(teamId ?? "none"), queryFn: () => fetchTeamBots(teamId!), enabled: !!teamId });
}
