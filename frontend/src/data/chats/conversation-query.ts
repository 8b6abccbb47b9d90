// One conversation as the team sees it: the chat, its messages in order and the ratings they got.
import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { chatKeys } from "./keys";
import { CHAT_COLUMNS, MESSAGE_COLUMNS, readRating, toConversationMessage, toConversationSummary, type ConversationMessage, type ConversationSummary, type MessageRating } from "./types";

export interface ConversationDetail {
  chat: ConversationSummary | null;
  messages: ConversationMessage[];
  ratings: Record<string, MessageRating>;
}

export async function fetchConversation(chatId: string): Promise<ConversationDetail> {
  const db = await loadSupabase();
  const [chat, messages] = await Promise.all([
    db.from("chats").select(CHAT_COLUMNS).eq("id", chatId).maybeSingle(),
    db.from("messages").select(MESSAGE_COLUMNS).eq("chat_id", chatId).order("created_at", { ascending: true }).limit(1000),
  ]);
  const list = (unwrap(messages) ?? []).map(toConversationMessage);
  const row = unwrap(chat);
  const ratings: Record<string, MessageRating> = {};
  const answerIds = list.filter((m) => m.role === "assistant").map((m) => m.id);
  if (answerIds.length > 0) {
    const fb = unwrap(await db.from("message_feedback").select("message_id, rating, comment").in("message_id", answerIds));
    for (const r of fb ?? []) ratings[r.message_id] = { ...r, rating: readRating(r.rating) };
  }
  return { chat: row ? toConversationSummary(row) : null, messages: list, ratings };
}

export function useConversationQuery(chatId: string | undefined) {
  return useQuery({ queryKey: chatKeys.conversation(chatId ?? "none"), queryFn: () => fetchConversation(chatId!), enabled: !!chatId });
}
