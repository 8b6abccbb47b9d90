import { useQuery } from "@tanstack/react-query";
import { chatKeys } from "./keys";
import { client, dbError } from "./errors";

/** Has this visitor passed the bot's password check (an unexpired grant row of their own)? */
export async function fetchHasBotGrant(botId: string): Promise<boolean> {
  const { data, error } = await (await client()).from("bot_access_grants").select("bot_id, expires_at").eq("bot_id", botId).maybeSingle();
  if (error) throw dbError(error);
  if (!data) return false;
  const exp = (data as { expires_at: string | null }).expires_at;
  return !exp || new Date(exp).getTime() > Date.now();
}

export function useBotGrantQuery(botId: string, userId: string | undefined, enabled: boolean) {
  return useQuery({ queryKey: chatKeys.grant(botId, userId ?? ""), queryFn: () => fetchHasBotGrant(botId), enabled: enabled && !!userId });
}
