// One conversation as the team sees it: the chat, its messages in order and the ratings they got.
import { useQuery } from "@tanstack/react-query";
import { toAppError } from "../teams/errors";
import { conversationKeys } from "./keys";
import { CHAT_COLUMNS, MESSAGE_COLUMNS, type ConversationMessage, type ConversationSummary, type MessageRating } from "./types";

export interface ConversationDetail {
  chat: ConversationSummary | null;
  messages: ConversationMessage[];
  ratings: Record<string, MessageRating>;
}

export async function fetchConversation(chatId: string): Promise<ConversationDetail> {
  const { getSupabase } = await import("../../lib/supabase");
  const db = getSupabase();
  const [chat, messages] = await Promise.all([
    db.from("chats").select(CHAT_COLUMNS).eq("id", chatId).maybeSingle(),
    db.from("messages").select(MESSAGE_COLUMNS).eq("chat_id", chatId).order("created_at", { ascending: true }).limit(1000),
  ]);
  if (chat.error) throw toAppError(chat.error);
  if (messages.error) throw toAppError(messages.error);
  const list = (messages.data ?? []) as unknown as ConversationMessage[];
  const ratings: Record<string, MessageRating> = {};
  const answerIds = list.filter((m) => m.role === "assistant").map((m) => m.id);
  if (answerIds.length > 0) {
    const fb = await db.from("message_feedback").select("message_id, rating, comment").in("message_id", answerIds);
    if (fb.error) throw toAppError(fb.error);
    for (const r of (fb.data ?? []) as MessageRating[]) ratings[r.message_id] = r;
  }
  return { chat: (chat.data as unknown as ConversationSummary | null) ?? null, messages: list, ratings };
}

export function useConversationQuery(chatId: string | undefined) {
  return useQuery({ queryKey: conversationKeys.detail(chatId ?? "none"), queryFn: () => fetchConversation(chatId!), enabled: !!chatId });
}
