import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { botKeys } from "./keys";

/** Has this visitor passed the bot's password check (an unexpired grant row of their own)? */
export async function fetchHasBotGrant(botId: string): Promise<boolean> {
  const row = unwrap(await (await loadSupabase()).from("bot_access_grants").select("bot_id, expires_at").eq("bot_id", botId).maybeSingle());
  if (!row) return false;
  return !row.expires_at || new Date(row.expires_at).getTime() > Date.now();
}

export function useBotGrantQuery(botId: string, userId: string | undefined, enabled: boolean) {
  return useQuery({ queryKey: botKeys.grant(botId, userId ?? ""), queryFn: () => fetchHasBotGrant(botId), enabled: enabled && !!userId });
}
