// One conversation as the team sees it: the chat, its messages in order, the ratings they got and
// the power-up calls made while answering (in full: arguments, the request sent, the result),
// including those of an answer still being written (the engine writes each call as it runs it).
import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { chatKeys } from "./keys";
import { CHAT_COLUMNS, MESSAGE_COLUMNS, POWER_UP_CALL_COLUMNS, readRating, toConversationMessage, toConversationSummary, type ConversationMessage, type ConversationSummary, type MessageRating, type PowerUpCall } from "./types";

export interface ConversationDetail {
  chat: ConversationSummary | null;
  messages: ConversationMessage[];
  ratings: Record<string, MessageRating>;
  /** By the answer's message id. */
  calls: Record<string, PowerUpCall[]>;
  /** Calls made for an answer that is still being written (no message yet): shown live. */
  pendingCalls: PowerUpCall[];
}

export async function fetchConversation(chatId: string): Promise<ConversationDetail> {
  const db = await loadSupabase();
  const [chat, messages, powerUpCalls] = await Promise.all([
    db.from("chats").select(CHAT_COLUMNS).eq("id", chatId).maybeSingle(),
    db.from("messages").select(MESSAGE_COLUMNS).eq("chat_id", chatId).order("created_at", { ascending: true }).limit(1000),
    db.from("power_up_calls").select(POWER_UP_CALL_COLUMNS).eq("chat_id", chatId).order("created_at", { ascending: true }).limit(1000),
  ]);
  const calls: Record<string, PowerUpCall[]> = {};
  const pendingCalls: PowerUpCall[] = [];
  for (const c of unwrap(powerUpCalls) ?? []) {
    if (c.message_id) (calls[c.message_id] ??= []).push(c);
    else pendingCalls.push(c);
  }
  const list = (unwrap(messages) ?? []).map(toConversationMessage);
  const row = unwrap(chat);
  const ratings: Record<string, MessageRating> = {};
  const answerIds = list.filter((m) => m.role === "assistant").map((m) => m.id);
  if (answerIds.length > 0) {
    const fb = unwrap(await db.from("message_feedback").select("message_id, rating, comment").in("message_id", answerIds));
    for (const r of fb ?? []) ratings[r.message_id] = { ...r, rating: readRating(r.rating) };
  }
  return { chat: row ? toConversationSummary(row) : null, messages: list, ratings, calls, pendingCalls };
}

export function useConversationQuery(chatId: string | undefined) {
  return useQuery({ queryKey: chatKeys.conversation(chatId ?? "none"), queryFn: () => fetchConversation(chatId!), enabled: !!chatId });
}
