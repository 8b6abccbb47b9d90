// The bot's most recent conversations for its overview page.
import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { chatKeys } from "./keys";
import { CHAT_COLUMNS, toConversationSummary, type ConversationSummary } from "./types";

export async function fetchLatestConversations(botId: string, limit = 5): Promise<ConversationSummary[]> {
  const rows = unwrap(await (await loadSupabase()).from("chats").select(CHAT_COLUMNS).eq("bot_id", botId).order("last_message_at", { ascending: false, nullsFirst: false }).limit(limit));
  return (rows ?? []).map(toConversationSummary);
}

export function useLatestConversationsQuery(botId: string) {
  return useQuery({ queryKey: chatKeys.latest(botId), queryFn: () => fetchLatestConversations(botId) });
}
