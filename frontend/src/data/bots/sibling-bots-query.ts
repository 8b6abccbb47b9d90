import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { botKeys } from "./keys";

export interface SiblingBot {
  id: string;
  name: string;
}

/**
 * The other bots of this bot's team that the viewer can see (RLS: team members see their
 * team's bots; others see public ones). Empty when the bot itself is not readable.
 */
export async function fetchSiblingBots(botId: string): Promise<SiblingBot[]> {
  const db = await loadSupabase();
  const bot = unwrap(await db.from("bots").select("team_id").eq("id", botId).maybeSingle());
  if (!bot) return [];
  return unwrap(await db.from("bots").select("id, name").eq("team_id", bot.team_id).order("name")) ?? [];
}

export function useSiblingBotsQuery(botId: string, enabled: boolean) {
  return useQuery({ queryKey: botKeys.siblings(botId), queryFn: () => fetchSiblingBots(botId), enabled });
}
