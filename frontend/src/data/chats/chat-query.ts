import { useQuery } from "@tanstack/react-query";
import { chatKeys } from "./keys";
import { client, dbError } from "./errors";
import type { ChatMessage } from "../messages/messages-query";

export interface ChatRow {
  id: string;
  bot_id: string;
  user_id: string;
  title: string | null;
  shared: boolean;
}

export interface ChatDetail {
  chat: ChatRow;
  messages: ChatMessage[];
  /** Not the viewer's own chat: a shared one, shown read-only. */
  readOnly: boolean;
}

/**
 * The viewer's own chat, or else a chat someone shared (get_shared_chat); null when neither.
 * RLS decides: the plain select only returns chats the viewer may read.
 */
export async function fetchChat(chatId: string, userId: string): Promise<ChatDetail | null> {
  const db = await client();
  const { data: chat, error } = await db.from("chats").select("id, bot_id, user_id, title, shared").eq("id", chatId).eq("user_id", userId).maybeSingle();
  if (error) throw dbError(error);
  if (chat) {
    const { data: messages, error: mErr } = await db.from("messages").select("id, role, content, sources, images, error, created_at").eq("chat_id", chatId).order("created_at");
    if (mErr) throw dbError(mErr);
    return { chat: chat as ChatRow, messages: (messages ?? []) as ChatMessage[], readOnly: false };
  }
  const { data: shared, error: sErr } = await db.rpc("get_shared_chat", { chat_id: chatId });
  if (sErr) throw dbError(sErr);
  if (!shared) return null;
  const s = shared as { chat: ChatRow; messages: ChatMessage[] };
  return { chat: s.chat, messages: s.messages ?? [], readOnly: true };
}

export function useChatQuery(chatId: string | undefined, userId: string | undefined) {
  return useQuery({
    queryKey: chatKeys.detail(chatId ?? ""),
    queryFn: () => fetchChat(chatId!, userId!),
    enabled: !!chatId && !!userId,
    staleTime: Infinity,
  });
}
