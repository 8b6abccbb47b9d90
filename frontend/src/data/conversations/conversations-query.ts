// The conversations of the current team's bots, filtered by bot, channel, date range and feedback.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { toAppError } from "../teams/errors";
import type { ConversationFilters } from "../../features/conversations/filters";
import { conversationKeys } from "./keys";
import { CHAT_COLUMNS, type ConversationSummary } from "./types";

const LIMIT = 100;

/** Chat ids among `botIds` that got at least one rating of `rating` (or any rating). */
async function ratedChatIds(botIds: string[], rating: "up" | "down" | null): Promise<string[]> {
  const { getSupabase } = await import("../../lib/supabase");
  const db = getSupabase();
  let q = db.from("message_feedback").select("message_id").in("bot_id", botIds).limit(1000);
  if (rating) q = q.eq("rating", rating);
  const fb = await q;
  if (fb.error) throw toAppError(fb.error);
  const ids = (fb.data ?? []).map((r: { message_id: string }) => r.message_id);
  if (ids.length === 0) return [];
  const msgs = await db.from("messages").select("chat_id").in("id", ids);
  if (msgs.error) throw toAppError(msgs.error);
  return [...new Set((msgs.data ?? []).map((m: { chat_id: string }) => m.chat_id))];
}

export async function fetchConversations(teamBotIds: string[], f: ConversationFilters): Promise<ConversationSummary[]> {
  const botIds = f.botId ? teamBotIds.filter((id) => id === f.botId) : teamBotIds;
  if (botIds.length === 0) return [];
  const { getSupabase } = await import("../../lib/supabase");
  let q = getSupabase().from("chats").select(CHAT_COLUMNS).in("bot_id", botIds);
  if (f.channel) q = q.eq("channel", f.channel);
  if (f.from) q = q.gte("created_at", `${f.from}T00:00:00Z`);
  if (f.to) q = q.lte("created_at", `${f.to}T23:59:59.999Z`);
  if (f.feedback === "up" || f.feedback === "down") {
    const ids = await ratedChatIds(botIds, f.feedback);
    if (ids.length === 0) return [];
    q = q.in("id", ids);
  } else if (f.feedback === "none") {
    const ids = await ratedChatIds(botIds, null);
    if (ids.length > 0) q = q.not("id", "in", `(${ids.join(",")})`);
  }
  const { data, error } = await q.order("last_message_at", { ascending: false, nullsFirst: false }).order("created_at", { ascending: false }).limit(LIMIT);
  if (error) throw toAppError(error);
  return (data ?? []) as unknown as ConversationSummary[];
}

export function useConversationsQuery(teamId: string | undefined, teamBotIds: string[] | undefined, filters: ConversationFilters) {
  return useQuery({
    queryKey: conversationKeys.list(teamId ?? "none", filters),
    queryFn: () => fetchConversations(teamBotIds ?? [], filters),
    enabled: !!teamId && !!teamBotIds,
    placeholderData: keepPreviousData,
  });
}
