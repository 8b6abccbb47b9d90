import { useQuery } from "@tanstack/react-query";
import { chatKeys } from "./keys";
import { client, dbError } from "./errors";

export interface TeamBot {
  id: string;
  name: string;
}

/**
 * The other bots of this bot's team that the viewer can see (RLS: team members see their
 * team's bots; others see public ones). Empty when the bot itself is not readable.
 */
export async function fetchTeamBots(botId: string): Promise<TeamBot[]> {
  const db = await client();
  const { data: bot, error } = await db.from("bots").select("team_id").eq("id", botId).maybeSingle();
  if (error) throw dbError(error);
  if (!bot) return [];
  const { data, error: lErr } = await db.from("bots").select("id, name").eq("team_id", (bot as { team_id: string }).team_id).order("name");
  if (lErr) throw dbError(lErr);
  return (data ?? []) as TeamBot[];
}

export function useTeamBotsQuery(botId: string, enabled: boolean) {
  return useQuery({ queryKey: chatKeys.teamBots(botId), queryFn: () => fetchTeamBots(botId), enabled });
}
