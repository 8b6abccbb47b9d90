// The bot's most recent conversations for its overview page.
import { useQuery } from "@tanstack/react-query";
import { toAppError } from "../teams/errors";
import { CHAT_COLUMNS, type ConversationSummary } from "../conversations/types";
import { statsKeys } from "./keys";

export async function fetchLatestConversations(botId: string, limit = 5): Promise<ConversationSummary[]> {
  const { getSupabase } = await import("../../lib/supabase");
  const { data, error } = await getSupabase()
    .from("chats")
    .select(CHAT_COLUMNS)
    .eq("bot_id", botId)
    .order("last_message_at", { ascending: false, nullsFirst: false })
    .limit(limit);
  if (error) throw toAppError(error);
  return (data ?? []) as unknown as ConversationSummary[];
}

export function useLatestConversationsQuery(botId: string) {
  return useQuery({ queryKey: statsKeys.latest(botId), queryFn: () => fetchLatestConversations(botId) });
}
