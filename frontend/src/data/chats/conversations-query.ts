// The conversations of the current team's bots, filtered by bot, channel, date range and feedback.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { chatKeys } from "./keys";
import { CHAT_COLUMNS, toConversationSummary, type ConversationFilters, type ConversationSummary } from "./types";

const LIMIT = 100;

/** Chat ids among `botIds` that got at least one rating of `rating` (or any rating). */
async function ratedChatIds(botIds: string[], rating: "up" | "down" | null): Promise<string[]> {
  const db = await loadSupabase();
  let q = db.from("message_feedback").select("message_id").in("bot_id", botIds).limit(1000);
  if (rating) q = q.eq("rating", rating);
  const ids = (unwrap(await q) ?? []).map((r) => r.message_id);
  if (ids.length === 0) return [];
  const msgs = unwrap(await db.from("messages").select("chat_id").in("id", ids));
  return [...new Set((msgs ?? []).map((m) => m.chat_id))];
}

export async function fetchConversations(teamBotIds: string[], f: ConversationFilters): Promise<ConversationSummary[]> {
  const botIds = f.botId ? teamBotIds.filter((id) => id === f.botId) : teamBotIds;
  if (botIds.length === 0) return [];
  let q = (await loadSupabase()).from("chats").select(CHAT_COLUMNS).in("bot_id", botIds);
  if (f.channel) q = q.eq("channel", f.channel);
  if (f.from) q = q.gte("created_at", `${f.from}T00:00:00Z`);
  if (f.to) q = q.lte("created_at", `${f.to}T23:59:59.999Z`);
  if (f.human) q = q.eq("needs_human", true);
  if (f.feedback === "up" || f.feedback === "down") {
    const ids = await ratedChatIds(botIds, f.feedback);
    if (ids.length === 0) return [];
    q = q.in("id", ids);
  } else if (f.feedback === "none") {
    const ids = await ratedChatIds(botIds, null);
    if (ids.length > 0) q = q.not("id", "in", `(${ids.join(",")})`);
  }
  const rows = unwrap(await q.order("last_message_at", { ascending: false, nullsFirst: false }).order("created_at", { ascending: false }).limit(LIMIT));
  return (rows ?? []).map(toConversationSummary);
}

/** How many chats of these bots wait for a person of the team. */
export async function fetchNeedsHumanCount(botIds: string[]): Promise<number> {
  if (botIds.length === 0) return 0;
  const res = await (await loadSupabase()).from("chats").select("id", { count: "exact", head: true }).in("bot_id", botIds).eq("needs_human", true);
  unwrap(res);
  return res.count ?? 0;
}

export function useNeedsHumanCountQuery(teamId: string | undefined, teamBotIds: string[] | undefined) {
  return useQuery({
    queryKey: chatKeys.needsHuman(teamId ?? "none"),
    queryFn: () => fetchNeedsHumanCount(teamBotIds ?? []),
    enabled: !!teamId && !!teamBotIds,
  });
}

export function useConversationsQuery(teamId: string | undefined, teamBotIds: string[] | undefined, filters: ConversationFilters) {
  return useQuery({
    queryKey: chatKeys.list(teamId ?? "none", filters),
    queryFn: () => fetchConversations(teamBotIds ?? [], filters),
    enabled: !!teamId && !!teamBotIds,
    placeholderData: keepPreviousData,
  });
}
