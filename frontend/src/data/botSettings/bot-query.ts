import { useQuery } from "@tanstack/react-query";
import { toAppError } from "../teams/errors";
import { botSettingsKeys } from "./keys";
import { BOT_COLUMNS, type Bot } from "./types";

export async function fetchBot(botId: string): Promise<Bot | null> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase().from("bots").select(BOT_COLUMNS).eq("id", botId).maybeSingle();
  if (error) throw toAppError(error);
  return (data as Bot | null) ?? null;
}

export function useBotQuery(botId: string) {
  return useQuery({ queryKey: botSettingsKeys.detail(botId), queryFn: () => fetchBot(botId) });
}
