import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { botKeys } from "./keys";
import { BOT_COLUMNS, toBot, type Bot } from "./types";

/** One bot of the caller's teams; null when it does not exist or RLS hides it. */
export async function fetchBot(botId: string): Promise<Bot | null> {
  const row = unwrap(await (await loadSupabase()).from("bots").select(BOT_COLUMNS).eq("id", botId).maybeSingle());
  return row ? toBot(row) : null;
}

export function useBotQuery(botId: string) {
  return useQuery({ queryKey: botKeys.detail(botId), queryFn: () => fetchBot(botId) });
}
